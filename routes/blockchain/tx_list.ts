/** GET /service/v1/tx: the caller app's transaction records on the x-network, paged, newest first. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { chainOkJsonText } from "./envelope.ts";
import { JsonText, utf8Length } from "../observe.ts";
import { readQuery, registerRead } from "../read_params.ts";
import { chainOkResponse, pageMetaSchema, pageQuery } from "./schemas.ts";
import { cachedTransactionsJson, listTransactionsJson } from "../../lib/chain/tx_records.ts";

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be yyyy-mm-dd").refine(
  (d) =>
    !isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
  "must be a real date",
);

const query = z.object({
  playerId: z.string().min(1).optional(),
  startDate: day.optional(),
  endDate: day.optional(),
  cursor: z.string().min(1).max(512).optional().openapi({
    description: "meta.nextCursor of the previous page: continue after it (page by key)",
  }),
  ...pageQuery,
});

const route = createRoute({
  method: "get",
  path: "/service/v1/tx",
  tags: ["blockchain"],
  summary:
    "Get transaction list (dates inclusive, UTC; page 1 and limit 20 by default; cursor pages by key)",
  request: { query },
  responses: chainOkResponse(
    z.object({
      transactions: z.array(z.record(z.string(), z.unknown())),
      meta: pageMetaSchema.extend({
        totalCapped: z.boolean().openapi({
          description:
            "true when a filtered list (playerId or dates) matches more records than totalItems counts (1,000); always false without filters",
        }),
        nextCursor: z.string().nullable().openapi({
          description: "pass as cursor for the next page; null on the last page",
        }),
      }),
    }),
    "transactions and meta",
  ),
});

/** Registers the route (query checked in the handler: routes/read_params.ts). */
export function registerTxList(app: OpenAPIHono<AppEnv>) {
  // A page in the cache is answered without an async step, its UTF-8 size counted once per page.
  registerRead(app, route, (c) => {
    const s = c.get("services");
    const q = { appid: c.get("app").appid, network: c.get("network"), ...readQuery(c, query) };
    const ttlMs = s.config.TX_LIST_CACHE_MS;
    const cached = ttlMs > 0 ? cachedTransactionsJson(s.db, q, Date.now()) : undefined;
    if (cached) {
      return c.json(new JsonText(cached.json, cached.size ??= utf8Length(cached.json)), 200);
    }
    return listTransactionsJson(s.db, q, { ttlMs, wrap: chainOkJsonText })
      .then((text) => c.json(new JsonText(text), 200));
  });
}
