/**
 * XPLA multi-signature keys and sign documents: the legacy amino multisig public key
 * (LegacyAminoPubKey) with its address, the amino JSON StdSignDoc (SIGN_MODE_LEGACY_AMINO_JSON)
 * and the compact bit array of a multisig signature.
 *
 * Address derivation, decided from the Cosmos SDK source:
 * - cosmos-sdk crypto/keys/multisig/multisig.go: `Address()` is `AddressHash(m.Bytes())`
 *   (SHA-256, first 20 bytes) and `Bytes()` is `AminoCdc.MustMarshal(m)`.
 * - cosmos-sdk crypto/keys/multisig/codec.go: that `AminoCdc` registers only ed25519
 *   (`tendermint/PubKeyEd25519`), secp256k1 (`tendermint/PubKeySecp256k1`) and the multisig itself
 *   (`tendermint/PubKeyMultisigThreshold`, prefix 22C1F7E2). Ethermint registers its
 *   ethsecp256k1 key (`ethermint/PubKeyEthSecp256k1`) in `legacy.Cdc` only
 *   (ethermint crypto/codec/amino.go), not in this codec.
 * - cosmos-sdk codec/types/compat.go: each inner key (an Any) is amino-encoded by
 *   `AminoPacker` with `MarshalBinaryBare`, and go-amino's MarshalBinaryBare prepends the
 *   4-byte name prefix only for registered types. An ethsecp256k1 key is therefore encoded
 *   without a prefix: its MarshalAmino bytes (the 33-byte compressed key) length-prefixed.
 *
 * So the address is sha256(22C1F7E2 | 08 threshold | per key: 12 22 21 <33-byte key>)[:20].
 * @xpla/xpla.js computes the same bytes; cosmjs (which prefixes every key with EB5AE987,
 * the secp256k1 name) does not, and its address would not be the chain's.
 */
import {
  type Any,
  decodeLegacyAminoPubKey,
  decodePubKey,
  encodeLegacyAminoPubKey,
  encodePubKey,
} from "./proto.ts";
import { base64 } from "@scure/base";
import { hexToBytes, sha256 } from "viem";
import { toBech32 } from "./keys.ts";
import { ETH_PUBKEY_TYPE } from "./tx.ts";

/** Type URL of the legacy amino multisig public key. */
export const MULTISIG_TYPE = "/cosmos.crypto.multisig.LegacyAminoPubKey";

const MULTISIG_PREFIX = [0x22, 0xc1, 0xf7, 0xe2];

function uvarint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
}

/** The amino binary encoding of a threshold multisig over ethsecp256k1 keys (see above). */
export function multisigAminoBytes(threshold: number, keys: Uint8Array[]): Uint8Array {
  const out = [...MULTISIG_PREFIX, 0x08, ...uvarint(threshold)];
  for (const key of keys) {
    const inner = [...uvarint(key.length), ...key];
    out.push(0x12, ...uvarint(inner.length), ...inner);
  }
  return new Uint8Array(out);
}

/** The `xpla1…` address of a threshold multisig over ethsecp256k1 keys. */
export function multisigAddress(threshold: number, keys: Uint8Array[]): string {
  return toBech32(hexToBytes(sha256(multisigAminoBytes(threshold, keys))).slice(0, 20));
}

/** The multisig public key as the Any carried in a signer info. */
export function multisigPubKeyAny(threshold: number, keys: Uint8Array[]): Any {
  return {
    typeUrl: MULTISIG_TYPE,
    value: encodeLegacyAminoPubKey({
      threshold,
      publicKeys: keys.map((key) => ({ typeUrl: ETH_PUBKEY_TYPE, value: encodePubKey({ key }) })),
    }),
  };
}

/** Decodes a multisig Any into its threshold, inner keys and address. */
export function decodeMultisigAny(any: Any) {
  const pk = decodeLegacyAminoPubKey(any.value);
  const keys = pk.publicKeys.map((k) => decodePubKey(k.value).key);
  return { threshold: pk.threshold, keys, address: multisigAddress(pk.threshold, keys) };
}

// Go's json.Marshal writes these as \u escapes (HTML-safe output; U+2028 / U+2029 for JavaScript).
const GO_ESCAPED = /[&<>\u2028\u2029]/g;

function goEscape(ch: string): string {
  return `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/**
 * JSON with object keys sorted at every level and no whitespace, as the Cosmos SDK's `SortJSON`
 * writes it (cosmos-sdk types/utils.go: `json.Unmarshal` into `interface{}`, then Go's
 * `json.Marshal`). Go escapes `&`, `<`, `>`, U+2028 and U+2029 inside strings as `\u0026`,
 * `\u003c`, `\u003e`, `\u2028`, `\u2029`; JSON.stringify does not, so they are replaced
 * afterwards (they cannot occur outside strings in JSON text). Other characters are written the
 * same way by both (control characters as Go 1.22 and later write them).
 */
export function sortedJson(value: unknown): string {
  return plainSortedJson(value).replace(GO_ESCAPED, goEscape);
}

function plainSortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(plainSortedJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${plainSortedJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** A coin in amino JSON. */
export interface AminoCoin {
  denom: string;
  amount: string;
}

/** The amino JSON StdSignDoc of a transaction of CosmWasm execute messages. */
export interface StdSignDoc {
  account_number: string;
  chain_id: string;
  fee: { amount: AminoCoin[]; gas: string };
  memo: string;
  msgs: {
    type: "wasm/MsgExecuteContract";
    value: { sender: string; contract: string; msg: Record<string, unknown>; funds: AminoCoin[] };
  }[];
  sequence: string;
  /** Present when the body sets a timeout height (legacytx StdSignDoc, `omitempty`). */
  timeout_height?: string;
}

/** The bytes every signer signs in SIGN_MODE_LEGACY_AMINO_JSON. */
export function stdSignBytes(doc: StdSignDoc): Uint8Array {
  return new TextEncoder().encode(sortedJson(doc));
}

/** A compact bit array of `size` bits with the given indexes set (Cosmos SDK bitarray). */
export function compactBitArray(size: number, set: number[]) {
  const elems = new Uint8Array(Math.ceil(size / 8));
  for (const i of set) elems[i >> 3] |= 1 << (7 - (i % 8));
  return { extraBitsStored: size % 8, elems };
}

/** The indexes set in a compact bit array. */
export function bitArrayIndexes(b: { extraBitsStored: number; elems: Uint8Array }): {
  size: number;
  set: number[];
} {
  const size = b.extraBitsStored === 0 ? b.elems.length * 8 : (b.elems.length - 1) * 8 +
    b.extraBitsStored;
  const set: number[] = [];
  for (let i = 0; i < size; i++) {
    if (b.elems[i >> 3] & (1 << (7 - (i % 8)))) set.push(i);
  }
  return { size, set };
}

/** Decodes a signature given as hex (0x optional) or base64; 64 bytes r||s or 65 with v. */
export function parseSignature(value: string): Uint8Array | null {
  const text = value.trim();
  try {
    const bytes = /^(0x)?[0-9a-fA-F]+$/.test(text) && text.replace(/^0x/, "").length % 2 === 0
      ? hexToBytes(`0x${text.replace(/^0x/, "")}`)
      : base64.decode(text);
    return bytes.length === 64 || bytes.length === 65 ? bytes.slice(0, 64) : null;
  } catch {
    return null;
  }
}

/** Builds the StdSignDoc of execute messages (the chain rebuilds the same from the tx). */
export function stdSignDocOf(d: {
  chainId: string;
  accountNumber: bigint | number | string;
  sequence: bigint | number | string;
  fee: { amount: AminoCoin[]; gas: bigint | number | string };
  memo: string;
  msgs: { sender: string; contract: string; msg: Record<string, unknown>; funds?: AminoCoin[] }[];
  timeoutHeight?: bigint | number | string;
}): StdSignDoc {
  const timeout = BigInt(d.timeoutHeight ?? 0);
  return {
    account_number: String(d.accountNumber),
    chain_id: d.chainId,
    fee: { amount: d.fee.amount, gas: String(d.fee.gas) },
    memo: d.memo,
    msgs: d.msgs.map((m) => ({
      type: "wasm/MsgExecuteContract",
      value: { sender: m.sender, contract: m.contract, msg: m.msg, funds: m.funds ?? [] },
    })),
    sequence: String(d.sequence),
    ...(timeout > 0n ? { timeout_height: timeout.toString() } : {}),
  };
}
