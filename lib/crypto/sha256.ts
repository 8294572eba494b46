/**
 * SHA-256 and HMAC-SHA-256 computed synchronously (@noble/hashes), for hot paths that hash short
 * texts under one fixed key: the key's inner and outer states are computed once, so a short
 * message costs two block compressions and no trip through the event loop (a WebCrypto `sign` is
 * always a separate turn). The tests compare every result with WebCrypto's.
 */
import { hmac } from "@noble/hashes/hmac";
import { sha256 as nobleSha256 } from "@noble/hashes/sha2";

type Mac = ReturnType<typeof hmac.create>;

/** SHA-256 of bytes. */
export function sha256(data: Uint8Array): Uint8Array {
  return nobleSha256(data);
}

/** An HMAC-SHA-256 key, kept as the hash states after its pads. Prints as nothing. */
export class HmacSha256Key {
  readonly #keyed: Mac;
  // Each MAC starts from a copy of the keyed states, written over this one scratch object (every
  // use is synchronous, so no two overlap).
  readonly #scratch: Mac;

  constructor(key: Uint8Array) {
    this.#keyed = hmac.create(nobleSha256, key);
    this.#scratch = this.#keyed.clone();
  }

  /** The MAC of `data`, written into `out` (32 bytes). */
  signInto(data: Uint8Array, out: Uint8Array): Uint8Array {
    const mac = this.#keyed._cloneInto(this.#scratch);
    mac.update(data).digestInto(out);
    return out;
  }

  toJSON(): string {
    return "[HmacSha256Key]";
  }

  [Symbol.for("Deno.customInspect")](): string {
    return "[HmacSha256Key]";
  }
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
const digest = new Uint8Array(32);
const enc = new TextEncoder();
let scratch = new Uint8Array(256);

/** HMAC-SHA-256 of bytes. */
export function hmacSha256(key: HmacSha256Key, data: Uint8Array): Uint8Array {
  return key.signInto(data, new Uint8Array(32));
}

/** Lowercase hex HMAC-SHA-256 of the UTF-8 bytes of a text. */
export function hmacSha256Hex(key: HmacSha256Key, text: string): string {
  // At most three bytes per UTF-16 unit.
  if (scratch.length < text.length * 3) scratch = new Uint8Array(text.length * 3);
  let written = 0;
  // ASCII is its own UTF-8; anything else goes through the encoder.
  for (; written < text.length; written++) {
    const unit = text.charCodeAt(written);
    if (unit > 0x7f) break;
    scratch[written] = unit;
  }
  if (written < text.length) written = enc.encodeInto(text, scratch).written;
  key.signInto(scratch.subarray(0, written), digest);
  scratch.fill(0, 0, written);
  let hex = "";
  for (let i = 0; i < 32; i++) hex += HEX[digest[i]];
  digest.fill(0);
  return hex;
}
