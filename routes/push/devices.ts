/** POST /push/v1/devices: register (or refresh) a device that receives the game's pushes. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv, JsonResponse } from "../env.ts";
import { jsonBody, jsonResponse } from "../env.ts";
import { DeviceBody, registerDevice } from "../../lib/push/devices.ts";
import { pushKeyResponses } from "./envelope.ts";

const route = createRoute({
  method: "post",
  path: "/push/v1/devices",
  tags: ["push"],
  summary: "Register a device token with its country, time zone and language",
  request: { body: jsonBody(DeviceBody) },
  responses: {
    200: jsonResponse(
      z.object({
        id: z.number(),
        zone: z.string().describe("the zone localizing campaigns schedule this device in"),
        language: z.string().nullable().describe("spec language code, or null (default used)"),
      }),
      "registered",
    ),
    400: { description: "a field is missing or invalid; error.reason names it" },
    ...pushKeyResponses,
  },
});

/** Registers the route. */
export function registerDevices(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const device = await registerDevice(c.get("services").db, c.req.valid("json"), {
      gameIndex: c.get("apiKey").gameIndex,
    });
    return c.json(device, 200) as JsonResponse;
  });
}
