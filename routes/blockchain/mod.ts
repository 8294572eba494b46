/** Mounts the blockchain family: token endpoints, then authenticated /service/v1 and /core/v1 routes. */
import type { AppEnv } from "../env.ts";
import { createFamilyApp } from "../env.ts";
import { blockchainFamily } from "./envelope.ts";
import { requireAppToken } from "./auth.ts";
import { idempotency } from "./idempotency.ts";
import { registerAuthToken } from "./auth_token.ts";
import { registerContractsByOwner } from "./contracts_by_owner.ts";
import { registerNftMint } from "./nft_mint.ts";
import { registerNftInfo } from "./nft_info.ts";
import { registerNftLock } from "./nft_lock.ts";
import { registerNftUnlock } from "./nft_unlock.ts";
import { registerConvert } from "./convert.ts";
import { registerConvertPool } from "./convert_pool.ts";
import { registerTokenBalance } from "./token_balance.ts";
import { registerTxHashRoute } from "./tx_hash.ts";
import { registerTxList } from "./tx_list.ts";
import { registerMultisig } from "./multisig.ts";
import type { OpenAPIHono } from "@hono/zod-openapi";

/** Builds the blockchain sub-app. */
export function blockchainRoutes(): OpenAPIHono<AppEnv> {
  const app = createFamilyApp(blockchainFamily);
  app.use("/service/v1/*", requireAppToken({ appid: true }));
  app.use("/core/v1/*", requireAppToken({ appid: false }));
  app.use("/service/v1/*", idempotency);
  app.use("/core/v1/*", idempotency);
  registerAuthToken(app);
  registerContractsByOwner(app);
  registerNftMint(app);
  registerNftInfo(app);
  registerNftLock(app);
  registerNftUnlock(app);
  registerConvertPool(app);
  registerConvert(app);
  registerTokenBalance(app);
  registerTxHashRoute(app);
  registerTxList(app);
  registerMultisig(app);
  return app;
}
