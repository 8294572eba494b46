/**
 * The transaction tracker: PENDING transactions are checked on chain and settled SUCCESS / FAILED
 * (Polygon: evm_tracking.ts decides, with replacement of stuck and re-broadcast of dropped
 * transactions, confirmations and reorganisations; XPLA: xpla/tracking.ts). A settled request
 * with a callbackUrl becomes a due row of the callback outbox (in `chain_txs`), delivered signed
 * with retries and backoff until it is answered 2xx or runs out of attempts; each delivery's
 * outcome is recorded as soon as it is answered.
 */
import type { Services } from "../services.ts";
import { backoffMs, OutboundRefused } from "../outbound/mod.ts";
import { webhookSigner } from "../webhooks.ts";
import { describeChainError } from "./polygon.ts";
import { xplaOutcome } from "./xpla/tracking.ts";
import { txRecordsChanged } from "./tx_list_cache.ts";
import { polygonDecisions, type TxDecision } from "./evm_tracking.ts";

export type { TxDecision } from "./evm_tracking.ts";

/** The callback body sent to a request's callbackUrl. */
export interface TxCallback {
  requestId: string;
  txHash: string;
  txStatus: "SUCCESS" | "FAILED";
  txType: string;
}

/** A request as the tracker reads it (PENDING, or SUCCESS while its block is re-checked). */
export type PendingRow = {
  request_id: string;
  network: string;
  status: string;
  tx_hash: string;
  chain_id: number;
  game_index: number;
  nonce: string | number | null;
  sent_at: Date | null;
  updated_at: Date;
  from_address: string;
  contract: string;
  safe_tx_hash: string | null;
  exec_of: string | null;
  mined_block: string | number | null;
  mined_block_hash: string | null;
  watch_until_block: string | number | null;
};

const COLUMNS = `request_id, network, status, tx_hash, chain_id, game_index, nonce, sent_at,
  updated_at, from_address, contract, safe_tx_hash, exec_of, mined_block, mined_block_hash,
  watch_until_block`;

/**
 * Checks one request's transaction now. `quick` (right after sending): only whether its newest
 * hash is mined; otherwise the full check of the scheduled scan (replacement included).
 */
export async function trackTransaction(
  s: Services,
  requestId: string,
  options: { quick?: boolean } = {},
) {
  const rows = await s.db.query<PendingRow>(
    `select ${COLUMNS} from chain_txs
      where request_id = $1 and status = 'PENDING' and tx_hash is not null`,
    [requestId],
  );
  await settle(s, rows, s.clock.now(), options);
}

/**
 * The scheduled scan: the oldest 200 sent PENDING transactions of a chain, read from the partial
 * index chain_txs_pending_scan_idx (so its cost follows the pending rows, not the history).
 */
export const PENDING_SCAN_SQL = `select ${COLUMNS} from chain_txs
    where status = 'PENDING' and tx_hash is not null and chain_id = $1
    order by sent_at limit 200`;

// SUCCESS rows whose block is still re-checked for a reorganisation (chain_txs_reorg_watch_idx).
const WATCH_SCAN_SQL = `select ${COLUMNS} from chain_txs
    where status = 'SUCCESS' and watch_until_block is not null and chain_id = $1
    order by watch_until_block limit 200`;

/** Checks every PENDING transaction of the configured chains (scheduled). */
export async function trackPendingTransactions(s: Services, nowMs = s.clock.now()) {
  const scans = [
    s.chain ? { network: "polygon", chainId: s.chain.chainId } : null,
    s.xpla ? { network: "xpla", chainId: s.xpla.lockId } : null,
  ].filter((x) => x !== null);
  for (const scan of scans) {
    const rows = await s.db.query<PendingRow>(PENDING_SCAN_SQL, [scan.chainId]);
    if (scan.network === "polygon") {
      rows.push(...await s.db.query<PendingRow>(WATCH_SCAN_SQL, [scan.chainId]));
    }
    await settle(s, rows.filter((r) => r.network === scan.network), nowMs);
  }
}

/** What settle writes for one request. */
type Decided = {
  request_id: string;
  status: TxDecision["status"];
  tx_hash: string | null;
  exec_of: string | null;
  fail_reason: string | null;
  mined_block: string | null;
  mined_block_hash: string | null;
  watch_until: string | null;
};

async function decideAll(
  s: Services,
  rows: PendingRow[],
  nowMs: number,
  options: { quick?: boolean },
): Promise<Decided[]> {
  const decided: Decided[] = [];
  const push = (row: PendingRow, d: TxDecision) => {
    const mined = "minedBlock" in d ? d : null;
    decided.push({
      request_id: row.request_id,
      status: d.status,
      tx_hash: ("txHash" in d ? d.txHash : undefined) ?? null,
      exec_of: row.exec_of,
      fail_reason: ("failReason" in d ? d.failReason : undefined) ?? null,
      mined_block: mined?.minedBlock == null ? null : String(mined.minedBlock),
      mined_block_hash: mined?.minedBlockHash ?? null,
      watch_until: "watchUntil" in d && d.watchUntil !== undefined ? String(d.watchUntil) : null,
    });
  };
  const polygon = rows.filter((r) => r.network !== "xpla");
  if (polygon.length > 0 && s.chain) {
    const chain = s.chain;
    const mine = polygon.filter((r) => r.chain_id === chain.chainId);
    try {
      const decisions = await polygonDecisions(s, chain, mine, nowMs, options);
      for (const row of mine) {
        const d = decisions.get(row.request_id);
        if (d) push(row, d);
      }
    } catch (err) {
      s.log.warn("transaction tracking paused: chain unreachable", {
        network: "polygon",
        err: describeChainError(err, chain.rpcUrls),
      });
    }
  }
  for (const row of rows.filter((r) => r.network === "xpla")) {
    if (!s.xpla || row.chain_id !== s.xpla.lockId) continue;
    try {
      // XPLA names the hash that decided the request (one of its attempts) and why it failed.
      const got = await xplaOutcome(s, s.xpla, row, nowMs);
      if (got) push(row, { status: got.status, txHash: got.txHash, failReason: got.failReason });
    } catch (err) {
      s.log.warn("transaction tracking paused: chain unreachable", {
        network: "xpla",
        err: describeChainError(err),
      });
      break;
    }
  }
  return decided;
}

async function settle(
  s: Services,
  rows: PendingRow[],
  nowMs: number,
  options: { quick?: boolean } = {},
) {
  if (rows.length === 0) return;
  const decided = await decideAll(s, rows, nowMs, options);
  if (decided.length === 0) return;
  const finals = decided.filter((d) => d.status === "SUCCESS" || d.status === "FAILED");
  const progress = decided.filter((d) => d.status === "PENDING");
  const watchEnds = decided.filter((d) => d.status === "WATCH_END").map((d) => d.request_id);
  let moved: { request_id: string; appid: string; callback_state: string }[] = [];
  try {
    if (watchEnds.length > 0) {
      await s.db.query(
        `update chain_txs set watch_until_block = null
          where request_id in (select jsonb_array_elements_text($1::jsonb)) and status = 'SUCCESS'`,
        [watchEnds],
      );
    }
    if (progress.length > 0) {
      // Mined and waiting for confirmations, or back from a reorganised block: PENDING, and a
      // callback not yet sent waits for the final state.
      const back = await s.db.query<{ request_id: string; appid: string; callback_state: string }>(
        `update chain_txs t set status = 'PENDING', tx_hash = coalesce(x.tx_hash, t.tx_hash),
              mined_block = x.mined_block::bigint, mined_block_hash = x.mined_block_hash,
              watch_until_block = null,
              updated_at = case when t.status = 'PENDING' then t.updated_at else $2 end,
              callback_state = case when t.callback_state = 'due' then 'none'
                               else t.callback_state end
         from jsonb_to_recordset($1::jsonb) as x(request_id text, tx_hash text,
                mined_block text, mined_block_hash text)
        where t.request_id = x.request_id and t.status in ('PENDING', 'SUCCESS')
        returning t.request_id, t.appid, t.callback_state`,
        [progress, new Date(nowMs)],
      );
      for (const appid of new Set(back.map((r) => r.appid))) txRecordsChanged(s.db, appid);
    }
    // One statement for the batch; only the instance that moves a row to a final state schedules
    // its callback, and only when that state was not already reported. A settled execTransaction
    // settles the request it executed (exec_of) too; a reverted execution leaves the Safe nonce
    // unused, so a later successful one may still follow.
    if (finals.length > 0) {
      moved = await s.db.query<{ request_id: string; appid: string; callback_state: string }>(
        `update chain_txs t set status = x.status, updated_at = $2,
              tx_hash = coalesce(x.tx_hash, t.tx_hash),
              fail_reason = case when x.status = 'FAILED' then x.fail_reason end,
              mined_block = case when t.request_id = x.request_id
                then coalesce(x.mined_block::bigint, t.mined_block) end,
              mined_block_hash = case when t.request_id = x.request_id
                then coalesce(x.mined_block_hash, t.mined_block_hash) end,
              watch_until_block = case when t.request_id = x.request_id and x.status = 'SUCCESS'
                then x.watch_until::bigint end,
              callback_version = case
                when t.callback_status is not null and t.callback_status <> x.status
                then t.callback_version + 1 else t.callback_version end,
              callback_state = case when t.callback_url is null then 'none'
                when t.callback_status is not distinct from x.status then t.callback_state
                else 'due' end,
              -- A callback already due for this same state keeps its time: it may be in flight
              -- under another run's lease, or waiting for its retry.
              callback_next_at = case when t.callback_state = 'due' and t.status = x.status
                then t.callback_next_at else $2 end
         from jsonb_to_recordset($1::jsonb) as x(request_id text, status text, tx_hash text,
                exec_of text, fail_reason text, mined_block text, mined_block_hash text,
                watch_until text)
        where (t.request_id = x.request_id and (t.status = 'PENDING'
               or (t.status = 'SUCCESS' and t.watch_until_block is not null)))
           or (t.request_id = x.exec_of and (t.status in ('WAITING', 'PENDING')
               or (t.status = 'FAILED' and x.status = 'SUCCESS')))
        returning t.request_id, t.appid, t.callback_state`,
        [finals, new Date(nowMs)],
      );
    }
  } catch (err) {
    // An update may have committed before its answer was lost: every app's pages are stale.
    txRecordsChanged(s.db);
    throw err;
  }
  for (const appid of new Set(moved.map((r) => r.appid))) txRecordsChanged(s.db, appid);
  const settledIds = new Set(moved.map((r) => r.request_id));
  for (const d of finals) {
    if (!settledIds.has(d.request_id)) continue;
    const row = rows.find((r) => r.request_id === d.request_id)!;
    if (row.status !== "PENDING") continue;
    const since = (row.sent_at ?? row.updated_at).getTime();
    s.metrics.chainSettled.inc({ status: d.status });
    s.metrics.chainConfirmation.observe({ status: d.status }, Math.max(0, nowMs - since) / 1000);
  }
  if (moved.some((r) => r.callback_state === "due")) await deliverDueCallbacks(s, nowMs);
}

/** The Standard Webhooks id of a request's callback: the same on every retry of one report. */
export function callbackId(requestId: string, version: number): string {
  return version === 0 ? `tx_${requestId}` : `tx_${requestId}.${version}`;
}

/**
 * Delivers due callbacks, claimed with a lease so concurrent runs never double-send; each
 * delivery's outcome is written as soon as it is answered, so an instance killed mid-batch
 * leaves only the callbacks then in flight to be sent again (under the same webhook-id).
 */
export async function deliverDueCallbacks(s: Services, nowMs = s.clock.now()) {
  const leaseMs = s.config.OUTBOUND_TIMEOUT_MS * 2;
  const rows = await s.db.query<{
    request_id: string;
    tx_hash: string;
    status: "SUCCESS" | "FAILED";
    tx_type: string;
    callback_url: string;
    callback_attempts: number;
    callback_version: number;
    game_index: number;
  }>(
    `update chain_txs set callback_next_at = $2, callback_attempts = callback_attempts + 1
      where request_id in (
        select request_id from chain_txs
         where callback_state = 'due' and callback_next_at <= $1
         order by callback_next_at limit 50 for update skip locked)
      returning request_id, tx_hash, status, tx_type, callback_url, callback_attempts,
        callback_version, game_index`,
    [new Date(nowMs), new Date(nowMs + leaseMs)],
  );
  await Promise.all(rows.map(async (row) => {
    const payload: TxCallback = {
      requestId: row.request_id,
      txHash: row.tx_hash,
      txStatus: row.status,
      txType: row.tx_type,
    };
    let outcome: "done" | "retry" | "failed" = "retry";
    try {
      const res = await s.outbound.send({
        url: row.callback_url,
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(payload),
        signWith: s.secrets.webhookSecret,
        sign: await webhookSigner(
          s,
          row.game_index,
          callbackId(row.request_id, row.callback_version),
        ),
        purpose: "tx-callback",
      });
      if (res.status >= 200 && res.status < 300) outcome = "done";
    } catch (err) {
      if (err instanceof OutboundRefused) outcome = "failed";
      s.log.warn("transaction callback failed", { requestId: row.request_id, err: String(err) });
    }
    if (outcome === "retry" && row.callback_attempts >= s.config.CALLBACK_MAX_ATTEMPTS) {
      outcome = "failed";
    }
    s.metrics.callbacks.inc({ kind: "transaction", outcome });
    const next = outcome === "retry"
      ? new Date(
        nowMs +
          backoffMs(
            row.callback_attempts - 1,
            s.config.CALLBACK_RETRY_BASE_MS,
            s.config.CALLBACK_RETRY_MAX_MS,
          ),
      )
      : null;
    // Written only while the row still holds this claim (status and version unchanged).
    await s.db.query(
      `update chain_txs set callback_state = $2, callback_next_at = $3,
              callback_status = case when $2 = 'done' then $4 else callback_status end
        where request_id = $1 and status = $4 and callback_version = $5
          and callback_state = 'due'`,
      [
        row.request_id,
        outcome === "retry" ? "due" : outcome,
        next,
        row.status,
        row.callback_version,
      ],
    );
  }));
}
