/** Mounts the blockchain family: token endpoints, then authenticated /service/v1 and /core/v1 routes. */
import type { AppEnv } from "../env.ts";
import { createFamilyApp } from "../env.ts";
import { blockchainFamily } from "./envelope.ts";
import { requireAppToken } from "./auth.ts";
import { registerAuthToken } from "./auth_token.ts";
import { registerContractsByOwner } from "./contracts_by_owner.ts";
import type { OpenAPIHono } from "@hono/zod-openapi";

/** Builds the blockchain sub-app. */
export function blockchainRoutes(): OpenAPIHono<AppEnv> {
  const app = createFamilyApp(blockchainFamily);
  app.use("/service/v1/*", requireAppToken({ appid: true }));
  app.use("/core/v1/*", requireAppToken({ appid: false }));
  registerAuthToken(app);
  registerContractsByOwner(app);
  return app;
}
