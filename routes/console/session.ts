/**
 * Console sessions: signing in with the admin token gives a session in an HttpOnly,
 * SameSite=Strict cookie (Secure outside embedded mode) holding an ES256 token signed with the
 * service's signing key. The token carries the session id, its CSRF token and a fingerprint of
 * the admin token, so changing ADMIN_TOKEN ends every session; signing out revokes the id.
 */
import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { jwtVerify, SignJWT } from "jose";
import type { AppEnv } from "../env.ts";
import type { Services } from "../../lib/services.ts";
import { equalFixed, randomToken, sha256Hex } from "../../lib/crypto/hashing.ts";
import { DomainError } from "../../lib/errors.ts";

/** The session cookie. */
export const SESSION_COOKIE = "gp_console";
/** The cookie holding the sign-in form's CSRF token (there is no session yet). */
export const SIGN_IN_COOKIE = "gp_console_signin";
/** How long a session lasts. */
export const SESSION_TTL_MS = 8 * 3_600_000;

/** A signed-in console user. */
export interface ConsoleSession {
  sid: string;
  csrf: string;
  expiresAt: number;
}

function cookieOptions(services: Services, maxAgeSeconds: number) {
  return {
    path: "/console",
    httpOnly: true,
    secure: !services.config.embedded,
    sameSite: "Strict" as const,
    maxAge: maxAgeSeconds,
  };
}

async function adminFingerprint(services: Services): Promise<string> {
  return (await sha256Hex(`console:${services.adminTokenHash}`)).slice(0, 32);
}

/** Checks a presented admin token in constant time. */
export async function adminTokenMatches(services: Services, token: string): Promise<boolean> {
  return equalFixed(await sha256Hex(token), services.adminTokenHash);
}

/** Starts a session: signs the token and sets the cookie. */
export async function startSession(c: Context<AppEnv>): Promise<ConsoleSession> {
  const s = c.get("services");
  const now = s.clock.now();
  const session = { sid: randomToken(16), csrf: randomToken(24), expiresAt: now + SESSION_TTL_MS };
  const jwt = await new SignJWT({
    use: "console",
    csrf: session.csrf,
    adm: await adminFingerprint(s),
  })
    .setProtectedHeader({ alg: "ES256", kid: s.signingKey.kid, typ: "JWT" })
    .setIssuer("game-platform")
    .setJti(session.sid)
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor(session.expiresAt / 1000))
    .sign(s.signingKey.privateKey);
  setCookie(c, SESSION_COOKIE, jwt, cookieOptions(s, SESSION_TTL_MS / 1000));
  return session;
}

/** Reads and verifies the session cookie; null when absent, expired, revoked or forged. */
export async function readSession(c: Context<AppEnv>): Promise<ConsoleSession | null> {
  const token = getCookie(c, SESSION_COOKIE);
  if (!token || token.length > 4096) return null;
  const s = c.get("services");
  try {
    const { payload } = await jwtVerify(token, s.signingKey.verifyKey, {
      issuer: "game-platform",
      algorithms: ["ES256"],
      currentDate: new Date(s.clock.now()),
    });
    if (
      payload.use !== "console" || typeof payload.jti !== "string" ||
      typeof payload.csrf !== "string" || typeof payload.exp !== "number" ||
      payload.adm !== await adminFingerprint(s)
    ) return null;
    if (await s.kv.get(`console:revoked:${payload.jti}`)) return null;
    return { sid: payload.jti, csrf: payload.csrf, expiresAt: payload.exp * 1000 };
  } catch {
    return null;
  }
}

/** Ends a session: revokes its id until it would have expired and clears the cookie. */
export async function endSession(c: Context<AppEnv>, session: ConsoleSession) {
  const s = c.get("services");
  const ttlMs = Math.max(1000, session.expiresAt - s.clock.now());
  await s.kv.set(`console:revoked:${session.sid}`, "1", { ttlMs });
  deleteCookie(c, SESSION_COOKIE, { path: "/console", secure: !s.config.embedded });
}

/** A fresh CSRF token for the sign-in form, also set as a short-lived cookie. */
export function signInCsrf(c: Context<AppEnv>): string {
  const token = randomToken(24);
  setCookie(c, SIGN_IN_COOKIE, token, cookieOptions(c.get("services"), 900));
  return token;
}

/** Compares a presented CSRF token with the expected one in constant time. */
export function csrfMatches(presented: unknown, expected: string | undefined): boolean {
  if (typeof presented !== "string" || !expected || presented.length !== expected.length) {
    return false;
  }
  return equalFixed(presented, expected);
}

/** Console context variables. */
export type ConsoleEnv = AppEnv & {
  Variables: AppEnv["Variables"] & {
    session: ConsoleSession;
    form: Record<string, string>;
  };
};

/**
 * Requires a session (redirects to sign-in otherwise) and, for every POST, the session's CSRF
 * token in the `_csrf` form field or the `X-CSRF-Token` header (403 otherwise).
 */
export const requireSession: MiddlewareHandler<ConsoleEnv> = async (c, next) => {
  const session = await readSession(c as unknown as Context<AppEnv>);
  if (!session) {
    if (c.req.method === "GET") {
      const back = encodeURIComponent(c.req.path);
      return c.redirect(`/console/sign-in?next=${back}`, 303);
    }
    throw new DomainError(
      "unauthorized",
      "SESSION_REQUIRED",
      "Your session has ended. Sign in again.",
    );
  }
  c.set("session", session);
  if (c.req.method === "POST") {
    const form: Record<string, string> = {};
    const type = c.req.header("content-type") ?? "";
    if (/application\/x-www-form-urlencoded|multipart\/form-data/i.test(type)) {
      const parsed = await c.req.parseBody({ all: false });
      for (const [k, v] of Object.entries(parsed)) if (typeof v === "string") form[k] = v;
    }
    c.set("form", form);
    const presented = form._csrf ?? c.req.header("x-csrf-token");
    if (!csrfMatches(presented, session.csrf)) {
      throw new DomainError(
        "forbidden",
        "CSRF_REJECTED",
        "This form did not come from your console session (missing or wrong CSRF token). Reload the page and try again.",
      );
    }
  }
  await next();
};
