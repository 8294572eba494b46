/**
 * Deno-only item socket: dials the game server with Deno.connect. Loaded dynamically by main.ts
 * (and the tests) so Workers bundles never contain Deno APIs.
 */
import { type ItemSocket, type SocketExchange, SocketFailure } from "./socket.ts";
import {
  encodeRequestPacket,
  MAX_PACKET_BYTES,
  PacketAccumulator,
  PacketError,
} from "./tcp_frame.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

/** Writes every byte (a single write may take only part). */
export async function writeAll(
  conn: Deno.Conn,
  bytes: Uint8Array,
): Promise<void> {
  let at = 0;
  while (at < bytes.length) at += await conn.write(bytes.subarray(at));
}

/** Reads until the accumulator holds one whole packet; null when the peer closes first. */
export async function readPacket(
  conn: Deno.Conn,
  acc: PacketAccumulator,
): Promise<Uint8Array | null> {
  const buf = new Uint8Array(65_536);
  while (true) {
    const n = await conn.read(buf);
    if (n === null) return null;
    const packet = acc.push(buf.subarray(0, n));
    if (packet) return packet;
  }
}

async function exchangeOnce(
  req: SocketExchange,
  maxBytes: number,
  onConn: (c: Deno.Conn) => void,
): Promise<string> {
  let conn: Deno.Conn;
  try {
    conn = await Deno.connect({
      hostname: req.host,
      port: req.port,
      transport: "tcp",
    });
  } catch (err) {
    throw new SocketFailure(
      `connect to ${req.host}:${req.port} failed: ${(err as Error).message}`,
      "connect",
      { cause: err },
    );
  }
  onConn(conn);
  try {
    await writeAll(
      conn,
      encodeRequestPacket(req.apihash, enc.encode(req.body)),
    );
    const acc = new PacketAccumulator(maxBytes);
    const packet = await readPacket(conn, acc);
    if (!packet) {
      throw new SocketFailure(
        `peer closed after ${acc.size} bytes of the response`,
        "closed",
      );
    }
    return dec.decode(packet.subarray(4));
  } catch (err) {
    if (err instanceof SocketFailure) throw err;
    if (err instanceof PacketError) {
      throw new SocketFailure(err.message, err.reason);
    }
    throw new SocketFailure(
      `socket error: ${(err as Error).message}`,
      "closed",
      { cause: err },
    );
  } finally {
    try {
      conn.close();
    } catch { /* already closed by the timeout */ }
  }
}

/** Creates the direct Deno socket. */
export function createDenoItemSocket(
  options: { maxPacketBytes?: number } = {},
): ItemSocket {
  const maxBytes = options.maxPacketBytes ?? MAX_PACKET_BYTES;
  return {
    kind: "direct",
    async exchange(req) {
      let conn: Deno.Conn | undefined;
      let timedOut = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          timedOut = true;
          try {
            conn?.close();
          } catch { /* closed already */ }
          reject(
            new SocketFailure(`timed out after ${req.timeoutMs} ms`, "timeout"),
          );
        }, req.timeoutMs);
      });
      const work = exchangeOnce(req, maxBytes, (c) => {
        conn = c;
        if (timedOut) c.close();
      });
      work.catch(() => {}); // the deadline may win; the loser's rejection is expected
      try {
        return await Promise.race([work, deadline]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
