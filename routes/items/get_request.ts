/** GET /items/v1/requests/{transactionId}: the delivery state of a registered request. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { jsonResponse } from "../env.ts";
import {
  getItemRequest,
  ITEM_REQUEST_STATUSES,
  type ItemRequestView,
} from "../../lib/items/register.ts";
import { JsonText } from "../observe.ts";
import { parseOrFail, registerRead } from "../read_params.ts";
import { cachedItemRequest, loadItemRequest } from "../../lib/items/state_cache.ts";
import type { Context } from "hono";

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

// The answer of each state object, rendered once and kept on the object itself (a symbol-keyed
// slot, invisible to JSON and to the state's readers): a cached state is answered as the same text
// (and size) on every poll without a lookup; a state read again is a new object with its own
// answer.
const ANSWER = Symbol("the state's rendered answer");
type Answered = ItemRequestView & { [ANSWER]?: JsonText };

/** The success answer for a request's state. */
export function itemStateAnswer(view: ItemRequestView): JsonText {
  return (view as Answered)[ANSWER] ??= new JsonText(
    JSON.stringify({ code: 0, message: "success", ...view }),
  );
}

/**
 * Registers the route (parameters checked in the handler: routes/read_params.ts). A state in the
 * cache is answered without an async step (one near its bound is read again in the background:
 * lib/items/state_cache.ts); a miss reads the database once (loadItemRequest, shared
 * with concurrent misses of the same request) without looking in the cache again.
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
    if (ttlMs <= 0) return getItemRequest(s.db, key).then((view) => answer(c, view));
    const nowMs = Date.now();
    const cached = cachedItemRequest(s.db, key, nowMs, ttlMs, s);
    if (cached) return answer(c, cached);
    return loadItemRequest(s.db, key, { ttlMs, nowMs }).then((view) => answer(c, view));
  });
}

function answer(c: Context<AppEnv>, view: ItemRequestView): Response {
  return c.json(itemStateAnswer(view), 200);
}
