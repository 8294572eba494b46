/**
 * OTP codes: uniform random digits, and the keyed hashes under which codes and receivers are
 * stored (the server key is derived from the master key, so Redis never holds a code or an
 * address in clear).
 */
import { hmacSha256Hex, HmacSha256Key } from "../crypto/sha256.ts";

const enc = new TextEncoder();
const keys = new WeakMap<object, Promise<OtpHashKey>>();
const derivedKeys = new WeakMap<object, OtpHashKey>();

/** The OTP hashing key; hashing under it is synchronous (no event-loop turn per hash). */
export type OtpHashKey = HmacSha256Key;

/**
 * Random bytes drawn from the system CSPRNG a page at a time (one call instead of one per code
 * and token); each byte is used once and zeroed as it is taken.
 */
const pool = new Uint8Array(4096);
let taken = pool.length;

function randomByte(): number {
  if (taken === pool.length) {
    crypto.getRandomValues(pool);
    taken = 0;
  }
  const b = pool[taken];
  pool[taken++] = 0;
  return b;
}

const DIGITS = "0123456789";
const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** Uniform random decimal digits; leading zeros are kept ("012345"). */
export function generateCode(length: number): string {
  let out = "";
  while (out.length < length) {
    const b = randomByte();
    // Bytes of 250 and above would bias the digits toward 0-5: draw again instead.
    if (b < 250) out += DIGITS[b % 10];
  }
  return out;
}

/** 72 random bits as 12 base64url characters, making each stored code value unique. */
export function uniqueToken(): string {
  let out = "";
  for (let i = 0; i < 12; i++) out += BASE64URL[randomByte() & 63];
  return out;
}

/** The server's OTP hashing key, derived once per secrets object from the master key. */
export function otpHashKey(secrets: { kmsMasterKey: string }): Promise<OtpHashKey> {
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
      const derived = new Uint8Array(
        await crypto.subtle.sign("HMAC", master, enc.encode("otp-hash-key/v1")),
      );
      const key = new HmacSha256Key(derived);
      derived.fill(0);
      derivedKeys.set(secrets, key);
      return key;
    })();
    keys.set(secrets, key);
  }
  return key;
}

/** The OTP hashing key if already derived for these secrets (then no event-loop turn is needed). */
export function derivedOtpHashKey(secrets: { kmsMasterKey: string }): OtpHashKey | undefined {
  return derivedKeys.get(secrets);
}

/** Hex HMAC-SHA-256 of text under the OTP key. */
export function keyedHash(key: OtpHashKey, text: string): string {
  return hmacSha256Hex(key, text);
}
