/** POST /push/campaigns: register a campaign, or edit the one named by `id` and `status`. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv, JsonResponse } from "../env.ts";
import { jsonBody, jsonResponse } from "../env.ts";
import { CampaignBody } from "../../lib/push/campaign_schema.ts";
import { saveCampaign } from "../../lib/push/campaigns.ts";
import { pushKeyResponses } from "./envelope.ts";

const Task = z.object({
  startTime: z.number(),
  endTime: z.number(),
  time: z.string(),
  date: z.string(),
  gmtOffset: z.number(),
  zones: z.array(z.string()),
  slices: z.number(),
  interval: z.number(),
});

const CampaignResponse = z.object({
  id: z.number().nullable(),
  status: z.number().describe("1 registered, 2 sending, 3 completed, 4 cancelled"),
  uuid: z.string(),
  modify: z.boolean(),
  lastEndTime: z.number().nullable().describe("Unix seconds of the last slice"),
  tasks: z.record(z.string(), Task).describe("keyed by sending instant (UTC)"),
  timestamp: z.object({ date: z.string(), time: z.number() }),
  dryRun: z.boolean(),
  debug: z.boolean(),
}).passthrough();

const route = createRoute({
  method: "post",
  path: "/push/campaigns",
  tags: ["push"],
  summary: "Register or edit a push campaign (dryRun validates and schedules without storing)",
  request: { body: jsonBody(CampaignBody) },
  responses: {
    200: jsonResponse(CampaignResponse, "the campaign with its schedule"),
    400: { description: "a field is missing or invalid; error.reason names it" },
    ...pushKeyResponses,
    404: { description: "no campaign with that id in the key's game" },
    409: { description: "the campaign's status does not allow the edit" },
  },
});

/** Registers the route. */
export function registerCampaigns(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const response = await saveCampaign(c.get("services"), c.req.valid("json"), {
      gameIndex: c.get("apiKey").gameIndex,
    });
    return c.json(response, 200) as JsonResponse;
  });
}
