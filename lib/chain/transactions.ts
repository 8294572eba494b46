/**
 * Transaction creation and records: estimate (simulating the call, so reverts surface with their
 * reason), then either sign and broadcast with a held key (PENDING) or hand back the unsigned
 * transaction (WAITING). Every request is recorded in `chain_txs` for the list, the tracker and
 * the callback outbox.
 */
import {
  encodeFunctionData,
  type Hex,
  serializeTransaction,
  type TransactionSerializableEIP1559,
} from "viem";
import type { Services } from "../services.ts";
import { DomainError } from "../errors.ts";
import { onChain } from "./polygon.ts";
import { currentFees, pendingNonce, requireChain, signAndBroadcast } from "./sending.ts";
import { trackTransaction } from "./tracker.ts";
import { findSafe } from "./safe/wallets.ts";
import { insertRecord, txRecordStatement } from "./tx_insert.ts";
import { createSafeTransaction } from "./safe/transactions.ts";
import type { TxCreation, TxIntent, TxRequest } from "./tx_request.ts";

/** Creates the transaction for a request: sent (PENDING) or returned unsigned (WAITING). */
export async function createTransaction(
  s: Services,
  req: TxRequest,
  build: (requestId: string) => TxIntent | Promise<TxIntent>,
): Promise<TxCreation> {
  const chain = requireChain(s, req.network);
  const requestId = req.requestId ?? crypto.randomUUID();
  if (req.requestId) await assertNewRequestId(s, req.requestId);
  // The request id goes on chain too (events, the pool's replay guard), so build after choosing it.
  const intent = await build(requestId);
  if (req.isSend && !(await s.kms.holds(req.gameIndex, intent.from))) {
    if (
      await findSafe(s, { chainId: chain.chainId, address: intent.from, gameIndex: req.gameIndex })
    ) {
      throw new DomainError(
        "invalid",
        "MULTISIG_SEND_UNSUPPORTED",
        `${intent.from} is a multi-signature wallet: send isSend false, collect the owners' signatures over hashedTx and call POST /core/v1/multisig/tx`,
      );
    }
    throw new DomainError(
      "invalid",
      "KEY_NOT_HELD",
      `isSend is true but no signing key is held for from ${intent.from}; send isSend false and sign rawTx yourself`,
    );
  }
  const data = encodeFunctionData({
    abi: intent.abi,
    functionName: intent.functionName,
    args: intent.args,
  });
  // Whether the sender is a recorded multi-signature wallet is asked alongside the estimate (which
  // simulates the call from the sender either way), so the plain path waits for no extra query.
  const [safe, estimated, fees] = await Promise.all([
    req.isSend
      ? null
      : findSafe(s, { chainId: chain.chainId, address: intent.from, gameIndex: req.gameIndex }),
    onChain(intent.action, () =>
      chain.client.estimateContractGas({
        abi: intent.abi,
        address: intent.to,
        functionName: intent.functionName,
        args: intent.args,
        account: intent.from,
      })).then((gas) => ({ gas }), (err: unknown) => ({ err })),
    currentFees(chain),
  ]);
  if (safe) {
    return await createSafeTransaction(s, chain, {
      safe,
      to: intent.to,
      data,
      action: intent.action,
      encoded: req.encoded,
      requestId,
      appid: req.appid,
      simulated: "gas" in estimated,
      record: (safeTxHash) =>
        txRecordStatement({
          requestId,
          req,
          chainId: chain.chainId,
          type: intent.type,
          status: "WAITING",
          from: intent.from,
          contract: intent.to,
          hash: null,
          nonce: null,
          now: new Date(s.clock.now()),
          safeTxHash,
        }),
    });
  }
  if ("err" in estimated) throw estimated.err;
  const gasEstimate = estimated.gas;
  // Headroom: state may move between estimate and inclusion.
  const gas = gasEstimate + gasEstimate / 10n;
  const now = new Date(s.clock.now());
  const record = (status: string, hash: Hex | null, nonce: number | null) =>
    insertRecord(s, {
      requestId,
      req,
      chainId: chain.chainId,
      type: intent.type,
      status,
      from: intent.from,
      contract: intent.to,
      hash,
      nonce,
      now,
    });
  if (req.isSend) {
    const { hash } = await signAndBroadcast(s, chain, {
      from: intent.from,
      gameIndex: req.gameIndex,
      to: intent.to,
      data,
      gas,
      ...fees,
    }, {
      requestId,
      appid: req.appid,
      request: (hash, nonce) =>
        txRecordStatement({
          requestId,
          req,
          chainId: chain.chainId,
          type: intent.type,
          status: "PENDING",
          from: intent.from,
          contract: intent.to,
          hash,
          nonce,
          now,
        }),
    });
    s.defer(trackTransaction(s, requestId, { quick: true }));
    return { txhash: hash, status: "PENDING", requestId };
  }
  const nonce = await pendingNonce(chain, intent.from);
  await record("WAITING", null, nonce);
  const unsigned: TransactionSerializableEIP1559 = {
    type: "eip1559",
    chainId: chain.chainId,
    nonce,
    to: intent.to,
    data,
    gas,
    ...fees,
  };
  const rawTx = req.encoded ? serializeTransaction(unsigned) : {
    from: intent.from,
    to: intent.to,
    data,
    nonce,
    chainId: chain.chainId,
    gas: Number(gas),
    maxFeePerGas: Number(fees.maxFeePerGas),
    maxPriorityFeePerGas: Number(fees.maxPriorityFeePerGas),
  };
  return { rawTx, requestId, status: "WAITING" };
}

/** Refuses a caller-chosen request id that was used before. */
export async function assertNewRequestId(s: Services, requestId: string) {
  const rows = await s.db.query("select 1 from chain_txs where request_id = $1", [requestId]);
  if (rows.length > 0) {
    throw new DomainError(
      "conflict",
      "DUPLICATE_REQUEST_ID",
      `requestId ${requestId} was already used`,
    );
  }
}
