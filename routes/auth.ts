/** Authentication middleware shared by the families: admin token and scoped API keys. */
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "./env.ts";
import { DomainError } from "../lib/errors.ts";
import { equalFixed, sha256Hex } from "../lib/crypto/hashing.ts";
import { type ApiScope, verifiedApiKey, verifyApiKey } from "../lib/auth/api_keys.ts";
import { assertAdminAttemptAllowed, countAdminFailure } from "../lib/auth/admin_failures.ts";
import { KvError } from "../lib/kv/port.ts";
import type { Services } from "../lib/services.ts";
import { clientAddress as clientAddressOf, type RequestOrigin } from "../lib/proxy_trust.ts";

const WHITESPACE = /\s/;

/** Splits an Authorization header; the scheme is compared case-insensitively. */
export function parseAuthorization(header: string | undefined) {
  // The usual form, `Bearer <token>` with nothing around the token, without the pattern below.
  if (header !== undefined && header.startsWith("Bearer ") && header.length > 7) {
    const token = header.slice(7);
    if (!WHITESPACE.test(token)) return { scheme: "bearer", token };
  }
  if (!header || !header.trim()) return null;
  const m = /^\s*(\S+)(?:\s+(\S+))?\s*$/.exec(header);
  if (!m) return { scheme: "", token: "" };
  return { scheme: m[1].toLowerCase(), token: m[2] ?? "" };
}

/**
 * Requires `Authorization: Bearer <API key>` carrying the scope; sets c.get("apiKey"). A key whose
 * row is cached is admitted without an async step (verifiedApiKey).
 */
export function requireApiKey(scope: ApiScope): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    const header = c.req.header("authorization");
    const s = c.get("services");
    // A key in the cache was presented as `Bearer <key>` before (keys hold no whitespace), so the
    // header is looked up as it is first; anything else is parsed and checked in full below.
    if (header !== undefined && header.startsWith("Bearer ")) {
      const cached = verifiedApiKey(s.db, s.signingKey, header.slice(7), scope);
      if (cached) {
        c.set("apiKey", cached);
        return next();
      }
    }
    const auth = parseAuthorization(header);
    if (!auth) {
      throw new DomainError("unauthorized", "UNAUTHORIZED", "Authorization header missing");
    }
    if (auth.scheme !== "bearer") {
      throw new DomainError("forbidden", "FORBIDDEN", "authorization scheme must be Bearer");
    }
    if (!auth.token) throw new DomainError("unauthorized", "UNAUTHORIZED", "API key missing");
    const cached = verifiedApiKey(s.db, s.signingKey, auth.token, scope);
    if (cached) {
      c.set("apiKey", cached);
      return next();
    }
    return verifyApiKey(s.db, s.signingKey, auth.token, scope).then((principal) => {
      c.set("apiKey", principal);
      return next();
    });
  };
}

/** What the request says about its origin, for lib/proxy_trust.ts. */
export function requestOrigin(c: Context<AppEnv>): RequestOrigin {
  // Deno.serve hands its handler info (with the peer address) to app.fetch as the env.
  const env = c.env as { remoteAddr?: { hostname?: string } } | undefined;
  const peer = env && typeof env === "object" && "remoteAddr" in env
    ? env.remoteAddr?.hostname ?? "unknown"
    : undefined;
  return { peer, header: (name) => c.req.header(name), url: c.req.url };
}

/**
 * The client's address: the connection's peer on Deno (or, through a proxy that TRUSTED_PROXIES
 * names, the address its X-Forwarded-For vouches for), Cloudflare's `CF-Connecting-IP` on Workers.
 */
export function clientAddress(c: Context<AppEnv>): string {
  return clientAddressOf(requestOrigin(c), c.get("services").config.TRUSTED_PROXIES);
}

/**
 * The one limit on wrong admin tokens, shared by the admin API and console sign-in: throws
 * rate_limited (with retryAfterS) once the client's address has used up its failures.
 */
export async function assertAdminTokenAttemptAllowed(c: Context<AppEnv>): Promise<void> {
  const s = c.get("services");
  const address = clientAddress(c);
  await guardKv(s, () => assertAdminAttemptAllowed(s.kv, address, adminLimits(s)));
}

/** Counts one wrong admin token against the client's address (admin API or console sign-in). */
export async function countAdminTokenFailure(c: Context<AppEnv>): Promise<void> {
  const s = c.get("services");
  const address = clientAddress(c);
  await guardKv(s, () => countAdminFailure(s.kv, address, adminLimits(s)));
}

function adminLimits(s: Services) {
  return {
    maxFailures: s.config.ADMIN_AUTH_MAX_FAILURES,
    windowSeconds: s.config.ADMIN_AUTH_WINDOW_SECONDS,
  };
}

/**
 * Requires `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time. Failed attempts
 * are counted per client address; past ADMIN_AUTH_MAX_FAILURES the address gets 429.
 */
export const requireAdmin: MiddlewareHandler<AppEnv> = async (c, next) => {
  const s = c.get("services");
  await assertAdminTokenAttemptAllowed(c);
  const auth = parseAuthorization(c.req.header("authorization"));
  if (!auth || auth.scheme !== "bearer" || !auth.token) {
    throw new DomainError("unauthorized", "UNAUTHORIZED", "admin bearer token required");
  }
  const presented = await sha256Hex(auth.token);
  if (!equalFixed(presented, s.adminTokenHash)) {
    await countAdminTokenFailure(c);
    throw new DomainError("unauthorized", "UNAUTHORIZED", "admin token invalid");
  }
  await next();
};

/** Runs a KV step of the failure limit; a KV outage skips it rather than locking admins out. */
async function guardKv(s: Services, step: () => Promise<void>): Promise<void> {
  try {
    await step();
  } catch (err) {
    if (err instanceof KvError) s.log.warn("admin failure limit skipped: KV unavailable", { err });
    else throw err;
  }
}
