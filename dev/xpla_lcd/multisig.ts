/**
 * Amino multisig accounts of the local LCD: the LegacyAminoPubKey (address as the chain
 * derives it, lib/chain/xpla/multisig_keys.ts) and the verification of a multisig signature
 * in SIGN_MODE_LEGACY_AMINO_JSON: the bit array names the members that signed, in key order,
 * and each signature must verify against that member's key over the StdSignDoc the chain
 * rebuilds from the transaction, serialised by this chain's own encoder (amino_json.ts).
 */
import type { Any } from "cosmjs-types/google/protobuf/any";
import type { Fee, ModeInfo, TxBody } from "cosmjs-types/cosmos/tx/v1beta1/tx";
import { SignMode } from "cosmjs-types/cosmos/tx/signing/v1beta1/signing";
import { MultiSignature } from "cosmjs-types/cosmos/crypto/multisig/v1beta1/multisig";
import { verifyEthSecp256k1 } from "../../lib/chain/xpla/keys.ts";
import { decodeMultisigAny, MULTISIG_TYPE } from "../../lib/chain/xpla/multisig_keys.ts";
import { type AminoExecute, aminoSignBytes } from "./amino_json.ts";

export { MULTISIG_TYPE };

/** Decodes a multisig public key (threshold, member keys, address). */
export function decodeMultisigPubKey(pk: Any) {
  return decodeMultisigAny(pk);
}

/** The members a compact bit array marks (most significant bit of the first byte = member 0). */
function signedMembers(bits: { extraBitsStored: number; elems: Uint8Array }) {
  const size = bits.extraBitsStored === 0
    ? bits.elems.length * 8
    : (bits.elems.length - 1) * 8 + bits.extraBitsStored;
  const set: number[] = [];
  for (let i = 0; i < size; i++) {
    if ((bits.elems[Math.floor(i / 8)] >> (7 - (i % 8))) & 1) set.push(i);
  }
  return { size, set };
}

/** Verifies a multisig signature over the transaction's amino JSON sign document. */
export function verifyMultisig(v: {
  pubKey: Any;
  modeInfo: ModeInfo;
  signature: Uint8Array;
  chainId: string;
  accountNumber: number;
  sequence: number;
  body: TxBody;
  json: Record<string, unknown>;
  fee: Fee;
}): boolean {
  const multi = v.modeInfo.multi;
  if (!multi?.bitarray) return false;
  const { threshold, keys } = decodeMultisigAny(v.pubKey);
  const { size, set } = signedMembers(multi.bitarray);
  if (size !== keys.length || set.length < threshold) return false;
  let sigs: Uint8Array[];
  try {
    sigs = MultiSignature.decode(v.signature).signatures;
  } catch {
    return false;
  }
  if (sigs.length !== set.length || multi.modeInfos.length !== set.length) return false;
  if (multi.modeInfos.some((m) => m.single?.mode !== SignMode.SIGN_MODE_LEGACY_AMINO_JSON)) {
    return false;
  }
  const messages = (v.json.body as { messages: Record<string, unknown>[] }).messages;
  if (messages.some((m) => m["@type"] !== "/cosmwasm.wasm.v1.MsgExecuteContract")) return false;
  const signBytes = aminoSignBytes({
    chainId: v.chainId,
    accountNumber: v.accountNumber,
    sequence: v.sequence,
    body: v.body,
    fee: v.fee,
    messages: messages as unknown as AminoExecute[],
  });
  return set.every((member, i) => verifyEthSecp256k1(keys[member], signBytes, sigs[i]));
}
