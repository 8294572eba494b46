/**
 * Runs the local XPLA LCD for local development:
 *
 *   deno task xpla-lcd [--port 1317] [--chain-id localxpla_37-1]
 *
 * Then start the server with XPLA_LCD_URL=http://127.0.0.1:1317 XPLA_CHAIN_ID=localxpla_37-1.
 * Fund accounts with POST /_local/fund {address, amount}, instantiate contracts with
 * POST /_local/contracts {kind: cw721|cw20|lock|convert-pool, creator, init}, hold blocks with
 * POST /_local/hold {hold} and produce blocks with POST /_local/blocks {count, withMempool}
 * (README "Local LCD").
 */
import { startLocalLcd } from "./xpla_lcd/server.ts";
import { cliFlag } from "./cli_flag.ts";

const lcd = startLocalLcd({
  port: Number(cliFlag("port") ?? 1317),
  chainId: cliFlag("chain-id") ?? "localxpla_37-1",
});
console.log(`local XPLA LCD on ${lcd.url} (chain id ${lcd.chainId})`);
