/** Mounts the blockchain family: token endpoints, then authenticated /service/v1 and /core/v1 routes. */
import type { Context, MiddlewareHandler, Next } from "hono";
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

/**
 * Authentication, then (for the writes it concerns, POST and PATCH) the Idempotency-Key
 * middleware, in one middleware layer: a read goes from the token check to its route.
 */
function thenIdempotency(authenticate: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    const method = c.req.method;
    return authenticate(c, method === "POST" || method === "PATCH" ? () => keyed(c, next) : next);
  };
}

/** The Idempotency-Key middleware as a next step (its result awaited like a route's). */
async function keyed(c: Context<AppEnv>, next: Next): Promise<void> {
  // What a middleware layer returns becomes the answer unless one was made (Hono's compose).
  const res = await idempotency(c, next);
  if (res instanceof Response && !c.finalized) c.res = res;
}

/** Builds the blockchain sub-app. */
export function blockchainRoutes(): OpenAPIHono<AppEnv> {
  const app = createFamilyApp(blockchainFamily);
  app.use("/service/v1/*", thenIdempotency(requireAppToken({ appid: true })));
  app.use("/core/v1/*", thenIdempotency(requireAppToken({ appid: false })));
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
