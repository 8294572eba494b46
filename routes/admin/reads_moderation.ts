/**
 * Admin reads of a game's chat keys and text-detection projects (never a secret), rotating their
 * secrets, editing a project's lists within the game, and the detection test call.
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv, JsonResponse } from "../env.ts";
import { jsonBody, jsonResponse } from "../env.ts";
import { GameIndexParam } from "./params.ts";
import { putWords } from "./moderation.ts";
import { adminActor } from "./audit.ts";
import { PageQuery, pageSchema, PathKey } from "./paging.ts";
import {
  getProjectOfGame,
  listChatKeys,
  listProjects,
  testDetection,
} from "../../lib/reads/moderation.ts";
import { rotateChatKeySecret } from "../../lib/moderation/chat_keys.ts";
import { rotateProjectSecret, updateProjectWords } from "../../lib/moderation/projects.ts";
import { LONG_TEXT_CHARS } from "../../lib/moderation/text_detection.ts";

const ChatKey = z.object({
  gameKey: z.string(),
  gameIndex: z.number(),
  projectKey: z.string().nullable(),
  createdAt: z.string(),
});

const projectBase = {
  projectKey: z.string(),
  name: z.string(),
  gameIndex: z.number().nullable(),
  masking: z.object({ enabled: z.boolean(), char: z.string() }),
  builtinLexicon: z.boolean(),
  builtinLanguages: z.array(z.string()).nullable(),
  minSeverity: z.number(),
  countIntensifiers: z.boolean(),
  version: z.number(),
  updatedAt: z.string(),
  updatedBy: z.string().nullable(),
  createdAt: z.string(),
};
const ProjectSummary = z.object({
  ...projectBase,
  forbiddenWords: z.number(),
  allowWords: z.number(),
});
const Project = z.object({
  ...projectBase,
  forbiddenWords: z.array(z.string()),
  allowWords: z.array(z.string()),
});

const ChatKeyParam = GameIndexParam.extend({ gameKey: PathKey });
const ProjectParam = GameIndexParam.extend({ projectKey: PathKey });

const listChatKeysRoute = createRoute({
  method: "get",
  path: "/admin/v1/games/{gameIndex}/chat-keys",
  tags: ["admin"],
  summary: "The game's chat game keys and their linked projects (never the secret)",
  request: { params: GameIndexParam, query: PageQuery },
  responses: { 200: jsonResponse(pageSchema(ChatKey), "a page of chat keys") },
});

const rotateChatKeyRoute = createRoute({
  method: "post",
  path: "/admin/v1/games/{gameIndex}/chat-keys/{gameKey}/rotate-secret",
  tags: ["admin"],
  summary: "Issue a new AES secret for a game key (shown once); the old one stops working",
  request: { params: ChatKeyParam },
  responses: {
    200: jsonResponse(z.object({ gameKey: z.string(), secretKey: z.string() }), "rotated"),
  },
});

const listProjectsRoute = createRoute({
  method: "get",
  path: "/admin/v1/games/{gameIndex}/tads/projects",
  tags: ["admin"],
  summary: "The game's text-detection projects (created for it or linked by its chat keys)",
  request: { params: GameIndexParam, query: PageQuery },
  responses: { 200: jsonResponse(pageSchema(ProjectSummary), "a page of projects") },
});

const getProjectRoute = createRoute({
  method: "get",
  path: "/admin/v1/games/{gameIndex}/tads/projects/{projectKey}",
  tags: ["admin"],
  summary: "A project's word lists, version, and who changed them when (never the secret)",
  request: { params: ProjectParam },
  responses: { 200: jsonResponse(Project, "the project") },
});

const putWordsRoute = createRoute({
  ...putWords,
  path: "/admin/v1/games/{gameIndex}/tads/projects/{projectKey}/words",
  request: { ...putWords.request, params: ProjectParam },
});

const rotateProjectRoute = createRoute({
  method: "post",
  path: "/admin/v1/games/{gameIndex}/tads/projects/{projectKey}/rotate-secret",
  tags: ["admin"],
  summary: "Issue a new project secret (shown once); the old one stops working",
  request: { params: ProjectParam },
  responses: {
    200: jsonResponse(z.object({ projectKey: z.string(), secretKey: z.string() }), "rotated"),
  },
});

const testRoute = createRoute({
  method: "post",
  path: "/admin/v1/games/{gameIndex}/tads/projects/{projectKey}/test",
  tags: ["admin"],
  summary:
    "Run a text through the project's current lists (lang selects built-in lexicons as text detection does): matches, positions, masked text",
  request: {
    params: ProjectParam,
    body: jsonBody(z.object({
      text: z.string().min(1).max(LONG_TEXT_CHARS),
      lang: z.string().min(1).max(16).optional(),
    })),
  },
  responses: {
    200: jsonResponse(
      z.object({
        projectKey: z.string(),
        version: z.number(),
        forbidden: z.boolean(),
        words: z.array(z.string()),
        labels: z.array(z.object({
          word: z.string(),
          category: z.string(),
          severity: z.number(),
        })),
        masked: z.string(),
        matches: z.array(z.object({ start: z.number(), end: z.number(), text: z.string() })),
        spam: z.string().nullable(),
      }),
      "what the text matched (positions are code point offsets, end exclusive)",
    ),
  },
});

/** Registers the moderation read routes. */
export function registerModerationReads(app: OpenAPIHono<AppEnv>) {
  app.openapi(listChatKeysRoute, async (c) => {
    const { gameIndex } = c.req.valid("param");
    const page = await listChatKeys(c.get("services").db, gameIndex, c.req.valid("query"));
    return c.json(page, 200) as JsonResponse;
  });
  app.openapi(rotateChatKeyRoute, async (c) => {
    return c.json(
      await rotateChatKeySecret(c.get("services"), c.req.valid("param")),
      200,
    ) as JsonResponse;
  });
  app.openapi(listProjectsRoute, async (c) => {
    const { gameIndex } = c.req.valid("param");
    const page = await listProjects(c.get("services").db, gameIndex, c.req.valid("query"));
    return c.json(page, 200) as JsonResponse;
  });
  app.openapi(getProjectRoute, async (c) => {
    const { gameIndex, projectKey } = c.req.valid("param");
    const project = await getProjectOfGame(c.get("services").db, gameIndex, projectKey);
    return c.json(project, 200) as JsonResponse;
  });
  app.openapi(putWordsRoute, async (c) => {
    const { gameIndex, projectKey } = c.req.valid("param");
    const s = c.get("services");
    await getProjectOfGame(s.db, gameIndex, projectKey);
    const updated = await updateProjectWords(s, projectKey, c.req.valid("json"), {
      actor: adminActor(c),
      gameIndex,
    });
    return c.json(updated, 200) as JsonResponse;
  });
  app.openapi(rotateProjectRoute, async (c) => {
    return c.json(
      await rotateProjectSecret(c.get("services"), c.req.valid("param")),
      200,
    ) as JsonResponse;
  });
  app.openapi(testRoute, async (c) => {
    const result = await testDetection(c.get("services"), {
      ...c.req.valid("param"),
      ...c.req.valid("json"),
    });
    return c.json(result, 200) as JsonResponse;
  });
}
