/**
 * SHA-256 and HMAC-SHA-256 computed synchronously, for hot paths that hash short texts under one
 * fixed key: the key's inner and outer states are computed once, so a short message costs two
 * block compressions, no allocation and no trip through the event loop (a WebCrypto `sign` is
 * always a separate turn). The compression works on 32-bit integers in typed arrays. The tests
 * compare every result with WebCrypto's.
 */

// The first 32 bits of the fractional parts of the cube roots of the first 64 primes.
const K = new Int32Array([
  0x428a2f98,
  0x71374491,
  0xb5c0fbcf,
  0xe9b5dba5,
  0x3956c25b,
  0x59f111f1,
  0x923f82a4,
  0xab1c5ed5,
  0xd807aa98,
  0x12835b01,
  0x243185be,
  0x550c7dc3,
  0x72be5d74,
  0x80deb1fe,
  0x9bdc06a7,
  0xc19bf174,
  0xe49b69c1,
  0xefbe4786,
  0x0fc19dc6,
  0x240ca1cc,
  0x2de92c6f,
  0x4a7484aa,
  0x5cb0a9dc,
  0x76f988da,
  0x983e5152,
  0xa831c66d,
  0xb00327c8,
  0xbf597fc7,
  0xc6e00bf3,
  0xd5a79147,
  0x06ca6351,
  0x14292967,
  0x27b70a85,
  0x2e1b2138,
  0x4d2c6dfc,
  0x53380d13,
  0x650a7354,
  0x766a0abb,
  0x81c2c92e,
  0x92722c85,
  0xa2bfe8a1,
  0xa81a664b,
  0xc24b8b70,
  0xc76c51a3,
  0xd192e819,
  0xd6990624,
  0xf40e3585,
  0x106aa070,
  0x19a4c116,
  0x1e376c08,
  0x2748774c,
  0x34b0bcb5,
  0x391c0cb3,
  0x4ed8aa4a,
  0x5b9cca4f,
  0x682e6ff3,
  0x748f82ee,
  0x78a5636f,
  0x84c87814,
  0x8cc70208,
  0x90befffa,
  0xa4506ceb,
  0xbef9a3f7,
  0xc67178f2,
]);
// The first 32 bits of the fractional parts of the square roots of the first 8 primes.
const IV = new Int32Array([
  0x6a09e667,
  0xbb67ae85,
  0x3c6ef372,
  0xa54ff53a,
  0x510e527f,
  0x9b05688c,
  0x1f83d9ab,
  0x5be0cd19,
]);

/** The message schedule, reused by every compression (all of them are synchronous). */
const W = new Int32Array(64);

/** Compresses the 64-byte block at `at` of `bytes` into `state`. */
function compress(state: Int32Array, bytes: Uint8Array, at: number): void {
  for (let i = 0; i < 16; i++, at += 4) {
    W[i] = (bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3];
  }
  for (let i = 16; i < 64; i++) {
    const a = W[i - 15];
    const b = W[i - 2];
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    W[i] = (W[i - 16] + s0 + W[i - 7] + s1) | 0;
  }
  let a = state[0], b = state[1], c = state[2], d = state[3];
  let e = state[4], f = state[5], g = state[6], h = state[7];
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K[i] + W[i]) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = (state[0] + a) | 0;
  state[1] = (state[1] + b) | 0;
  state[2] = (state[2] + c) | 0;
  state[3] = (state[3] + d) | 0;
  state[4] = (state[4] + e) | 0;
  state[5] = (state[5] + f) | 0;
  state[6] = (state[6] + g) | 0;
  state[7] = (state[7] + h) | 0;
}

/** Message bytes with their padding, grown when a longer message comes. */
let padded = new Uint8Array(256);

/**
 * Hashes `length` bytes already written at the start of `padded` into `state`, which holds the
 * state after `before` bytes (0, or 64 after an HMAC key block); pads in place, then zeroes them.
 */
function finish(state: Int32Array, length: number, before: number): void {
  const total = (length + 9 + 63) & ~63;
  padded.fill(0, length, total);
  padded[length] = 0x80;
  // The bit length, big-endian in the last eight bytes (messages here stay far below 2^32 bits).
  const bits = (length + before) * 8;
  padded[total - 5] = Math.floor(bits / 2 ** 32) & 0xff;
  padded[total - 4] = bits >>> 24;
  padded[total - 3] = (bits >>> 16) & 0xff;
  padded[total - 2] = (bits >>> 8) & 0xff;
  padded[total - 1] = bits & 0xff;
  for (let at = 0; at < total; at += 64) compress(state, padded, at);
  padded.fill(0, 0, total);
}

/** Room in `padded` for a message of `length` bytes and its padding. */
function room(length: number): void {
  if (padded.length < length + 72) padded = new Uint8Array((length + 72) * 2);
}

function wordsInto(state: Int32Array, out: Uint8Array): Uint8Array {
  for (let i = 0; i < 8; i++) {
    const w = state[i];
    out[i * 4] = w >>> 24;
    out[i * 4 + 1] = (w >>> 16) & 0xff;
    out[i * 4 + 2] = (w >>> 8) & 0xff;
    out[i * 4 + 3] = w & 0xff;
  }
  return out;
}

/** SHA-256 of bytes. */
export function sha256(data: Uint8Array): Uint8Array {
  const state = IV.slice();
  let at = 0;
  for (; at + 64 <= data.length; at += 64) compress(state, data, at);
  const rest = data.length - at;
  room(rest);
  padded.set(data.subarray(at), 0);
  finish(state, rest, at);
  return wordsInto(state, new Uint8Array(32));
}

/** The state after hashing one 64-byte block of `key` bytes XORed with `pad`. */
function padState(key: Uint8Array, pad: number): Int32Array {
  const block = new Uint8Array(64);
  for (let i = 0; i < 64; i++) block[i] = (key[i] ?? 0) ^ pad;
  const state = IV.slice();
  compress(state, block, 0);
  block.fill(0);
  return state;
}

/** An HMAC-SHA-256 key, kept as the hash states after its pads. Prints as nothing. */
export class HmacSha256Key {
  readonly #inner: Int32Array;
  readonly #outer: Int32Array;

  constructor(key: Uint8Array) {
    // Keys longer than a block are hashed first (RFC 2104).
    const k = key.length > 64 ? sha256(key) : key;
    this.#inner = padState(k, 0x36);
    this.#outer = padState(k, 0x5c);
    if (k !== key) k.fill(0);
  }

  /**
   * The MAC of the first `length` bytes of the shared message buffer, left in `state` (8 words).
   * Called with the message already written (see `messageRoom`).
   */
  macInto(length: number, state: Int32Array): void {
    state.set(this.#inner);
    finish(state, length, 64);
    // The outer hash's message is the inner digest: one block with its padding.
    const inner = wordsInto(state, padded);
    inner[32] = 0x80;
    inner[62] = 0x03; // 96 bytes (key block and digest) = 768 bits = 0x0300.
    state.set(this.#outer);
    compress(state, inner, 0);
    padded.fill(0, 0, 64);
  }

  /** The MAC of `data`, written into `out` (32 bytes). */
  signInto(data: Uint8Array, out: Uint8Array): Uint8Array {
    room(data.length);
    padded.set(data, 0);
    this.macInto(data.length, mac);
    wordsInto(mac, out);
    mac.fill(0);
    return out;
  }

  toJSON(): string {
    return "[HmacSha256Key]";
  }

  [Symbol.for("Deno.customInspect")](): string {
    return "[HmacSha256Key]";
  }
}

const mac = new Int32Array(8);
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
const enc = new TextEncoder();

/** HMAC-SHA-256 of bytes. */
export function hmacSha256(key: HmacSha256Key, data: Uint8Array): Uint8Array {
  return key.signInto(data, new Uint8Array(32));
}

/** Lowercase hex HMAC-SHA-256 of the UTF-8 bytes of a text. */
export function hmacSha256Hex(key: HmacSha256Key, text: string): string {
  // At most three bytes per UTF-16 unit.
  room(text.length * 3);
  let written = 0;
  // ASCII is its own UTF-8; anything else goes through the encoder.
  for (; written < text.length; written++) {
    const unit = text.charCodeAt(written);
    if (unit > 0x7f) break;
    padded[written] = unit;
  }
  if (written < text.length) written = enc.encodeInto(text, padded).written;
  key.macInto(written, mac);
  let hex = "";
  for (let i = 0; i < 8; i++) {
    const w = mac[i];
    hex += HEX[w >>> 24] + HEX[(w >>> 16) & 0xff] + HEX[(w >>> 8) & 0xff] + HEX[w & 0xff];
  }
  mac.fill(0);
  return hex;
}
