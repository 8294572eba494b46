/**
 * XPLA transaction encoding: protobuf TxBody / AuthInfo / SignDoc / TxRaw (Cosmos SDK), CosmWasm
 * MsgExecuteContract messages carrying JSON, ethsecp256k1 public keys, SIGN_MODE_DIRECT.
 */
import {
  type Any,
  encodeAuthInfo as encodeAuthInfoProto,
  encodeMsgExecuteContract,
  encodePubKey,
  encodeSignDoc as encodeSignDocProto,
  encodeTxBody,
  encodeTxRaw as encodeTxRawProto,
  SignMode,
} from "./proto.ts";
import { base64 } from "@scure/base";
import { bytesToHex, sha256 } from "viem";

/** Type URL of XPLA's (Ethermint) ethsecp256k1 public key. */
export const ETH_PUBKEY_TYPE = "/ethermint.crypto.v1.ethsecp256k1.PubKey";
/** The same key type under the Cosmos EVM module's name (accepted when reading accounts). */
export const COSMOS_EVM_PUBKEY_TYPE = "/cosmos.evm.crypto.v1.ethsecp256k1.PubKey";
/** Type URL of a CosmWasm execute message. */
export const EXECUTE_TYPE = "/cosmwasm.wasm.v1.MsgExecuteContract";
/** The fee denomination (18 decimals). */
export const XPLA_DENOM = "axpla";

/** One contract call: a JSON message to a CosmWasm contract. */
export interface ContractCall {
  contract: string;
  msg: Record<string, unknown>;
}

const utf8 = new TextEncoder();

/** Encodes JSON the way contracts receive it (UTF-8 bytes). */
export function jsonBytes(value: unknown): Uint8Array {
  return utf8.encode(JSON.stringify(value));
}

/** The base64 of a JSON value: the `msg` of cw721 send_nft / cw20 send hooks. */
export function jsonBase64(value: unknown): string {
  return base64.encode(jsonBytes(value));
}

/** An ethsecp256k1 public key wrapped in Any. */
export function ethPubKeyAny(key: Uint8Array): Any {
  return { typeUrl: ETH_PUBKEY_TYPE, value: encodePubKey({ key }) };
}

/**
 * Encodes a TxBody of execute messages sent by `sender`; a timeout height above 0 is the last
 * block that may include the transaction.
 */
export function encodeBody(
  sender: string,
  calls: ContractCall[],
  options: { memo?: string; timeoutHeight?: bigint } = {},
): Uint8Array {
  const messages = calls.map((c) => ({
    typeUrl: EXECUTE_TYPE,
    value: encodeMsgExecuteContract({
      sender,
      contract: c.contract,
      msg: jsonBytes(c.msg),
      funds: [],
    }),
  }));
  return encodeTxBody({
    messages,
    memo: options.memo ?? "",
    timeoutHeight: options.timeoutHeight ?? 0n,
  });
}

/** Encodes an AuthInfo with one single-key signer (SIGN_MODE_DIRECT) and its fee. */
export function encodeAuthInfo(a: {
  publicKey?: Any;
  sequence: bigint;
  gasLimit: bigint;
  feeAmount: bigint;
}): Uint8Array {
  const signer = {
    publicKey: a.publicKey,
    modeInfo: { single: { mode: SignMode.SIGN_MODE_DIRECT } },
    sequence: a.sequence,
  };
  const fee = {
    amount: a.feeAmount > 0n ? [{ denom: XPLA_DENOM, amount: a.feeAmount.toString() }] : [],
    gasLimit: a.gasLimit,
  };
  return encodeAuthInfoProto({ signerInfos: [signer], fee });
}

/** The SIGN_MODE_DIRECT sign bytes. */
export function encodeSignDoc(d: {
  bodyBytes: Uint8Array;
  authInfoBytes: Uint8Array;
  chainId: string;
  accountNumber: bigint;
}): Uint8Array {
  return encodeSignDocProto(d);
}

/** The broadcastable tx bytes. */
export function encodeTxRaw(t: {
  bodyBytes: Uint8Array;
  authInfoBytes: Uint8Array;
  signatures: Uint8Array[];
}): Uint8Array {
  return encodeTxRawProto(t);
}

/** The chain's transaction hash: SHA-256 of the tx bytes, uppercase hex. */
export function cosmosTxHash(txBytes: Uint8Array): string {
  return bytesToHex(sha256(txBytes, "bytes")).slice(2).toUpperCase();
}

/** Fee in axpla for a gas limit at a decimal gas price (rounded up). */
export function feeFor(gasLimit: bigint, gasPrice: string): bigint {
  const [whole, frac = ""] = gasPrice.split(".");
  const scale = 10n ** BigInt(frac.length);
  const price = BigInt(whole || "0") * scale + BigInt(frac || "0");
  return (gasLimit * price + scale - 1n) / scale;
}

/** The unsigned transaction as JSON (what `rawTx` shows when encoded is false). */
export function describeUnsigned(u: {
  sender: string;
  calls: ContractCall[];
  publicKey?: Uint8Array;
  sequence: bigint;
  gasLimit: bigint;
  feeAmount: bigint;
  bodyBytes: Uint8Array;
  authInfoBytes: Uint8Array;
  chainId: string;
  accountNumber: bigint;
}) {
  return {
    chainId: u.chainId,
    accountNumber: u.accountNumber.toString(),
    sequence: u.sequence.toString(),
    body: {
      messages: u.calls.map((c) => ({
        "@type": EXECUTE_TYPE,
        sender: u.sender,
        contract: c.contract,
        msg: c.msg,
        funds: [],
      })),
      memo: "",
    },
    authInfo: {
      signerInfos: [{
        publicKey: u.publicKey
          ? { "@type": ETH_PUBKEY_TYPE, key: base64.encode(u.publicKey) }
          : null,
        modeInfo: { single: { mode: "SIGN_MODE_DIRECT" } },
        sequence: u.sequence.toString(),
      }],
      fee: {
        amount: [{ denom: XPLA_DENOM, amount: u.feeAmount.toString() }],
        gasLimit: u.gasLimit.toString(),
      },
    },
    bodyBytes: base64.encode(u.bodyBytes),
    authInfoBytes: base64.encode(u.authInfoBytes),
    signDoc: base64.encode(encodeSignDoc(u)),
  };
}
