/**
 * Cancelling a pending request: a zero-value transfer from the wallet to itself at the request's
 * nonce, with both fees raised so that it replaces the request's transaction in the nodes' pools.
 * The request stays PENDING: it ends FAILED (cancelled) only if the cancel is mined; if the
 * original is mined first it ends as that transaction did.
 */
import type { Services } from "../services.ts";
import { DomainError } from "../errors.ts";
import { loadAttempts } from "./attempts.ts";
import { resignAttempt } from "./evm_tracking.ts";
import { txRecordsChanged } from "./tx_list_cache.ts";

/** What a cancel answers. */
export interface CancelResult {
  requestId: string;
  status: "PENDING";
  cancelTxHash: string;
  nonce: string;
  maxFeePerGas: string;
  maxPriorityFeePerGas: string;
}

/** Sends the cancel of a PENDING request of the game that the service signed and sent. */
export async function cancelTransaction(
  s: Services,
  q: { gameIndex: number; requestId: string },
): Promise<CancelResult> {
  const [row] = await s.db.query<{
    request_id: string;
    appid: string;
    network: string;
    status: string;
    chain_id: number;
    from_address: string;
    game_index: number;
    mined_block: string | null;
  }>(
    `select request_id, appid, network, status, chain_id, from_address, game_index, mined_block
       from chain_txs where request_id = $1 and game_index = $2`,
    [q.requestId, q.gameIndex],
  );
  if (!row) {
    throw new DomainError("not_found", "REQUEST_NOT_FOUND", `requestId ${q.requestId} not found`);
  }
  if (row.network !== "polygon") {
    throw new DomainError(
      "invalid",
      "NETWORK_UNSUPPORTED",
      `cancel is supported for polygon transactions the service signed and sent; ${q.requestId} is on ${row.network}`,
    );
  }
  if (row.status !== "PENDING") {
    throw new DomainError(
      "conflict",
      "TX_NOT_PENDING",
      `requestId ${q.requestId} is ${row.status}: only a PENDING transaction can be cancelled`,
    );
  }
  if (row.mined_block !== null) {
    throw new DomainError(
      "conflict",
      "TX_NOT_PENDING",
      `requestId ${q.requestId} is already mined in block ${row.mined_block} and waits for confirmations`,
    );
  }
  const chain = s.chain;
  if (!chain || chain.chainId !== row.chain_id) {
    throw new DomainError(
      "unavailable",
      "CHAIN_UNAVAILABLE",
      `the chain of requestId ${q.requestId} (chain id ${row.chain_id}) is not configured`,
    );
  }
  const attempts = (await loadAttempts(s.db, [row.request_id])).get(row.request_id) ?? [];
  const last = attempts.at(-1);
  if (!last) {
    throw new DomainError(
      "conflict",
      "TX_NOT_CANCELLABLE",
      `requestId ${q.requestId} was signed outside the service (its hash was registered): only its signer can replace it`,
    );
  }
  const sent = await resignAttempt(s, chain, row, last, "cancel");
  if (!sent) {
    throw new DomainError(
      "conflict",
      "FEE_CAP_REACHED",
      "the cancel needs fees above POLYGON_MAX_FEE_GWEI (or another cancel or replacement was just sent); retry later",
    );
  }
  await s.db.query(
    "update chain_txs set cancel_requested_at = coalesce(cancel_requested_at, $2) where request_id = $1",
    [row.request_id, new Date(s.clock.now())],
  );
  txRecordsChanged(s.db, row.appid);
  const [attempt] = (await loadAttempts(s.db, [row.request_id])).get(row.request_id)!.slice(-1);
  return {
    requestId: row.request_id,
    status: "PENDING",
    cancelTxHash: sent.hash,
    nonce: String(attempt.nonce),
    maxFeePerGas: String(attempt.maxFeePerGas),
    maxPriorityFeePerGas: String(attempt.maxPriorityFeePerGas),
  };
}
