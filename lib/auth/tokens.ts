/** Blockchain API access and refresh tokens (ES256 JWTs). */
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import type { SigningKey } from "./keys.ts";
import { DomainError } from "../errors.ts";
import { randomToken } from "../crypto/hashing.ts";

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

/** Verifies a token of the given use; throws DomainError("unauthorized") with the reason. */
export async function verifyAppToken(
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
