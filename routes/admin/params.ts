/** Schemas shared by the admin routes. */
import { z } from "@hono/zod-openapi";
import { jsonResponse } from "../env.ts";
import { GAME_INDEX_MAX } from "../../lib/tenancy.ts";

/** A game index in a body (the games table's int4 range). */
export const gameIndexField = z.number().int().positive().max(GAME_INDEX_MAX);

/** The `{gameIndex}` path parameter. */
export const GameIndexParam = z.object({ gameIndex: z.coerce.number().pipe(gameIndexField) });

/** The 503 of admin routes that read or write the chain (no node configured or reachable). */
export const chainUnavailable = jsonResponse(
  z.object({ error: z.object({ code: z.string(), message: z.string() }) }),
  "the chain node is not configured or unreachable",
);
