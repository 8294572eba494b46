/**
 * Sending on the configured chain: which chain serves a network, and signing + broadcasting
 * under the wallet's Postgres send lock with a record per attempt.
 *
 * Nonces: the wallet's next nonce is kept in the database with its send lock (never in process
 * memory) and is the larger of that and the node's pending count, so a nonce is never handed out
 * twice by two instances and a transaction the node dropped does not make its nonce be taken
 * again. A nonce becomes used when the request's first attempt is recorded (before broadcast);
 * a refused broadcast gives it back. Every recorded attempt keeps its signed bytes, so a dropped
 * transaction is re-broadcast by the tracker and its nonce is filled, never skipped.
 */
import { formatEther, type Hex, keccak256, type TransactionSerializableEIP1559 } from "viem";
import type { Services } from "../services.ts";
import type { Statement } from "../db/port.ts";
import { DomainError } from "../errors.ts";
import { isUnreachable, onChain, type PolygonChain } from "./polygon.ts";
import { nonceTakenStatement, releaseNonce, withSendLock } from "./send_lock.ts";
import { broadcastRefusal, currentFees, type Fees, raiseFees } from "./fees.ts";
import { type AttemptKind, attemptStatement, latestHashStatement } from "./attempts.ts";
import { txRecordsChanged } from "./tx_list_cache.ts";
import { insertRecords } from "./tx_insert.ts";

export { currentFees } from "./fees.ts";

/** The configured chain for a network, or a clear error. */
export function requireChain(s: Services, network: string): PolygonChain {
  if (network !== "polygon") {
    throw new DomainError(
      "invalid",
      "NETWORK_UNSUPPORTED",
      `${network} is not available for this operation`,
    );
  }
  if (!s.chain) {
    throw new DomainError("unavailable", "CHAIN_UNAVAILABLE", "POLYGON_RPC_URL is not configured");
  }
  return s.chain;
}

/** The sender's next nonce, counting transactions the node holds but has not mined. */
export async function pendingNonce(chain: PolygonChain, address: Hex): Promise<number> {
  return await onChain(
    "nonce lookup",
    () => chain.client.getTransactionCount({ address, blockTag: "pending" }),
  );
}

/** What to record for a service-sent transaction. */
export interface SendRecord {
  requestId: string;
  /** The app whose transaction list shows the request ("" for the operator's own sends). */
  appid: string;
  /** The request's `chain_txs` row, given its first attempt's hash and nonce. */
  request(hash: Hex, nonce: number): Statement;
}

/** The transaction to sign: everything but nonce, chain and type, plus sender and game. */
export type HeldTransaction = Omit<TransactionSerializableEIP1559, "nonce" | "chainId" | "type"> & {
  from: Hex;
  gameIndex: number;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
};

/** Signs `tx` at `nonce` with the given fees; answers the signed bytes and their hash. */
export async function signAt(
  s: Services,
  chain: PolygonChain,
  tx: HeldTransaction,
  at: { nonce: number; fees: Fees },
): Promise<{ signed: Hex; hash: Hex }> {
  const { from, gameIndex, ...fields } = tx;
  const signed = await s.kms.signTransaction(gameIndex, from, {
    ...fields,
    ...at.fees,
    type: "eip1559",
    chainId: chain.chainId,
    nonce: at.nonce,
  });
  return { signed, hash: keccak256(signed) };
}

const MAX_BROADCAST_TRIES = 4;

/**
 * Signs with the key of `tx.from` held for `tx.gameIndex` and broadcasts, under the wallet's send
 * lock, recording the request and each attempt before it is broadcast (so a crash in between
 * leaves signed bytes the tracker re-broadcasts). A node that refuses the fees at once gets the
 * transaction again, re-priced; one whose nonce the chain already used gets it at the node's next
 * nonce. A send the node refuses for good (no gas, bad transaction) is removed and its nonce given
 * back; an unreachable node leaves it recorded (its outcome is tracked).
 */
export async function signAndBroadcast(
  s: Services,
  chain: PolygonChain,
  tx: HeldTransaction,
  rec: SendRecord,
): Promise<{ hash: Hex; nonce: number }> {
  const key = { chainId: chain.chainId, address: tx.from };
  // The node's count is read while the lock is being taken: the database's count covers this
  // service's own sends, the node's those made elsewhere.
  const nodeNext = pendingNonce(chain, tx.from);
  nodeNext.catch(() => {});
  return await withSendLock(s.db, key, async (lease) => {
    let nonce = Math.max(lease.nextNonce ?? 0, await nodeNext);
    let fees: Fees = {
      maxFeePerGas: tx.maxFeePerGas,
      maxPriorityFeePerGas: tx.maxPriorityFeePerGas,
    };
    let seq = 0;
    let { signed, hash } = await signAt(s, chain, tx, { nonce, fees });
    const attempt = (kind: AttemptKind) =>
      attemptStatement({
        requestId: rec.requestId,
        seq,
        kind,
        txHash: hash,
        nonce,
        ...fees,
        rawTx: signed,
        sentAt: new Date(s.clock.now()),
      });
    await insertRecords(s, rec.appid, rec.requestId, [
      rec.request(hash, nonce),
      attempt("send"),
      nonceTakenStatement(key, nonce),
    ]);
    for (let tries = 1;; tries++) {
      let failure: unknown;
      try {
        await chain.client.sendRawTransaction({ serializedTransaction: signed });
        return { hash, nonce };
      } catch (err) {
        failure = err;
      }
      if (isUnreachable(failure)) {
        // The transaction may have arrived: its record stays and the tracker settles it.
        throw new DomainError(
          "unavailable",
          "CHAIN_UNAVAILABLE",
          `blockchain node unreachable while broadcasting ${hash}; its outcome is tracked`,
        );
      }
      const refusal = broadcastRefusal(failure);
      if (refusal === "known") return { hash, nonce };
      if (refusal === "underpriced" && tries < MAX_BROADCAST_TRIES) {
        const raised = raiseFees(chain, fees, await currentFees(chain));
        if (raised.capped) await markFeeCapped(s, rec.requestId);
        if (raised.blocked) {
          // Above POLYGON_MAX_FEE_GWEI for now: the request stays PENDING and the tracker offers
          // it again while fees allow.
          s.log.warn("send held back by POLYGON_MAX_FEE_GWEI", { requestId: rec.requestId });
          return { hash, nonce };
        }
        fees = raised.fees;
        seq++;
        ({ signed, hash } = await signAt(s, chain, tx, { nonce, fees }));
        await insertRecords(s, rec.appid, rec.requestId, [
          attempt("reprice"),
          latestHashStatement(rec.requestId, hash),
        ]);
        continue;
      }
      if (refusal === "nonce_used" && tries < MAX_BROADCAST_TRIES) {
        // The wallet sent from elsewhere: none of this request's attempts can be mined; they are
        // replaced by one at the node's next nonce.
        const next = await pendingNonce(chain, tx.from);
        if (next > nonce) {
          nonce = next;
          seq++;
          ({ signed, hash } = await signAt(s, chain, tx, { nonce, fees }));
          await insertRecords(s, rec.appid, rec.requestId, [
            {
              text: "delete from chain_tx_attempts where request_id = $1",
              params: [rec.requestId],
            },
            attempt("send"),
            {
              text: "update chain_txs set nonce = $2, tx_hash = $3 where request_id = $1",
              params: [rec.requestId, nonce, hash],
            },
            nonceTakenStatement(key, nonce),
          ]);
          continue;
        }
      }
      // Refused for good: nothing of this request can be mined; its nonce goes back.
      await unrecord(s, rec);
      await releaseNonce(s.db, key, nonce);
      if (refusal === "insufficient_funds") {
        throw await fundsError(s, chain, { from: tx.from, gas: tx.gas, ...fees });
      }
      return await onChain("broadcast", () => Promise.reject(failure));
    }
  });
}

async function unrecord(s: Services, rec: SendRecord) {
  try {
    await s.db.query("delete from chain_txs where request_id = $1", [rec.requestId]);
  } finally {
    if (rec.appid) txRecordsChanged(s.db, rec.appid);
  }
}

/** Notes that POLYGON_MAX_FEE_GWEI held a request's fees down (shown by the admin API). */
export async function markFeeCapped(s: Services, requestId: string) {
  await s.db.query(
    "update chain_txs set fee_capped_at = coalesce(fee_capped_at, $2) where request_id = $1",
    [requestId, new Date(s.clock.now())],
  );
}

/** The "no gas" error with the numbers: balance held and the most this transaction may cost. */
export async function fundsError(
  s: Services,
  chain: PolygonChain,
  q: { from: Hex; gas?: bigint; maxFeePerGas?: bigint },
): Promise<DomainError> {
  const balance = await chain.client.getBalance({ address: q.from }).catch(() => null);
  const need = q.gas !== undefined && q.maxFeePerGas !== undefined ? q.gas * q.maxFeePerGas : null;
  s.log.warn("send refused: sender lacks gas", {
    from: q.from,
    balanceWei: balance?.toString() ?? "unknown",
    needWei: need?.toString() ?? "unknown",
  });
  return new DomainError(
    "invalid",
    "INSUFFICIENT_FUNDS",
    `wallet ${q.from} lacks native currency for gas: it holds ${
      balance === null ? "an unknown amount of" : formatEther(balance)
    } POL and this transaction may cost up to ${
      need === null ? "?" : formatEther(need)
    } POL; fund it first`,
  );
}
