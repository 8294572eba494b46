/**
 * Test chain for XPLA: the local LCD (dev/xpla_lcd) on a free port, one per test process,
 * plugged into the shared Services. Helpers create wallets (held by the KMS or only by the
 * test), activate them with a transaction signed by xpla.js, and instantiate contracts.
 */
import { type Hex } from "viem";
import { generatePrivateKey } from "viem/accounts";
import { base64 } from "@scure/base";
import {
  AuthInfo as XAuthInfo,
  Fee as XFee,
  MsgSend,
  RawKey,
  SignMode,
  Tx as XTx,
  TxBody as XTxBody,
} from "@xpla/xpla.js";
import { type LocalLcd, startLocalLcd } from "../../../dev/xpla_lcd/server.ts";
import { createXplaChain } from "../../../lib/chain/xpla/lcd.ts";
import { admin, callJson, seedTenant, type Tenant, type TestEnv, testEnv } from "../../harness.ts";
import type { ContractKind } from "../../../dev/xpla_lcd/contracts.ts";
import { runScheduled } from "../../../lib/scheduled.ts";

/** What an XPLA test works with. */
export interface XplaEnv extends TestEnv {
  lcd: LocalLcd;
}

let shared: Promise<XplaEnv> | undefined;

/** Starts the process-wide local LCD once and points services.xpla at it. */
export function xplaEnv(): Promise<XplaEnv> {
  shared ??= (async () => {
    const env = await testEnv();
    const lcd = startLocalLcd({ blockMs: 10 });
    globalThis.addEventListener("unload", () => void lcd.close());
    env.services.xpla = createXplaChain({
      lcdUrl: lcd.url,
      chainId: lcd.chainId,
      timeoutMs: 5_000,
      timeoutBlocks: env.services.config.XPLA_TIMEOUT_BLOCKS,
      observer: { log: env.services.log, metrics: env.services.metrics },
    });
    return { ...env, lcd };
  })();
  return shared;
}

/** A wallet whose key the test holds (and, with `kms`, the service too). */
export interface XplaWallet {
  address: string;
  hex: Hex;
  privateKey: Hex;
  key: RawKey;
}

/** One XPLA in axpla. */
export const XPLA = 10n ** 18n;

/** Creates and funds a wallet; `kms` imports its key; `active` sends one xpla.js-signed tx. */
export async function xplaWallet(
  gameIndex: number,
  options: { kms: boolean; active?: boolean; fund?: bigint },
): Promise<XplaWallet> {
  const { lcd } = await xplaEnv();
  const privateKey = generatePrivateKey();
  const key = new RawKey(Buffer.from(privateKey.slice(2), "hex"));
  const address = key.accAddress;
  lcd.fund(address, options.fund ?? 1000n * XPLA);
  let hex = "" as Hex;
  if (options.kms) {
    const res = await admin("POST", "/admin/v1/wallets", { gameIndex, privateKey });
    if (res.status !== 201) throw new Error(`wallet import failed: ${JSON.stringify(res.body)}`);
    hex = res.body.address;
  }
  const wallet = { address, hex, privateKey, key };
  if (options.active) await sendWithXplaJs(wallet, address, 1n);
  return wallet;
}

/** Signs a bank send with xpla.js (SIGN_MODE_DIRECT) and broadcasts it to the local LCD. */
export async function sendWithXplaJs(
  from: XplaWallet,
  to: string,
  amount: bigint,
  options: { wait?: boolean } = {},
) {
  return await broadcastBytes(await signSendWithXplaJs(from, to, amount), options);
}

/** A bank send signed with xpla.js (SIGN_MODE_DIRECT) at the account's next sequence. */
export async function signSendWithXplaJs(from: XplaWallet, to: string, amount: bigint) {
  const { lcd } = await xplaEnv();
  const acc = lcd.accounts.get(from.address)!;
  const fee = new XFee(200_000, { axpla: (200_000n * 850_000_000_000n).toString() });
  const unsigned = new XTx(
    new XTxBody([new MsgSend(from.address, to, { axpla: amount.toString() })]),
    new XAuthInfo([], fee),
    [],
  );
  const signed = await from.key.signTx(unsigned, {
    chainID: lcd.chainId,
    accountNumber: acc.accountNumber,
    sequence: acc.checkSequence,
    signMode: SignMode.SIGN_MODE_DIRECT,
  });
  return signed.toBytes() as Uint8Array;
}

/** Broadcasts tx bytes (sync), waits for inclusion unless told not to, and answers the hash. */
export async function broadcastBytes(bytes: Uint8Array, options: { wait?: boolean } = {}) {
  const { lcd } = await xplaEnv();
  const res = await fetch(`${lcd.url}/cosmos/tx/v1beta1/txs`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ tx_bytes: base64.encode(bytes), mode: "BROADCAST_MODE_SYNC" }),
  });
  const json = await res.json();
  if (json.tx_response?.code !== 0) {
    throw new Error(`broadcast refused: ${JSON.stringify(json)}`);
  }
  if (options.wait !== false) await waitForTx(json.tx_response.txhash);
  return json.tx_response.txhash as string;
}

/** Waits until the local chain has included the tx; answers its tx_response. */
export async function waitForTx(hash: string) {
  const { lcd } = await xplaEnv();
  for (let i = 0; i < 200; i++) {
    const res = await fetch(`${lcd.url}/cosmos/tx/v1beta1/txs/${hash}`);
    const json = await res.json();
    if (res.ok) return json.tx_response;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`tx ${hash} was not included`);
}

/** Instantiates a contract on the local chain and registers it for the game. */
export async function xplaContract(
  tenant: Tenant,
  c: {
    kind: ContractKind;
    type: "nft" | "token" | "lock" | "convert-pool";
    creator: string;
    init?: Record<string, unknown>;
    name?: string;
  },
): Promise<string> {
  const { lcd } = await xplaEnv();
  const address = lcd.instantiate(c.kind, c.creator, c.init ?? {}, c.name ?? c.kind);
  const res = await admin("POST", "/admin/v1/contracts", {
    network: "xpla",
    address,
    type: c.type,
    name: c.name ?? c.kind,
    owner: c.creator,
    gameIndex: tenant.gameIndex,
  });
  if (res.status !== 201) throw new Error(`register failed: ${JSON.stringify(res.body)}`);
  return address;
}

/** A fresh tenant with xpla headers, a KMS minter, an active player and a cw721 contract. */
export async function xplaNftTenant(name: string) {
  const env = await xplaEnv();
  const tenant = await seedTenant(name);
  const headers = { ...tenant.chainHeaders, "x-network": "xpla" };
  const minter = await xplaWallet(tenant.gameIndex, { kms: true });
  const player = await xplaWallet(tenant.gameIndex, { kms: false, active: true });
  const nft = await xplaContract(tenant, {
    kind: "cw721",
    type: "nft",
    creator: minter.address,
    init: { name: "Heroes", symbol: "HERO", minter: minter.address },
    name: "Heroes",
  });
  const call = (method: string, path: string, json?: unknown) =>
    callJson(method, path, { headers, json });
  return { ...env, tenant, headers, minter, player, nft, call };
}

/** Waits for deferred work and for the chain to include the app's PENDING txs, then runs the jobs. */
export async function settleXpla(appid: string): Promise<void> {
  const { services } = await xplaEnv();
  await services.idle();
  const rows = await services.db.query<{ tx_hash: string }>(
    `select tx_hash from chain_txs
      where appid = $1 and status = 'PENDING' and tx_hash is not null and network = 'xpla'`,
    [appid],
  );
  await Promise.all(rows.map((r) => waitForTx(r.tx_hash)));
  await runScheduled(services);
}

/** Options for chain tests: the LCD and deferred work outlive a single test. */
export const xplaTestOptions = { sanitizeResources: false, sanitizeOps: false };
