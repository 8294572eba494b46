/** Admin reads of a game's OTP topics and push campaigns (tasks per zone), targetings, devices. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv, JsonResponse } from "../env.ts";
import { jsonResponse } from "../env.ts";
import { GameIndexParam } from "./params.ts";
import { PageQuery, pageSchema } from "./paging.ts";
import {
  getCampaign,
  listCampaigns,
  listDevices,
  listTargetings,
  listTopics,
} from "../../lib/reads/push_otp.ts";

const Topic = z.object({
  gameIndex: z.number(),
  topic: z.string(),
  serviceName: z.string(),
  mode: z.string(),
  callbackUrl: z.string().nullable(),
  expirySeconds: z.number(),
  timeZone: z.string(),
  codeLength: z.number(),
  updatedAt: z.string(),
});

const CampaignSummary = z.object({
  id: z.number(),
  uuid: z.string(),
  status: z.number(),
  statusName: z.string(),
  type: z.string(),
  targetingId: z.number().nullable(),
  countries: z.array(z.string()),
  appids: z.array(z.string()),
  description: z.string().nullable(),
  nextSendAt: z.number().nullable(),
  slices: z.object({
    pending: z.number(),
    sent: z.number(),
    cancelled: z.number(),
    other: z.number(),
  }),
  delivered: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const Task = z.object({
  key: z.string(),
  sendAt: z.number(),
  date: z.string().optional(),
  time: z.string().optional(),
  gmtOffset: z.number().optional(),
  zones: z.array(z.string()).nullable(),
  slices: z.array(z.object({
    index: z.number(),
    sendAt: z.number(),
    state: z.string(),
    delivered: z.number(),
    sentAt: z.string().nullable(),
  })),
});

const Targeting = z.object({
  id: z.number(),
  company: z.string(),
  companyIndex: z.number(),
  description: z.string(),
  registrant: z.object({ id: z.string(), name: z.string().optional() }),
  available: z.boolean(),
  targets: z.number(),
  createdAt: z.string(),
});

const Device = z.object({
  id: z.number(),
  appid: z.string(),
  platform: z.string(),
  tokenPrefix: z.string(),
  playerId: z.string().nullable(),
  country: z.string(),
  zone: z.string(),
  language: z.string().nullable(),
  updatedAt: z.string(),
});

const topicsRoute = createRoute({
  method: "get",
  path: "/admin/v1/games/{gameIndex}/otp-topics",
  tags: ["admin"],
  summary: "The game's OTP topics (sending information), newest first",
  request: { params: GameIndexParam, query: PageQuery },
  responses: { 200: jsonResponse(pageSchema(Topic), "a page of topics") },
});

const campaignsRoute = createRoute({
  method: "get",
  path: "/admin/v1/games/{gameIndex}/push/campaigns",
  tags: ["admin"],
  summary: "The game's push campaigns, newest first, with slice states and delivery counts",
  request: {
    params: GameIndexParam,
    query: PageQuery.extend({ status: z.coerce.number().int().min(1).max(4).optional() }),
  },
  responses: { 200: jsonResponse(pageSchema(CampaignSummary), "a page of campaigns") },
});

const campaignRoute = createRoute({
  method: "get",
  path: "/admin/v1/games/{gameIndex}/push/campaigns/{id}",
  tags: ["admin"],
  summary: "One campaign with its tasks per time zone and each slice's state and deliveries",
  request: {
    params: GameIndexParam.extend({ id: z.coerce.number().int().positive().max(2 ** 53 - 1) }),
  },
  responses: {
    200: jsonResponse(
      CampaignSummary.extend({
        campaign: z.record(z.string(), z.unknown()),
        tasks: z.array(Task),
      }),
      "the campaign",
    ),
  },
});

const targetingsRoute = createRoute({
  method: "get",
  path: "/admin/v1/games/{gameIndex}/push/targetings",
  tags: ["admin"],
  summary: "The game's targeting records with their target counts",
  request: { params: GameIndexParam, query: PageQuery },
  responses: { 200: jsonResponse(pageSchema(Targeting), "a page of targeting records") },
});

const devicesRoute = createRoute({
  method: "get",
  path: "/admin/v1/games/{gameIndex}/push/devices",
  tags: ["admin"],
  summary: "The game's devices (push token shown as a prefix), most recently updated first",
  request: {
    params: GameIndexParam,
    query: PageQuery.extend({
      appid: z.string().min(1).max(128).optional(),
      country: z.string().regex(/^[A-Za-z]{2}$/, "must be a two-letter country code").optional(),
    }),
  },
  responses: { 200: jsonResponse(pageSchema(Device), "a page of devices") },
});

/** Registers the OTP and push read routes. */
export function registerPushOtpReads(app: OpenAPIHono<AppEnv>) {
  app.openapi(topicsRoute, async (c) => {
    const { gameIndex } = c.req.valid("param");
    return c.json(
      await listTopics(c.get("services").db, gameIndex, c.req.valid("query")),
      200,
    ) as JsonResponse;
  });
  app.openapi(campaignsRoute, async (c) => {
    const { gameIndex } = c.req.valid("param");
    return c.json(
      await listCampaigns(c.get("services").db, gameIndex, c.req.valid("query")),
      200,
    ) as JsonResponse;
  });
  app.openapi(campaignRoute, async (c) => {
    const { gameIndex, id } = c.req.valid("param");
    return c.json(await getCampaign(c.get("services").db, gameIndex, id), 200) as JsonResponse;
  });
  app.openapi(targetingsRoute, async (c) => {
    const { gameIndex } = c.req.valid("param");
    return c.json(
      await listTargetings(c.get("services").db, gameIndex, c.req.valid("query")),
      200,
    ) as JsonResponse;
  });
  app.openapi(devicesRoute, async (c) => {
    const { gameIndex } = c.req.valid("param");
    return c.json(
      await listDevices(c.get("services").db, gameIndex, c.req.valid("query")),
      200,
    ) as JsonResponse;
  });
}
