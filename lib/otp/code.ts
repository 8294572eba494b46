/**
 * OTP codes: uniform random digits, and the keyed hashes under which codes and receivers are
 * stored (the server key is derived from the master key, so Redis never holds a code or an
 * address in clear).
 */
import { toHex } from "../crypto/hashing.ts";

const enc = new TextEncoder();
const keys = new WeakMap<object, Promise<CryptoKey>>();

/** Uniform random decimal digits; leading zeros are kept ("012345"). */
export function generateCode(length: number): string {
  let out = "";
  const buf = new Uint8Array(length * 2);
  while (out.length < length) {
    crypto.getRandomValues(buf);
    for (const b of buf) {
      // Bytes of 250 and above would bias the digits toward 0-5: draw again instead.
      if (b < 250 && out.length < length) out += String(b % 10);
    }
  }
  return out;
}

/** The server's OTP hashing key, derived once per secrets object from the master key. */
export function otpHashKey(secrets: { kmsMasterKey: string }): Promise<CryptoKey> {
  let key = keys.get(secrets);
  if (!key) {
    key = (async () => {
      const master = await crypto.subtle.importKey(
        "raw",
        enc.encode(secrets.kmsMasterKey),
        { name: "HMAC", hash: "SHA-256" },
        false,
        ["sign"],
      );
      // Domain separation: the OTP key is never the master key itself.
      const derived = await crypto.subtle.sign("HMAC", master, enc.encode("otp-hash-key/v1"));
      return await crypto.subtle.importKey(
        "raw",
        derived,
        { name: "HMAC", hash: "SHA-256" },
        false,
        ["sign"],
      );
    })();
    keys.set(secrets, key);
  }
  return key;
}

/** Hex HMAC-SHA-256 of text under the OTP key. */
export async function keyedHash(key: CryptoKey, text: string): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(text))));
}
