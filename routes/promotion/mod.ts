/** Mounts the promotion (CPA) family: POST /api/cpa. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { createFamilyApp } from "../env.ts";
import { cpaFamily } from "./envelope.ts";
import { registerNotifyCpa } from "./notify_cpa.ts";

/** Builds the promotion sub-app. */
export function promotionRoutes(): OpenAPIHono<AppEnv> {
  const app = createFamilyApp(cpaFamily);
  registerNotifyCpa(app);
  return app;
}
