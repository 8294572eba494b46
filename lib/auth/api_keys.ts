/**
 * API keys for push, OTP, items and CPA: ES256 JWTs without expiry, scoped to one game,
 * stored only as a SHA-256 hash and revocable (see verifyApiKey for how soon).
 */
import { decodeJwt, decodeProtectedHeader, SignJWT } from "jose";
import type { SigningKey } from "./keys.ts";
import type { Sql } from "../db/port.ts";
import { DomainError } from "../errors.ts";
import { equalFixed, randomToken, sha256Hex } from "../crypto/hashing.ts";
import { cacheFor, LruCache } from "../cache/lru.ts";

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
  input: { gameIndex: number; scopes: ApiScope[]; nowMs: number; name?: string },
): Promise<{ keyId: string; apiKey: string; name: string | null }> {
  const keyId = `key_${randomToken(12)}`;
  const apiKey = await new SignJWT({ gid: input.gameIndex, scp: input.scopes, use: "api" })
    .setProtectedHeader({ alg: "ES256", kid: key.kid, typ: "JWT" })
    .setIssuer("game-platform")
    .setIssuedAt(Math.floor(input.nowMs / 1000))
    .setJti(keyId)
    .sign(key.privateKey);
  await db.query(
    "insert into api_keys (key_id, game_index, scopes, key_hash, name) values ($1, $2, $3, $4, $5)",
    [keyId, input.gameIndex, input.scopes, await sha256Hex(apiKey), input.name ?? null],
  );
  return { keyId, apiKey, name: input.name ?? null };
}

/** Revokes a key (at once in this isolate, within API_KEY_CACHE_MS in others). */
export async function revokeApiKey(db: Sql, keyId: string): Promise<boolean> {
  const rows = await db.query(
    "update api_keys set revoked_at = coalesce(revoked_at, now()) where key_id = $1 returning key_id",
    [keyId],
  );
  keyRows.get(db)?.deleteWhere((row) => row.keyId === keyId);
  return rows.length > 0;
}

/** How long a verified key's row is reused before the database is asked again. */
export const API_KEY_CACHE_MS = 5_000;
const API_KEY_CACHE_SIZE = 10_000;

interface KeyRow {
  keyId: string;
  /** The signing key that issued it. */
  kid: string;
  gameIndex: number;
  scopes: ApiScope[];
  revoked: boolean;
  /** What admitKey answers for this row (made on first use). */
  principal?: ApiKeyPrincipal;
}
const keyRows = new WeakMap<object, LruCache<string, KeyRow>>();
const keyLoads = new WeakMap<object, Map<string, Promise<KeyRow>>>();

/** The key id (`jti`) and signing key id (`kid`) of an API key, read without verifying it. */
function keyIdsOf(token: string): { keyId: string; kid: string } | null {
  try {
    const { kid } = decodeProtectedHeader(token);
    const payload = decodeJwt(token);
    if (payload.use !== "api" || typeof payload.jti !== "string" || typeof kid !== "string") {
      return null;
    }
    return { keyId: payload.jti, kid };
  } catch {
    return null;
  }
}

/**
 * Verifies a presented key and its scope. Throws DomainError "unauthorized" (bad, unknown or
 * revoked key) or "forbidden" (valid key without the scope).
 *
 * The key is authenticated by its SHA-256 hash, compared in constant time with the stored one:
 * only a token this service issued has it, so no signature check is needed per request. Its
 * signing key must still be one of the accepted keys (a key signed by a retired signing key stops
 * working when that key is no longer listed). The stored row (scopes, revocation) is reused for
 * API_KEY_CACHE_MS per isolate; revoking drops it at once in the revoking isolate, so a revoked
 * key stops working there immediately and everywhere within API_KEY_CACHE_MS.
 */
export async function verifyApiKey(
  db: Sql,
  key: SigningKey,
  token: string,
  scope: ApiScope,
): Promise<ApiKeyPrincipal> {
  const cache = cacheFor(keyRows, db, API_KEY_CACHE_SIZE);
  const nowMs = Date.now();
  const hit = cache.get(token, nowMs);
  if (hit) return admitKey(hit, key, scope);
  // Concurrent first uses of a key share one lookup.
  let loading = keyLoads.get(db);
  if (!loading) keyLoads.set(db, loading = new Map());
  let pending = loading.get(token);
  if (!pending) {
    const inFlight = loading;
    pending = loadKeyRow(db, token).finally(() => inFlight.delete(token));
    loading.set(token, pending);
  }
  const row = await pending;
  cache.set(token, row, nowMs + API_KEY_CACHE_MS);
  return admitKey(row, key, scope);
}

/**
 * verifyApiKey's answer when the key's row is in this isolate's cache, without waiting for
 * anything (it throws as verifyApiKey does); undefined when the row must be read (verifyApiKey).
 */
export function verifiedApiKey(
  db: Sql,
  key: SigningKey,
  token: string,
  scope: ApiScope,
): ApiKeyPrincipal | undefined {
  const row = keyRows.get(db)?.get(token, Date.now());
  return row && admitKey(row, key, scope);
}

function admitKey(row: KeyRow, key: SigningKey, scope: ApiScope): ApiKeyPrincipal {
  if (!signedBy(key, row.kid)) {
    throw new DomainError("unauthorized", "INVALID_API_KEY", "API key invalid");
  }
  if (row.revoked) throw new DomainError("unauthorized", "API_KEY_REVOKED", "API key revoked");
  if (!row.scopes.includes(scope)) {
    throw new DomainError("forbidden", "SCOPE_MISSING", `API key lacks the ${scope} scope`);
  }
  // One principal per row read (read-only for the routes), not one per request.
  return row.principal ??= Object.freeze({
    keyId: row.keyId,
    gameIndex: row.gameIndex,
    scopes: row.scopes,
  });
}

/** Whether `kid` names one of the accepted signing keys. */
function signedBy(key: SigningKey, kid: string): boolean {
  for (const jwk of key.publicJwks) if (jwk.kid === kid) return true;
  return false;
}

async function loadKeyRow(db: Sql, token: string): Promise<KeyRow> {
  const ids = keyIdsOf(token);
  if (!ids) {
    throw new DomainError("unauthorized", "INVALID_API_KEY", "API key invalid");
  }
  const presented = await sha256Hex(token);
  // One statement reads the key and notes its use (lastUsedAt of the admin API); the note is
  // written at most once a minute per key, and only for the key's own token.
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
    [ids.keyId, presented],
  );
  if (!row || !equalFixed(presented, row.key_hash)) {
    throw new DomainError("unauthorized", "INVALID_API_KEY", "API key invalid");
  }
  return {
    keyId: ids.keyId,
    kid: ids.kid,
    gameIndex: row.game_index,
    scopes: row.scopes,
    revoked: row.revoked,
  };
}
