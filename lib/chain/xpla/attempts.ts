/**
 * XPLA broadcast attempts (`chain_tx_attempts`): every signed transaction sent for a request, at
 * the request's sequence, with its fee (coins text), its timeout height and the base64 TxRaw.
 * The first is `send`; one signed again with a later timeout height after the previous one could
 * no longer be included is `resign`.
 */
import type { Sql, Statement } from "../../db/port.ts";
import { XPLA_DENOM } from "./tx.ts";

/** One stored attempt. */
export interface XplaAttempt {
  seq: number;
  kind: "send" | "resign";
  txHash: string;
  /** The account sequence signed. */
  nonce: bigint;
  timeoutHeight: bigint | null;
  /** Base64 TxRaw as broadcast. */
  rawTx: string;
}

/** The fee as the attempts record shows it, e.g. `1700000000000000axpla`. */
export function feeText(amount: bigint): string {
  return `${amount}${XPLA_DENOM}`;
}

/** The statement that records one attempt. */
export function attemptStatement(a: {
  requestId: string;
  seq: number;
  kind: "send" | "resign";
  txHash: string;
  nonce: bigint;
  feeAmount: bigint;
  timeoutHeight: bigint;
  rawTx: string;
  sentAt: Date;
}): Statement {
  return {
    text: `insert into chain_tx_attempts
             (request_id, seq, kind, tx_hash, nonce, fee, timeout_height, raw_tx, sent_at)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    params: [
      a.requestId,
      a.seq,
      a.kind,
      a.txHash,
      a.nonce.toString(),
      feeText(a.feeAmount),
      a.timeoutHeight.toString(),
      a.rawTx,
      a.sentAt,
    ],
  };
}

/** A request's attempts, oldest first, with the record's sequence and game. */
export async function loadAttempts(db: Sql, requestId: string): Promise<{
  recordNonce: bigint | null;
  gameIndex: number;
  attempts: XplaAttempt[];
}> {
  const rows = await db.query<{
    record_nonce: string | number | null;
    game_index: number;
    seq: number | null;
    kind: "send" | "resign";
    tx_hash: string;
    nonce: string | number;
    timeout_height: string | number | null;
    raw_tx: string;
  }>(
    `select t.nonce as record_nonce, t.game_index, a.seq, a.kind, a.tx_hash, a.nonce,
            a.timeout_height, a.raw_tx
       from chain_txs t left join chain_tx_attempts a on a.request_id = t.request_id
      where t.request_id = $1
      order by a.seq`,
    [requestId],
  );
  const first = rows[0];
  return {
    recordNonce: first?.record_nonce === null || first === undefined
      ? null
      : BigInt(first.record_nonce),
    gameIndex: first?.game_index ?? 0,
    attempts: rows.filter((r) => r.seq !== null).map((r) => ({
      seq: r.seq!,
      kind: r.kind,
      txHash: r.tx_hash,
      nonce: BigInt(r.nonce),
      timeoutHeight: r.timeout_height === null ? null : BigInt(r.timeout_height),
      rawTx: r.raw_tx,
    })),
  };
}
