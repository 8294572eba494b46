/**
 * Blockchain request authentication: access token, x-network and (for /service/v1) x-appid.
 * Sets c.get("app") and c.get("network").
 */
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv, Network } from "../env.ts";
import { DomainError } from "../../lib/errors.ts";
import { verifiedAppToken, type VerifiedToken, verifyAppToken } from "../../lib/auth/tokens.ts";
import { parseAuthorization } from "../auth.ts";

/** Maps an x-network value to a network; `ploygon` (the spec's misspelling) means polygon. */
export function parseNetwork(value: string | undefined): Network | null {
  if (value === "polygon" || value === "xpla") return value;
  switch (value?.trim().toLowerCase()) {
    case "polygon":
    case "ploygon":
      return "polygon";
    case "xpla":
      return "xpla";
    default:
      return null;
  }
}

/**
 * Requires a valid access token and x-network; with `appid`, also x-appid equal to the token's
 * app. A token verified before answers from the cache without an async step (verifiedAppToken).
 */
export function requireAppToken(options: { appid: boolean }): MiddlewareHandler<AppEnv> {
  const admit = (c: Context<AppEnv>, token: VerifiedToken) => {
    const network = parseNetwork(c.req.header("x-network"));
    if (!network) {
      throw new DomainError(
        "invalid",
        "NETWORK_INVALID",
        "x-network header must be polygon or xpla",
      );
    }
    if (options.appid) {
      const appid = c.req.header("x-appid");
      if (!appid) throw new DomainError("forbidden", "APPID_MISMATCH", "x-appid header missing");
      if (appid !== token.appid) {
        throw new DomainError("forbidden", "APPID_MISMATCH", "x-appid does not match the token");
      }
    }
    c.set("app", { appid: token.appid, gameIndex: token.gameIndex, clientId: token.clientId });
    c.set("network", network);
  };
  return (c, next) => {
    const header = c.req.header("authorization");
    const s = c.get("services");
    const now = s.clock.now();
    // A token in the cache was presented as `Bearer <token>` before (tokens hold no whitespace),
    // so the header is looked up as it is first; anything else is parsed and checked in full.
    if (header !== undefined && header.startsWith("Bearer ")) {
      const cached = verifiedAppToken(s.signingKey, header.slice(7), "access", now);
      if (cached) {
        admit(c, cached);
        return next();
      }
    }
    const auth = parseAuthorization(header);
    if (!auth || !auth.token) {
      throw new DomainError("unauthorized", "TOKEN_MISSING", "Authorization bearer token missing");
    }
    if (auth.scheme !== "bearer") {
      throw new DomainError("unauthorized", "TOKEN_MISSING", "authorization scheme must be Bearer");
    }
    const cached = verifiedAppToken(s.signingKey, auth.token, "access", now);
    if (cached) {
      admit(c, cached);
      return next();
    }
    return verifyAppToken(s.signingKey, auth.token, "access", now).then((token) => {
      admit(c, token);
      return next();
    });
  };
}
