/**
 * Multi-signature wallets on XPLA: creation from active members' public keys (nothing is sent:
 * the address follows from the keys and the threshold), the amino JSON sign document a
 * creation call answers for a multisig sender, and assembling the members' signatures into
 * tx bytes the creator broadcasts as they are.
 */
import { hexToBytes, keccak256 } from "viem";
import { base64 } from "@scure/base";
import { encodeAuthInfo, encodeMultiSignature, SignMode } from "./proto.ts";
import type { Services } from "../../services.ts";
import type { Sql } from "../../db/port.ts";
import { DomainError } from "../../errors.ts";
import { getAccount, type XplaAccount, type XplaChain } from "./lcd.ts";
import { parseXplaAddress, verifyEthSecp256k1 } from "./keys.ts";
import { type ContractCall, encodeBody, encodeTxRaw, XPLA_DENOM } from "./tx.ts";
import {
  compactBitArray,
  multisigAddress,
  multisigPubKeyAny,
  parseSignature,
  stdSignBytes,
  type StdSignDoc,
  stdSignDocOf,
} from "./multisig_keys.ts";

/** Most members a multisig may have (the auth module's default tx_sig_limit). */
export const MAX_MULTISIG_MEMBERS = 7;

/** A stored multisig wallet. */
export interface XplaMultisig {
  address: string;
  threshold: number;
  keys: Uint8Array[];
  signers: string[];
}

/** Creates (idempotently) a threshold multisig over active accounts; answers its address. */
export async function createXplaMultisig(s: Services, chain: XplaChain, input: {
  gameIndex: number;
  from: string;
  signers: string[];
  threshold: number;
}): Promise<{ address: string }> {
  const from = parseXplaAddress(input.from, "from");
  const n = input.signers.length;
  if (n < 1 || n > MAX_MULTISIG_MEMBERS) {
    throw new DomainError(
      "invalid",
      "VALIDATION_FAILED",
      `signers must list 1 to ${MAX_MULTISIG_MEMBERS} addresses`,
    );
  }
  if (!Number.isInteger(input.threshold) || input.threshold < 1 || input.threshold > n) {
    throw new DomainError(
      "invalid",
      "MULTISIG_THRESHOLD_INVALID",
      `threshold must be an integer from 1 to ${n} (the number of signers)`,
    );
  }
  const signers = input.signers.map((a, i) => parseXplaAddress(a, `signers[${i}]`));
  signers.forEach((a, i) => {
    if (signers.indexOf(a) !== i) {
      throw new DomainError("invalid", "VALIDATION_FAILED", `signers[${i}] ${a} is listed twice`);
    }
  });
  const accounts = await Promise.all(signers.map((a) => getAccount(chain, a)));
  const keys = accounts.map((acc, i) => {
    if (!acc?.publicKey) {
      throw new DomainError(
        "invalid",
        "SIGNER_NOT_ACTIVE",
        `signers[${i}] ${
          signers[i]
        } is not an active account (it has no public key on xpla: it has never sent a transaction)`,
      );
    }
    return acc.publicKey;
  });
  const address = multisigAddress(input.threshold, keys);
  await s.db.query(
    `insert into xpla_multisig_wallets
       (address, game_index, threshold, public_keys, signers, created_by, created_at)
     values ($1, $2, $3, $4::jsonb, $5::jsonb, $6, $7)
     on conflict (address, game_index) do nothing`,
    [
      address,
      input.gameIndex,
      input.threshold,
      keys.map((k) => base64.encode(k)),
      signers,
      from,
      new Date(s.clock.now()),
    ],
  );
  return { address };
}

/** A game's multisig wallet, or null. */
export async function findXplaMultisig(
  db: Sql,
  gameIndex: number,
  address: string,
): Promise<XplaMultisig | null> {
  const [row] = await db.query<{ threshold: number; public_keys: string[]; signers: string[] }>(
    `select threshold, public_keys, signers from xpla_multisig_wallets
      where address = $1 and game_index = $2`,
    [address, gameIndex],
  );
  if (!row) return null;
  return {
    address,
    threshold: row.threshold,
    keys: row.public_keys.map((k) => base64.decode(k)),
    signers: row.signers,
  };
}

/** Auth info of a multisig signer (SIGN_MODE_LEGACY_AMINO_JSON per signature). */
export function multisigAuthInfo(a: {
  wallet: XplaMultisig;
  signed: number[];
  sequence: bigint;
  gasLimit: bigint;
  feeAmount: { denom: string; amount: string }[];
}): Uint8Array {
  const signer = {
    publicKey: multisigPubKeyAny(a.wallet.threshold, a.wallet.keys),
    modeInfo: {
      multi: {
        bitarray: compactBitArray(a.wallet.keys.length, a.signed),
        modeInfos: a.signed.map(() => ({ single: { mode: SignMode.SIGN_MODE_LEGACY_AMINO_JSON } })),
      },
    },
    sequence: a.sequence,
  };
  return encodeAuthInfo({
    signerInfos: [signer],
    fee: { amount: a.feeAmount, gasLimit: a.gasLimit },
  });
}

/** Tx bytes for simulating a multisig send: threshold placeholder signatures of real size. */
export function multisigProbe(wallet: XplaMultisig, calls: ContractCall[], sequence: bigint) {
  const signed = Array.from({ length: wallet.threshold }, (_, i) => i);
  return encodeTxRaw({
    bodyBytes: encodeBody(wallet.address, calls),
    authInfoBytes: multisigAuthInfo({ wallet, signed, sequence, gasLimit: 0n, feeAmount: [] }),
    signatures: [
      encodeMultiSignature({ signatures: signed.map(() => new Uint8Array(64)) }),
    ],
  });
}

/** The amino sign document of a multisig send and the hash each member signs. */
export function multisigSignDoc(d: {
  chain: XplaChain;
  account: XplaAccount;
  wallet: XplaMultisig;
  calls: ContractCall[];
  gasLimit: bigint;
  feeAmount: bigint;
  memo: string;
}) {
  const doc = stdSignDocOf({
    chainId: d.chain.chainId,
    accountNumber: d.account.accountNumber,
    sequence: d.account.sequence,
    fee: { amount: [{ denom: XPLA_DENOM, amount: d.feeAmount.toString() }], gas: d.gasLimit },
    memo: d.memo,
    msgs: d.calls.map((c) => ({ sender: d.wallet.address, contract: c.contract, msg: c.msg })),
  });
  return { doc, hashedTx: keccak256(stdSignBytes(doc)) };
}

function parseDoc(tx: unknown): StdSignDoc {
  let value = tx;
  if (typeof value === "string") {
    const text = value.trim();
    try {
      value = JSON.parse(
        text.startsWith("{") ? text : new TextDecoder().decode(base64.decode(text)),
      );
    } catch {
      throw new DomainError(
        "invalid",
        "VALIDATION_FAILED",
        "tx must be the rawTx sign document (JSON, or its base64)",
      );
    }
  }
  const d = value as StdSignDoc;
  const ok = d && typeof d === "object" && typeof d.chain_id === "string" &&
    /^\d+$/.test(String(d.account_number)) && /^\d+$/.test(String(d.sequence)) &&
    Array.isArray(d.msgs) && d.msgs.length > 0 && d.fee && Array.isArray(d.fee.amount) &&
    /^\d+$/.test(String(d.fee.gas)) &&
    (d.timeout_height === undefined || /^\d+$/.test(String(d.timeout_height))) &&
    d.msgs.every((m) =>
      m?.type === "wasm/MsgExecuteContract" && typeof m.value?.sender === "string" &&
      typeof m.value?.contract === "string" && m.value.msg && typeof m.value.msg === "object"
    );
  if (!ok) {
    throw new DomainError(
      "invalid",
      "VALIDATION_FAILED",
      "tx is not an xpla amino sign document of contract executions",
    );
  }
  return d;
}

/**
 * Checks each signature against a distinct member key, requires exactly `threshold` of them,
 * orders them by the multisig's key order and answers base64 tx bytes ready to broadcast.
 */
export async function assembleXplaMultisigTx(s: Services, chain: XplaChain, input: {
  gameIndex: number;
  from: string;
  to: string;
  tx: unknown;
  signatures: string[];
}): Promise<{ rawTx: string; requestId: string | null }> {
  parseXplaAddress(input.from, "from");
  const address = parseXplaAddress(input.to, "to");
  const wallet = await findXplaMultisig(s.db, input.gameIndex, address);
  if (!wallet) {
    throw new DomainError(
      "not_found",
      "MULTISIG_NOT_FOUND",
      `${address} is not a multisig wallet of this game`,
    );
  }
  const doc = parseDoc(input.tx);
  if (doc.chain_id !== chain.chainId) {
    throw new DomainError(
      "invalid",
      "VALIDATION_FAILED",
      `tx.chain_id ${doc.chain_id} is not ${chain.chainId}`,
    );
  }
  if (doc.msgs.some((m) => m.value.sender !== address)) {
    throw new DomainError("invalid", "VALIDATION_FAILED", `tx messages are not sent by ${address}`);
  }
  if (input.signatures.length !== wallet.threshold) {
    throw new DomainError(
      "invalid",
      "MULTISIG_SIGNATURE_COUNT",
      `signatures has ${input.signatures.length} entries; this multisig needs exactly ${wallet.threshold}`,
    );
  }
  const signBytes = stdSignBytes(doc);
  const byMember = new Map<number, Uint8Array>();
  input.signatures.forEach((text, i) => {
    const sig = parseSignature(text);
    if (sig === null) {
      throw new DomainError(
        "invalid",
        "MULTISIG_SIGNATURE_INVALID",
        `signatures[${i}] must be a 64- or 65-byte signature in hex or base64`,
      );
    }
    const members = wallet.keys.flatMap((key, j) =>
      verifyEthSecp256k1(key, signBytes, sig) ? [j] : []
    );
    if (members.length === 0) {
      throw new DomainError(
        "forbidden",
        "MULTISIG_NOT_OWNER",
        `signatures[${i}] is not a signature of tx by a member of ${address}`,
      );
    }
    const member = members.find((j) => !byMember.has(j));
    if (member === undefined) {
      throw new DomainError(
        "invalid",
        "MULTISIG_DUPLICATE_SIGNER",
        `signatures[${i}] is from a member that already signed`,
      );
    }
    byMember.set(member, sig);
  });
  const signed = [...byMember.keys()].sort((a, b) => a - b);
  const bodyBytes = encodeBody(
    address,
    doc.msgs.map((m) => ({ contract: m.value.contract, msg: m.value.msg })),
    { memo: doc.memo, timeoutHeight: BigInt(doc.timeout_height ?? 0) },
  );
  const authInfoBytes = multisigAuthInfo({
    wallet,
    signed,
    sequence: BigInt(doc.sequence),
    gasLimit: BigInt(doc.fee.gas),
    feeAmount: doc.fee.amount,
  });
  const signature = encodeMultiSignature({ signatures: signed.map((j) => byMember.get(j)!) });
  const txBytes = encodeTxRaw({ bodyBytes, authInfoBytes, signatures: [signature] });
  return { rawTx: base64.encode(txBytes), requestId: doc.memo || null };
}

/** keccak256 of sign bytes as bytes (what a member signs with its ethsecp256k1 key). */
export function signDigestOf(doc: StdSignDoc): Uint8Array {
  return hexToBytes(keccak256(stdSignBytes(doc)));
}
