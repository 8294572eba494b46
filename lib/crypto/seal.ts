/**
 * Secrets at rest: AES-256-GCM under a key derived from the master key per purpose, with the
 * owning record's id bound as associated data so sealed values cannot be moved between rows.
 * Sealed text is `v1:` + Base64(iv ‖ ciphertext ‖ tag).
 */
import { fromBase64, randomBytes, toBase64 } from "./hashing.ts";

const enc = new TextEncoder();

const derived = new Map<string, Promise<CryptoKey>>();

/** Derives (once per master key and purpose) the AES-GCM key of one purpose from the master key. */
export function deriveSealKey(masterKey: string, purpose: string): Promise<CryptoKey> {
  const id = `${purpose}:v1:${masterKey}`;
  let key = derived.get(id);
  if (!key) {
    key = crypto.subtle.digest("SHA-256", enc.encode(id)).then((material) =>
      crypto.subtle.importKey("raw", material, "AES-GCM", false, ["encrypt", "decrypt"])
    );
    derived.set(id, key);
  }
  return key;
}

/** Encrypts text for storage, bound to `owner`. */
export async function sealText(key: CryptoKey, owner: string, plaintext: string): Promise<string> {
  const iv = randomBytes(12);
  const ct = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv: iv as BufferSource, additionalData: enc.encode(owner) },
    key,
    enc.encode(plaintext),
  );
  const joined = new Uint8Array(12 + ct.byteLength);
  joined.set(iv);
  joined.set(new Uint8Array(ct), 12);
  return `v1:${toBase64(joined)}`;
}

/** Decrypts sealed text; throws when the key, the owner or the bytes do not match. */
export async function openText(key: CryptoKey, owner: string, sealed: string): Promise<string> {
  if (!sealed.startsWith("v1:")) throw new Error("not a sealed value");
  const bytes = fromBase64(sealed.slice(3));
  const plain = await crypto.subtle.decrypt(
    {
      name: "AES-GCM",
      iv: bytes.slice(0, 12) as BufferSource,
      additionalData: enc.encode(owner),
    },
    key,
    bytes.slice(12) as BufferSource,
  );
  return new TextDecoder().decode(plain);
}
