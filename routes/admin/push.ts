/** GET /admin/v1/push/outbox: the newest messages the push log sink delivered. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv, JsonResponse } from "../env.ts";
import { jsonResponse } from "../env.ts";
import { recentLogMessages } from "../../lib/push/sinks.ts";

const route = createRoute({
  method: "get",
  path: "/admin/v1/push/outbox",
  tags: ["admin"],
  summary: "Newest push messages delivered to the log sink, newest first",
  request: {
    query: z.object({ limit: z.coerce.number().int().min(1).max(1000).default(100) }),
  },
  responses: {
    200: jsonResponse(
      z.object({ messages: z.array(z.record(z.string(), z.unknown())) }),
      "messages",
    ),
  },
});

/** Registers the push admin route. */
export function registerPushAdmin(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const messages = await recentLogMessages(c.var.services.db, c.req.valid("query").limit);
    return c.json({ messages }, 200) as JsonResponse;
  });
}
