/**
 * AES in ECB mode for the chat and text-detection payloads. The key is the console-issued
 * secret's UTF-8 bytes (16, 24 or 32 bytes). Clients pad either with PKCS#7 or with trailing
 * spaces; decryption accepts both. Failures come back as values, never as thrown errors.
 * Implemented with @noble/ciphers (synchronous): WebCrypto has no ECB and the AES-CBC detour
 * measured slower for chat-sized messages (see BENCHMARKS.md).
 */
import { ecb, unsafe } from "@noble/ciphers/aes.js";
import { fromBase64, toBase64 } from "./hashing.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

/** Why a payload could not be decrypted. */
export type EcbFailure = "bad_key" | "bad_base64" | "bad_length" | "bad_padding" | "bad_utf8";

/** Outcome of a decryption. */
export type EcbResult = { ok: true; text: string } | { ok: false; reason: EcbFailure };

/** How the plaintext is padded to the 16-byte block. */
export type EcbPadding = "pkcs7" | "spaces";

// The AES key for a secret, or null when its UTF-8 length is not 16, 24 or 32 bytes.
function ecbKeyOf(secret: string): Uint8Array | null {
  const key = encoder.encode(secret);
  return key.length === 16 || key.length === 24 || key.length === 32 ? key : null;
}

/** Encrypts text with the secret and returns Base64 (used by tests, benchmarks and clients). */
export function encryptEcb(
  text: string,
  secret: string,
  options: { padding?: EcbPadding } = {},
): string {
  const key = ecbKeyOf(secret);
  if (!key) throw new RangeError("AES key must be 16, 24 or 32 bytes");
  const plain = encoder.encode(text);
  const padded = new Uint8Array(Math.ceil((plain.length + 1) / 16) * 16);
  padded.set(plain);
  if (options.padding === "spaces") {
    // Space padders add nothing when the text already fills whole blocks.
    const size = Math.ceil(plain.length / 16) * 16 || 16;
    padded.fill(0x20, plain.length, size);
    return toBase64(ecb(key, { disablePadding: true }).encrypt(padded.subarray(0, size)));
  }
  padded.fill(padded.length - plain.length, plain.length);
  return toBase64(ecb(key, { disablePadding: true }).encrypt(padded));
}

/** Decrypts Base64 ciphertext with the secret; accepts PKCS#7 and trailing-space padding. */
export function decryptEcb(base64: string, secret: string): EcbResult {
  const decrypt = ecbDecryptor(secret);
  return decrypt ? decrypt(base64) : { ok: false, reason: "bad_key" };
}

/**
 * A decryptor for one secret with the key schedule expanded once (batches reuse it), or null
 * when the secret is not 16, 24 or 32 bytes.
 */
export function ecbDecryptor(secret: string): ((base64: string) => EcbResult) | null {
  const key = ecbKeyOf(secret);
  if (!key) return null;
  // noble's ecb() expands the key schedule on every call; on little-endian hosts (every
  // runtime this serves) the schedule is expanded here once and the blocks decrypted with it.
  const cipher = LITTLE_ENDIAN ? expandedEcb(key) : ecb(key, { disablePadding: true });
  return (base64) => decryptWith(cipher, base64);
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** ECB decryption with a key schedule expanded once (little-endian word order). */
function expandedEcb(key: Uint8Array): { decrypt(data: Uint8Array): Uint8Array } {
  const schedule = unsafe.expandKeyDecLE(key);
  return {
    decrypt(data) {
      // A copy gives aligned 32-bit words whatever the input's offset.
      const words = new Uint32Array(data.slice().buffer);
      for (let i = 0; i + 4 <= words.length; i += 4) {
        const { s0, s1, s2, s3 } = unsafe.decrypt(
          schedule,
          words[i],
          words[i + 1],
          words[i + 2],
          words[i + 3],
        );
        words[i] = s0;
        words[i + 1] = s1;
        words[i + 2] = s2;
        words[i + 3] = s3;
      }
      return new Uint8Array(words.buffer);
    },
  };
}

function decryptWith(aes: { decrypt(data: Uint8Array): Uint8Array }, base64: string): EcbResult {
  let cipher: Uint8Array;
  try {
    cipher = fromBase64(base64);
  } catch {
    return { ok: false, reason: "bad_base64" };
  }
  if (cipher.length === 0 || cipher.length % 16 !== 0) return { ok: false, reason: "bad_length" };
  let plain: Uint8Array;
  try {
    plain = aes.decrypt(cipher);
  } catch {
    return { ok: false, reason: "bad_key" };
  }
  const end = unpaddedLength(plain);
  if (end < 0) return { ok: false, reason: "bad_padding" };
  try {
    return { ok: true, text: decoder.decode(plain.subarray(0, end)) };
  } catch {
    return { ok: false, reason: "bad_utf8" };
  }
}

/** Length of the plaintext without its padding, or -1 when neither padding style fits. */
function unpaddedLength(plain: Uint8Array): number {
  const last = plain[plain.length - 1];
  if (last >= 1 && last <= 16) {
    for (let i = plain.length - last; i < plain.length; i++) {
      if (plain[i] !== last) return -1;
    }
    return plain.length - last;
  }
  // Space padding (some encoders pad with NUL instead; both are trimmed).
  let end = plain.length;
  while (end > 0 && (plain[end - 1] === 0x20 || plain[end - 1] === 0)) end--;
  return end;
}
