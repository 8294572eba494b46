/** GET /push/targets/{id}: a targeting record of the key's game with its number of targets. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv, JsonResponse } from "../env.ts";
import { targetingReport } from "../../lib/push/reports.ts";
import { pushKeyResponses } from "./envelope.ts";

const route = createRoute({
  method: "get",
  path: "/push/targets/{id}",
  tags: ["push"],
  summary: "A targeting record: the registered fields, available, locked, and its target count",
  request: { params: z.object({ id: z.coerce.number().int().positive() }) },
  responses: {
    200: { description: "the record plus `targets` (how many targets it holds)" },
    ...pushKeyResponses,
    404: { description: "no targeting record with that id in the key's game" },
  },
});

/** Registers the route. */
export function registerTargetRead(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const record = await targetingReport(
      c.get("services"),
      c.req.valid("param").id,
      c.get("apiKey").gameIndex,
    );
    return c.json(record, 200) as JsonResponse;
  });
}
