/**
 * Sending on the configured chain: which chain serves a network, EIP-1559 fees with the
 * configured cap, and signing + broadcasting under the wallet's Postgres send lock.
 */
import { formatEther, type Hex, keccak256, type TransactionSerializableEIP1559 } from "viem";
import type { Services } from "../services.ts";
import { DomainError } from "../errors.ts";
import { onChain, type PolygonChain } from "./polygon.ts";
import { withSendLock } from "./send_lock.ts";

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

/** EIP-1559 fees from the node, capped by configuration. */
export async function currentFees(chain: PolygonChain) {
  const fees = await onChain("fee estimate", () => chain.client.estimateFeesPerGas());
  let maxFeePerGas = fees.maxFeePerGas;
  let maxPriorityFeePerGas = fees.maxPriorityFeePerGas;
  if (chain.maxFeeWei !== undefined && maxFeePerGas > chain.maxFeeWei) {
    maxFeePerGas = chain.maxFeeWei;
    if (maxPriorityFeePerGas > maxFeePerGas) maxPriorityFeePerGas = maxFeePerGas;
  }
  return { maxFeePerGas, maxPriorityFeePerGas };
}

/** The sender's next nonce, counting transactions the node holds but has not mined. */
export async function pendingNonce(chain: PolygonChain, address: Hex): Promise<number> {
  return await onChain(
    "nonce lookup",
    () => chain.client.getTransactionCount({ address, blockTag: "pending" }),
  );
}

/**
 * Signs with the key of `tx.from` held for `tx.gameIndex` and broadcasts, under the wallet's send lock. The nonce
 * is the node's pending count read inside the lock. `record` runs after signing and before
 * broadcasting (so a crash in between leaves a record the tracker can expire); `unrecord` runs
 * when the node refuses the broadcast (not when it cannot be reached: the outcome is unknown).
 */
export async function signAndBroadcast(
  s: Services,
  chain: PolygonChain,
  tx: Omit<TransactionSerializableEIP1559, "nonce" | "chainId" | "type"> & {
    from: Hex;
    gameIndex: number;
  },
  hooks: {
    record?(hash: Hex, nonce: number): Promise<void>;
    unrecord?(hash: Hex): Promise<void>;
  } = {},
): Promise<{ hash: Hex; nonce: number }> {
  return await withSendLock(s.db, { chainId: chain.chainId, address: tx.from }, async () => {
    const nonce = await pendingNonce(chain, tx.from);
    const { from, gameIndex, ...fields } = tx;
    const signed = await s.kms.signTransaction(gameIndex, from, {
      ...fields,
      type: "eip1559",
      chainId: chain.chainId,
      nonce,
    });
    const hash = keccak256(signed);
    await hooks.record?.(hash, nonce);
    try {
      await onChain(
        "broadcast",
        () => chain.client.sendRawTransaction({ serializedTransaction: signed }),
      );
    } catch (err) {
      if (err instanceof DomainError && err.code === "INSUFFICIENT_FUNDS") {
        await hooks.unrecord?.(hash);
        throw await fundsError(s, chain, {
          from,
          gas: fields.gas,
          maxFeePerGas: fields.maxFeePerGas,
        });
      }
      // Unreachable node: the transaction may have arrived, so its record stays (the tracker
      // settles it, or fails it after TX_DROP_AFTER_MS). A refusal means it never will.
      if (err instanceof DomainError && err.code === "CHAIN_UNAVAILABLE" && hooks.record) {
        throw new DomainError(
          "unavailable",
          "CHAIN_UNAVAILABLE",
          `blockchain node unreachable while broadcasting ${hash}; its outcome is tracked`,
          { cause: err },
        );
      }
      await hooks.unrecord?.(hash);
      throw err;
    }
    return { hash, nonce };
  });
}

/** The "no gas" error with the numbers: balance held and the most this transaction may cost. */
async function fundsError(
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
