/**
 * Broadcast attempts (`chain_tx_attempts`): every signed transaction the service broadcast for a
 * request, with its nonce, fees and signed bytes. A request's attempts share one nonce on EVM
 * chains (replacements, re-prices, cancels); the tracker watches all of their hashes.
 */
import type { Sql, Statement } from "../db/port.ts";

/** Why an attempt was made. */
export type AttemptKind = "send" | "replace" | "reprice" | "resign" | "cancel";

/** One attempt as stored. */
export interface Attempt {
  requestId: string;
  seq: number;
  kind: AttemptKind;
  txHash: string;
  nonce: number;
  maxFeePerGas: bigint | null;
  maxPriorityFeePerGas: bigint | null;
  rawTx: string;
  sentAt: Date;
  resubmittedAt: Date | null;
}

/** The statement that records an attempt; fails on a taken (request, seq) so racers skip. */
export function attemptStatement(a: {
  requestId: string;
  seq: number;
  kind: AttemptKind;
  txHash: string;
  nonce: number;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
  rawTx: string;
  sentAt: Date;
}): Statement {
  return {
    text: `insert into chain_tx_attempts (request_id, seq, kind, tx_hash, nonce, max_fee_per_gas,
             max_priority_fee_per_gas, raw_tx, sent_at, reason)
           values ($1, $2, $3, $4, $5, $6::numeric, $7::numeric, $8, $9, $10)`,
    params: [
      a.requestId,
      a.seq,
      storedKind(a.kind),
      a.txHash,
      a.nonce,
      a.maxFeePerGas.toString(),
      a.maxPriorityFeePerGas.toString(),
      a.rawTx,
      a.sentAt,
      a.kind,
    ],
  };
}

// 0015 names attempt kinds 'send' and 'resign' (XPLA) and 'cancel'; the finer reason (replace,
// reprice) is kept in `reason`.
function storedKind(kind: AttemptKind): string {
  return kind === "send" || kind === "cancel" ? kind : "resign";
}

/** Points the request at its newest attempt's hash (the one shown until another is mined). */
export function latestHashStatement(requestId: string, txHash: string): Statement {
  return {
    text: "update chain_txs set tx_hash = $2 where request_id = $1 and status = 'PENDING'",
    params: [requestId, txHash],
  };
}

type AttemptRow = {
  request_id: string;
  seq: number;
  reason: string | null;
  kind: string;
  tx_hash: string;
  nonce: string | number;
  max_fee_per_gas: string | null;
  max_priority_fee_per_gas: string | null;
  raw_tx: string;
  sent_at: Date | string;
  resubmitted_at: Date | string | null;
};

/** The attempts of the given requests, oldest first, grouped by request. */
export async function loadAttempts(
  db: Sql,
  requestIds: string[],
): Promise<Map<string, Attempt[]>> {
  const out = new Map<string, Attempt[]>();
  if (requestIds.length === 0) return out;
  const rows = await db.query<AttemptRow>(
    `select request_id, seq, reason, kind, tx_hash, nonce, max_fee_per_gas::text,
            max_priority_fee_per_gas::text, raw_tx, sent_at, resubmitted_at
       from chain_tx_attempts where request_id in (select jsonb_array_elements_text($1::jsonb)) order by request_id, seq`,
    [requestIds],
  );
  for (const r of rows) {
    const list = out.get(r.request_id) ?? [];
    list.push({
      requestId: r.request_id,
      seq: r.seq,
      kind: (r.reason ?? r.kind) as AttemptKind,
      txHash: r.tx_hash,
      nonce: Number(r.nonce),
      maxFeePerGas: r.max_fee_per_gas === null ? null : BigInt(r.max_fee_per_gas),
      maxPriorityFeePerGas: r.max_priority_fee_per_gas === null
        ? null
        : BigInt(r.max_priority_fee_per_gas),
      rawTx: r.raw_tx,
      sentAt: new Date(r.sent_at),
      resubmittedAt: r.resubmitted_at === null ? null : new Date(r.resubmitted_at),
    });
    out.set(r.request_id, list);
  }
  return out;
}
