/**
 * Writing `chain_txs` records: one statement per request, a batch for requests recorded together,
 * and a reused request id answered as DUPLICATE_REQUEST_ID. A leaf module, so that the Polygon,
 * Safe and XPLA transaction builders share it without importing each other.
 */
import type { Services } from "../services.ts";
import { DomainError } from "../errors.ts";
import { DbError, type Statement } from "../db/port.ts";
import type { TxRequest, TxType } from "./tx_request.ts";
import { txRecordsChanged } from "./tx_list_cache.ts";

/** The fields of one `chain_txs` record. */
export interface TxRecordFields {
  requestId: string;
  req: Pick<TxRequest, "appid" | "gameIndex" | "network" | "playerId" | "params" | "callbackUrl">;
  chainId: number;
  type: TxType;
  status: string;
  from: string;
  contract: string;
  hash: string | null;
  nonce: number | null;
  now: Date;
  /** Set when the sender is a multi-signature wallet: the Safe transaction's hash. */
  safeTxHash?: string;
  /** Set on an execTransaction request: the request whose Safe transaction it executes. */
  execOf?: string;
}

/** The statement that inserts a `chain_txs` record. */
export function txRecordStatement(r: TxRecordFields): Statement {
  return {
    text:
      `insert into chain_txs (request_id, appid, game_index, network, chain_id, player_id, tx_type,
         status, from_address, contract, tx_hash, nonce, request_params, callback_url,
         created_at, updated_at, sent_at, safe_tx_hash, exec_of)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::jsonb, $14, $15, $15,
         case when $11::text is null then null else $15::timestamptz end, $16, $17)`,
    params: [
      r.requestId,
      r.req.appid,
      r.req.gameIndex,
      r.req.network,
      r.chainId,
      r.req.playerId,
      r.type,
      r.status,
      r.from,
      r.contract,
      r.hash,
      r.nonce,
      r.req.params,
      r.req.callbackUrl ?? null,
      r.now,
      r.safeTxHash ?? null,
      r.execOf ?? null,
    ],
  };
}

/**
 * Runs record statements of the app's request as one batch; a reused request id answers
 * DUPLICATE_REQUEST_ID.
 */
export async function insertRecords(
  s: Services,
  appid: string,
  requestId: string,
  statements: Statement[],
) {
  try {
    await s.db.transaction(statements);
  } catch (err) {
    if (err instanceof DbError && err.uniqueViolation) {
      throw new DomainError(
        "conflict",
        "DUPLICATE_REQUEST_ID",
        `requestId ${requestId} was already used`,
      );
    }
    throw err;
  } finally {
    // Also after a failure: a batch may have committed before its answer was lost.
    txRecordsChanged(s.db, appid);
  }
}

/** Records a transaction request (the list, the tracker and the callback outbox read it). */
export async function insertRecord(s: Services, r: TxRecordFields) {
  const { text, params } = txRecordStatement(r);
  try {
    await s.db.query(text, params);
  } catch (err) {
    if (err instanceof DbError && err.uniqueViolation) {
      throw new DomainError(
        "conflict",
        "DUPLICATE_REQUEST_ID",
        `requestId ${r.requestId} was already used`,
      );
    }
    throw err;
  } finally {
    txRecordsChanged(s.db, r.req.appid);
  }
}
