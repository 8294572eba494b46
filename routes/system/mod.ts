/** Mounts health and key-discovery routes (documents are registered on the root app). */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { createFamilyApp } from "../env.ts";
import { adminFamily } from "../admin/envelope.ts";
import { registerHealth } from "./health.ts";
import { registerJwks } from "./jwks.ts";
import { registerMetadata } from "./metadata.ts";
import { registerMetrics } from "./metrics.ts";

/** Builds the system sub-app. */
export function systemRoutes(): OpenAPIHono<AppEnv> {
  const app = createFamilyApp(adminFamily);
  registerHealth(app);
  registerJwks(app);
  registerMetadata(app);
  registerMetrics(app);
  return app;
}
