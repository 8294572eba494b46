/** Admin: chat keys, text-detection projects and their word lists, stored chat logs. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv, JsonResponse } from "../env.ts";
import { jsonBody, jsonResponse } from "../env.ts";
import { createChatKey } from "../../lib/moderation/chat_keys.ts";
import {
  createProject,
  MAX_WORD_LENGTH,
  MAX_WORDS,
  updateProjectWords,
} from "../../lib/moderation/projects.ts";
import { listChatLogs } from "../../lib/moderation/chat_logs.ts";
import { LANGUAGES, resolveLanguage } from "../../lib/abuse/languages.ts";
import { requireGame } from "../../lib/tenancy.ts";
import { gameIndexField, GameIndexParam } from "./params.ts";
import { PageQuery } from "./paging.ts";

const Words = z.array(z.string().max(MAX_WORD_LENGTH)).max(MAX_WORDS);
const Languages = z.array(
  z.string().refine((code) => resolveLanguage(code) !== null, {
    message: `must be one of ${LANGUAGES.join(", ")}`,
  }),
).max(LANGUAGES.length * 4);
const ProjectKey = z.string().min(1).max(64);
const MinSeverity = z.number().int().min(1).max(4).openapi({
  description:
    "The lowest severity that counts as forbidden: 1 mild (every match), 2 moderate, 3 strong, 4 severe",
});
const CountIntensifiers = z.boolean().openapi({
  description: "Whether intensifiers (존나 좋아, fucking great) count as forbidden",
});

const postChatKey = createRoute({
  method: "post",
  path: "/admin/v1/games/{gameIndex}/chat-keys",
  tags: ["admin"],
  summary: "Issue a chat game key and AES secret; projectKey links a detection project's lists",
  request: {
    params: GameIndexParam,
    body: jsonBody(z.object({ projectKey: ProjectKey.optional() })),
  },
  responses: {
    201: jsonResponse(
      z.object({ gameKey: z.string(), secretKey: z.string(), projectKey: z.string().nullable() }),
      "created (the secret is shown once)",
    ),
  },
});

const postProject = createRoute({
  method: "post",
  path: "/admin/v1/tads/projects",
  tags: ["admin"],
  summary: "Create a text detection project with its word lists and masking settings",
  request: {
    body: jsonBody(z.object({
      name: z.string().trim().min(1).max(200),
      gameIndex: gameIndexField.optional(),
      forbiddenWords: Words.optional(),
      allowWords: Words.optional(),
      builtinLexicon: z.boolean().optional(),
      builtinLanguages: Languages.optional(),
      minSeverity: MinSeverity.optional(),
      countIntensifiers: CountIntensifiers.optional(),
      masking: z.object({
        enabled: z.boolean(),
        char: z.string().refine((s) => [...s].length === 1, "must be one character").optional(),
      }),
    })),
  },
  responses: {
    201: jsonResponse(
      z.object({ projectKey: z.string(), secretKey: z.string() }),
      "created (the secret is shown once)",
    ),
  },
});

/** Replacing a project's word lists (also mounted per game by the admin reads). */
export const putWords = createRoute({
  method: "put",
  path: "/admin/v1/tads/projects/{projectKey}/words",
  tags: ["admin"],
  summary:
    "Replace a project's word lists (allowWords, builtin settings, minSeverity and countIntensifiers kept when omitted); effective at once",
  request: {
    params: z.object({ projectKey: ProjectKey }),
    body: jsonBody(
      z.object({
        forbiddenWords: Words,
        allowWords: Words.optional(),
        builtinLexicon: z.boolean().optional(),
        builtinLanguages: Languages.nullable().optional(),
        minSeverity: MinSeverity.optional(),
        countIntensifiers: CountIntensifiers.optional(),
      }),
    ),
  },
  responses: {
    200: jsonResponse(
      z.object({
        projectKey: z.string(),
        version: z.number(),
        forbiddenWords: z.number(),
        allowWords: z.number(),
        builtinLexicon: z.boolean(),
        builtinLanguages: z.array(z.string()).nullable(),
        minSeverity: z.number(),
        countIntensifiers: z.boolean(),
      }),
      "updated",
    ),
  },
});

/**
 * Decimal text within PostgreSQL bigint, the type of the columns these filters compare with
 * (19 digits can exceed it). zod runs the refinement even after the pattern failed.
 */
function bigintText(pattern: RegExp, message: string) {
  return z.string().regex(pattern, message).refine(
    (s) => !pattern.test(s) || (BigInt(s) >= -(2n ** 63n) && BigInt(s) < 2n ** 63n),
    message,
  );
}

const getChatLogs = createRoute({
  method: "get",
  path: "/admin/v1/games/{gameIndex}/chat-logs",
  tags: ["admin"],
  summary: "Stored chat messages, newest first; flagged=true keeps forbidden or spam ones",
  request: {
    params: GameIndexParam,
    query: z.object({
      flagged: z.enum(["true", "false"]).optional(),
      userId: bigintText(/^-?\d{1,19}$/, "must be a 64-bit integer").optional(),
      limit: PageQuery.shape.limit,
      cursor: bigintText(/^\d{1,19}$/, "is not a cursor from this listing").optional(),
    }),
  },
  responses: {
    200: jsonResponse(
      z.object({
        items: z.array(z.record(z.string(), z.unknown())),
        nextCursor: z.string().nullable(),
      }),
      "a page of messages",
    ),
  },
});

/** Registers the moderation admin routes. */
export function registerModerationAdmin(app: OpenAPIHono<AppEnv>) {
  app.openapi(postChatKey, async (c) => {
    const created = await createChatKey(c.get("services"), {
      gameIndex: c.req.valid("param").gameIndex,
      projectKey: c.req.valid("json").projectKey,
    });
    return c.json(created, 201) as JsonResponse;
  });
  app.openapi(postProject, async (c) => {
    return c.json(await createProject(c.get("services"), c.req.valid("json")), 201) as JsonResponse;
  });
  app.openapi(putWords, async (c) => {
    const updated = await updateProjectWords(
      c.get("services"),
      c.req.valid("param").projectKey,
      c.req.valid("json"),
    );
    return c.json(updated, 200) as JsonResponse;
  });
  app.openapi(getChatLogs, async (c) => {
    const s = c.get("services");
    const { gameIndex } = c.req.valid("param");
    const q = c.req.valid("query");
    await requireGame(s.db, gameIndex);
    const page = await listChatLogs(s, {
      gameIndex,
      flagged: q.flagged === "true",
      userId: q.userId,
      limit: q.limit,
      cursor: q.cursor,
    });
    return c.json(page, 200) as JsonResponse;
  });
}
