/** Schemas shared by the admin routes. */
import { z } from "@hono/zod-openapi";
import { GAME_INDEX_MAX } from "../../lib/tenancy.ts";

/** A game index in a body (the games table's int4 range). */
export const gameIndexField = z.number().int().positive().max(GAME_INDEX_MAX);

/** The `{gameIndex}` path parameter. */
export const GameIndexParam = z.object({ gameIndex: z.coerce.number().pipe(gameIndexField) });
