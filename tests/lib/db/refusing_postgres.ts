/**
 * A PostgreSQL stand-in that refuses every connection the way a server that cannot serve now
 * does: it reads the startup message (declining TLS), answers one FATAL ErrorResponse with the
 * given SQLSTATE (57P03 "the database system is starting up", 53300 "too many connections") and
 * closes. Written from the protocol's message formats (Frontend/Backend Protocol, chapter 55).
 */

/** A running stand-in. */
export interface RefusingPostgres {
  /** A connection string pointing at it. */
  url: string;
  /** Connections it has refused so far. */
  refused(): number;
  close(): Promise<void>;
}

const SSL_REQUEST_CODE = 80877103;
const GSSENC_REQUEST_CODE = 80877104;

async function readExactly(conn: Deno.Conn, n: number): Promise<Uint8Array | null> {
  const out = new Uint8Array(n);
  let got = 0;
  while (got < n) {
    const read = await conn.read(out.subarray(got));
    if (read === null) return null;
    got += read;
  }
  return out;
}

/** Reads one length-prefixed startup-phase message; answers its request code and body. */
async function readStartup(conn: Deno.Conn): Promise<number | null> {
  const head = await readExactly(conn, 8);
  if (!head) return null;
  const view = new DataView(head.buffer);
  const length = view.getInt32(0);
  const code = view.getInt32(4);
  if (length > 8 && !(await readExactly(conn, length - 8))) return null;
  return code;
}

/** An ErrorResponse ('E') with severity FATAL, the SQLSTATE and a message. */
function errorResponse(code: string, message: string): Uint8Array {
  const enc = new TextEncoder();
  const fields = [["S", "FATAL"], ["V", "FATAL"], ["C", code], ["M", message]]
    .map(([type, value]) => [...enc.encode(type), ...enc.encode(value), 0]).flat();
  const body = [...fields, 0];
  const out = new Uint8Array(5 + body.length);
  out[0] = "E".charCodeAt(0);
  new DataView(out.buffer).setInt32(1, 4 + body.length);
  out.set(body, 5);
  return out;
}

/** Starts the stand-in on a free loopback port. */
export function startRefusingPostgres(code: string, message: string): RefusingPostgres {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  const open = new Set<Deno.Conn>();
  let refused = 0;
  const serve = async (conn: Deno.Conn) => {
    open.add(conn);
    try {
      let request = await readStartup(conn);
      // Declines TLS and GSS encryption ('N'); the client then sends its startup message.
      while (request === SSL_REQUEST_CODE || request === GSSENC_REQUEST_CODE) {
        await conn.write(new TextEncoder().encode("N"));
        request = await readStartup(conn);
      }
      if (request === null) return;
      await conn.write(errorResponse(code, message));
      refused++;
    } catch {
      /* the client went away first */
    } finally {
      open.delete(conn);
      try {
        conn.close();
      } catch { /* already closed */ }
    }
  };
  const accepting = (async () => {
    try {
      for await (const conn of listener) serve(conn);
    } catch { /* listener closed */ }
  })();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/refused`,
    refused: () => refused,
    async close() {
      listener.close();
      for (const conn of open) {
        try {
          conn.close();
        } catch { /* already closed */ }
      }
      await accepting;
    },
  };
}
