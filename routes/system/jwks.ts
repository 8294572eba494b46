/** GET /.well-known/jwks.json: the public key that verifies access, refresh and API-key tokens. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv, JsonResponse } from "../env.ts";
import { jsonResponse } from "../env.ts";

const route = createRoute({
  method: "get",
  path: "/.well-known/jwks.json",
  tags: ["system"],
  summary: "Public signing keys (JWKS)",
  responses: {
    200: jsonResponse(z.object({ keys: z.array(z.record(z.string(), z.any())) }), "JWKS"),
  },
});

/** Registers the JWKS route. */
export function registerJwks(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, (c) => {
    c.header("Cache-Control", "public, max-age=300");
    return c.json({ keys: c.get("services").signingKey.publicJwks }, 200) as JsonResponse;
  });
}
