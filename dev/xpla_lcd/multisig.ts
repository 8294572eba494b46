/** Amino multisig accounts of the local LCD (LegacyAminoPubKey). */
import type { Any } from "cosmjs-types/google/protobuf/any";
import type { Fee, ModeInfo, TxBody } from "cosmjs-types/cosmos/tx/v1beta1/tx";

/** Type URL of the legacy amino multisig public key. */
export const MULTISIG_TYPE = "/cosmos.crypto.multisig.LegacyAminoPubKey";

/** Decodes a multisig public key. */
export function decodeMultisigPubKey(
  _pk: Any,
): { address: string; threshold: number; keys: Uint8Array[] } {
  throw new Error("multisig public keys are not supported yet");
}

/** Verifies a multisig signature. */
export function verifyMultisig(_v: {
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
  return false;
}
