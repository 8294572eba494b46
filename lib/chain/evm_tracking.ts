/**
 * What the tracker decides for Polygon (EVM) requests, per scan:
 *
 * - mined: a receipt of any of the request's hashes (its attempts, or the registered hash) in a
 *   block that is still canonical. SUCCESS (or FAILED when it reverted, or when the mined one is
 *   the cancel) once POLYGON_CONFIRMATIONS blocks are on top; PENDING with the block noted until
 *   then. A SUCCESS block is re-checked until it is `reorgWatchDepth` deep.
 * - reorganised: the noted block left the chain: back to PENDING and checked again at once.
 * - nonce used, none of its hashes mined: FAILED, final (another transaction took the nonce).
 * - nonce unused: never FAILED. After TX_STUCK_AFTER_MS without being mined, the newest attempt
 *   is looked up: unknown to the node (dropped) -> its signed bytes are broadcast again, once;
 *   still unknown or known but not mined (stuck) -> re-signed at the same nonce with both fees
 *   raised (fees.ts), up to POLYGON_MAX_FEE_GWEI.
 */
import { type Hex, parseTransaction, toEventSelector, type TransactionReceipt } from "viem";
import type { Services } from "../services.ts";
import { DbError } from "../db/port.ts";
import { isUnreachable, type PolygonChain } from "./polygon.ts";
import {
  type Attempt,
  type AttemptKind,
  attemptStatement,
  latestHashStatement,
  loadAttempts,
} from "./attempts.ts";
import { broadcastRefusal, currentFees, raiseFees } from "./fees.ts";
import { type HeldTransaction, markFeeCapped, signAt } from "./sending.ts";

/** The tracker's decision for one request (null or absent: nothing changes). */
export type TxDecision =
  | {
    status: "SUCCESS" | "FAILED";
    txHash?: string;
    failReason?: string;
    minedBlock?: bigint;
    minedBlockHash?: string;
    /** For SUCCESS: re-check the block for a reorganisation until this height. */
    watchUntil?: bigint;
  }
  /** Still pending; the mined block is noted (or cleared after a reorganisation). */
  | { status: "PENDING"; txHash?: string; minedBlock: bigint | null; minedBlockHash: string | null }
  /** A SUCCESS block now deep enough: no more re-checks. */
  | { status: "WATCH_END" };

/** What the tracker passes of a request (the fields of its scan this module reads). */
export interface EvmTrackedRow {
  request_id: string;
  status: string;
  tx_hash: string;
  game_index: number;
  nonce: string | number | null;
  from_address: string;
  contract: string;
  safe_tx_hash: string | null;
  mined_block: string | number | null;
  mined_block_hash: string | null;
  watch_until_block: string | number | null;
}

type PendingRow = EvmTrackedRow;

// Safe 1.4.1: emitted by a wallet when execTransaction ran the transaction with this safeTxHash.
const EXECUTION_SUCCESS = toEventSelector("ExecutionSuccess(bytes32,uint256)");

/** How many blocks a SUCCESS stays re-checked: twice the confirmations, at least 16. */
export function reorgWatchDepth(chain: PolygonChain): bigint {
  return BigInt(Math.max(2 * chain.confirmations, 16));
}

function nullUnlessUnreachable(err: unknown): null {
  if (isUnreachable(err)) throw err;
  return null;
}

/** Decides the given rows (PENDING ones and SUCCESS ones under re-check) of one chain. */
export async function polygonDecisions(
  s: Services,
  chain: PolygonChain,
  rows: PendingRow[],
  nowMs: number,
  options: { quick?: boolean } = {},
): Promise<Map<string, TxDecision>> {
  const out = new Map<string, TxDecision>();
  if (rows.length === 0) return out;
  if (options.quick) return await quickDecisions(s, chain, rows);
  const attempts = await loadAttempts(s.db, rows.map((r) => r.request_id));
  const head = await chain.client.getBlockNumber({ cacheTime: 0 });
  const memo = <K, V>(fn: (k: K) => Promise<V>) => {
    const m = new Map<K, Promise<V>>();
    return (k: K) => {
      let p = m.get(k);
      if (!p) m.set(k, p = fn(k));
      return p;
    };
  };
  const usedCount = memo((address: string) =>
    chain.client.getTransactionCount({ address: address as Hex, blockTag: "latest" })
  );
  const blockHash = memo((n: string) =>
    chain.client.getBlock({ blockNumber: BigInt(n) }).then((b) => b.hash as string | null)
      .catch(nullUnlessUnreachable)
  );
  const receiptOf = (hash: string) =>
    chain.client.getTransactionReceipt({ hash: hash as Hex }).catch(nullUnlessUnreachable);
  // A wallet's requests in nonce order, so a re-broadcast fills the lowest gap first.
  const ordered = [...rows].sort((a, b) =>
    a.from_address.localeCompare(b.from_address) || Number(a.nonce ?? 0) - Number(b.nonce ?? 0)
  );
  for (const row of ordered) {
    const own = attempts.get(row.request_id) ?? [];
    const d = await decide(s, chain, { row, own, head, nowMs, usedCount, blockHash, receiptOf });
    if (d) out.set(row.request_id, d);
  }
  return out;
}

/**
 * The check made right after a send: only the newest hash's receipt (one call, as cheap as the
 * send allows); everything else waits for the scheduled scan.
 */
async function quickDecisions(
  s: Services,
  chain: PolygonChain,
  rows: PendingRow[],
): Promise<Map<string, TxDecision>> {
  const out = new Map<string, TxDecision>();
  for (const row of rows) {
    if (row.mined_block !== null) continue;
    const receipt = await chain.client.getTransactionReceipt({ hash: row.tx_hash as Hex })
      .catch(nullUnlessUnreachable);
    if (!receipt) continue;
    const deep = chain.confirmations === 0 ||
      (await chain.client.getBlockNumber({ cacheTime: 0 })) - receipt.blockNumber >=
        BigInt(chain.confirmations);
    const own = (await loadAttempts(s.db, [row.request_id])).get(row.request_id) ?? [];
    out.set(
      row.request_id,
      deep ? finalOf(chain, row, own, receipt) : {
        status: "PENDING",
        txHash: receipt.transactionHash,
        minedBlock: receipt.blockNumber,
        minedBlockHash: receipt.blockHash,
      },
    );
  }
  return out;
}

interface Ctx {
  row: PendingRow;
  own: Attempt[];
  head: bigint;
  nowMs: number;
  usedCount(address: string): Promise<number>;
  blockHash(n: string): Promise<string | null>;
  receiptOf(hash: string): Promise<TransactionReceipt | null>;
}

async function decide(s: Services, chain: PolygonChain, c: Ctx): Promise<TxDecision | null> {
  const { row, own } = c;
  let reorged = false;
  if (row.mined_block !== null) {
    if ((await c.blockHash(String(row.mined_block))) === row.mined_block_hash) {
      if (row.status === "SUCCESS") {
        return c.head >= BigInt(row.watch_until_block ?? 0) ? { status: "WATCH_END" } : null;
      }
      if (c.head - BigInt(row.mined_block) < BigInt(chain.confirmations)) return null;
      const receipt = await c.receiptOf(row.tx_hash);
      if (receipt && receipt.blockHash === row.mined_block_hash) {
        return finalOf(chain, row, own, receipt);
      }
    }
    reorged = true;
  }
  const service = own.length > 0;
  const nonce = row.nonce === null ? null : Number(row.nonce);
  const used = nonce !== null && (await c.usedCount(row.from_address)) > nonce;
  if (used || !service) {
    const hashes = service ? own.map((a) => a.txHash).reverse() : [row.tx_hash];
    for (const hash of hashes) {
      const receipt = await c.receiptOf(hash);
      if (!receipt) continue;
      if (c.head - receipt.blockNumber >= BigInt(chain.confirmations)) {
        return finalOf(chain, row, own, receipt);
      }
      return {
        status: "PENDING",
        txHash: hash,
        minedBlock: receipt.blockNumber,
        minedBlockHash: receipt.blockHash,
      };
    }
    // A registered hash the node still holds may yet be mined (its signer chose its nonce).
    const holds = used && !service &&
      await chain.client.getTransaction({ hash: row.tx_hash as Hex }).catch(nullUnlessUnreachable);
    if (used && !holds) {
      return {
        status: "FAILED",
        failReason: `nonce ${nonce} was used by a transaction that is not one of this request's`,
      };
    }
    return reorged ? { status: "PENDING", minedBlock: null, minedBlockHash: null } : null;
  }
  const last = own[own.length - 1];
  const lastSentMs = Math.max(last.sentAt.getTime(), last.resubmittedAt?.getTime() ?? 0);
  if (reorged || c.nowMs - lastSentMs >= chain.stuckAfterMs) {
    await unstick(s, chain, row, last);
  }
  return reorged ? { status: "PENDING", minedBlock: null, minedBlockHash: null } : null;
}

/** The final outcome of a mined, confirmed receipt of one of the request's hashes. */
function finalOf(
  chain: PolygonChain,
  row: PendingRow,
  own: Attempt[],
  receipt: TransactionReceipt,
): TxDecision {
  const hash = receipt.transactionHash;
  const mined = {
    txHash: hash,
    minedBlock: receipt.blockNumber,
    minedBlockHash: receipt.blockHash,
  };
  const attempt = own.find((a) => a.txHash.toLowerCase() === hash.toLowerCase());
  if (attempt?.kind === "cancel") {
    return { status: "FAILED", ...mined, failReason: `cancelled: the cancel ${hash} was mined` };
  }
  if (receipt.status !== "success") {
    return { status: "FAILED", ...mined, failReason: `transaction ${hash} reverted` };
  }
  if (!attempt && !isRequested(row, receipt)) {
    return {
      status: "FAILED",
      ...mined,
      failReason:
        `transaction ${hash} is not the requested one (sender, contract or Safe execution differ)`,
    };
  }
  return {
    status: "SUCCESS",
    ...mined,
    watchUntil: receipt.blockNumber + reorgWatchDepth(chain),
  };
}

// A registered hash must be the requested transaction: same sender and contract; for a request
// sent by a multi-signature wallet, an execution of its Safe transaction by the wallet.
function isRequested(row: PendingRow, receipt: TransactionReceipt): boolean {
  const from = row.from_address.toLowerCase();
  if (row.safe_tx_hash) {
    return receipt.to?.toLowerCase() === from &&
      receipt.logs.some((log) =>
        log.address.toLowerCase() === from && log.topics[0] === EXECUTION_SUCCESS &&
        log.topics[1]?.toLowerCase() === row.safe_tx_hash!.toLowerCase()
      );
  }
  return receipt.from.toLowerCase() === from &&
    receipt.to?.toLowerCase() === row.contract.toLowerCase();
}

/**
 * Moves a request whose nonce is still unused: broadcasts the newest attempt's bytes again when
 * the node no longer knows it (once), else re-signs it with raised fees.
 */
async function unstick(s: Services, chain: PolygonChain, row: PendingRow, last: Attempt) {
  const known = await chain.client.getTransaction({ hash: last.txHash as Hex })
    .catch(nullUnlessUnreachable);
  if (!known && !last.resubmittedAt) {
    const [taken] = await s.db.query(
      `update chain_tx_attempts set resubmitted_at = $3
        where request_id = $1 and seq = $2 and resubmitted_at is null returning seq`,
      [last.requestId, last.seq, new Date(s.clock.now())],
    );
    if (!taken) return;
    try {
      await chain.client.sendRawTransaction({ serializedTransaction: last.rawTx as Hex });
      s.log.info("dropped transaction broadcast again", { requestId: row.request_id });
      return;
    } catch (err) {
      if (isUnreachable(err)) throw err;
      const refusal = broadcastRefusal(err);
      if (refusal === "known") return;
      if (refusal !== "underpriced") {
        s.log.warn("re-broadcast refused", { requestId: row.request_id, refusal });
        return;
      }
    }
  }
  await resignAttempt(s, chain, row, last, last.kind === "cancel" ? "cancel" : "replace");
}

/** A request's newest attempt as a transaction to sign again (same call, or the cancel). */
export function transactionOf(
  row: { from_address: string; game_index: number },
  last: Attempt,
  kind: AttemptKind,
): HeldTransaction {
  const from = row.from_address as Hex;
  const parsed = parseTransaction(last.rawTx as Hex);
  const base = { from, gameIndex: row.game_index, maxFeePerGas: 0n, maxPriorityFeePerGas: 0n };
  if (kind === "cancel") return { ...base, to: from, value: 0n, gas: 21_000n };
  return {
    ...base,
    to: parsed.to ?? undefined,
    data: parsed.data,
    value: parsed.value,
    gas: parsed.gas,
  };
}

/**
 * Signs the request's transaction (or its cancel) again at its nonce with raised fees, records
 * the attempt, and broadcasts it. Answers the new hash; null when the fee cap leaves no room for
 * a replacement or another instance made this attempt first.
 */
export async function resignAttempt(
  s: Services,
  chain: PolygonChain,
  row: { request_id: string; from_address: string; game_index: number },
  last: Attempt,
  kind: AttemptKind,
): Promise<{ hash: Hex; capped: boolean } | null> {
  const previous = {
    maxFeePerGas: last.maxFeePerGas ?? 0n,
    maxPriorityFeePerGas: last.maxPriorityFeePerGas ?? 0n,
  };
  const raised = raiseFees(chain, previous, await currentFees(chain));
  if (raised.capped) await markFeeCapped(s, row.request_id);
  if (raised.blocked) {
    s.log.warn("replacement held back by POLYGON_MAX_FEE_GWEI", { requestId: row.request_id });
    return null;
  }
  const tx = { ...transactionOf(row, last, kind), ...raised.fees };
  const { signed, hash } = await signAt(s, chain, tx, { nonce: last.nonce, fees: raised.fees });
  try {
    await s.db.transaction([
      attemptStatement({
        requestId: row.request_id,
        seq: last.seq + 1,
        kind,
        txHash: hash,
        nonce: last.nonce,
        ...raised.fees,
        rawTx: signed,
        sentAt: new Date(s.clock.now()),
      }),
      latestHashStatement(row.request_id, hash),
    ]);
  } catch (err) {
    if (err instanceof DbError && err.uniqueViolation) return null;
    throw err;
  }
  try {
    await chain.client.sendRawTransaction({ serializedTransaction: signed });
  } catch (err) {
    if (isUnreachable(err)) throw err;
    // Refused (e.g. underpriced for this node): the next scan raises again.
    s.log.warn("replacement refused", {
      requestId: row.request_id,
      refusal: broadcastRefusal(err) ?? "other",
    });
  }
  return { hash, capped: raised.capped };
}
