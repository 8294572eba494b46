/**
 * Admin reads of item delivery and CPA: endpoint health history, probing now, the delivery log
 * with "retry now", and the game's CPA campaigns.
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv, JsonResponse } from "../env.ts";
import { jsonResponse } from "../env.ts";
import { GameIndexParam } from "./params.ts";
import { PageQuery, pageSchema, PathKey } from "./paging.ts";
import {
  getDelivery,
  listCpaCampaigns,
  listDeliveries,
  listProbes,
} from "../../lib/reads/items.ts";
import { ITEM_REQUEST_STATUSES } from "../../lib/items/register.ts";
import { retryItemRequest } from "../../lib/items/retry.ts";
import { dispatchSoon } from "../../lib/items/dispatcher.ts";
import { probeEndpointNow } from "../../lib/items/probe.ts";
import { requireGame } from "../../lib/tenancy.ts";
import { DomainError, notFound } from "../../lib/errors.ts";
import { jsonBody } from "../env.ts";
import { itemRequestInputSchema } from "../../lib/items/record.ts";
import { registerItemRequest } from "../../lib/items/register.ts";
import { requireItemEndpoint } from "../../lib/items/endpoints.ts";

const Probe = z.object({
  healthy: z.boolean(),
  error: z.string().nullable(),
  probedAt: z.string(),
});

const Delivery = z.object({
  transactionId: z.string(),
  gameIndex: z.number(),
  status: z.enum(ITEM_REQUEST_STATUSES),
  source: z.string(),
  attempts: z.number(),
  lastCode: z.number().nullable(),
  lastMessage: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  record: z.record(z.string(), z.unknown()),
});

const CpaCampaign = z.object({
  appid: z.string(),
  cpaCode: z.string(),
  gameIndex: z.number(),
  subReason: z.string(),
  detail: z.array(z.unknown()),
  rewarded: z.number(),
  createdAt: z.string(),
});

const TxParam = GameIndexParam.extend({ transactionId: PathKey });

const probesRoute = createRoute({
  method: "get",
  path: "/admin/v1/games/{gameIndex}/item-endpoint/probes",
  tags: ["admin"],
  summary: "Health history of the item endpoint (one row per probe round, kept 7 days)",
  request: { params: GameIndexParam, query: PageQuery },
  responses: { 200: jsonResponse(pageSchema(Probe), "a page of probe results") },
});

const probeNowRoute = createRoute({
  method: "post",
  path: "/admin/v1/games/{gameIndex}/item-endpoint/probe",
  tags: ["admin"],
  summary: "Probe the item endpoint now and record the result",
  request: { params: GameIndexParam },
  responses: { 200: jsonResponse(Probe.omit({ probedAt: true }), "the probe result") },
});

const deliveriesRoute = createRoute({
  method: "get",
  path: "/admin/v1/games/{gameIndex}/item-requests",
  tags: ["admin"],
  summary: "The delivery log, newest first; filter by status and transactionId",
  request: {
    params: GameIndexParam,
    query: PageQuery.extend({
      status: z.enum(ITEM_REQUEST_STATUSES).optional(),
      transactionId: z.string().min(1).max(128).optional(),
    }),
  },
  responses: { 200: jsonResponse(pageSchema(Delivery), "a page of requests") },
});

const deliveryRoute = createRoute({
  method: "get",
  path: "/admin/v1/games/{gameIndex}/item-requests/{transactionId}",
  tags: ["admin"],
  summary: "One request of the delivery log with the record sent",
  request: { params: TxParam },
  responses: { 200: jsonResponse(Delivery, "the request") },
});

const retryRoute = createRoute({
  method: "post",
  path: "/admin/v1/games/{gameIndex}/item-requests/{transactionId}/retry",
  tags: ["admin"],
  summary: "Retry now: a FAILED or RETRYING request becomes due at once (409 otherwise)",
  request: { params: TxParam },
  responses: {
    200: jsonResponse(
      z.object({ transactionId: z.string(), status: z.literal("RETRYING") }),
      "due now; delivery starts in the background",
    ),
  },
});

const sendRoute = createRoute({
  method: "post",
  path: "/admin/v1/games/{gameIndex}/item-requests",
  tags: ["admin"],
  summary: "Send items to a player (the request record of the items API; source admin)",
  request: { params: GameIndexParam, body: jsonBody(itemRequestInputSchema) },
  responses: {
    202: jsonResponse(
      z.object({ transactionId: z.string(), created: z.boolean() }),
      "registered; delivery starts in the background",
    ),
  },
});

const cpaRoute = createRoute({
  method: "get",
  path: "/admin/v1/games/{gameIndex}/cpa",
  tags: ["admin"],
  summary: "The game's CPA campaigns with how many users were rewarded",
  request: {
    params: GameIndexParam,
    query: PageQuery.extend({ appid: z.string().min(1).max(128).optional() }),
  },
  responses: { 200: jsonResponse(pageSchema(CpaCampaign), "a page of campaigns") },
});

/** Registers the item and CPA read routes. */
export function registerItemsReads(app: OpenAPIHono<AppEnv>) {
  app.openapi(probesRoute, async (c) => {
    const { gameIndex } = c.req.valid("param");
    const page = await listProbes(c.get("services").db, gameIndex, c.req.valid("query"));
    return c.json(page, 200) as JsonResponse;
  });
  app.openapi(probeNowRoute, async (c) => {
    const s = c.get("services");
    const { gameIndex } = c.req.valid("param");
    await requireGame(s.db, gameIndex);
    const result = await probeEndpointNow(s, gameIndex);
    if (!result) {
      throw notFound(`game ${gameIndex} has no item endpoint`, "ITEM_ENDPOINT_NOT_FOUND");
    }
    return c.json({ healthy: result.healthy, error: result.error }, 200) as JsonResponse;
  });
  app.openapi(deliveriesRoute, async (c) => {
    const { gameIndex } = c.req.valid("param");
    const page = await listDeliveries(c.get("services").db, gameIndex, c.req.valid("query"));
    return c.json(page, 200) as JsonResponse;
  });
  app.openapi(deliveryRoute, async (c) => {
    const { gameIndex, transactionId } = c.req.valid("param");
    return c.json(
      await getDelivery(c.get("services").db, gameIndex, transactionId),
      200,
    ) as JsonResponse;
  });
  app.openapi(retryRoute, async (c) => {
    const s = c.get("services");
    const { gameIndex, transactionId } = c.req.valid("param");
    await requireGame(s.db, gameIndex);
    const result = await retryItemRequest(s.db, { gameIndex, transactionId, nowMs: s.clock.now() });
    dispatchSoon(s, gameIndex);
    return c.json(result, 200) as JsonResponse;
  });
  app.openapi(sendRoute, async (c) => {
    const s = c.get("services");
    const { gameIndex } = c.req.valid("param");
    const input = c.req.valid("json");
    if (input.gameIndex !== gameIndex) {
      throw new DomainError("invalid", "VALIDATION_FAILED", `gameIndex must be ${gameIndex}`);
    }
    await requireGame(s.db, gameIndex);
    await requireItemEndpoint(s.db, gameIndex);
    const reg = await registerItemRequest(s.db, input, { nowMs: s.clock.now(), source: "admin" });
    if (reg.created) dispatchSoon(s, gameIndex);
    return c.json(reg, 202) as JsonResponse;
  });
  app.openapi(cpaRoute, async (c) => {
    const { gameIndex } = c.req.valid("param");
    const page = await listCpaCampaigns(c.get("services").db, gameIndex, c.req.valid("query"));
    return c.json(page, 200) as JsonResponse;
  });
}
