// Framing of the item socket (big-endian). Request: u32 total length (including itself), u32
// header length, header JSON {"Apihash"}, u32 body length, body JSON. Response: u32 total length
// (including itself), body JSON.

/** A packet that breaks the framing. */
export class PacketError extends Error {
  constructor(message, reason) {
    super(message);
    this.name = "PacketError";
    this.reason = reason; // "too_large" | "bad_packet"
  }
}

/** Builds a request packet around the exact body bytes. */
export function encodeRequestPacket(apihash, body) {
  const header = Buffer.from(JSON.stringify({ Apihash: apihash }), "utf8");
  const total = 12 + header.length + body.length;
  const out = Buffer.alloc(total);
  out.writeUInt32BE(total, 0);
  out.writeUInt32BE(header.length, 4);
  header.copy(out, 8);
  out.writeUInt32BE(body.length, 8 + header.length);
  body.copy(out, 12 + header.length);
  return out;
}

/** Builds a response packet. */
export function encodeResponsePacket(body) {
  const out = Buffer.alloc(4 + body.length);
  out.writeUInt32BE(out.length, 0);
  body.copy(out, 4);
  return out;
}

/** Splits a complete request packet into its Apihash (null when absent) and body. */
export function decodeRequestPacket(packet) {
  if (packet.length < 12) {
    throw new PacketError("request packet shorter than 12 bytes", "bad_packet");
  }
  const headerLength = packet.readUInt32BE(4);
  if (8 + headerLength + 4 > packet.length) {
    throw new PacketError("header length exceeds the packet", "bad_packet");
  }
  const bodyLength = packet.readUInt32BE(8 + headerLength);
  if (12 + headerLength + bodyLength !== packet.length) {
    throw new PacketError("body length does not match the packet length", "bad_packet");
  }
  let apihash = null;
  try {
    const header = JSON.parse(packet.subarray(8, 8 + headerLength).toString("utf8"));
    const value = header?.Apihash ?? header?.apihash;
    if (typeof value === "string") apihash = value;
  } catch {
    // unreadable header: treated as no Apihash (the receiver answers 40002)
  }
  return { apihash, body: packet.subarray(12 + headerLength) };
}

/** Collects chunks until one whole packet has arrived, however the bytes were split. */
export class PacketAccumulator {
  constructor(maxBytes, minBytes = 4) {
    this.maxBytes = maxBytes;
    this.minBytes = minBytes;
    this.chunks = [];
    this.size = 0;
    this.expected = -1;
  }

  /** Adds a chunk; returns the complete packet or null. Throws PacketError. */
  push(chunk) {
    this.chunks.push(chunk);
    this.size += chunk.length;
    if (this.expected < 0 && this.size >= 4) {
      const all = Buffer.concat(this.chunks);
      this.chunks = [all];
      this.expected = all.readUInt32BE(0);
      if (this.expected < this.minBytes) {
        throw new PacketError(`declared packet length ${this.expected} is too small`, "bad_packet");
      }
      if (this.expected > this.maxBytes) {
        throw new PacketError(
          `declared packet length ${this.expected} exceeds ${this.maxBytes} bytes`,
          "too_large",
        );
      }
    }
    if (this.expected >= 0 && this.size >= this.expected) {
      return Buffer.concat(this.chunks).subarray(0, this.expected);
    }
    return null;
  }
}
