/** A loopback TCP proxy whose connections a test can cut, to see a client survive a lost link. */

/** A running proxy. */
export interface TcpProxy {
  /** The port it listens on (127.0.0.1). */
  port: number;
  /** Connections opened through it so far. */
  opened(): number;
  /** Closes every connection open now (both sides); new ones are still accepted. */
  cutAll(): void;
  close(): Promise<void>;
}

/** Starts a proxy to `target` on a free loopback port. */
export function startTcpProxy(target: { hostname: string; port: number }): TcpProxy {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const pairs = new Set<[Deno.Conn, Deno.Conn]>();
  let opened = 0;
  const closeQuietly = (conn: Deno.Conn) => {
    try {
      conn.close();
    } catch { /* already closed */ }
  };
  const pipe = async (from: Deno.Conn, to: Deno.Conn) => {
    const buf = new Uint8Array(64 * 1024);
    try {
      for (;;) {
        const n = await from.read(buf);
        if (n === null) break;
        let sent = 0;
        while (sent < n) sent += await to.write(buf.subarray(sent, n));
      }
    } catch { /* cut */ }
  };
  const serve = async (client: Deno.Conn) => {
    let upstream: Deno.Conn;
    try {
      upstream = await Deno.connect(target);
    } catch {
      closeQuietly(client);
      return;
    }
    opened++;
    const pair: [Deno.Conn, Deno.Conn] = [client, upstream];
    pairs.add(pair);
    await Promise.race([pipe(client, upstream), pipe(upstream, client)]);
    pairs.delete(pair);
    closeQuietly(client);
    closeQuietly(upstream);
  };
  const accepting = (async () => {
    try {
      for await (const conn of listener) serve(conn);
    } catch { /* closed */ }
  })();
  const cutAll = () => {
    for (const pair of pairs) pair.forEach(closeQuietly);
    pairs.clear();
  };
  return {
    port: (listener.addr as Deno.NetAddr).port,
    opened: () => opened,
    cutAll,
    async close() {
      listener.close();
      cutAll();
      await accepting;
    },
  };
}
