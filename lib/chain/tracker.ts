/**
 * The transaction tracker: PENDING transactions are checked for receipts (SUCCESS / FAILED);
 * one never seen on chain after TX_DROP_AFTER_MS is FAILED. A settled request with a callbackUrl
 * becomes a due row of the callback outbox (in `chain_txs`), delivered signed with retries and
 * backoff until it is answered 2xx or runs out of attempts.
 */
import { type Hex, toEventSelector } from "viem";
import type { Services } from "../services.ts";
import { backoffMs, OutboundRefused } from "../outbound/mod.ts";
import { webhookSigner } from "../webhooks.ts";
import { describeChainError, isUnreachable, type PolygonChain } from "./polygon.ts";
import { xplaOutcome } from "./xpla/tracking.ts";
import { noticeDeployedSafes } from "./safe/wallets.ts";
import { txRecordsChanged } from "./tx_list_cache.ts";

/** The callback body sent to a request's callbackUrl. */
export interface TxCallback {
  requestId: string;
  txHash: string;
  txStatus: "SUCCESS" | "FAILED";
  txType: string;
}

/** A PENDING request as the tracker reads it. */
export type PendingRow = {
  request_id: string;
  network: string;
  tx_hash: string;
  chain_id: number;
  sent_at: Date | null;
  updated_at: Date;
  from_address: string;
  contract: string;
  safe_tx_hash: string | null;
  exec_of: string | null;
};

const COLUMNS =
  "request_id, network, tx_hash, chain_id, sent_at, updated_at, from_address, contract, safe_tx_hash, exec_of";

// Safe 1.4.1: emitted by a wallet when execTransaction ran the transaction with this safeTxHash.
const EXECUTION_SUCCESS = toEventSelector("ExecutionSuccess(bytes32,uint256)");

/** Checks one request's transaction now (used right after sending). */
export async function trackTransaction(s: Services, requestId: string) {
  const rows = await s.db.query<PendingRow>(
    `select ${COLUMNS} from chain_txs
      where request_id = $1 and status = 'PENDING' and tx_hash is not null`,
    [requestId],
  );
  await settle(s, rows, s.clock.now());
}

/**
 * The scheduled scan: the oldest 200 sent PENDING transactions of a chain, read from the partial
 * index chain_txs_pending_scan_idx (so its cost follows the pending rows, not the history).
 */
export const PENDING_SCAN_SQL = `select ${COLUMNS} from chain_txs
    where status = 'PENDING' and tx_hash is not null and chain_id = $1
    order by sent_at limit 200`;

/** Checks every PENDING transaction of the configured chains (scheduled). */
export async function trackPendingTransactions(s: Services, nowMs = s.clock.now()) {
  const scans = [
    s.chain ? { network: "polygon", chainId: s.chain.chainId } : null,
    s.xpla ? { network: "xpla", chainId: s.xpla.lockId } : null,
  ].filter((x) => x !== null);
  for (const scan of scans) {
    const rows = await s.db.query<PendingRow>(PENDING_SCAN_SQL, [scan.chainId]);
    await settle(s, rows.filter((r) => r.network === scan.network), nowMs);
  }
}

async function settle(s: Services, rows: PendingRow[], nowMs: number) {
  if (rows.length === 0) return;
  const decided: {
    request_id: string;
    status: "SUCCESS" | "FAILED";
    tx_hash: string;
    exec_of: string | null;
    fail_reason: string | null;
  }[] = [];
  const paused = new Set<string>();
  for (const row of rows) {
    if (paused.has(row.network)) continue;
    let status: "SUCCESS" | "FAILED" | null;
    // XPLA names the hash that decided the request (one of its attempts) and why it failed.
    let decidedBy: { txHash: string; failReason?: string } | null = null;
    try {
      if (row.network === "xpla") {
        if (!s.xpla || row.chain_id !== s.xpla.lockId) continue;
        const got = await xplaOutcome(s, s.xpla, row, nowMs);
        decidedBy = got;
        status = got?.status ?? null;
      } else {
        if (!s.chain || row.chain_id !== s.chain.chainId) continue;
        status = await outcome(s, s.chain, row, nowMs);
      }
    } catch (err) {
      s.log.warn("transaction tracking paused: chain unreachable", {
        network: row.network,
        err: describeChainError(err, s.chain ? [s.chain.rpcUrl] : []),
      });
      paused.add(row.network);
      continue;
    }
    if (status) {
      decided.push({
        request_id: row.request_id,
        status,
        tx_hash: decidedBy?.txHash ?? row.tx_hash,
        exec_of: row.exec_of,
        fail_reason: decidedBy?.failReason ?? null,
      });
    }
  }
  if (decided.length === 0) return;
  // One statement for the batch; only the instance that moves a row out of PENDING schedules
  // its callback. A settled execTransaction settles the request it executed (exec_of) too; a
  // reverted execution leaves the Safe nonce unused, so a later successful one may still follow.
  let moved: { request_id: string; appid: string }[] = [];
  try {
    moved = await s.db.query<{ request_id: string; appid: string }>(
      `update chain_txs t set status = x.status, updated_at = $2,
            tx_hash = x.tx_hash, fail_reason = x.fail_reason,
            callback_state = case when t.callback_url is null then 'none' else 'due' end,
            callback_next_at = $2
       from jsonb_to_recordset($1::jsonb) as x(request_id text, status text, tx_hash text,
              exec_of text, fail_reason text)
      where (t.request_id = x.request_id and t.status = 'PENDING')
         or (t.request_id = x.exec_of and (t.status in ('WAITING', 'PENDING')
             or (t.status = 'FAILED' and x.status = 'SUCCESS')))
      returning t.request_id, t.appid`,
      [decided, new Date(nowMs)],
    );
  } catch (err) {
    // The update may have committed before its answer was lost: every app's pages are stale.
    txRecordsChanged(s.db);
    throw err;
  }
  for (const appid of new Set(moved.map((r) => r.appid))) txRecordsChanged(s.db, appid);
  const settledIds = new Set(moved.map((r) => r.request_id));
  for (const d of decided) {
    if (!settledIds.has(d.request_id)) continue;
    const row = rows.find((r) => r.request_id === d.request_id)!;
    const since = (row.sent_at ?? row.updated_at).getTime();
    s.metrics.chainSettled.inc({ status: d.status });
    s.metrics.chainConfirmation.observe({ status: d.status }, Math.max(0, nowMs - since) / 1000);
  }
  if (moved.length > 0) await deliverDueCallbacks(s, nowMs);
}

// SUCCESS / FAILED once known, null while still pending; throws when the node is unreachable.
async function outcome(
  s: Services,
  chain: PolygonChain,
  row: PendingRow,
  nowMs: number,
): Promise<"SUCCESS" | "FAILED" | null> {
  const hash = row.tx_hash as Hex;
  const receipt = await chain.client.getTransactionReceipt({ hash }).catch(nullUnlessUnreachable);
  if (receipt) {
    // A registered hash must be the requested transaction: same sender and contract; for a
    // request sent by a multi-signature wallet, an execution of its Safe transaction by the wallet.
    const matches = row.safe_tx_hash
      ? receipt.to?.toLowerCase() === row.from_address.toLowerCase() &&
        receipt.logs.some((log) =>
          log.address.toLowerCase() === row.from_address.toLowerCase() &&
          log.topics[0] === EXECUTION_SUCCESS &&
          log.topics[1]?.toLowerCase() === row.safe_tx_hash!.toLowerCase()
        )
      : receipt.from.toLowerCase() === row.from_address.toLowerCase() &&
        receipt.to?.toLowerCase() === row.contract.toLowerCase();
    return receipt.status === "success" && matches ? "SUCCESS" : "FAILED";
  }
  const since = (row.sent_at ?? row.updated_at).getTime();
  if (nowMs - since < s.config.TX_DROP_AFTER_MS) return null;
  const seen = await chain.client.getTransaction({ hash }).catch(nullUnlessUnreachable);
  return seen ? null : "FAILED";
}

function nullUnlessUnreachable(err: unknown): null {
  if (isUnreachable(err)) throw err;
  return null;
}

/** Delivers due callbacks (claimed with a lease, so concurrent runs never double-send). */
async function deliverDueCallbacks(s: Services, nowMs = s.clock.now()) {
  const leaseMs = s.config.OUTBOUND_TIMEOUT_MS * 2;
  const rows = await s.db.query<{
    request_id: string;
    tx_hash: string;
    status: "SUCCESS" | "FAILED";
    tx_type: string;
    callback_url: string;
    callback_attempts: number;
    game_index: number;
  }>(
    `update chain_txs set callback_next_at = $2, callback_attempts = callback_attempts + 1
      where request_id in (
        select request_id from chain_txs
         where callback_state = 'due' and callback_next_at <= $1
         order by callback_next_at limit 50 for update skip locked)
      returning request_id, tx_hash, status, tx_type, callback_url, callback_attempts, game_index`,
    [new Date(nowMs), new Date(nowMs + leaseMs)],
  );
  const results = await Promise.all(rows.map(async (row) => {
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
        sign: await webhookSigner(s, row.game_index, `tx_${row.request_id}`),
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
      ).toISOString()
      : null;
    return {
      request_id: row.request_id,
      state: outcome === "retry" ? "due" : outcome,
      next_at: next,
    };
  }));
  if (results.length === 0) return;
  await s.db.query(
    `update chain_txs t set callback_state = x.state, callback_next_at = x.next_at
       from jsonb_to_recordset($1::jsonb) as x(request_id text, state text, next_at timestamptz)
      where t.request_id = x.request_id`,
    [results],
  );
}

/** The scheduled job: settle pending transactions, then deliver due callbacks. */
export const chainTrackerJob = {
  name: "chain-transactions",
  async run(s: Services, nowMs: number) {
    await trackPendingTransactions(s, nowMs);
    await deliverDueCallbacks(s, nowMs);
    await noticeDeployedSafes(s).catch((err) =>
      s.log.warn("multisig tracking paused", {
        err: describeChainError(err, [s.chain?.rpcUrl ?? ""]),
      })
    );
  },
};
