/**
 * API keys for push, OTP, items and CPA: ES256 JWTs without expiry, scoped to one game,
 * stored only as a SHA-256 hash and revocable at once (every use checks the stored row).
 */
import { jwtVerify, SignJWT } from "jose";
import type { SigningKey } from "./keys.ts";
import type { Sql } from "../db/port.ts";
import { DomainError } from "../errors.ts";
import { equalFixed, randomToken, sha256Hex } from "../crypto/hashing.ts";

/** The scopes an API key can carry. */
export const API_SCOPES = ["push", "otp", "items", "cpa"] as const;
/** One scope. */
export type ApiScope = (typeof API_SCOPES)[number];

/** What a verified API key grants. */
export interface ApiKeyPrincipal {
  keyId: string;
  gameIndex: number;
  scopes: ApiScope[];
}

/** Issues a key for a game; the token is returned once and only its hash is kept. */
export async function createApiKey(
  db: Sql,
  key: SigningKey,
  input: { gameIndex: number; scopes: ApiScope[]; nowMs: number },
): Promise<{ keyId: string; apiKey: string }> {
  const keyId = `key_${randomToken(12)}`;
  const apiKey = await new SignJWT({ gid: input.gameIndex, scp: input.scopes, use: "api" })
    .setProtectedHeader({ alg: "ES256", kid: key.kid, typ: "JWT" })
    .setIssuer("game-platform")
    .setIssuedAt(Math.floor(input.nowMs / 1000))
    .setJti(keyId)
    .sign(key.privateKey);
  await db.query(
    "insert into api_keys (key_id, game_index, scopes, key_hash) values ($1, $2, $3, $4)",
    [keyId, input.gameIndex, input.scopes, await sha256Hex(apiKey)],
  );
  return { keyId, apiKey };
}

/** Revokes a key; returns false when no such key exists. */
export async function revokeApiKey(db: Sql, keyId: string): Promise<boolean> {
  const rows = await db.query(
    "update api_keys set revoked_at = coalesce(revoked_at, now()) where key_id = $1 returning key_id",
    [keyId],
  );
  return rows.length > 0;
}

/**
 * Verifies a presented key and its scope. Throws DomainError "unauthorized" (bad, unknown or
 * revoked key) or "forbidden" (valid key without the scope).
 */
export async function verifyApiKey(
  db: Sql,
  key: SigningKey,
  token: string,
  scope: ApiScope,
): Promise<ApiKeyPrincipal> {
  let keyId: string;
  try {
    const { payload } = await jwtVerify(token, key.verifyKey, {
      issuer: "game-platform",
      algorithms: ["ES256"],
    });
    if (payload.use !== "api" || typeof payload.jti !== "string") throw new Error("not an api key");
    keyId = payload.jti;
  } catch {
    throw new DomainError("unauthorized", "INVALID_API_KEY", "API key invalid");
  }
  const presented = await sha256Hex(token);
  // One statement reads the key and notes its use; the note is written at most once a minute
  // per key, and only for the key's own token, so a busy key does not write on every call.
  const [row] = await db.query<
    { game_index: number; scopes: ApiScope[]; key_hash: string; revoked: boolean }
  >(
    `with used as (
       update api_keys set last_used_at = now()
        where key_id = $1 and key_hash = $2 and revoked_at is null
          and (last_used_at is null or last_used_at < now() - interval '1 minute')
        returning 1)
     select game_index, scopes, key_hash, revoked_at is not null as revoked
       from api_keys where key_id = $1`,
    [keyId, presented],
  );
  if (!row || !equalFixed(presented, row.key_hash)) {
    throw new DomainError("unauthorized", "INVALID_API_KEY", "API key invalid");
  }
  if (row.revoked) throw new DomainError("unauthorized", "API_KEY_REVOKED", "API key revoked");
  if (!row.scopes.includes(scope)) {
    throw new DomainError("forbidden", "SCOPE_MISSING", `API key lacks the ${scope} scope`);
  }
  return { keyId, gameIndex: row.game_index, scopes: row.scopes };
}
