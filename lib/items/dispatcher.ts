/**
 * The item dispatcher: claims due outbox rows with a lease in one statement, sends each to its
 * game server and records the outcome. A dispatcher that dies mid-send leaves its rows leased;
 * they are claimed again when the lease expires and the receiver's 20001 absorbs the repeat.
 */
import type { Services } from "../services.ts";
import { backoffMs } from "../outbound/mod.ts";
import { randomToken } from "../crypto/hashing.ts";
import { storableText } from "../db/storable_text.ts";
import { forgetItemStates } from "./state_cache.ts";
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
  return 2 * (attemptTimeoutMs ?? services.config.ITEM_ATTEMPT_TIMEOUT_MS) +
    30_000;
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
  // A claim counts an attempt: the GET view of these rows changes.
  forgetItemStates(services.db, rows.map((r) => claimKey(r)));
  const masterKey = services.secrets.kmsMasterKey;
  // Rows of one game share its endpoint: its vendor word is opened once per claim.
  const endpoints = new Map<string, ReturnType<typeof openItemEndpoint>>();
  return await Promise.all(rows.map(async (r) => {
    const which = `${r.game_index}\n${r.vendor_word}`;
    let endpoint = endpoints.get(which);
    if (!endpoint) {
      endpoints.set(which, endpoint = openItemEndpoint(masterKey, r));
    }
    return {
      gameIndex: r.game_index,
      transactionId: r.transaction_id,
      body: r.body,
      attempts: r.attempts,
      leaseToken: token,
      endpoint: await endpoint,
    };
  }));
}

function claimKey(r: { game_index: number; transaction_id: string }) {
  return { gameIndex: r.game_index, transactionId: r.transaction_id };
}

/** What one attempt of a claimed row came to. */
export interface AttemptResult {
  claim: ClaimedDelivery;
  outcome: ReplyOutcome;
}

/** The stored state an outcome leads to: status, next attempt, and whether the config is suspect. */
function nextState(
  services: Services,
  claim: ClaimedDelivery,
  outcome: ReplyOutcome,
  nowMs: number,
) {
  const cfg = services.config;
  let status: string;
  let nextMs = nowMs;
  if (outcome.kind === "delivered") status = "DELIVERED";
  else if (outcome.kind === "failed") status = "FAILED";
  else if (claim.attempts >= cfg.ITEM_MAX_ATTEMPTS) status = "FAILED";
  else {
    status = "RETRYING";
    nextMs = nowMs +
      backoffMs(
        claim.attempts - 1,
        cfg.ITEM_RETRY_BASE_MS,
        cfg.ITEM_RETRY_MAX_MS,
      );
  }
  const suspect = outcome.kind === "failed" && outcome.suspect;
  return {
    game_index: claim.gameIndex,
    transaction_id: claim.transactionId,
    lease_token: claim.leaseToken,
    status,
    code: outcome.code,
    message: storableText(outcome.message, 500),
    next_at: new Date(nextMs).toISOString(),
    suspect,
    suspect_reason: suspect
      ? `game server answered 40002 (hash error) for ${claim.transactionId}`
      : null,
  };
}

/**
 * Records the outcomes of a claim round in one statement, each only if its claim still holds
 * the row; a 40002 marks the game's endpoint configuration suspect. Returns each row's new
 * status by transaction id (absent when the claim was lost).
 */
export async function recordOutcomes(
  services: Services,
  results: AttemptResult[],
): Promise<Map<string, string>> {
  if (results.length === 0) return new Map();
  const nowMs = services.clock.now();
  const rows = await services.db.query<
    { game_index: number; transaction_id: string; status: string }
  >(
    `with x as (
       select * from jsonb_to_recordset($1::jsonb) as x(game_index int, transaction_id text,
         lease_token text, status text, code int, message text, next_at timestamptz,
         suspect boolean, suspect_reason text)),
     r as (
       update item_requests q set status = x.status, last_code = x.code, last_message = x.message,
         next_attempt_at = x.next_at, lease_token = null, lease_until = null, updated_at = $2,
         delivered_at = case when x.status = 'DELIVERED' then $2 else q.delivered_at end
         from x
        where q.game_index = x.game_index and q.transaction_id = x.transaction_id
          and q.lease_token = x.lease_token and q.status in ('REGISTERED', 'RETRYING')
       returning q.game_index, q.transaction_id, q.status),
     e as (
       update item_endpoints e set config_suspect = true, suspect_reason = s.reason
         from (select distinct on (x.game_index) x.game_index, x.suspect_reason as reason
                 from x join r on r.game_index = x.game_index
                  and r.transaction_id = x.transaction_id
                where x.suspect) s
        where e.game_index = s.game_index
       returning 1)
     select game_index, transaction_id, status from r`,
    [
      results.map((r) => nextState(services, r.claim, r.outcome, nowMs)),
      new Date(nowMs),
    ],
  );
  forgetItemStates(services.db, rows.map((r) => claimKey(r)));
  return new Map(
    rows.map((r) => [`${r.game_index}:${r.transaction_id}`, r.status]),
  );
}

/** Records an attempt's outcome, if this claim still holds the row. Returns the new status. */
export async function recordOutcome(
  services: Services,
  claim: ClaimedDelivery,
  outcome: ReplyOutcome,
): Promise<string | null> {
  const statuses = await recordOutcomes(services, [{ claim, outcome }]);
  return statuses.get(`${claim.gameIndex}:${claim.transactionId}`) ?? null;
}

/** Sends one claimed row and says what happened (nothing is recorded yet). */
export async function attemptClaimed(
  services: Services,
  claim: ClaimedDelivery,
  options: { attemptTimeoutMs?: number } = {},
): Promise<AttemptResult> {
  const attemptTimeoutMs = options.attemptTimeoutMs ??
    services.config.ITEM_ATTEMPT_TIMEOUT_MS;
  let outcome: ReplyOutcome;
  const started = performance.now();
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
  const seconds = (performance.now() - started) / 1000;
  services.metrics.itemAttempts.inc({ outcome: outcome.kind });
  services.metrics.itemAttemptDuration.observe(
    { outcome: outcome.kind },
    seconds,
  );
  return { claim, outcome };
}

/** Sends one claimed row and records what happened. */
export async function deliverClaimed(
  services: Services,
  claim: ClaimedDelivery,
  options: { attemptTimeoutMs?: number } = {},
): Promise<string | null> {
  const { outcome } = await attemptClaimed(services, claim, options);
  const status = await recordOutcome(services, claim, outcome);
  logAttempt(services, { claim, outcome }, status);
  return status;
}

function logAttempt(
  services: Services,
  r: AttemptResult,
  status: string | null,
) {
  services.log.debug("item attempt", {
    gameIndex: r.claim.gameIndex,
    transactionId: r.claim.transactionId,
    attempt: r.claim.attempts,
    code: r.outcome.code,
    status,
  });
}

/**
 * Claims and sends due rows until none are left (or maxRounds claims); returns how many were sent.
 * `concurrency` sends are in flight at once and never wait for a round to finish: the next claim
 * (one statement for up to `batchSize` rows) is made while the last rows of the previous one are
 * still being sent, and outcomes are recorded in one statement per `batchSize` answers, while
 * later rows are sent. Claimed rows stay leased until their outcome is recorded, so a claim never
 * takes a row that is in flight.
 */
export async function dispatchDueItems(
  services: Services,
  options: DispatchOptions = {},
): Promise<number> {
  const concurrency = options.concurrency ?? 16;
  const maxRounds = options.maxRounds ?? 20;
  const batchSize = options.batchSize ?? 64;
  const claim = () =>
    claimDueDeliveries(services, {
      limit: batchSize,
      gameIndex: options.gameIndex,
      attemptTimeoutMs: options.attemptTimeoutMs,
    });
  let queue = await claim();
  let head = 0;
  let rounds = 1;
  let exhausted = queue.length === 0;
  let pending: Promise<void> | null = null;
  let sent = 0;
  let failure: unknown = null;
  const results: AttemptResult[] = [];
  const writes: Promise<void>[] = [];

  const claimAhead = () => {
    if (pending || exhausted || rounds >= maxRounds || failure) return;
    rounds++;
    pending = claim().then((more) => {
      if (more.length === 0) exhausted = true;
      queue = queue.slice(head).concat(more);
      head = 0;
    }, (err) => {
      failure ??= err;
    }).finally(() => {
      pending = null;
    });
  };
  // A failed write leaves its rows leased: they are sent again when the lease expires and the
  // receiver's 20001 absorbs the repeat.
  const record = () => {
    if (results.length === 0) return;
    const batch = results.splice(0);
    writes.push(
      recordOutcomes(services, batch).then((statuses) => {
        for (const r of batch) {
          logAttempt(
            services,
            r,
            statuses.get(`${r.claim.gameIndex}:${r.claim.transactionId}`) ?? null,
          );
        }
      }, (err) => {
        failure ??= err;
      }),
    );
  };
  const take = async (): Promise<ClaimedDelivery | undefined> => {
    // Rows already claimed are sent even after a failed claim or write; only claiming stops.
    while (true) {
      if (head < queue.length) {
        const next = queue[head++];
        if (queue.length - head < concurrency) claimAhead();
        return next;
      }
      if (!pending) return undefined;
      await pending;
    }
  };
  const worker = async () => {
    for (let claimed = await take(); claimed; claimed = await take()) {
      sent++;
      try {
        results.push(
          await attemptClaimed(services, claimed, { attemptTimeoutMs: options.attemptTimeoutMs }),
        );
        if (results.length >= batchSize) record();
      } catch (err) {
        // The row stays leased and is retried when the lease expires.
        services.log.error("item delivery failed", {
          transactionId: claimed.transactionId,
          err,
        });
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  record();
  await Promise.all(writes);
  if (failure) throw failure;
  return sent;
}

/** Per database handle: the games whose dispatcher is running, and whether it was woken since. */
const inFlight = new WeakMap<object, Map<number, { woken: boolean }>>();

/**
 * Makes sure a dispatcher is delivering a game's due requests in the background
 * (services.defer), so they need not wait for the scheduled run. At most one runs per game and
 * instance: a registration while it runs wakes it for another pass instead of starting a second
 * claim loop.
 */
export function dispatchSoon(services: Services, gameIndex: number): void {
  let games = inFlight.get(services.db);
  if (!games) inFlight.set(services.db, games = new Map());
  const running = games.get(gameIndex);
  if (running) {
    running.woken = true;
    return;
  }
  const state = { woken: false };
  games.set(gameIndex, state);
  const run = async () => {
    try {
      // A pass that sent something may have stopped at maxRounds: look again (up to a bound;
      // the scheduled run takes over beyond it).
      let sent = 0;
      let passes = 0;
      do {
        state.woken = false;
        sent = await dispatchDueItems(services, { gameIndex });
      } while ((state.woken || sent > 0) && ++passes < 100);
    } finally {
      games.delete(gameIndex);
    }
  };
  services.defer(run());
}
