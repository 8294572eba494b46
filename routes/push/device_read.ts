/** GET /push/devices/{appid}/{token}: one device's state and its latest provider deliveries. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv, JsonResponse } from "../env.ts";
import { deviceReport } from "../../lib/push/reports.ts";
import { pushKeyResponses } from "./envelope.ts";

const route = createRoute({
  method: "get",
  path: "/push/devices/{appid}/{token}",
  tags: ["push"],
  summary: "A device: active or deactivated (with the provider's reason) and its last deliveries",
  request: {
    params: z.object({ appid: z.string().min(1), token: z.string().min(1).max(4096) }),
  },
  responses: {
    200: { description: "the device's state" },
    ...pushKeyResponses,
    404: { description: "no device with that token in that app of the key's game" },
  },
});

/** Registers the route. */
export function registerDeviceRead(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { appid, token } = c.req.valid("param");
    const device = await deviceReport(c.get("services"), appid, token, c.get("apiKey").gameIndex);
    return c.json(device, 200) as JsonResponse;
  });
}
