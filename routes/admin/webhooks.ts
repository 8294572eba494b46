/** Admin: rotate a game's Standard Webhooks signing secret (the new secret is shown once). */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv, JsonResponse } from "../env.ts";
import { jsonResponse } from "../env.ts";
import { rotateWebhookSecret } from "../../lib/webhooks.ts";
import { requireGame } from "../../lib/tenancy.ts";
import { GameIndexParam } from "./params.ts";

const Rotated = z.object({
  gameIndex: z.number(),
  secret: z.string().openapi({ example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" }),
  previousValidUntil: z.string().nullable().openapi({
    description: "Until when the replaced secret also signs (null when there was none)",
  }),
});

const route = createRoute({
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

/** Registers the webhook-secret admin route. */
export function registerWebhookAdmin(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const s = c.get("services");
    const { gameIndex } = c.req.valid("param");
    await requireGame(s.db, gameIndex);
    const rotated = await rotateWebhookSecret(s, gameIndex);
    c.header("Cache-Control", "no-store");
    return c.json({ gameIndex, ...rotated }, 201) as JsonResponse;
  });
}
