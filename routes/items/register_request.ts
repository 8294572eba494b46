/** POST /items/v1/requests: register an item grant/retrieve request for asynchronous delivery. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv, JsonResponse } from "../env.ts";
import { jsonBody, jsonResponse } from "../env.ts";
import { itemRequestInputSchema } from "../../lib/items/record.ts";
import { registerItemRequest } from "../../lib/items/register.ts";
import { dispatchSoon } from "../../lib/items/dispatcher.ts";
import { DomainError } from "../../lib/errors.ts";

const route = createRoute({
  method: "post",
  path: "/items/v1/requests",
  tags: ["items"],
  summary:
    "Register an item delivery or retrieval request (sent to the game server asynchronously)",
  security: [{ bearer: [] }],
  request: { body: jsonBody(itemRequestInputSchema, "the item request record of the spec") },
  responses: {
    202: jsonResponse(
      z.object({
        code: z.literal(0),
        message: z.string(),
        transactionId: z.string(),
        status: z.literal("REGISTERED"),
      }),
      "registered (also for a repeated identical request)",
    ),
  },
});

/** Registers the route. */
export function registerItemRequestRoute(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const s = c.get("services");
    const input = c.req.valid("json");
    if (input.gameIndex !== c.get("apiKey").gameIndex) {
      throw new DomainError(
        "forbidden",
        "GAME_MISMATCH",
        `gameIndex ${input.gameIndex} is not the API key's game`,
      );
    }
    const reg = await registerItemRequest(s.db, input, {
      nowMs: s.clock.now(),
      requireEndpoint: true,
    });
    if (reg.created) dispatchSoon(s, input.gameIndex);
    return c.json({
      code: 0,
      message: "registered",
      transactionId: reg.transactionId,
      status: "REGISTERED",
    }, 202) as JsonResponse;
  });
}
