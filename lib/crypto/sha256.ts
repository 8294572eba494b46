/**
 * SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104), computed synchronously, for hot paths that
 * hash short texts under one fixed key: an HMAC key's inner and outer states are computed once,
 * so a short message costs two block compressions and no trip through the event loop (a
 * WebCrypto `sign` is always a separate turn). Only additions, rotations and bitwise operations
 * on the data: no table is indexed by it and no branch depends on it. The tests compare every
 * result with WebCrypto's.
 */

/** Integer square root (floor) by Newton's method. */
function isqrt(n: bigint): bigint {
  let x = n;
  let y = (x + 1n) / 2n;
  while (y < x) {
    x = y;
    y = (x + n / x) / 2n;
  }
  return x;
}

/** Integer cube root (floor) by Newton's method. */
function icbrt(n: bigint): bigint {
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 3) + 1);
  for (;;) {
    const y = (2n * x + n / (x * x)) / 3n;
    if (y >= x) break;
    x = y;
  }
  while (x * x * x > n) x--;
  while ((x + 1n) ** 3n <= n) x++;
  return x;
}

function firstPrimes(count: number): number[] {
  const primes: number[] = [];
  for (let n = 2; primes.length < count; n++) {
    if (primes.every((p) => n % p !== 0)) primes.push(n);
  }
  return primes;
}

// The constants as the standard defines them: the first 32 bits of the fractional parts of the
// cube roots of the first 64 primes (K) and of the square roots of the first 8 (initial state),
// taken exactly with integer roots.
const PRIMES = firstPrimes(64);
const K = Int32Array.from(PRIMES, (p) => Number(icbrt(BigInt(p) << 96n) & 0xffffffffn));
const IV = Int32Array.from(
  PRIMES.slice(0, 8),
  (p) => Number(isqrt(BigInt(p) << 64n) & 0xffffffffn),
);

const W = new Int32Array(64);

/** Compresses the 64-byte block of `bytes` at `at` into `state`. */
function compress(state: Int32Array, bytes: Uint8Array, at: number): void {
  for (let t = 0; t < 16; t++, at += 4) {
    W[t] = (bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3];
  }
  for (let t = 16; t < 64; t++) {
    const x = W[t - 15];
    const y = W[t - 2];
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    W[t] = (W[t - 16] + s0 + W[t - 7] + s1) | 0;
  }
  let a = state[0], b = state[1], c = state[2], d = state[3];
  let e = state[4], f = state[5], g = state[6], h = state[7];
  for (let t = 0; t < 64; t++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const ch = (e & f) ^ (~e & g);
    const t1 = (h + S1 + ch + K[t] + W[t]) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const maj = (a & b) ^ (a & c) ^ (b & c);
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + S0 + maj) | 0;
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

const tail = new Uint8Array(128);

/**
 * Finishes a hash into `state`, which already holds `before` bytes (a multiple of 64) compressed:
 * the first `length` bytes of `data`, then the padding and the total length in bits.
 */
function finish(state: Int32Array, before: number, data: Uint8Array, length: number): void {
  let at = 0;
  for (; at + 64 <= length; at += 64) compress(state, data, at);
  const rest = length - at;
  tail.fill(0);
  tail.set(data.subarray(at, length));
  tail[rest] = 0x80;
  const blocks = rest + 9 <= 64 ? 1 : 2;
  const end = blocks * 64;
  const bits = (before + length) * 8;
  // The length in bits as 64 bits big-endian (inputs stay far below 2^53 bits).
  const high = Math.floor(bits / 0x1_0000_0000);
  tail[end - 8] = high >>> 24;
  tail[end - 7] = high >>> 16;
  tail[end - 6] = high >>> 8;
  tail[end - 5] = high;
  tail[end - 4] = bits >>> 24;
  tail[end - 3] = bits >>> 16;
  tail[end - 2] = bits >>> 8;
  tail[end - 1] = bits;
  compress(state, tail, 0);
  if (blocks === 2) compress(state, tail, 64);
}

function stateBytes(state: Int32Array, out: Uint8Array): Uint8Array {
  for (let i = 0; i < 8; i++) {
    const w = state[i];
    out[i * 4] = w >>> 24;
    out[i * 4 + 1] = w >>> 16;
    out[i * 4 + 2] = w >>> 8;
    out[i * 4 + 3] = w;
  }
  return out;
}

/** SHA-256 of bytes. */
export function sha256(data: Uint8Array): Uint8Array {
  const state = IV.slice();
  finish(state, 0, data, data.length);
  return stateBytes(state, new Uint8Array(32));
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/** An HMAC-SHA-256 key, kept as the states after its inner and outer pads. Prints as nothing. */
export class HmacSha256Key {
  readonly #inner: Int32Array;
  readonly #outer: Int32Array;

  constructor(key: Uint8Array) {
    const block = new Uint8Array(64);
    block.set(key.length > 64 ? sha256(key) : key);
    const pad = new Uint8Array(64);
    this.#inner = IV.slice();
    for (let i = 0; i < 64; i++) pad[i] = block[i] ^ 0x36;
    compress(this.#inner, pad, 0);
    this.#outer = IV.slice();
    for (let i = 0; i < 64; i++) pad[i] = block[i] ^ 0x5c;
    compress(this.#outer, pad, 0);
    block.fill(0);
    pad.fill(0);
  }

  /** The MAC of the first `length` bytes of `data`, left in `state` (8 words). */
  sign(data: Uint8Array, length: number, state: Int32Array): void {
    state.set(this.#inner);
    finish(state, 64, data, length);
    stateBytes(state, innerDigest);
    state.set(this.#outer);
    finish(state, 64, innerDigest, 32);
  }

  toJSON(): string {
    return "[HmacSha256Key]";
  }

  [Symbol.for("Deno.customInspect")](): string {
    return "[HmacSha256Key]";
  }
}

const innerDigest = new Uint8Array(32);
const macState = new Int32Array(8);
const enc = new TextEncoder();
let scratch = new Uint8Array(256);

/** HMAC-SHA-256 of bytes. */
export function hmacSha256(key: HmacSha256Key, data: Uint8Array): Uint8Array {
  key.sign(data, data.length, macState);
  return stateBytes(macState, new Uint8Array(32));
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
  key.sign(scratch, written, macState);
  scratch.fill(0, 0, written);
  let hex = "";
  for (let i = 0; i < 8; i++) {
    const w = macState[i];
    hex += HEX[w >>> 24] + HEX[(w >>> 16) & 255] + HEX[(w >>> 8) & 255] + HEX[w & 255];
  }
  return hex;
}
