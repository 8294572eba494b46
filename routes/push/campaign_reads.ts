/**
 * GET /push/campaigns (paged list), GET /push/campaigns/{id} (the campaign with its tasks, slices
 * and delivery counts) and POST /push/campaigns/{id}/cancel.
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv, JsonResponse } from "../env.ts";
import { jsonResponse } from "../env.ts";
import { campaignReport, listCampaigns } from "../../lib/push/reports.ts";
import { cancelCampaignById } from "../../lib/push/campaigns.ts";
import { pushKeyResponses } from "./envelope.ts";

const Counts = z.object({
  targeted: z.number(),
  sent: z.number(),
  failed: z.number(),
  invalid: z.number().describe("tokens the provider called dead; their devices are deactivated"),
  retried: z.number().describe("messages that needed more than one attempt"),
  resent: z.number().describe(
    "messages sent again after a crash because their first copy may have reached the provider (same collapse id)",
  ),
});

const Summary = z.object({
  id: z.number(),
  uuid: z.string(),
  status: z.number(),
  statusName: z.string(),
  type: z.string(),
  description: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  lastEndTime: z.number().nullable(),
  counts: Counts,
});

const IdParam = z.object({ id: z.coerce.number().int().positive() });

const list = createRoute({
  method: "get",
  path: "/push/campaigns",
  tags: ["push"],
  summary: "The key's game's campaigns, newest first (keyset paged: pass `next` as cursor)",
  request: {
    query: z.object({
      status: z.coerce.number().int().min(1).max(4).optional(),
      from: z.string().optional().describe("registered on or after, YYYY-MM-DD (UTC)"),
      to: z.string().optional().describe("registered on or before, YYYY-MM-DD (UTC)"),
      limit: z.coerce.number().int().min(1).max(200).default(50),
      cursor: z.coerce.number().int().positive().optional(),
    }),
  },
  responses: {
    200: jsonResponse(
      z.object({ campaigns: z.array(Summary), next: z.number().nullable() }),
      "a page of campaigns",
    ),
    400: { description: "a query parameter is invalid; error.reason names it" },
    ...pushKeyResponses,
  },
});

const one = createRoute({
  method: "get",
  path: "/push/campaigns/{id}",
  tags: ["push"],
  summary: "A campaign as registered, with its tasks' states, slices and delivery counts",
  request: { params: IdParam },
  responses: {
    200: jsonResponse(
      z.object({
        id: z.number(),
        status: z.number(),
        statusName: z.string(),
        counts: Counts,
        tasks: z.record(z.string(), z.record(z.string(), z.unknown())),
      }).passthrough(),
      "the campaign",
    ),
    ...pushKeyResponses,
    404: { description: "no campaign with that id in the key's game" },
  },
});

const cancel = createRoute({
  method: "post",
  path: "/push/campaigns/{id}/cancel",
  tags: ["push"],
  summary: "Cancel a registered or sending campaign: slices not yet sent are dropped",
  request: { params: IdParam },
  responses: {
    200: { description: "cancelled; the body is the campaign as GET shows it" },
    ...pushKeyResponses,
    404: { description: "no campaign with that id in the key's game" },
    409: { description: "the campaign is completed or already cancelled" },
  },
});

/** Registers the campaign read and cancel routes. */
export function registerCampaignReads(app: OpenAPIHono<AppEnv>) {
  app.openapi(list, async (c) => {
    const page = await listCampaigns(
      c.get("services"),
      c.get("apiKey").gameIndex,
      c.req.valid("query"),
    );
    return c.json(page, 200) as JsonResponse;
  });
  app.openapi(one, async (c) => {
    const report = await campaignReport(
      c.get("services"),
      c.req.valid("param").id,
      c.get("apiKey").gameIndex,
    );
    return c.json(report, 200) as JsonResponse;
  });
  app.openapi(cancel, async (c) => {
    const { id } = c.req.valid("param");
    await cancelCampaignById(c.get("services"), id, c.get("apiKey").gameIndex);
    return c.json(await campaignReport(c.get("services"), id, c.get("apiKey").gameIndex), 200);
  });
}
