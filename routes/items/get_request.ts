/** GET /items/v1/requests/{transactionId}: the delivery state of a registered request. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv, JsonResponse } from "../env.ts";
import { jsonResponse } from "../env.ts";
import { ITEM_REQUEST_STATUSES } from "../../lib/items/register.ts";
import { readItemRequest } from "../../lib/items/state_cache.ts";

const route = createRoute({
  method: "get",
  path: "/items/v1/requests/{transactionId}",
  tags: ["items"],
  summary: "Delivery state of an item request",
  security: [{ bearer: [] }],
  request: { params: z.object({ transactionId: z.string().min(1).max(128) }) },
  responses: {
    200: jsonResponse(
      z.object({
        code: z.literal(0),
        message: z.string(),
        transactionId: z.string(),
        status: z.enum(ITEM_REQUEST_STATUSES),
        attempts: z.number(),
        lastCode: z.number().nullable(),
        lastMessage: z.string().nullable(),
        deliveredAt: z.string().nullable(),
      }),
      "the request's state",
    ),
  },
});

/** Registers the route. */
export function registerGetItemRequest(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const s = c.get("services");
    const view = await readItemRequest(s.db, {
      gameIndex: c.get("apiKey").gameIndex,
      transactionId: c.req.valid("param").transactionId,
    }, { ttlMs: s.config.ITEM_STATE_CACHE_MS });
    return c.json({ code: 0, message: "success", ...view }, 200) as JsonResponse;
  });
}
