/** POST /v2/auth-token and POST /v2/refresh-token: client credentials and refresh tokens to token pairs. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { jsonBody } from "../env.ts";
import { renderChainOk } from "./envelope.ts";
import { chainOkResponse } from "./schemas.ts";
import { authenticateClient } from "../../lib/tenancy.ts";
import { issueTokenPair, verifyAppToken } from "../../lib/auth/tokens.ts";
import { DomainError } from "../../lib/errors.ts";

const TokenPair = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  expiresIn: z.number(),
});

const authToken = createRoute({
  method: "post",
  path: "/v2/auth-token",
  tags: ["blockchain"],
  summary: "Exchange the console-issued client id and secret for an access and refresh token",
  request: {
    body: jsonBody(z.object({ clientId: z.string().min(1), clientSecret: z.string().min(1) })),
  },
  responses: chainOkResponse(TokenPair, "token pair; access 24 h, refresh 7 days"),
});

const refreshToken = createRoute({
  method: "post",
  path: "/v2/refresh-token",
  tags: ["blockchain"],
  summary: "Exchange a refresh token (single use) for a new token pair",
  request: { body: jsonBody(z.object({ refreshToken: z.string().min(1) })) },
  responses: chainOkResponse(TokenPair, "new token pair"),
});

/** Registers the two token endpoints. */
export function registerAuthToken(app: OpenAPIHono<AppEnv>) {
  app.openapi(authToken, async (c) => {
    const s = c.get("services");
    const { clientId, clientSecret } = c.req.valid("json");
    const principal = await authenticateClient(s.db, clientId, clientSecret);
    return renderChainOk(c, await issueTokenPair(s.signingKey, principal, s.clock.now()));
  });
  app.openapi(refreshToken, async (c) => {
    const s = c.get("services");
    const now = s.clock.now();
    const token = await verifyAppToken(
      s.signingKey,
      c.req.valid("json").refreshToken,
      "refresh",
      now,
    );
    // Refresh tokens are single use: the first exchange marks the jti until the token expires.
    const fresh = await s.kv.set(`auth:refresh-used:${token.jti}`, "1", {
      nx: true,
      ttlMs: Math.max(1000, token.exp * 1000 - now),
    });
    if (!fresh) {
      throw new DomainError("unauthorized", "REFRESH_REUSED", "refresh token already used");
    }
    return renderChainOk(c, await issueTokenPair(s.signingKey, token, now));
  });
}
