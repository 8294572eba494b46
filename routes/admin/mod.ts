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
import { registerWebhookAdmin } from "./webhooks.ts";
import { auditAdmin } from "./audit.ts";
import { registerTenancyReads } from "./reads_tenancy.ts";
import { registerModerationReads } from "./reads_moderation.ts";
import { registerItemsReads } from "./reads_items.ts";
import { registerChainReads } from "./reads_chain.ts";
import { registerPushOtpReads } from "./reads_push_otp.ts";
import { registerWalletAdmin } from "./wallets.ts";
import { registerMultisigAdmin } from "./multisig.ts";
import { registerContractActions } from "./contract_actions.ts";
import { registerTxCancel } from "./tx_cancel.ts";

/** Builds the admin sub-app. */
export function adminRoutes(): OpenAPIHono<AppEnv> {
  const app = createFamilyApp(adminFamily);
  app.use("/admin/*", requireAdmin);
  app.use("/admin/*", auditAdmin);
  registerTenancyAdmin(app);
  registerModerationAdmin(app);
  registerChainAdmin(app);
  registerPushAdmin(app);
  registerOtpAdmin(app);
  registerItemsAdmin(app);
  registerWebhookAdmin(app);
  registerTenancyReads(app);
  registerModerationReads(app);
  registerItemsReads(app);
  registerChainReads(app);
  registerPushOtpReads(app);
  registerWalletAdmin(app);
  registerMultisigAdmin(app);
  registerContractActions(app);
  registerTxCancel(app);
  return app;
}
