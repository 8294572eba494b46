/**
 * XPLA keys and addresses. XPLA accounts use ethsecp256k1 (Ethermint): secp256k1 signatures over
 * keccak256 of the sign bytes, and the address is the last 20 bytes of keccak256 of the
 * uncompressed public key, shown as bech32 with the prefix `xpla`. So one key has the same 20
 * bytes on Polygon (`0x…`) and on XPLA (`xpla1…`).
 */
import { secp256k1 } from "@noble/curves/secp256k1";
import { bech32 } from "@scure/base";
import { getAddress, type Hex, hexToBytes, keccak256, toHex } from "viem";
import { DomainError } from "../../errors.ts";

/** The bech32 prefix of XPLA account and contract addresses. */
export const XPLA_PREFIX = "xpla";

/** Encodes address bytes (20 for accounts, 32 for contracts) as `xpla1…`. */
export function toBech32(bytes: Uint8Array, prefix = XPLA_PREFIX): string {
  return bech32.encode(prefix, bech32.toWords(bytes), 256);
}

/** Decodes an `xpla1…` address to its bytes; null when it is not one. */
export function fromBech32(value: string, prefix = XPLA_PREFIX): Uint8Array | null {
  if (value !== value.toLowerCase() && value !== value.toUpperCase()) return null;
  try {
    const decoded = bech32.decode(value.toLowerCase() as `${string}1${string}`, 256);
    if (decoded.prefix !== prefix) return null;
    const bytes = bech32.fromWords(decoded.words);
    return bytes.length === 20 || bytes.length === 32 ? bytes : null;
  } catch {
    return null;
  }
}

/**
 * Parses an XPLA address field: `xpla1…` (account or contract), or a `0x…` account address
 * (the same 20 bytes); answers the canonical lowercase `xpla1…` form.
 */
export function parseXplaAddress(value: string, field: string): string {
  const text = value.trim();
  if (/^0x[0-9a-fA-F]{40}$/.test(text)) return toBech32(hexToBytes(text as Hex));
  const bytes = fromBech32(text);
  if (!bytes) {
    throw new DomainError("invalid", "VALIDATION_FAILED", `${field} is not a valid xpla address`);
  }
  return toBech32(bytes);
}

/** The `0x…` form of a 20-byte XPLA account address (what the KMS keys by). */
export function xplaToHex(address: string): Hex {
  const bytes = fromBech32(address);
  if (!bytes || bytes.length !== 20) {
    throw new DomainError("invalid", "VALIDATION_FAILED", `${address} is not an xpla account`);
  }
  return getAddress(toHex(bytes));
}

/** The `xpla1…` form of a `0x…` address (same 20 bytes). */
export function hexToXpla(address: string): string {
  return toBech32(hexToBytes(address as Hex));
}

/** The address of an ethsecp256k1 public key (compressed or uncompressed). */
export function addressOfPublicKey(publicKey: Uint8Array): string {
  const point = secp256k1.ProjectivePoint.fromHex(publicKey);
  const uncompressed = point.toRawBytes(false).slice(1);
  return toBech32(hexToBytes(keccak256(uncompressed)).slice(12));
}

/** The compressed (33-byte) public key of a private key. */
export function publicKeyOf(privateKey: Hex): Uint8Array {
  return secp256k1.getPublicKey(hexToBytes(privateKey), true);
}

/** Signs sign bytes the ethsecp256k1 way: 64-byte r||s (low s) over keccak256(bytes). */
export function signEthSecp256k1(privateKey: Hex, signBytes: Uint8Array): Uint8Array {
  const digest = hexToBytes(keccak256(signBytes));
  return secp256k1.sign(digest, hexToBytes(privateKey), { lowS: true }).toCompactRawBytes();
}

/**
 * Verifies an ethsecp256k1 signature (64 bytes r||s, or 65 with a recovery byte, which is
 * ignored) over keccak256(bytes); high-s signatures are refused as the chain does.
 */
export function verifyEthSecp256k1(
  publicKey: Uint8Array,
  signBytes: Uint8Array,
  signature: Uint8Array,
): boolean {
  const sig = signature.length === 65 ? signature.slice(0, 64) : signature;
  if (sig.length !== 64) return false;
  try {
    const digest = hexToBytes(keccak256(signBytes));
    return secp256k1.verify(sig, digest, publicKey, { lowS: true, prehash: false });
  } catch {
    return false;
  }
}
