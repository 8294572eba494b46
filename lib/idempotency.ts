/**
 * Idempotency keys of the blockchain API's writing endpoints, per app, kept in PostgreSQL for
 * IDEMPOTENCY_TTL_HOURS (24 by default). The first request with a key claims it with a lease (one
 * statement, so two instances never both run it); its answer is stored and replayed to every
 * later request with the same key and the same request (method, path, network, body). A request
 * with the key and another body is refused. A request that finds the key still running waits for
 * the answer. A run whose instance died is taken over once its lease ran out; the request id the
 * key stands for (idempotentRequestId) keeps that second run from recording or sending a second
 * transaction.
 */
import type { Services } from "./services.ts";
import { sha256Hex } from "./crypto/hashing.ts";

/** How long a run holds its key before another request may take it over. */
export const IDEMPOTENCY_LEASE_MS = 60_000;

/** A stored answer. */
export interface StoredAnswer {
  status: number;
  contentType: string;
  body: string;
}

/** What a request with a key does. */
export type IdempotencyClaim =
  /** Run it (first time, or taken over from a run that died: `takenOver`). */
  | { kind: "run"; takenOver: boolean; since: number }
  /** Answer the stored answer again. */
  | { kind: "replay"; answer: StoredAnswer }
  /** The key was used with another request. */
  | { kind: "mismatch" }
  /** The first request with this key is still running. */
  | { kind: "running" };

/** The fingerprint of a request: what must be equal for a replay. */
export async function requestFingerprint(parts: string[]): Promise<string> {
  return await sha256Hex(parts.join("\n"));
}

/**
 * The request id a key stands for when the body names none: a UUID made from the app, the key
 * and when the key was first used, so a second run of the same request finds the first one's
 * record (and a key used again after it expired stands for a new request).
 */
export async function idempotentRequestId(
  appid: string,
  key: string,
  since: number,
): Promise<string> {
  const hex = await sha256Hex(`${appid}\n${key}\n${since}`);
  // Formatted as a version-8 (custom) UUID.
  const v = `8${hex.slice(13, 16)}`;
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16) + hex.slice(17, 20);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${v}-${variant}-${hex.slice(20, 32)}`;
}

/** Claims `key` for a request of `appid`, or tells what to answer instead. */
export async function claimIdempotencyKey(
  s: Services,
  q: { appid: string; key: string; fingerprint: string },
): Promise<IdempotencyClaim> {
  const now = s.clock.now();
  const expires = new Date(now + s.config.IDEMPOTENCY_TTL_HOURS * 3_600_000);
  // Inserted, or taken over when expired or when its run's lease ran out (same request only).
  const claimed = await s.db.query<{ taken_over: boolean; created_at: Date | string }>(
    `insert into idempotency_keys (appid, key, fingerprint, state, lease_until, created_at,
       expires_at)
     values ($1, $2, $3, 'running', $4, $5, $6)
     on conflict (appid, key) do update set fingerprint = excluded.fingerprint,
         state = 'running', lease_until = excluded.lease_until, status = null, body = null,
         created_at = case when idempotency_keys.expires_at < $5 then excluded.created_at
                      else idempotency_keys.created_at end,
         expires_at = case when idempotency_keys.expires_at < $5 then excluded.expires_at
                      else idempotency_keys.expires_at end
       where idempotency_keys.expires_at < $5
          or (idempotency_keys.state = 'running' and idempotency_keys.lease_until < $5
              and idempotency_keys.fingerprint = excluded.fingerprint)
     returning (created_at < $5) as taken_over, created_at`,
    [q.appid, q.key, q.fingerprint, new Date(now + IDEMPOTENCY_LEASE_MS), new Date(now), expires],
  );
  if (claimed.length > 0) {
    const since = new Date(claimed[0].created_at).getTime();
    return { kind: "run", takenOver: claimed[0].taken_over, since };
  }
  const [row] = await s.db.query<
    {
      fingerprint: string;
      state: string;
      status: number | null;
      content_type: string;
      body: string;
    }
  >(
    `select fingerprint, state, status, content_type, body from idempotency_keys
      where appid = $1 and key = $2`,
    [q.appid, q.key],
  );
  if (!row) return { kind: "running" };
  if (row.fingerprint !== q.fingerprint) return { kind: "mismatch" };
  if (row.state === "done" && row.status !== null) {
    return {
      kind: "replay",
      answer: { status: row.status, contentType: row.content_type, body: row.body },
    };
  }
  return { kind: "running" };
}

/** Stores the answer of a claimed key. */
export async function storeIdempotentAnswer(
  s: Services,
  q: { appid: string; key: string; answer: StoredAnswer },
) {
  await s.db.query(
    `update idempotency_keys set state = 'done', lease_until = null, status = $3,
            content_type = $4, body = $5
      where appid = $1 and key = $2 and state = 'running'`,
    [q.appid, q.key, q.answer.status, q.answer.contentType, q.answer.body],
  );
}

/** Gives a claimed key up (the run failed before it changed anything a retry could repeat). */
export async function releaseIdempotencyKey(s: Services, q: { appid: string; key: string }) {
  await s.db.query(
    "delete from idempotency_keys where appid = $1 and key = $2 and state = 'running'",
    [q.appid, q.key],
  );
}

/** Deletes expired keys (scheduled), a bounded batch at a time. */
export async function purgeExpiredIdempotencyKeys(s: Services, nowMs = s.clock.now()) {
  await s.db.query(
    `delete from idempotency_keys where (appid, key) in (
       select appid, key from idempotency_keys where expires_at < $1 limit 1000)`,
    [new Date(nowMs)],
  );
}
