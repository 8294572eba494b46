/** Blockchain API access and refresh tokens (ES256 JWTs). */
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import type { SigningKey } from "./keys.ts";
import { DomainError } from "../errors.ts";
import { randomToken } from "../crypto/hashing.ts";
import { cacheFor, LruCache } from "../cache/lru.ts";

/** Access tokens live 24 hours. */
export const ACCESS_TTL_S = 24 * 3600;
/** Refresh tokens live 7 days. */
export const REFRESH_TTL_S = 7 * 24 * 3600;
const ISSUER = "game-platform";

/** Who a token speaks for. */
export interface AppPrincipal {
  appid: string;
  gameIndex: number;
  clientId: string;
}

/** A token pair as the auth endpoints return it. */
export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
}

async function sign(
  key: SigningKey,
  claims: Record<string, unknown>,
  subject: string,
  nowS: number,
  ttl: number,
) {
  return await new SignJWT(claims)
    .setProtectedHeader({ alg: "ES256", kid: key.kid, typ: "JWT" })
    .setIssuer(ISSUER)
    .setSubject(subject)
    .setIssuedAt(nowS)
    .setExpirationTime(nowS + ttl)
    .setJti(randomToken(12))
    .sign(key.privateKey);
}

/** Issues an access token and a refresh token for an app. */
export async function issueTokenPair(
  key: SigningKey,
  principal: AppPrincipal,
  nowMs: number,
): Promise<TokenPair> {
  const nowS = Math.floor(nowMs / 1000);
  const claims = { app: principal.appid, gid: principal.gameIndex };
  const [accessToken, refreshToken] = await Promise.all([
    sign(key, { ...claims, use: "access" }, principal.clientId, nowS, ACCESS_TTL_S),
    sign(key, { ...claims, use: "refresh" }, principal.clientId, nowS, REFRESH_TTL_S),
  ]);
  return { accessToken, refreshToken, expiresIn: ACCESS_TTL_S };
}

/** Verified claims of a token. */
export interface VerifiedToken extends AppPrincipal {
  jti: string;
  exp: number;
}

/** Verified tokens kept per isolate (and signing key); each entry lives until its token expires. */
export const VERIFIED_TOKEN_CACHE_SIZE = 10_000;
const verifiedTokens = new WeakMap<
  object,
  LruCache<string, { use: "access" | "refresh"; verified: VerifiedToken }>
>();

/**
 * The claims of a token of this use verified before in this isolate and not expired at `nowMs`,
 * without waiting for anything; undefined when it must be verified (verifyAppToken). The claims
 * are shared between the token's requests: read them, do not change them.
 */
export function verifiedAppToken(
  key: SigningKey,
  token: string,
  use: "access" | "refresh",
  nowMs: number,
): VerifiedToken | undefined {
  const hit = verifiedTokens.get(key)?.get(token, nowMs);
  return hit && hit.use === use ? hit.verified : undefined;
}

/**
 * Verifies a token of the given use; throws DomainError("unauthorized") with the reason. A token
 * verified once is answered from a bounded per-isolate cache until it expires, so the ES256
 * signature is checked once per token and isolate, not once per request. (Access tokens cannot
 * be revoked before they expire, so the cache changes no answer.)
 */
export async function verifyAppToken(
  key: SigningKey,
  token: string,
  use: "access" | "refresh",
  nowMs: number,
): Promise<VerifiedToken> {
  const hit = verifiedAppToken(key, token, use, nowMs);
  if (hit) return { ...hit };
  const verified = await verifySignedToken(key, token, use, nowMs);
  // Refresh tokens are used once a day at most per app: only access tokens are worth keeping.
  // Only a token as a Bearer header carries it (no whitespace) is kept: the token middleware looks
  // the header's text up as it is before parsing it (routes/blockchain/auth.ts).
  if (use === "access" && !/\s/.test(token)) {
    cacheFor(verifiedTokens, key, VERIFIED_TOKEN_CACHE_SIZE).set(
      token,
      { use, verified: { ...verified } },
      verified.exp * 1000,
    );
  }
  return verified;
}

async function verifySignedToken(
  key: SigningKey,
  token: string,
  use: "access" | "refresh",
  nowMs: number,
): Promise<VerifiedToken> {
  try {
    const { payload } = await jwtVerify(token, key.verifyKey, {
      issuer: ISSUER,
      algorithms: ["ES256"],
      currentDate: new Date(nowMs),
    });
    if (payload.use !== use || typeof payload.app !== "string" || typeof payload.gid !== "number") {
      throw new DomainError("unauthorized", "TOKEN_INVALID", `not an ${use} token`);
    }
    return {
      appid: payload.app,
      gameIndex: payload.gid,
      clientId: String(payload.sub),
      jti: String(payload.jti),
      exp: Number(payload.exp),
    };
  } catch (err) {
    if (err instanceof DomainError) throw err;
    if (err instanceof joseErrors.JWTExpired) {
      throw new DomainError("unauthorized", "TOKEN_EXPIRED", "token expired");
    }
    throw new DomainError("unauthorized", "TOKEN_INVALID", "token invalid");
  }
}
