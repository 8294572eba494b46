/** POST /push/targets: create a targeting record for the API key's game. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv, JsonResponse } from "../env.ts";
import { jsonBody, jsonResponse } from "../env.ts";
import { createTargeting, TargetingBody } from "../../lib/push/targeting.ts";
import { pushKeyResponses } from "./envelope.ts";

const TargetingRecord = z.object({
  id: z.number(),
  company: z.string(),
  companyIndex: z.number(),
  registrant: z.object({ id: z.string(), name: z.string().optional() }),
  description: z.string(),
  game: z.object({ gameindex: z.number() }),
  available: z.boolean().describe("true once targeting data was uploaded"),
  locked: z.boolean().describe("true while a campaign using it is sending"),
});

const route = createRoute({
  method: "post",
  path: "/push/targets",
  tags: ["push"],
  summary: "Register targeting information",
  request: { body: jsonBody(TargetingBody) },
  responses: {
    200: jsonResponse(TargetingRecord, "the targeting record"),
    400: { description: "a field is missing or invalid; error.reason names it" },
    ...pushKeyResponses,
  },
});

/** Registers the route. */
export function registerTargets(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const s = c.get("services");
    const record = await createTargeting(s.db, c.req.valid("json"), {
      gameIndex: c.get("apiKey").gameIndex,
      companies: s.config.pushCompanies,
    });
    return c.json(record, 200) as JsonResponse;
  });
}
