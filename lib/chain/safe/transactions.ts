/**
 * Safe transactions: a transaction-creating request whose sender is a multi-signature wallet is
 * prepared as a Safe transaction (its EIP-712 encoding and safeTxHash), and executed through
 * `execTransaction` once the owners' signatures are collected.
 *
 * Nonce rule: a prepared Safe transaction takes the Safe's on-chain nonce, or one past the highest
 * nonce of the wallet's transactions prepared within SAFE_NONCE_HOLD_MS that are still WAITING or
 * PENDING and not below the on-chain nonce; preparations are serialised per wallet by its send
 * lock. So two prepared transactions never share a nonce, and one abandoned for longer than the
 * hold stops holding later ones back (its nonce is reused).
 */
import {
  concat,
  encodeFunctionData,
  hashDomain,
  hashStruct,
  type Hex,
  isHex,
  keccak256,
  serializeTransaction,
  zeroAddress,
} from "viem";
import type { Services } from "../../services.ts";
import type { Statement } from "../../db/port.ts";
import { DomainError } from "../../errors.ts";
import { onChain, type PolygonChain } from "../polygon.ts";
import { withSendLock } from "../send_lock.ts";
import { currentFees, pendingNonce, requireChain } from "../sending.ts";
import { parseAddress } from "../registry.ts";
import { insertRecords, txRecordStatement } from "../tx_insert.ts";
import { safeAbi } from "./contracts.ts";
import { ensureDeployed, requireDeployedSafe, type SafeRecord } from "./wallets.ts";
import { ownerSignatures } from "./signatures.ts";

/** A Safe transaction as the API shows it (`rawTx` with `encoded: false`). */
export interface SafeTxObject {
  to: Hex;
  value: string;
  data: Hex;
  operation: number;
  safeTxGas: string;
  baseGas: string;
  gasPrice: string;
  gasToken: Hex;
  refundReceiver: Hex;
  nonce: number;
}

const SAFE_TX_TYPES = {
  EIP712Domain: [
    { name: "chainId", type: "uint256" },
    { name: "verifyingContract", type: "address" },
  ],
  SafeTx: [
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "data", type: "bytes" },
    { name: "operation", type: "uint8" },
    { name: "safeTxGas", type: "uint256" },
    { name: "baseGas", type: "uint256" },
    { name: "gasPrice", type: "uint256" },
    { name: "gasToken", type: "address" },
    { name: "refundReceiver", type: "address" },
    { name: "nonce", type: "uint256" },
  ],
} as const;

/** The EIP-712 encoding (0x1901 || domainSeparator || structHash) and its hash, the safeTxHash. */
export function encodeSafeTx(chainId: number, safe: Hex, tx: SafeTxObject) {
  const domain = hashDomain({
    domain: { chainId: BigInt(chainId), verifyingContract: safe },
    types: SAFE_TX_TYPES,
  });
  const struct = hashStruct({
    data: {
      ...tx,
      value: BigInt(tx.value),
      safeTxGas: BigInt(tx.safeTxGas),
      baseGas: BigInt(tx.baseGas),
      gasPrice: BigInt(tx.gasPrice),
      nonce: BigInt(tx.nonce),
    },
    primaryType: "SafeTx",
    types: SAFE_TX_TYPES,
  });
  const encoded = concat(["0x1901", domain, struct]);
  return { encoded, hash: keccak256(encoded) };
}

/** The Safe's current nonce. */
async function safeNonce(chain: PolygonChain, safe: Hex): Promise<bigint> {
  return await onChain(
    "Safe nonce lookup",
    () => chain.client.readContract({ address: safe, abi: safeAbi, functionName: "nonce" }),
  );
}

/**
 * Prepares the Safe transaction for a request whose sender is `safe`: simulates the inner call
 * from the wallet (so a missing role or other revert answers now), picks the nonce (see the
 * module comment), records the request (WAITING) with its Safe transaction, and answers
 * `{rawTx, hashedTx, requestId}`.
 */
export async function createSafeTransaction(s: Services, chain: PolygonChain, q: {
  safe: SafeRecord;
  to: Hex;
  data: Hex;
  action: string;
  encoded: boolean;
  requestId: string;
  /** The app whose request this is. */
  appid: string;
  /** True when the caller already simulated the call from the wallet successfully. */
  simulated?: boolean;
  record(safeTxHash: Hex): Statement;
}) {
  const safe = await ensureDeployed(s, chain, q.safe);
  if (!q.simulated) {
    await onChain(
      q.action,
      () => chain.client.estimateGas({ account: safe.address, to: q.to, data: q.data }),
    );
  }
  return await withSendLock(s.db, { chainId: chain.chainId, address: safe.address }, async () => {
    const onChainNonce = await safeNonce(chain, safe.address);
    const holdSince = new Date(s.clock.now() - s.config.SAFE_NONCE_HOLD_MS);
    const [held] = await s.db.query<{ top: string | null }>(
      `select max(m.safe_nonce) as top from multisig_txs m
         join chain_txs t on t.request_id = m.request_id
        where m.chain_id = $1 and m.safe = $2 and m.safe_nonce >= $3 and m.created_at >= $4
          and t.status in ('WAITING', 'PENDING')`,
      [chain.chainId, safe.address, onChainNonce, holdSince],
    );
    const nonce = held?.top == null || BigInt(held.top) < onChainNonce
      ? onChainNonce
      : BigInt(held.top) + 1n;
    const tx: SafeTxObject = {
      to: q.to,
      value: "0",
      data: q.data,
      operation: 0,
      safeTxGas: "0",
      baseGas: "0",
      gasPrice: "0",
      gasToken: zeroAddress,
      refundReceiver: zeroAddress,
      nonce: Number(nonce),
    };
    const { encoded, hash } = encodeSafeTx(chain.chainId, safe.address, tx);
    await insertRecords(s, q.appid, q.requestId, [
      q.record(hash),
      {
        text: `insert into multisig_txs (request_id, chain_id, safe, safe_nonce, safe_tx_hash, tx,
                 created_at) values ($1, $2, $3, $4, $5, $6::jsonb, $7)`,
        params: [
          q.requestId,
          chain.chainId,
          safe.address,
          tx.nonce,
          hash,
          tx,
          new Date(s.clock.now()),
        ],
      },
    ]);
    return {
      rawTx: q.encoded ? encoded : tx as unknown as Record<string, unknown>,
      hashedTx: hash,
      requestId: q.requestId,
      status: "WAITING" as const,
    };
  });
}

/** The safeTxHash a `tx` field names: a Safe transaction object, its encoding, or the hash. */
function hashOfTx(chainId: number, safe: Hex, tx: unknown): Hex {
  if (typeof tx === "string") {
    if (isHex(tx) && tx.length === 66) return tx.toLowerCase() as Hex;
    if (isHex(tx) && tx.length === 2 + 2 * 66 && tx.toLowerCase().startsWith("0x1901")) {
      return keccak256(tx);
    }
    throw new DomainError(
      "invalid",
      "VALIDATION_FAILED",
      "tx must be the rawTx a transaction-creating call returned (object or 0x1901... encoding)",
    );
  }
  if (typeof tx !== "object" || tx === null || Array.isArray(tx)) {
    throw new DomainError("invalid", "VALIDATION_FAILED", "tx must be an object or a hex string");
  }
  const t = tx as Record<string, unknown>;
  const text = (name: string, fallback?: string): string => {
    const v = t[name] ?? fallback;
    if (typeof v === "string" || (typeof v === "number" && Number.isSafeInteger(v))) {
      return String(v);
    }
    throw new DomainError("invalid", "VALIDATION_FAILED", `tx.${name} is required`);
  };
  const uint = (name: string, fallback?: string) => {
    const v = text(name, fallback);
    if (!/^\d{1,78}$/.test(v)) {
      throw new DomainError("invalid", "VALIDATION_FAILED", `tx.${name} must be a uint256`);
    }
    return v;
  };
  const data = text("data");
  if (!isHex(data)) throw new DomainError("invalid", "VALIDATION_FAILED", "tx.data must be hex");
  const operation = Number(uint("operation", "0"));
  if (operation > 1) {
    throw new DomainError("invalid", "VALIDATION_FAILED", "tx.operation must be 0 or 1");
  }
  return encodeSafeTx(chainId, safe, {
    to: parseAddress(text("to"), "tx.to"),
    value: uint("value", "0"),
    data,
    operation,
    safeTxGas: uint("safeTxGas", "0"),
    baseGas: uint("baseGas", "0"),
    gasPrice: uint("gasPrice", "0"),
    gasToken: parseAddress(text("gasToken", zeroAddress), "tx.gasToken"),
    refundReceiver: parseAddress(text("refundReceiver", zeroAddress), "tx.refundReceiver"),
    nonce: Number(uint("nonce")),
  }).hash;
}

/**
 * Builds the unsigned transaction in which `from` calls the wallet's `execTransaction` with the
 * owners' signatures over a Safe transaction this service prepared for that wallet, and records
 * it as a request linked to the prepared one (whose status and callback follow its outcome).
 */
export async function createMultisigExecution(s: Services, q: {
  appid: string;
  gameIndex: number;
  network: string;
  encoded: boolean;
  from: string;
  wallet: string;
  tx: unknown;
  signatures: readonly string[];
}) {
  const chain = requireChain(s, q.network);
  const from = parseAddress(q.from, "from");
  const safe = await requireDeployedSafe(s, chain, {
    gameIndex: q.gameIndex,
    address: q.wallet,
    field: "to",
  });
  const hash = hashOfTx(chain.chainId, safe.address, q.tx);
  const [prepared] = await s.db.query<{
    request_id: string;
    tx: SafeTxObject;
    player_id: string;
    status: string;
  }>(
    `select m.request_id, m.tx, t.player_id, t.status from multisig_txs m
       join chain_txs t on t.request_id = m.request_id
      where m.chain_id = $1 and m.safe = $2 and m.safe_tx_hash = $3 and t.game_index = $4`,
    [chain.chainId, safe.address, hash, q.gameIndex],
  );
  if (!prepared) {
    throw new DomainError(
      "not_found",
      "MULTISIG_TX_UNKNOWN",
      `tx (safeTxHash ${hash}) was not prepared by this service for wallet ${safe.address}`,
    );
  }
  const { packed } = await ownerSignatures(hash, q.signatures, safe);
  const current = await safeNonce(chain, safe.address);
  const nonce = BigInt(prepared.tx.nonce);
  if (nonce !== current) {
    throw new DomainError(
      "conflict",
      "MULTISIG_NONCE_MISMATCH",
      nonce < current
        ? `the wallet's nonce is ${current}: this transaction (nonce ${nonce}) was already executed or replaced`
        : `the wallet's nonce is ${current}: the transactions prepared with nonces ${current} to ${
          nonce - 1n
        } must be executed first`,
    );
  }
  const t = prepared.tx;
  const data = encodeFunctionData({
    abi: safeAbi,
    functionName: "execTransaction",
    args: [
      t.to,
      BigInt(t.value),
      t.data,
      t.operation,
      BigInt(t.safeTxGas),
      BigInt(t.baseGas),
      BigInt(t.gasPrice),
      t.gasToken,
      t.refundReceiver,
      packed,
    ],
  });
  const [gasEstimate, fees, txNonce] = await Promise.all([
    onChain(
      "multisig transaction",
      () => chain.client.estimateGas({ account: from, to: safe.address, data }),
    ),
    currentFees(chain),
    pendingNonce(chain, from),
  ]);
  // The Safe forwards at most 63/64 of the remaining gas to the inner call: leave room.
  const gas = gasEstimate + gasEstimate / 5n;
  const requestId = crypto.randomUUID();
  await insertRecords(s, q.appid, requestId, [
    txRecordStatement({
      requestId,
      req: {
        appid: q.appid,
        gameIndex: q.gameIndex,
        network: q.network,
        playerId: prepared.player_id,
        params: { from, to: safe.address, safeTxHash: hash, executes: prepared.request_id },
      },
      chainId: chain.chainId,
      type: "MULTISIG_TX",
      status: "WAITING",
      from,
      contract: safe.address,
      hash: null,
      nonce: txNonce,
      now: new Date(s.clock.now()),
      execOf: prepared.request_id,
    }),
  ]);
  const unsigned = {
    type: "eip1559" as const,
    chainId: chain.chainId,
    nonce: txNonce,
    to: safe.address,
    data,
    gas,
    ...fees,
  };
  const rawTx = q.encoded ? serializeTransaction(unsigned) : {
    from,
    to: safe.address,
    data,
    nonce: txNonce,
    chainId: chain.chainId,
    gas: Number(gas),
    maxFeePerGas: Number(fees.maxFeePerGas),
    maxPriorityFeePerGas: Number(fees.maxPriorityFeePerGas),
  };
  return { rawTx, requestId, reqeustId: requestId };
}
