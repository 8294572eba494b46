/** Mounts the item service family under /items/v1 (API keys with scope `items`). */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { createFamilyApp } from "../env.ts";
import { itemsFamily } from "./envelope.ts";
import { requireApiKey } from "../auth.ts";
import { registerItemRequestRoute } from "./register_request.ts";
import { registerGetItemRequest } from "./get_request.ts";

/** Builds the items sub-app. */
export function itemsRoutes(): OpenAPIHono<AppEnv> {
  const app = createFamilyApp(itemsFamily);
  app.use("/items/v1/*", requireApiKey("items"));
  registerItemRequestRoute(app);
  registerGetItemRequest(app);
  return app;
}
