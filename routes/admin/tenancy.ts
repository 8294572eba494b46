/** Admin: games, apps (blockchain client credentials) and scoped API keys. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv, JsonResponse } from "../env.ts";
import { jsonBody, jsonResponse } from "../env.ts";
import { registerGameApp, requireGame } from "../../lib/tenancy.ts";
import { createGameWithSecret } from "../../lib/webhooks.ts";
import { GameIndexParam } from "./params.ts";
import { API_SCOPES, createApiKey, revokeApiKey } from "../../lib/auth/api_keys.ts";
import { notFound } from "../../lib/errors.ts";

const postGame = createRoute({
  method: "post",
  path: "/admin/v1/games",
  tags: ["admin"],
  summary: "Register a game; the answer holds its webhook signing secret, shown only this once",
  request: { body: jsonBody(z.object({ name: z.string().trim().min(1).max(200) })) },
  responses: {
    201: jsonResponse(
      z.object({
        gameIndex: z.number(),
        name: z.string(),
        webhookSecret: z.string().openapi({
          description:
            "Standard Webhooks secret that signs the game's callbacks and webhooks (shown once)",
          example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        }),
      }),
      "created",
    ),
  },
});

const postApp = createRoute({
  method: "post",
  path: "/admin/v1/games/{gameIndex}/apps",
  tags: ["admin"],
  summary: "Register an app and issue its client id and secret (the secret is shown once)",
  request: {
    params: GameIndexParam,
    body: jsonBody(z.object({ appid: z.string().trim().min(1).max(128) })),
  },
  responses: {
    201: jsonResponse(
      z.object({
        appid: z.string(),
        gameIndex: z.number(),
        clientId: z.string(),
        clientSecret: z.string(),
      }),
      "created",
    ),
  },
});

const postKey = createRoute({
  method: "post",
  path: "/admin/v1/games/{gameIndex}/api-keys",
  tags: ["admin"],
  summary: "Issue a scoped API key (shown once), optionally named",
  request: {
    params: GameIndexParam,
    body: jsonBody(
      z.object({
        scopes: z.array(z.enum(API_SCOPES)).min(1).transform((s) => [...new Set(s)]),
        name: z.string().trim().min(1).max(100).optional().openapi({
          description: "What the key is for, shown in lists (never secret)",
          example: "game server eu-1",
        }),
      }),
    ),
  },
  responses: {
    201: jsonResponse(
      z.object({ keyId: z.string(), apiKey: z.string(), name: z.string().nullable() }),
      "created",
    ),
  },
});

const deleteKey = createRoute({
  method: "delete",
  path: "/admin/v1/api-keys/{keyId}",
  tags: ["admin"],
  summary: "Revoke an API key; it stops working at once",
  request: { params: z.object({ keyId: z.string().min(1) }) },
  responses: { 204: { description: "revoked" } },
});

/** Registers the tenancy admin routes. */
export function registerTenancyAdmin(app: OpenAPIHono<AppEnv>) {
  app.openapi(postGame, async (c) => {
    const game = await createGameWithSecret(c.get("services"), c.req.valid("json").name);
    c.header("Cache-Control", "no-store");
    return c.json(game, 201) as JsonResponse;
  });
  app.openapi(postApp, async (c) => {
    const { gameIndex } = c.req.valid("param");
    const created = await registerGameApp(c.get("services").db, {
      gameIndex,
      appid: c.req.valid("json").appid,
    });
    return c.json(created, 201) as JsonResponse;
  });
  app.openapi(postKey, async (c) => {
    const s = c.get("services");
    const { gameIndex } = c.req.valid("param");
    await requireGame(s.db, gameIndex);
    const { scopes, name } = c.req.valid("json");
    const key = await createApiKey(s.db, s.signingKey, {
      gameIndex,
      scopes,
      name,
      nowMs: s.clock.now(),
    });
    return c.json(key, 201) as JsonResponse;
  });
  app.openapi(deleteKey, async (c) => {
    const ok = await revokeApiKey(c.get("services").db, c.req.valid("param").keyId);
    if (!ok) throw notFound("API key not found", "API_KEY_NOT_FOUND");
    return c.body(null, 204) as unknown as JsonResponse;
  });
}
