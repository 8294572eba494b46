/**
 * The operator's own sends from held wallets (contract deployments, owner calls): recorded as
 * requests of the game (appid "", no callback) so that they get attempts, replacement and
 * re-broadcast like any other, and awaited until mined.
 */
import type { Hex, TransactionReceipt } from "viem";
import type { Services } from "../services.ts";
import { DomainError } from "../errors.ts";
import { onChain, type PolygonChain } from "./polygon.ts";
import { type HeldTransaction, signAndBroadcast } from "./sending.ts";
import { txRecordStatement } from "./tx_insert.ts";
import { trackTransaction } from "./tracker.ts";

/** How long a deployment or owner call is awaited before the call answers (it stays tracked). */
const WAIT_MS = 120_000;

/**
 * Sends `tx` as a recorded request and waits until one of its attempts is mined (checking and,
 * when stuck, replacing it meanwhile); answers the receipt. A revert is TX_REVERTED.
 */
export async function sendAndWaitMined(
  s: Services,
  chain: PolygonChain,
  tx: HeldTransaction,
  what: { type: "DEPLOY" | "CONTRACT_CALL"; action: string; params: Record<string, unknown> },
): Promise<{ hash: Hex; receipt: TransactionReceipt }> {
  const requestId = crypto.randomUUID();
  await signAndBroadcast(s, chain, tx, {
    requestId,
    appid: "",
    request: (hash, nonce) =>
      txRecordStatement({
        requestId,
        req: {
          appid: "",
          gameIndex: tx.gameIndex,
          network: "polygon",
          playerId: "",
          params: what.params,
        },
        chainId: chain.chainId,
        type: what.type,
        status: "PENDING",
        from: tx.from,
        contract: tx.to ?? "",
        hash,
        nonce,
        now: new Date(s.clock.now()),
      }),
  });
  const deadline = Date.now() + WAIT_MS;
  for (let delay = 50;; delay = Math.min(delay * 2, 500)) {
    await trackTransaction(s, requestId);
    const [row] = await s.db.query<
      { status: string; tx_hash: Hex; mined_block: string | null; fail_reason: string | null }
    >(
      "select status, tx_hash, mined_block, fail_reason from chain_txs where request_id = $1",
      [requestId],
    );
    if (row.status === "FAILED") {
      throw new DomainError(
        "invalid",
        "TX_REVERTED",
        `${what.action} ${row.tx_hash} failed: ${row.fail_reason ?? "reverted"}`,
      );
    }
    if (row.status === "SUCCESS" || row.mined_block !== null) {
      const receipt = await onChain(
        what.action,
        () => chain.client.getTransactionReceipt({ hash: row.tx_hash }),
      );
      return { hash: row.tx_hash, receipt };
    }
    if (Date.now() > deadline) {
      throw new DomainError(
        "unavailable",
        "CHAIN_UNAVAILABLE",
        `${what.action} ${row.tx_hash} was not mined within ${
          WAIT_MS / 1000
        } s; it stays tracked as request ${requestId}`,
      );
    }
    await new Promise((r) => setTimeout(r, delay));
  }
}
