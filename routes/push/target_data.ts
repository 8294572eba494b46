/** POST /push/targets/{targetingId}/direct/new: upload targets (a JSON array) into a record. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { jsonBody } from "../env.ts";
import { MAX_TARGETS_PER_CALL, TargetList, uploadTargets } from "../../lib/push/targeting.ts";
import { pushKeyResponses } from "./envelope.ts";

const route = createRoute({
  method: "post",
  path: "/push/targets/{targetingId}/direct/new",
  tags: ["push"],
  summary: `Register targeting data (at most ${MAX_TARGETS_PER_CALL} targets per call)`,
  request: {
    params: z.object({ targetingId: z.coerce.number().int().positive() }),
    body: jsonBody(TargetList),
  },
  responses: {
    200: { description: "stored; empty body, UUID header" },
    400: { description: "the list or a target is invalid; error.reason names it" },
    ...pushKeyResponses,
    404: { description: "no such targeting record in the key's game" },
    409: { description: "the record is locked: a campaign using it is sending" },
  },
});

/** Registers the route. */
export function registerTargetData(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    await uploadTargets(
      c.get("services").db,
      c.req.valid("param").targetingId,
      c.req.valid("json"),
      {
        gameIndex: c.get("apiKey").gameIndex,
      },
    );
    return c.body(null, 200);
  });
}
