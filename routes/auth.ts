/** Authentication middleware shared by the families: admin token and scoped API keys. */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env.ts";
import { DomainError } from "../lib/errors.ts";
import { equalFixed, sha256Hex } from "../lib/crypto/hashing.ts";
import { type ApiScope, verifyApiKey } from "../lib/auth/api_keys.ts";

/** Splits an Authorization header; the scheme is compared case-insensitively. */
export function parseAuthorization(header: string | undefined) {
  if (!header || !header.trim()) return null;
  const m = /^\s*(\S+)(?:\s+(\S+))?\s*$/.exec(header);
  if (!m) return { scheme: "", token: "" };
  return { scheme: m[1].toLowerCase(), token: m[2] ?? "" };
}

/** Requires `Authorization: Bearer <API key>` carrying the scope; sets c.var.apiKey. */
export function requireApiKey(scope: ApiScope): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const auth = parseAuthorization(c.req.header("authorization"));
    if (!auth) {
      throw new DomainError("unauthorized", "UNAUTHORIZED", "Authorization header missing");
    }
    if (auth.scheme !== "bearer") {
      throw new DomainError("forbidden", "FORBIDDEN", "authorization scheme must be Bearer");
    }
    if (!auth.token) throw new DomainError("unauthorized", "UNAUTHORIZED", "API key missing");
    const s = c.var.services;
    c.set("apiKey", await verifyApiKey(s.db, s.signingKey, auth.token, scope));
    await next();
  };
}

/** Requires `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time. */
export const requireAdmin: MiddlewareHandler<AppEnv> = async (c, next) => {
  const auth = parseAuthorization(c.req.header("authorization"));
  if (!auth || auth.scheme !== "bearer" || !auth.token) {
    throw new DomainError("unauthorized", "UNAUTHORIZED", "admin bearer token required");
  }
  const presented = await sha256Hex(auth.token);
  if (!equalFixed(presented, c.var.services.adminTokenHash)) {
    throw new DomainError("unauthorized", "UNAUTHORIZED", "admin token invalid");
  }
  await next();
};
