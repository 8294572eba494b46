/**
 * The shapes of a transaction request and its answer, shared by the Polygon and XPLA transaction
 * builders, the operations that call them, the request parser and the record writer. Types only,
 * so that any chain module can depend on it without importing another's code.
 */
import type { Abi, Hex } from "viem";

/** Transaction types recorded (txType). */
export type TxType =
  | "MINT"
  | "LOCK"
  | "UNLOCK"
  | "CONVERT_TO_TOKEN"
  | "CONVERT_TO_CURRENCY"
  | "DEPLOY"
  | "CONTRACT_CALL"
  | "MULTISIG_TX";

/** Who asks and how the answer should look. */
export interface TxRequest {
  appid: string;
  gameIndex: number;
  network: string;
  playerId: string;
  isSend: boolean;
  encoded: boolean;
  callbackUrl?: string;
  /** Caller-chosen request id (idempotency); generated when absent. */
  requestId?: string;
  /** The original request parameters, shown in the transaction list. */
  params: Record<string, unknown>;
}

/** The contract call to make. */
export interface TxIntent {
  type: TxType;
  from: Hex;
  to: Hex;
  abi: Abi;
  functionName: string;
  args: readonly unknown[];
  /** Action name used in error messages, e.g. "mint". */
  action: string;
}

/** The unsigned transaction as an object (numbers as JSON numbers). */
export interface RawTxObject {
  from: string;
  to: string;
  data: string;
  nonce: number;
  chainId: number;
  gas: number;
  maxFeePerGas: number;
  maxPriorityFeePerGas: number;
}

/** The transaction-creation response `data`. */
export type TxCreation =
  | { txhash: string; status: "PENDING"; requestId: string }
  | { rawTx: RawTxObject | Record<string, unknown> | string; requestId: string; status: "WAITING" }
  | {
    rawTx: Record<string, unknown> | string;
    hashedTx: string;
    requestId: string;
    status: "WAITING";
  };
