// @ts-self-types="./frame.d.ts"
/**
 * Framing of the item socket (spec "Item request over a socket"), big-endian throughout, shared
 * by the service (lib/items/tcp_frame.ts) and this sidecar: plain JavaScript on Uint8Array and
 * DataView, so it runs unchanged on Deno, Workers and Node 18+.
 * Request: u32 total length (including itself), u32 header length, header JSON {"Apihash"},
 * u32 body length, body JSON. Response: u32 total length (including itself), body JSON.
 */

/** Default largest packet accepted in either direction (1 MiB). */
export const MAX_PACKET_BYTES = 1_048_576;

const enc = new TextEncoder();

/** A packet that does not follow the framing. */
export class PacketError extends Error {
  constructor(message, reason) {
    super(message);
    this.name = "PacketError";
    /** "too_large" | "bad_packet" */
    this.reason = reason;
  }
}

/** Builds a request packet around the exact body bytes. */
export function encodeRequestPacket(apihash, body) {
  const header = enc.encode(JSON.stringify({ Apihash: apihash }));
  const total = 12 + header.length + body.length;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, total);
  view.setUint32(4, header.length);
  out.set(header, 8);
  view.setUint32(8 + header.length, body.length);
  out.set(body, 12 + header.length);
  return out;
}

/** Builds a response packet around the body bytes. */
export function encodeResponsePacket(body) {
  const out = new Uint8Array(4 + body.length);
  new DataView(out.buffer).setUint32(0, out.length);
  out.set(body, 4);
  return out;
}

/** Splits a complete request packet into its Apihash (null when absent) and body bytes. */
export function decodeRequestPacket(packet) {
  const view = new DataView(
    packet.buffer,
    packet.byteOffset,
    packet.byteLength,
  );
  if (packet.length < 12) {
    throw new PacketError("request packet shorter than 12 bytes", "bad_packet");
  }
  const headerLength = view.getUint32(4);
  if (8 + headerLength + 4 > packet.length) {
    throw new PacketError("header length exceeds the packet", "bad_packet");
  }
  const bodyLength = view.getUint32(8 + headerLength);
  if (12 + headerLength + bodyLength !== packet.length) {
    throw new PacketError(
      "body length does not match the packet length",
      "bad_packet",
    );
  }
  let apihash = null;
  try {
    const header = JSON.parse(
      new TextDecoder().decode(packet.subarray(8, 8 + headerLength)),
    );
    const value = header?.Apihash ?? header?.apihash;
    if (typeof value === "string") apihash = value;
  } catch {
    // An unreadable header is treated as a missing Apihash; the receiver answers 40002.
  }
  return { apihash, body: packet.subarray(12 + headerLength) };
}

/**
 * Collects bytes from a stream until one whole packet (u32 total length first) has arrived,
 * however the bytes were split. push() returns the packet once complete, otherwise null.
 */
export class PacketAccumulator {
  #chunks = [];
  #received = 0;
  #expected = -1;
  #maxBytes;
  #minBytes;

  constructor(maxBytes = MAX_PACKET_BYTES, minBytes = 4) {
    this.#maxBytes = maxBytes;
    this.#minBytes = minBytes;
  }

  /** Bytes received so far. */
  get size() {
    return this.#received;
  }

  /** Adds bytes; returns the complete packet (extra trailing bytes are ignored) or null. */
  push(chunk) {
    if (chunk.length > 0) {
      // A copy: a stream may reuse the memory of the chunk it handed over.
      this.#chunks.push(new Uint8Array(chunk));
      this.#received += chunk.length;
    }
    if (this.#expected < 0 && this.#received >= 4) {
      const head = this.#concat();
      this.#expected = new DataView(head.buffer, head.byteOffset, 4).getUint32(
        0,
      );
      if (this.#expected < this.#minBytes) {
        throw new PacketError(
          `declared packet length ${this.#expected} is too small`,
          "bad_packet",
        );
      }
      if (this.#expected > this.#maxBytes) {
        throw new PacketError(
          `declared packet length ${this.#expected} exceeds ${this.#maxBytes} bytes`,
          "too_large",
        );
      }
    }
    if (this.#expected >= 0 && this.#received >= this.#expected) {
      return this.#concat().subarray(0, this.#expected);
    }
    return null;
  }

  #concat() {
    if (this.#chunks.length === 1) return this.#chunks[0];
    const all = new Uint8Array(this.#received);
    let at = 0;
    for (const c of this.#chunks) {
      all.set(c, at);
      at += c.length;
    }
    this.#chunks = [all];
    return all;
  }
}
