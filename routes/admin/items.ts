/** Admin: a game's item endpoint (PUT/GET with health state) and its CPA campaigns. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv, JsonResponse } from "../env.ts";
import { jsonBody, jsonResponse } from "../env.ts";
import {
  DEFAULT_ITEM_TCP_PORT,
  putItemEndpoint,
  viewItemEndpoint,
} from "../../lib/items/endpoints.ts";
import { cpaCampaignSchema, registerCpaCampaign } from "../../lib/promotion/cpa.ts";
import { requireGame } from "../../lib/tenancy.ts";
import { assertRegistrableTarget } from "../../lib/outbound/guard.ts";
import { GameIndexParam } from "./params.ts";
import { notFound } from "../../lib/errors.ts";

const vendorWord = z.string().min(1).max(256);

const endpointBody = z.discriminatedUnion("transport", [
  z.object({
    transport: z.literal("http"),
    url: z.string().url().refine((u) => /^https?:\/\//i.test(u), {
      message: "must be an http or https URL",
    }),
    vendorWord,
  }),
  z.object({
    transport: z.literal("tcp"),
    host: z.string().trim().min(1).max(253).regex(/^[A-Za-z0-9.:\-\[\]]+$/, {
      message: "must be a host name or IP address",
    }),
    port: z.number().int().min(1).max(65535).default(DEFAULT_ITEM_TCP_PORT),
    vendorWord,
  }),
]);

const endpointView = z.object({
  gameIndex: z.number(),
  transport: z.enum(["http", "tcp"]),
  url: z.string().optional(),
  host: z.string().optional(),
  port: z.number().optional(),
  health: z.object({
    healthy: z.boolean().nullable(),
    lastProbeAt: z.string().nullable(),
    lastError: z.string().nullable(),
  }),
  configSuspect: z.boolean(),
  suspectReason: z.string().nullable(),
  updatedAt: z.string(),
});

const putEndpoint = createRoute({
  method: "put",
  path: "/admin/v1/games/{gameIndex}/item-endpoint",
  tags: ["admin"],
  summary: "Register or replace the game server's item endpoint (HTTP URL or TCP host:port)",
  request: { params: GameIndexParam, body: jsonBody(endpointBody) },
  responses: { 200: jsonResponse(endpointView, "the endpoint (health unknown until probed)") },
});

const getEndpoint = createRoute({
  method: "get",
  path: "/admin/v1/games/{gameIndex}/item-endpoint",
  tags: ["admin"],
  summary: "The item endpoint with its health state",
  request: { params: GameIndexParam },
  responses: { 200: jsonResponse(endpointView, "the endpoint") },
});

const postCpa = createRoute({
  method: "post",
  path: "/admin/v1/games/{gameIndex}/cpa",
  tags: ["admin"],
  summary: "Register a CPA campaign: the items a user receives for an achievement",
  request: { params: GameIndexParam, body: jsonBody(cpaCampaignSchema) },
  responses: {
    201: jsonResponse(cpaCampaignSchema.extend({ gameIndex: z.number() }), "registered"),
  },
});

/** Registers the item and CPA admin routes. */
export function registerItemsAdmin(app: OpenAPIHono<AppEnv>) {
  app.openapi(putEndpoint, async (c) => {
    const s = c.get("services");
    const body = c.req.valid("json");
    await assertRegistrableTarget(s.outbound, body, {
      allowPrivate: s.config.allowPrivateOutbound,
      field: body.transport === "http" ? "url" : "host",
    });
    const view = await putItemEndpoint(s.db, c.req.valid("param").gameIndex, {
      ...body,
      nowMs: s.clock.now(),
      masterKey: s.secrets.kmsMasterKey,
    });
    return c.json(view, 200) as JsonResponse;
  });
  app.openapi(getEndpoint, async (c) => {
    const { gameIndex } = c.req.valid("param");
    const db = c.get("services").db;
    await requireGame(db, gameIndex);
    const view = await viewItemEndpoint(db, gameIndex);
    if (!view) throw notFound(`game ${gameIndex} has no item endpoint`, "ITEM_ENDPOINT_NOT_FOUND");
    return c.json(view, 200) as JsonResponse;
  });
  app.openapi(postCpa, async (c) => {
    const created = await registerCpaCampaign(
      c.get("services").db,
      c.req.valid("param").gameIndex,
      c.req.valid("json"),
    );
    return c.json(created, 201) as JsonResponse;
  });
}
