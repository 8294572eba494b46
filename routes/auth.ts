/** Authentication middleware shared by the families: admin token and scoped API keys. */
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "./env.ts";
import { DomainError } from "../lib/errors.ts";
import { equalFixed, sha256Hex } from "../lib/crypto/hashing.ts";
import { type ApiScope, verifiedApiKey, verifyApiKey } from "../lib/auth/api_keys.ts";
import { assertAdminAttemptAllowed, countAdminFailure } from "../lib/auth/admin_failures.ts";
import { KvError } from "../lib/kv/port.ts";
import type { Services } from "../lib/services.ts";

/** Splits an Authorization header; the scheme is compared case-insensitively. */
export function parseAuthorization(header: string | undefined) {
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
    const auth = parseAuthorization(c.req.header("authorization"));
    if (!auth) {
      throw new DomainError("unauthorized", "UNAUTHORIZED", "Authorization header missing");
    }
    if (auth.scheme !== "bearer") {
      throw new DomainError("forbidden", "FORBIDDEN", "authorization scheme must be Bearer");
    }
    if (!auth.token) throw new DomainError("unauthorized", "UNAUTHORIZED", "API key missing");
    const s = c.get("services");
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

/**
 * The client's address: the peer of the connection on Deno (Deno.serve passes it as the handler
 * info), else Cloudflare's `CF-Connecting-IP` (set by the edge, which a client cannot override on
 * Workers). Headers are not trusted on Deno, where any client could send them.
 */
export function clientAddress(c: Context<AppEnv>): string {
  const env = c.env as { remoteAddr?: { hostname?: string } } | undefined;
  return env?.remoteAddr?.hostname ?? c.req.header("cf-connecting-ip") ?? "unknown";
}

/**
 * Requires `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time. Failed attempts
 * are counted per client address; past ADMIN_AUTH_MAX_FAILURES the address gets 429.
 */
export const requireAdmin: MiddlewareHandler<AppEnv> = async (c, next) => {
  const s = c.get("services");
  const address = clientAddress(c);
  const limits = {
    maxFailures: s.config.ADMIN_AUTH_MAX_FAILURES,
    windowSeconds: s.config.ADMIN_AUTH_WINDOW_SECONDS,
  };
  await guardKv(s, () => assertAdminAttemptAllowed(s.kv, address, limits));
  const auth = parseAuthorization(c.req.header("authorization"));
  if (!auth || auth.scheme !== "bearer" || !auth.token) {
    throw new DomainError("unauthorized", "UNAUTHORIZED", "admin bearer token required");
  }
  const presented = await sha256Hex(auth.token);
  if (!equalFixed(presented, s.adminTokenHash)) {
    await guardKv(s, () => countAdminFailure(s.kv, address, limits));
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
