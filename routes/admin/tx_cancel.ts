/**
 * POST /admin/v1/games/{gameIndex}/transactions/{requestId}/cancel: cancels a PENDING Polygon
 * request the service sent, by a zero-value self-transfer at its nonce with raised fees. The
 * request ends FAILED (cancelled) only if the cancel is mined.
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv, JsonResponse } from "../env.ts";
import { jsonResponse } from "../env.ts";
import { chainUnavailable, GameIndexParam } from "./params.ts";
import { PathKey } from "./paging.ts";
import { cancelTransaction } from "../../lib/chain/cancel.ts";

const failure = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

const route = createRoute({
  method: "post",
  path: "/admin/v1/games/{gameIndex}/transactions/{requestId}/cancel",
  tags: ["admin"],
  summary:
    "Cancel a PENDING Polygon transaction the service sent (a zero-value self-transfer at its nonce); FAILED (cancelled) once the cancel is mined",
  request: { params: GameIndexParam.extend({ requestId: PathKey }) },
  responses: {
    202: jsonResponse(
      z.object({
        requestId: z.string(),
        status: z.literal("PENDING"),
        cancelTxHash: z.string(),
        nonce: z.string(),
        maxFeePerGas: z.string(),
        maxPriorityFeePerGas: z.string(),
      }),
      "the cancel was broadcast; the request stays PENDING until one of its transactions is mined",
    ),
    400: jsonResponse(failure, "NETWORK_UNSUPPORTED: not a Polygon request"),
    404: jsonResponse(failure, "REQUEST_NOT_FOUND"),
    409: jsonResponse(
      failure,
      "TX_NOT_PENDING (already final or mined), TX_NOT_CANCELLABLE (signed outside the service), FEE_CAP_REACHED",
    ),
    503: chainUnavailable,
  },
});

/** Registers the route. */
export function registerTxCancel(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { gameIndex, requestId } = c.req.valid("param");
    const result = await cancelTransaction(c.get("services"), { gameIndex, requestId });
    return c.json(result, 202) as JsonResponse;
  });
}
