/** PATCH /service/v1/tx/hash: attach the hash of a self-signed transaction to its request id. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { jsonBody } from "../env.ts";
import { renderChainOk } from "./envelope.ts";
import { chainOkResponse } from "./schemas.ts";
import { registerTxHash } from "../../lib/chain/tx_records.ts";
import { trackTransaction } from "../../lib/chain/tracker.ts";

const route = createRoute({
  method: "patch",
  path: "/service/v1/tx/hash",
  tags: ["blockchain"],
  summary: "Register a transaction hash for a request id (the request becomes PENDING)",
  request: {
    body: jsonBody(z.object({
      requestId: z.string().trim().min(1).max(64),
      txHash: z.string().trim().min(1),
    })),
  },
  responses: chainOkResponse(undefined, "registered"),
});

/** Registers the route. */
export function registerTxHashRoute(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const s = c.get("services");
    const { requestId, txHash } = c.req.valid("json");
    await registerTxHash(s.db, {
      appid: c.get("app").appid,
      requestId,
      txHash,
      now: new Date(s.clock.now()),
    });
    s.defer(trackTransaction(s, requestId));
    return renderChainOk(c);
  });
}
