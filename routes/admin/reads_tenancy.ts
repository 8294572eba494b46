/** Admin reads of games, apps and API keys, and rotating an app's client secret. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv, JsonResponse } from "../env.ts";
import { jsonResponse } from "../env.ts";
import { GameIndexParam } from "./params.ts";
import { PageQuery, pageSchema, PathKey } from "./paging.ts";
import {
  getApiKeyOfGame,
  getAppOfGame,
  getGame,
  listApiKeys,
  listApps,
  listGames,
} from "../../lib/reads/tenancy.ts";
import { rotateClientSecret } from "../../lib/tenancy.ts";
import { API_SCOPES } from "../../lib/auth/api_keys.ts";

const Game = z.object({
  gameIndex: z.number(),
  name: z.string(),
  createdAt: z.string(),
  apps: z.number(),
  activeApiKeys: z.number(),
});

const App = z.object({
  appid: z.string(),
  gameIndex: z.number(),
  clientId: z.string(),
  createdAt: z.string(),
});

const ApiKey = z.object({
  keyId: z.string(),
  name: z.string().nullable(),
  gameIndex: z.number(),
  scopes: z.array(z.enum(API_SCOPES)),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});

const AppParam = GameIndexParam.extend({ appid: PathKey });
const KeyParam = GameIndexParam.extend({ keyId: PathKey });

const listGamesRoute = createRoute({
  method: "get",
  path: "/admin/v1/games",
  tags: ["admin"],
  summary: "Games, newest first; name filters by a substring",
  request: { query: PageQuery.extend({ name: z.string().max(200).optional() }) },
  responses: { 200: jsonResponse(pageSchema(Game), "a page of games") },
});

const getGameRoute = createRoute({
  method: "get",
  path: "/admin/v1/games/{gameIndex}",
  tags: ["admin"],
  summary: "One game with its app, key, delivery and transaction counts",
  request: { params: GameIndexParam },
  responses: {
    200: jsonResponse(
      Game.extend({
        deliveries: z.record(z.string(), z.number()),
        transactions: z.record(z.string(), z.number()),
      }),
      "the game with item request and transaction counts per status",
    ),
  },
});

const listAppsRoute = createRoute({
  method: "get",
  path: "/admin/v1/games/{gameIndex}/apps",
  tags: ["admin"],
  summary: "The game's apps with their client ids (never a secret), newest first",
  request: { params: GameIndexParam, query: PageQuery },
  responses: { 200: jsonResponse(pageSchema(App), "a page of apps") },
});

const getAppRoute = createRoute({
  method: "get",
  path: "/admin/v1/games/{gameIndex}/apps/{appid}",
  tags: ["admin"],
  summary: "One app of the game",
  request: { params: AppParam },
  responses: { 200: jsonResponse(App, "the app") },
});

const rotateAppRoute = createRoute({
  method: "post",
  path: "/admin/v1/games/{gameIndex}/apps/{appid}/rotate-secret",
  tags: ["admin"],
  summary: "Issue a new client secret (shown once); the old one stops working at once",
  request: { params: AppParam },
  responses: {
    200: jsonResponse(
      App.omit({ createdAt: true }).extend({ clientSecret: z.string() }),
      "rotated",
    ),
  },
});

const listKeysRoute = createRoute({
  method: "get",
  path: "/admin/v1/games/{gameIndex}/api-keys",
  tags: ["admin"],
  summary: "The game's API keys (id, scopes, created, last used, revoked; never the key)",
  request: {
    params: GameIndexParam,
    query: PageQuery.extend({ revoked: z.enum(["true", "false"]).optional() }),
  },
  responses: { 200: jsonResponse(pageSchema(ApiKey), "a page of keys") },
});

const getKeyRoute = createRoute({
  method: "get",
  path: "/admin/v1/games/{gameIndex}/api-keys/{keyId}",
  tags: ["admin"],
  summary: "One API key of the game",
  request: { params: KeyParam },
  responses: { 200: jsonResponse(ApiKey, "the key") },
});

/** Registers the tenancy read routes. */
export function registerTenancyReads(app: OpenAPIHono<AppEnv>) {
  app.openapi(listGamesRoute, async (c) => {
    return c.json(await listGames(c.get("services").db, c.req.valid("query")), 200) as JsonResponse;
  });
  app.openapi(getGameRoute, async (c) => {
    const game = await getGame(c.get("services").db, c.req.valid("param").gameIndex);
    return c.json(game, 200) as JsonResponse;
  });
  app.openapi(listAppsRoute, async (c) => {
    const { gameIndex } = c.req.valid("param");
    return c.json(
      await listApps(c.get("services").db, gameIndex, c.req.valid("query")),
      200,
    ) as JsonResponse;
  });
  app.openapi(getAppRoute, async (c) => {
    const { gameIndex, appid } = c.req.valid("param");
    return c.json(await getAppOfGame(c.get("services").db, gameIndex, appid), 200) as JsonResponse;
  });
  app.openapi(rotateAppRoute, async (c) => {
    const rotated = await rotateClientSecret(c.get("services").db, c.req.valid("param"));
    return c.json(rotated, 200) as JsonResponse;
  });
  app.openapi(listKeysRoute, async (c) => {
    const { gameIndex } = c.req.valid("param");
    const q = c.req.valid("query");
    const page = await listApiKeys(c.get("services").db, gameIndex, {
      ...q,
      revoked: q.revoked === undefined ? undefined : q.revoked === "true",
    });
    return c.json(page, 200) as JsonResponse;
  });
  app.openapi(getKeyRoute, async (c) => {
    const { gameIndex, keyId } = c.req.valid("param");
    return c.json(
      await getApiKeyOfGame(c.get("services").db, gameIndex, keyId),
      200,
    ) as JsonResponse;
  });
}
