/**
 * POST /api/cpa: a game server reports a CPA achievement; the user is rewarded once with the
 * campaign's items (an item request with reason `p`). The body is JSON whether the content type
 * says application/json or text/html (the spec lists both); the bearer API key is optional.
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { jsonResponse, validationFailure } from "../env.ts";
import { cpaFamily, renderCpaResult } from "./envelope.ts";
import { parseAuthorization } from "../auth.ts";
import { verifyApiKey } from "../../lib/auth/api_keys.ts";
import { cpaNotificationSchema, notifyCpaAchievement } from "../../lib/promotion/cpa.ts";
import { dispatchSoon } from "../../lib/items/dispatcher.ts";
import { DomainError } from "../../lib/errors.ts";

const resultSchema = z.object({
  result_code: z.number(),
  result_msg: z.string(),
  result_message: z.string(),
});

const route = createRoute({
  method: "post",
  path: "/api/cpa",
  tags: ["promotion"],
  summary: "Notify a CPA achievement",
  description: "Body (JSON, sent as application/json or text/html): appid, vid or uid (exactly " +
    "one), server_id, cpa_code, cpa_date (KST `YYYY-MM-DD HH:mm:ss`, default now). " +
    "Optional `Authorization: Bearer <API key with scope cpa>`.",
  responses: { 200: jsonResponse(resultSchema, "result_code 0 on success") },
});

/** Registers the route. */
export function registerNotifyCpa(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const s = c.get("services");
    let callerGame: number | undefined;
    const auth = parseAuthorization(c.req.header("authorization"));
    if (auth) {
      if (auth.scheme !== "bearer" || !auth.token) {
        throw new DomainError(
          "unauthorized",
          "INVALID_API_KEY",
          "Authorization must be Bearer <API key>",
        );
      }
      callerGame = (await verifyApiKey(s.db, s.signingKey, auth.token, "cpa")).gameIndex;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(await c.req.text());
    } catch {
      throw new DomainError("invalid", "BAD_REQUEST", "request body is not valid JSON");
    }
    const parsed = cpaNotificationSchema.safeParse(raw);
    if (!parsed.success) return cpaFamily.renderError(c, validationFailure(parsed.error)) as never;
    const result = await notifyCpaAchievement(s.db, parsed.data, {
      nowMs: s.clock.now(),
      callerGame,
    });
    if (result.rewarded) dispatchSoon(s, result.gameIndex);
    return renderCpaResult(c, 0, "success");
  });
}
