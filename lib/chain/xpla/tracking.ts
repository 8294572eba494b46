/**
 * The outcome of a PENDING XPLA request, decided from the chain alone.
 *
 * A request the service sent has attempts (chain_tx_attempts), all at one account sequence, each
 * with a timeout height after which it can no longer be included. The tracker reads the sender's
 * committed sequence first, then looks every attempt's hash up:
 * - one is included: its result decides (code 0 and the requested messages: SUCCESS; otherwise
 *   FAILED with the chain's log as the reason), and its hash becomes the request's;
 * - none is included and the sequence is used: FAILED (used by another transaction) once the
 *   latest attempt's timeout height has passed, so no attempt can still be included and the node's
 *   tx index has caught up; until then PENDING;
 * - none is included, the sequence is unused and the latest timeout height has passed: signed
 *   again at the same sequence with a new timeout height and broadcast (a `resign` attempt; the
 *   request shows its hash); otherwise PENDING.
 * A hash registered with PATCH /service/v1/tx/hash (no attempts) is SUCCESS or FAILED once the
 * chain knows it; unknown, it is FAILED only when the sender's sequence has moved past the
 * record's and TX_DROP_AFTER_MS has passed since it was registered.
 */
import { hexToBytes, keccak256 } from "viem";
import { base64 } from "@scure/base";
import { decodeAuthInfo, decodeTxBody, decodeTxRaw, encodeTxBody } from "./proto.ts";
import type { Services } from "../../services.ts";
import { DomainError } from "../../errors.ts";
import { withSendLock } from "../send_lock.ts";
import { txRecordsChanged } from "../tx_list_cache.ts";
import {
  broadcast,
  getAccount,
  getTx,
  latestHeight,
  scrubLcdText,
  type TxResponse,
  type XplaChain,
} from "./lcd.ts";
import { attemptStatement, loadAttempts, type XplaAttempt } from "./attempts.ts";
import { xplaToHex } from "./keys.ts";
import { cosmosTxHash, encodeSignDoc, encodeTxRaw, XPLA_DENOM } from "./tx.ts";

/** What the tracker passes of a PENDING request (the fields of its scan this module reads). */
export interface PendingXplaRow {
  request_id: string;
  tx_hash: string;
  sent_at: Date | null;
  updated_at: Date;
  from_address: string;
  contract: string;
}

/** A settled XPLA request: its status, the hash that decided it and, when FAILED, why. */
export interface XplaOutcome {
  status: "SUCCESS" | "FAILED";
  txHash: string;
  failReason?: string;
}

/** Decides a PENDING request (null: still pending); may re-sign it (see above). */
export async function xplaOutcome(
  s: Services,
  chain: XplaChain,
  row: PendingXplaRow,
  nowMs: number,
): Promise<XplaOutcome | null> {
  const { attempts, recordNonce, gameIndex } = await loadAttempts(s.db, row.request_id);
  // The committed sequence is read before the lookups: a transaction included after this read is
  // then found by them, so "used and not found" never hides one of ours.
  const account = await getAccount(chain, row.from_address);
  const hashes = attempts.length > 0 ? attempts.map((a) => a.txHash).reverse() : [row.tx_hash];
  for (const hash of hashes) {
    const found = await getTx(chain, hash);
    if (found) return judge(found, row, hash);
  }
  const nonce = attempts[0]?.nonce ?? recordNonce;
  const used = account !== null && nonce !== null && account.sequence > nonce;
  if (attempts.length === 0) {
    const since = (row.sent_at ?? row.updated_at).getTime();
    if (!used || nowMs - since < s.config.TX_DROP_AFTER_MS) return null;
    return {
      status: "FAILED",
      txHash: row.tx_hash,
      failReason:
        `the chain does not know ${row.tx_hash} and sequence ${nonce} of ${row.from_address} was used by another transaction`,
    };
  }
  const latest = attempts[attempts.length - 1];
  const height = await latestHeight(chain);
  if (latest.timeoutHeight === null || height < latest.timeoutHeight) return null;
  if (used) {
    return {
      status: "FAILED",
      txHash: latest.txHash,
      failReason: `sequence ${nonce} of ${row.from_address} was used by another transaction; ${
        attempts.length === 1
          ? "this request's transaction was not included"
          : `none of this request's ${attempts.length} transactions was included`
      }`,
    };
  }
  await resign(s, chain, { row, latest, height, gameIndex }).catch((err) => {
    if (err instanceof DomainError && err.code === "CHAIN_UNAVAILABLE") throw err;
    s.log.warn("xpla re-sign failed; retried on the next run", {
      requestId: row.request_id,
      err: err instanceof Error ? scrubLcdText(err.message) : String(err),
    });
  });
  return null;
}

function judge(tx: TxResponse, row: PendingXplaRow, hash: string): XplaOutcome {
  if (tx.code !== 0) {
    return {
      status: "FAILED",
      txHash: hash,
      failReason: `reverted (code ${tx.code}): ${scrubLcdText(tx.raw_log)}`,
    };
  }
  if (!isRequested(tx, row)) {
    return {
      status: "FAILED",
      txHash: hash,
      failReason: `${hash} is not this request's transaction (other sender or contract)`,
    };
  }
  return { status: "SUCCESS", txHash: hash };
}

/**
 * Signs the latest attempt's body again at the same sequence with a new timeout height, records
 * the attempt (the request shows its hash) and broadcasts it, under the wallet's send lock. A
 * refused broadcast removes the attempt again (it can never be included); an unreachable node
 * keeps it (it may have arrived).
 */
async function resign(s: Services, chain: XplaChain, r: {
  row: PendingXplaRow;
  latest: XplaAttempt;
  height: bigint;
  gameIndex: number;
}) {
  const { row, latest } = r;
  await withSendLock(s.db, { chainId: chain.lockId, address: row.from_address }, async () => {
    const [current] = await s.db.query<{ seq: number | null }>(
      `select max(a.seq) as seq from chain_tx_attempts a join chain_txs t using (request_id)
        where a.request_id = $1 and t.status = 'PENDING'`,
      [row.request_id],
    );
    // Settled, or signed again by another run meanwhile.
    if (current?.seq !== latest.seq) return;
    const account = await getAccount(chain, row.from_address);
    if (!account || account.sequence > latest.nonce) return;
    const raw = decodeTxRaw(base64.decode(latest.rawTx));
    const timeoutHeight = r.height + BigInt(chain.timeoutBlocks);
    const bodyBytes = encodeTxBody({ ...decodeTxBody(raw.bodyBytes), timeoutHeight });
    const signDoc = encodeSignDoc({
      bodyBytes,
      authInfoBytes: raw.authInfoBytes,
      chainId: chain.chainId,
      accountNumber: account.accountNumber,
    });
    const signature = await s.kms.signDigest(
      r.gameIndex,
      xplaToHex(row.from_address),
      hexToBytes(keccak256(signDoc)),
    );
    const txBytes = encodeTxRaw({
      bodyBytes,
      authInfoBytes: raw.authInfoBytes,
      signatures: [signature],
    });
    const hash = cosmosTxHash(txBytes);
    const fee = feeOf(raw.authInfoBytes);
    const now = new Date(s.clock.now());
    await s.db.transaction([
      attemptStatement({
        requestId: row.request_id,
        seq: latest.seq + 1,
        kind: "resign",
        txHash: hash,
        nonce: latest.nonce,
        feeAmount: fee,
        timeoutHeight,
        rawTx: base64.encode(txBytes),
        sentAt: now,
      }),
      {
        text: `update chain_txs set tx_hash = $2, updated_at = $3
                where request_id = $1 and status = 'PENDING'`,
        params: [row.request_id, hash, now],
      },
    ]);
    txRecordsChanged(s.db);
    let refused: string | null = null;
    try {
      const res = await broadcast(chain, txBytes);
      if (res.code !== 0) refused = `code ${res.code}: ${scrubLcdText(res.raw_log)}`;
    } catch (err) {
      if (err instanceof DomainError && err.code === "CHAIN_UNAVAILABLE") throw err;
      refused = err instanceof Error ? err.message : String(err);
    }
    if (refused === null) return;
    await s.db.transaction([
      {
        text: "delete from chain_tx_attempts where request_id = $1 and seq = $2",
        params: [row.request_id, latest.seq + 1],
      },
      {
        text: `update chain_txs set tx_hash = $2 where request_id = $1 and tx_hash = $3`,
        params: [row.request_id, latest.txHash, hash],
      },
    ]);
    txRecordsChanged(s.db);
    throw new DomainError("upstream", "CHAIN_ERROR", `re-signed transaction refused: ${refused}`);
  });
}

function feeOf(authInfoBytes: Uint8Array): bigint {
  return (decodeAuthInfo(authInfoBytes).fee?.amount ?? [])
    .filter((c) => c.denom === XPLA_DENOM)
    .reduce((sum, c) => sum + BigInt(c.amount), 0n);
}

function isRequested(tx: TxResponse, row: PendingXplaRow): boolean {
  const messages = tx.tx?.body?.messages ?? [];
  if (messages.length === 0) return false;
  const from = row.from_address.toLowerCase();
  const contract = row.contract.toLowerCase();
  let targets = false;
  for (const m of messages) {
    if (String(m.sender ?? "").toLowerCase() !== from) return false;
    const msg = (m.msg ?? {}) as Record<string, Record<string, unknown> | undefined>;
    const nested = msg.send_nft?.contract ?? msg.send?.contract;
    if (String(m.contract ?? "").toLowerCase() === contract) targets = true;
    if (typeof nested === "string" && nested.toLowerCase() === contract) targets = true;
  }
  return targets;
}
