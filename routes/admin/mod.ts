/** Mounts the admin (console) API under /admin/v1, all behind the admin token. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { createFamilyApp } from "../env.ts";
import { adminFamily } from "./envelope.ts";
import { requireAdmin } from "../auth.ts";
import { registerTenancyAdmin } from "./tenancy.ts";
import { registerModerationAdmin } from "./moderation.ts";
import { registerChainAdmin } from "./chain.ts";
import { registerPushAdmin } from "./push.ts";
import { registerOtpAdmin } from "./otp.ts";
import { registerItemsAdmin } from "./items.ts";
import { registerWalletAdmin } from "./wallets.ts";
import { registerMultisigAdmin } from "./multisig.ts";
import { registerContractActions } from "./contract_actions.ts";

/** Builds the admin sub-app. */
export function adminRoutes(): OpenAPIHono<AppEnv> {
  const app = createFamilyApp(adminFamily);
  app.use("/admin/*", requireAdmin);
  registerTenancyAdmin(app);
  registerModerationAdmin(app);
  registerChainAdmin(app);
  registerPushAdmin(app);
  registerOtpAdmin(app);
  registerItemsAdmin(app);
  registerWalletAdmin(app);
  registerMultisigAdmin(app);
  registerContractActions(app);
  return app;
}
