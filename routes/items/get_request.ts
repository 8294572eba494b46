/** GET /items/v1/requests/{transactionId}: the delivery state of a registered request. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { jsonResponse } from "../env.ts";
import { ITEM_REQUEST_STATUSES, type ItemRequestView } from "../../lib/items/register.ts";
import { JsonText } from "../observe.ts";
import { parseOrFail, registerRead } from "../read_params.ts";
import { cachedItemRequest, readItemRequest } from "../../lib/items/state_cache.ts";

const params = z.object({ transactionId: z.string().min(1).max(128) });

const route = createRoute({
  method: "get",
  path: "/items/v1/requests/{transactionId}",
  tags: ["items"],
  summary: "Delivery state of an item request",
  security: [{ bearer: [] }],
  request: { params },
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

// The answer of each state object, rendered once: a cached state is answered as the same text
// (and size) on every poll; a state read again is a new object with its own answer.
const answers = new WeakMap<ItemRequestView, JsonText>();

/** The success answer for a request's state. */
export function itemStateAnswer(view: ItemRequestView): JsonText {
  let answer = answers.get(view);
  if (!answer) {
    answers.set(
      view,
      answer = new JsonText(JSON.stringify({ code: 0, message: "success", ...view })),
    );
  }
  return answer;
}

/**
 * Registers the route (parameters checked in the handler: routes/read_params.ts). A state in the
 * cache is answered without an async step.
 */
export function registerGetItemRequest(app: OpenAPIHono<AppEnv>) {
  registerRead(app, route, (c) => {
    const s = c.get("services");
    const id = c.req.param("transactionId") ?? "";
    const transactionId = id.length >= 1 && id.length <= 128
      ? id
      : parseOrFail(params, { transactionId: id }).transactionId;
    const key = { gameIndex: c.get("apiKey").gameIndex, transactionId };
    const ttlMs = s.config.ITEM_STATE_CACHE_MS;
    const cached = ttlMs > 0 ? cachedItemRequest(s.db, key, Date.now()) : undefined;
    if (cached) return c.json(itemStateAnswer(cached), 200);
    return readItemRequest(s.db, key, { ttlMs }).then((view) => c.json(itemStateAnswer(view), 200));
  });
}
