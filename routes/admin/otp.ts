/** Admin: OTP topics (sending information) of a game, and the log provider's outbox. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv, JsonResponse } from "../env.ts";
import { jsonBody, jsonResponse } from "../env.ts";
import { saveTopic } from "../../lib/otp/topics.ts";
import { assertRegistrableTarget } from "../../lib/outbound/guard.ts";
import { GameIndexParam } from "./params.ts";

const TopicBody = z.object({
  topic: z.string().trim().min(1).max(100),
  serviceName: z.string().trim().min(1).max(100),
  mode: z.enum(["provider", "direct"]),
  callbackUrl: z.string().trim().url().max(2048).optional(),
  expirySeconds: z.number().int().min(30).max(86_400).optional(),
  timeZone: z.string().trim().min(1).max(64).optional(),
  codeLength: z.number().int().min(4).max(10).optional(),
});

const Topic = z.object({
  gameIndex: z.number(),
  topic: z.string(),
  serviceName: z.string(),
  mode: z.enum(["provider", "direct"]),
  callbackUrl: z.string().nullable(),
  expirySeconds: z.number(),
  timeZone: z.string(),
  codeLength: z.number(),
});

const postTopic = createRoute({
  method: "post",
  path: "/admin/v1/games/{gameIndex}/otp-topics",
  tags: ["admin"],
  summary: "Register (201) or replace (200) an OTP topic: sending information for the Topic header",
  request: {
    params: GameIndexParam,
    body: jsonBody(TopicBody),
  },
  responses: {
    201: jsonResponse(Topic, "registered"),
    200: jsonResponse(Topic, "replaced"),
  },
});

const OutboxEntry = z.object({
  channel: z.enum(["sms", "email"]),
  to: z.string(),
  subject: z.string().optional(),
  text: z.string(),
  lang: z.string(),
  retry: z.boolean().optional(),
  sentAt: z.string(),
  expiresAt: z.string(),
});

const getOutbox = createRoute({
  method: "get",
  path: "/admin/v1/otp/outbox",
  tags: ["admin"],
  summary: "Messages the log provider kept (embedded dev mode), newest first, until they expire",
  responses: {
    200: jsonResponse(
      z.object({ sms: z.string(), email: z.string(), messages: z.array(OutboxEntry) }),
      "outbox",
    ),
  },
});

/** Registers the OTP admin routes. */
export function registerOtpAdmin(app: OpenAPIHono<AppEnv>) {
  app.openapi(postTopic, async (c) => {
    const s = c.get("services");
    const body = c.req.valid("json");
    if (body.callbackUrl) {
      await assertRegistrableTarget(s.outbound, { url: body.callbackUrl }, {
        allowPrivate: s.config.allowPrivateOutbound,
        field: "callbackUrl",
      });
    }
    const { topic, created } = await saveTopic(s.db, c.req.valid("param").gameIndex, body);
    return c.json(topic, created ? 201 : 200) as JsonResponse;
  });
  app.openapi(getOutbox, (c) => {
    const s = c.get("services");
    return c.json({
      sms: s.otpProviders.sms.name,
      email: s.otpProviders.email.name,
      messages: s.otpProviders.outbox.list(s.clock.now()),
    }) as JsonResponse;
  });
}
