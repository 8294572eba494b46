/**
 * Admin: a game's Standard Webhooks signing secret: its state (never the secret), revealing it on
 * an explicit request, and rotating it (the new secret is shown once).
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv, JsonResponse } from "../env.ts";
import { jsonResponse } from "../env.ts";
import {
  revealWebhookSecret,
  rotateWebhookSecret,
  webhookSecretState,
} from "../../lib/webhooks.ts";
import { requireGame } from "../../lib/tenancy.ts";
import { GameIndexParam } from "./params.ts";

const secretField = z.string().openapi({ example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" });
const previousValidUntil = z.string().nullable().openapi({
  description: "Until when the replaced secret also signs (null when none does)",
});

const Rotated = z.object({ gameIndex: z.number(), secret: secretField, previousValidUntil });

const State = z.object({
  gameIndex: z.number(),
  exists: z.boolean().openapi({
    description: "False only for a game created before secrets came with games, until it sends",
  }),
  rotatedAt: z.string().nullable().openapi({
    description: "When the current secret was created or last rotated",
  }),
  previousValidUntil,
});

const rotateRoute = createRoute({
  method: "post",
  path: "/admin/v1/games/{gameIndex}/webhook-secret",
  tags: ["admin"],
  operationId: "rotateWebhookSecret",
  summary: "Create or rotate the game's webhook signing secret; the response is the only copy",
  description:
    "Transaction callbacks, OTP direct-send callbacks and push webhooks of the game are signed in the Standard Webhooks format with this secret. After a rotation the previous secret signs too (a second `v1,` signature) for WEBHOOK_ROTATION_GRACE_SECONDS.",
  request: { params: GameIndexParam },
  responses: { 201: jsonResponse(Rotated, "the new secret") },
});

const stateRoute = createRoute({
  method: "get",
  path: "/admin/v1/games/{gameIndex}/webhook-secret",
  tags: ["admin"],
  operationId: "getWebhookSecretState",
  summary: "When the game's signing secret was made and whether a replaced one still signs",
  description: "Never answers the secret itself; reveal it with POST .../webhook-secret/reveal.",
  request: { params: GameIndexParam },
  responses: { 200: jsonResponse(State, "the secret's state") },
});

const revealRoute = createRoute({
  method: "post",
  path: "/admin/v1/games/{gameIndex}/webhook-secret/reveal",
  tags: ["admin"],
  operationId: "revealWebhookSecret",
  summary: "Show the game's current signing secret (a logged admin action)",
  description:
    "For a studio that lost the secret shown at creation or rotation. Every reveal is logged as an admin action; the answer is never cached.",
  request: { params: GameIndexParam },
  responses: {
    200: jsonResponse(State.omit({ exists: true }).extend({ secret: secretField }), "the secret"),
  },
});

/** Registers the webhook-secret admin routes. */
export function registerWebhookAdmin(app: OpenAPIHono<AppEnv>) {
  app.openapi(rotateRoute, async (c) => {
    const s = c.get("services");
    const { gameIndex } = c.req.valid("param");
    await requireGame(s.db, gameIndex);
    const rotated = await rotateWebhookSecret(s, gameIndex);
    c.header("Cache-Control", "no-store");
    return c.json({ gameIndex, ...rotated }, 201) as JsonResponse;
  });
  app.openapi(stateRoute, async (c) => {
    const s = c.get("services");
    const { gameIndex } = c.req.valid("param");
    await requireGame(s.db, gameIndex);
    return c.json({ gameIndex, ...await webhookSecretState(s, gameIndex) }, 200) as JsonResponse;
  });
  app.openapi(revealRoute, async (c) => {
    const s = c.get("services");
    const { gameIndex } = c.req.valid("param");
    await requireGame(s.db, gameIndex);
    const { exists: _exists, ...revealed } = await revealWebhookSecret(s, gameIndex);
    c.header("Cache-Control", "no-store");
    return c.json({ gameIndex, ...revealed }, 200) as JsonResponse;
  });
}
