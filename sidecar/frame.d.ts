/** Types of frame.mjs (the item socket framing shared by the service and the sidecar). */

/** Default largest packet accepted in either direction (1 MiB). */
export declare const MAX_PACKET_BYTES: number;

/** A packet that does not follow the framing. */
export declare class PacketError extends Error {
  constructor(message: string, reason: "too_large" | "bad_packet");
  readonly reason: "too_large" | "bad_packet";
}

/** Builds a request packet around the exact body bytes. */
export declare function encodeRequestPacket(
  apihash: string,
  body: Uint8Array,
): Uint8Array;

/** Builds a response packet around the body bytes. */
export declare function encodeResponsePacket(body: Uint8Array): Uint8Array;

/** Splits a complete request packet into its Apihash (null when absent) and body bytes. */
export declare function decodeRequestPacket(
  packet: Uint8Array,
): { apihash: string | null; body: Uint8Array };

/** Collects bytes until one whole packet has arrived, however the bytes were split. */
export declare class PacketAccumulator {
  constructor(maxBytes?: number, minBytes?: number);
  /** Bytes received so far. */
  get size(): number;
  /** Adds bytes; returns the complete packet (extra trailing bytes are ignored) or null. */
  push(chunk: Uint8Array): Uint8Array | null;
}
