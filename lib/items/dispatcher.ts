/**
 * The item dispatcher: claims due outbox rows with a lease in one statement, sends each to its
 * game server and records the outcome. A dispatcher that dies mid-send leaves its rows leased;
 * they are claimed again when the lease expires and the receiver's 20001 absorbs the repeat.
 */
import type { Services } from "../services.ts";
import { backoffMs } from "../outbound/mod.ts";
import { randomToken } from "../crypto/hashing.ts";
import { storableText } from "../db/storable_text.ts";
import { type ItemEndpoint, openItemEndpoint, type StoredEndpoint } from "./endpoints.ts";
import { classifyReply, type ReplyOutcome, sendItemBody, TransportFailure } from "./transport.ts";

/** A claimed row, ready to send. */
export interface ClaimedDelivery {
  gameIndex: number;
  transactionId: string;
  body: string;
  attempts: number;
  leaseToken: string;
  endpoint: ItemEndpoint;
}

/** Options of one dispatcher run. */
export interface DispatchOptions {
  /** Only this game's rows (the run right after a registration). */
  gameIndex?: number;
  /** Overrides ITEM_ATTEMPT_TIMEOUT_MS. */
  attemptTimeoutMs?: number;
  /** Rows claimed per statement. */
  batchSize?: number;
  /** Sends in flight at once. */
  concurrency?: number;
  /** Claim rounds before returning (more work is left for the next run). */
  maxRounds?: number;
}

/** How long a claim holds a row: long enough for one attempt, short enough to recover soon. */
export function leaseMs(services: Services, attemptTimeoutMs?: number): number {
  return 2 * (attemptTimeoutMs ?? services.config.ITEM_ATTEMPT_TIMEOUT_MS) + 30_000;
}

/**
 * Claims due rows (REGISTERED or RETRYING, next attempt reached, no live lease, endpoint not
 * known unhealthy) and counts the attempt, all in one statement.
 */
export async function claimDueDeliveries(
  services: Services,
  options: { limit?: number; gameIndex?: number; attemptTimeoutMs?: number } = {},
): Promise<ClaimedDelivery[]> {
  const nowMs = services.clock.now();
  const token = randomToken(12);
  const rows = await services.db.query<
    StoredEndpoint & { transaction_id: string; body: string; attempts: number }
  >(
    `update item_requests r
        set lease_token = $2, lease_until = $3, attempts = r.attempts + 1, updated_at = $1
       from item_endpoints e
      where e.game_index = r.game_index
        and (r.game_index, r.transaction_id) in (
          select q.game_index, q.transaction_id
            from item_requests q join item_endpoints qe on qe.game_index = q.game_index
           where q.status in ('REGISTERED', 'RETRYING') and q.next_attempt_at <= $1
             and (q.lease_until is null or q.lease_until <= $1)
             and qe.healthy is not false
             and ($5::int is null or q.game_index = $5)
           order by q.next_attempt_at
           limit $4
           for update of q skip locked)
      returning r.game_index, r.transaction_id, r.body, r.attempts,
        e.transport, e.url, e.host, e.port, e.vendor_word`,
    [
      new Date(nowMs),
      token,
      new Date(nowMs + leaseMs(services, options.attemptTimeoutMs)),
      options.limit ?? 32,
      options.gameIndex ?? null,
    ],
  );
  const masterKey = services.secrets.kmsMasterKey;
  return await Promise.all(rows.map(async (r) => ({
    gameIndex: r.game_index,
    transactionId: r.transaction_id,
    body: r.body,
    attempts: r.attempts,
    leaseToken: token,
    endpoint: await openItemEndpoint(masterKey, r),
  })));
}

/** Records an attempt's outcome, if this claim still holds the row. Returns the new status. */
export async function recordOutcome(
  services: Services,
  claim: ClaimedDelivery,
  outcome: ReplyOutcome,
): Promise<string | null> {
  const nowMs = services.clock.now();
  const cfg = services.config;
  let status: string;
  let nextMs = nowMs;
  if (outcome.kind === "delivered") status = "DELIVERED";
  else if (outcome.kind === "failed") status = "FAILED";
  else if (claim.attempts >= cfg.ITEM_MAX_ATTEMPTS) status = "FAILED";
  else {
    status = "RETRYING";
    nextMs = nowMs + backoffMs(claim.attempts - 1, cfg.ITEM_RETRY_BASE_MS, cfg.ITEM_RETRY_MAX_MS);
  }
  const suspect = outcome.kind === "failed" && outcome.suspect;
  const rows = await services.db.query<{ status: string }>(
    `with r as (
       update item_requests set status = $4, last_code = $5, last_message = $6,
         next_attempt_at = $7, lease_token = null, lease_until = null, updated_at = $8,
         delivered_at = case when $4 = 'DELIVERED' then $8 else delivered_at end
        where game_index = $1 and transaction_id = $2 and lease_token = $3
          and status in ('REGISTERED', 'RETRYING')
       returning game_index, status),
     e as (
       update item_endpoints set config_suspect = true, suspect_reason = $10
        where $9::boolean and game_index in (select game_index from r)
       returning 1)
     select status from r`,
    [
      claim.gameIndex,
      claim.transactionId,
      claim.leaseToken,
      status,
      outcome.code,
      storableText(outcome.message, 500),
      new Date(nextMs),
      new Date(nowMs),
      suspect,
      suspect ? `game server answered 40002 (hash error) for ${claim.transactionId}` : null,
    ],
  );
  return rows[0]?.status ?? null;
}

/** Sends one claimed row and records what happened. */
export async function deliverClaimed(
  services: Services,
  claim: ClaimedDelivery,
  options: { attemptTimeoutMs?: number } = {},
): Promise<string | null> {
  const attemptTimeoutMs = options.attemptTimeoutMs ?? services.config.ITEM_ATTEMPT_TIMEOUT_MS;
  let outcome: ReplyOutcome;
  try {
    const text = await sendItemBody(services, {
      endpoint: claim.endpoint,
      body: claim.body,
      timeoutMs: attemptTimeoutMs,
    });
    outcome = classifyReply(text);
  } catch (err) {
    if (!(err instanceof TransportFailure)) throw err;
    outcome = { kind: "retry", code: null, message: err.message };
  }
  const status = await recordOutcome(services, claim, outcome);
  services.log.debug("item attempt", {
    gameIndex: claim.gameIndex,
    transactionId: claim.transactionId,
    attempt: claim.attempts,
    code: outcome.code,
    status,
  });
  return status;
}

/** Claims and sends due rows until none are left (or maxRounds); returns how many were sent. */
export async function dispatchDueItems(
  services: Services,
  options: DispatchOptions = {},
): Promise<number> {
  const concurrency = options.concurrency ?? 8;
  let sent = 0;
  for (let round = 0; round < (options.maxRounds ?? 20); round++) {
    const claims = await claimDueDeliveries(services, {
      limit: options.batchSize ?? 32,
      gameIndex: options.gameIndex,
      attemptTimeoutMs: options.attemptTimeoutMs,
    });
    if (claims.length === 0) break;
    let next = 0;
    const worker = async () => {
      while (next < claims.length) {
        const claim = claims[next++];
        try {
          await deliverClaimed(services, claim, { attemptTimeoutMs: options.attemptTimeoutMs });
        } catch (err) {
          // The row stays leased and is retried when the lease expires.
          services.log.error("item delivery failed", { transactionId: claim.transactionId, err });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, claims.length) }, worker));
    sent += claims.length;
  }
  return sent;
}

/**
 * Starts delivering a game's newly registered requests in the background (services.defer), so
 * they need not wait for the scheduled run; a short run, the scheduled dispatcher takes the rest.
 */
export function dispatchSoon(services: Services, gameIndex: number): void {
  services.defer(dispatchDueItems(services, { gameIndex, maxRounds: 2 }));
}
