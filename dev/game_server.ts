/**
 * Reference game server: receives item requests over HTTP and over TCP with the receiver kit
 * (lib/items/receiver.ts) and keeps granted items in its own in-memory store. The tests use it as
 * the real peer; `deno task game-server` runs it by hand. Faults (slow, error code, close) can be
 * queued to exercise the sender's retry policy.
 *
 *   deno task game-server --vendor-word secret --http-port 9080 --tcp-port 20080
 */
import {
  createItemReceiver,
  ItemCode,
  ItemRejection,
  type ItemReply,
  type ReceivedItemRequest,
} from "../lib/items/receiver.ts";
import {
  decodeRequestPacket,
  encodeResponsePacket,
  MAX_PACKET_BYTES,
  PacketAccumulator,
} from "../lib/items/tcp_frame.ts";
import { readPacket, writeAll } from "../lib/items/socket_deno.ts";
import { cliFlag } from "./cli_flag.ts";

/** Item codes the reference game knows; anything else is answered 50005. */
export const KNOWN_ASSETS = ["gold", "gem", "potion", "sword", "shield", "ticket", "skin"];

/** A queued misbehaviour for the next request (HTTP or TCP). */
export type Fault =
  | { kind: "slow"; ms: number }
  | { kind: "code"; code: number; message?: string }
  | { kind: "garbage" }
  | { kind: "close" };

/** The game's own store: applied transactions and each user's items. */
export class GameStore {
  readonly processed = new Map<string, ReceivedItemRequest>();
  readonly inventory = new Map<string, Map<string, number>>();
  /** Every applied request, in order (a transaction appears once if it was granted once). */
  readonly applied: ReceivedItemRequest[] = [];

  constructor(private readonly known = new Set(KNOWN_ASSETS)) {}

  /** One user's items as a plain object. */
  itemsOf(idCategory: string, id: string): Record<string, number> {
    return Object.fromEntries(this.inventory.get(`${idCategory}:${id}`) ?? []);
  }

  /** Applies every entry or none; records the transactionId with them. */
  apply(req: ReceivedItemRequest): "applied" | "duplicate" {
    if (this.processed.has(req.transactionId)) return "duplicate";
    if (req.id.startsWith("invalid-")) {
      throw new ItemRejection(ItemCode.INVALID_USER, `user ${req.id} does not exist`);
    }
    const user = `${req.idCategory}:${req.id}`;
    // Stage on a copy: the real items change only when every entry succeeded.
    const staged = new Map(this.inventory.get(user) ?? []);
    req.detail.forEach((d, i) => {
      if (!this.known.has(d.assetCode)) {
        throw new ItemRejection(
          ItemCode.PARAMETER_ERROR,
          `detail[${i}].assetCode ${d.assetCode} is not a valid item code`,
        );
      }
      const have = staged.get(d.assetCode) ?? 0;
      const retrieve = d.action === "retrieve" || d.action === "r";
      if (retrieve && have < d.amount) {
        throw new ItemRejection(
          ItemCode.PARAMETER_ERROR,
          `detail[${i}]: cannot retrieve ${d.amount} ${d.assetCode}, user has ${have}`,
        );
      }
      staged.set(d.assetCode, have + (retrieve ? -d.amount : d.amount));
    });
    this.inventory.set(user, staged);
    this.processed.set(req.transactionId, req);
    this.applied.push(req);
    return "applied";
  }
}

/** How to start the reference server. */
export interface GameServerOptions {
  vendorWord: string;
  hostname?: string;
  /** 0 picks a free port. */
  httpPort?: number;
  /** 0 picks a free port; null disables TCP. */
  tcpPort?: number | null;
  verifyHash?: boolean;
}

/** A running reference server. */
export interface GameServer {
  url: string;
  hostname: string;
  httpPort: number;
  tcpPort: number;
  store: GameStore;
  /** Misbehaviours consumed one per incoming request. */
  faults: Fault[];
  /** Requests received (HTTP and TCP, probes included). */
  received: number;
  /** Raw requests as they arrived: Apihash and exact body text. */
  raw: { via: "http" | "tcp"; apihash: string | null; body: string }[];
  /** Stops listening (clients see connection refused) but keeps the store. */
  stop(): Promise<void>;
  /** Listens again on the same ports. */
  start(): Promise<void>;
}

const enc = new TextEncoder();

/** Starts the reference game server. */
export async function startGameServer(options: GameServerOptions): Promise<GameServer> {
  const hostname = options.hostname ?? "127.0.0.1";
  const store = new GameStore();
  const receiver = createItemReceiver({
    vendorWord: options.vendorWord,
    verifyHash: options.verifyHash,
    apply: (req) => Promise.resolve(store.apply(req)),
  });
  let http: Deno.HttpServer | undefined;
  let tcp: Deno.Listener | undefined;
  const openConns = new Set<Deno.Conn>();

  async function withFault(
    run: () => Promise<ItemReply>,
  ): Promise<ItemReply | "garbage" | "close"> {
    server.received++;
    const fault = server.faults.shift();
    if (fault?.kind === "slow") await new Promise((r) => setTimeout(r, fault.ms));
    if (fault?.kind === "code") return { code: fault.code, message: fault.message ?? "injected" };
    if (fault?.kind === "garbage") return "garbage";
    if (fault?.kind === "close") return "close";
    return await run();
  }

  async function serveTcpConn(conn: Deno.Conn) {
    openConns.add(conn);
    try {
      const packet = await readPacket(conn, new PacketAccumulator(MAX_PACKET_BYTES, 12));
      if (!packet) return;
      const { apihash, body } = decodeRequestPacket(packet);
      server.raw.push({ via: "tcp", apihash, body: new TextDecoder().decode(body) });
      const reply = await withFault(() => receiver.handle(body, apihash));
      if (reply === "close") return;
      const text = reply === "garbage" ? "<html>oops</html>" : JSON.stringify(reply);
      await writeAll(conn, encodeResponsePacket(enc.encode(text)));
    } catch {
      // A broken packet or a client that went away: drop the connection.
    } finally {
      openConns.delete(conn);
      try {
        conn.close();
      } catch { /* closed */ }
    }
  }

  async function acceptLoop(listener: Deno.Listener) {
    try {
      for await (const conn of listener) serveTcpConn(conn);
    } catch { /* listener closed */ }
  }

  const server: GameServer = {
    url: "",
    hostname,
    httpPort: options.httpPort ?? 0,
    tcpPort: options.tcpPort ?? 0,
    store,
    faults: [],
    received: 0,
    raw: [],
    start() {
      http = Deno.serve({
        hostname,
        port: server.httpPort,
        onListen: () => {},
      }, async (req) => {
        if (req.method === "GET") {
          const u = new URL(req.url);
          const [cat, id] = u.pathname.split("/").filter(Boolean);
          return Response.json(
            cat && id
              ? store.itemsOf(cat, id)
              : { applied: store.applied.length, received: server.received },
          );
        }
        const bytes = new Uint8Array(await req.arrayBuffer());
        const apihash = req.headers.get("apihash");
        server.raw.push({ via: "http", apihash, body: new TextDecoder().decode(bytes) });
        const reply = await withFault(() => receiver.handle(bytes, apihash));
        if (reply === "close") return new Response(null, { status: 502 });
        if (reply === "garbage") return new Response("<html>oops</html>", { status: 500 });
        return Response.json(reply);
      });
      server.httpPort = (http.addr as Deno.NetAddr).port;
      server.url = `http://${hostname}:${server.httpPort}/items`;
      if (options.tcpPort !== null) {
        tcp = Deno.listen({ hostname, port: server.tcpPort, transport: "tcp" });
        server.tcpPort = (tcp.addr as Deno.NetAddr).port;
        acceptLoop(tcp);
      }
      return Promise.resolve();
    },
    async stop() {
      tcp?.close();
      tcp = undefined;
      for (const c of openConns) {
        try {
          c.close();
        } catch { /* closed */ }
      }
      await http?.shutdown();
      http = undefined;
    },
  };
  await server.start();
  return server;
}

if (import.meta.main) {
  const server = await startGameServer({
    vendorWord: cliFlag("vendor-word") ?? Deno.env.get("VENDOR_WORD") ?? "vendor-word",
    hostname: cliFlag("host") ?? "127.0.0.1",
    httpPort: Number(cliFlag("http-port") ?? 9080),
    tcpPort: Number(cliFlag("tcp-port") ?? 20080),
    verifyHash: !Deno.args.includes("--no-hash-check"),
  });
  console.log(
    `reference game server: HTTP ${server.url}  TCP ${server.hostname}:${server.tcpPort}\n` +
      `items of a user: GET http://${server.hostname}:${server.httpPort}/<idCategory>/<id>`,
  );
}
