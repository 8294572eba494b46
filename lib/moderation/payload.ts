/**
 * Encrypted payloads of the chat and text-detection batches: each element carries an ISO 8601
 * time stamp and a Base64 AES-ECB ciphertext of a JSON object under the game's or project's secret.
 */
import { ecbDecryptor } from "../crypto/aes_ecb.ts";

// ISO 8601 with seconds and an offset or Z, e.g. 2024-05-01T12:00:00.123+09:00.
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

/** True for a valid ISO 8601 time with an offset. */
export function isIsoTime(value: string): boolean {
  return ISO_TIME.test(value) && !Number.isNaN(Date.parse(value));
}

/**
 * An opener for one batch's payloads (key schedule expanded once): the parsed JSON, or undefined
 * when a payload does not decrypt to JSON, which means the wrong secret or a corrupt message (every
 * payload fails when the secret is not an AES key size).
 */
export function jsonPayloadOpener(secret: string): (base64: string) => unknown {
  const decrypt = ecbDecryptor(secret);
  return (base64) => {
    const plain = decrypt?.(base64);
    if (!plain?.ok) return undefined;
    try {
      return JSON.parse(plain.text);
    } catch {
      return undefined;
    }
  };
}
