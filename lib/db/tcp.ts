/**
 * PostgreSQL over TCP with postgres.js: a connection pool on the Deno server, and on Cloudflare
 * Workers (through a Hyperdrive binding) one small client per request, since a Worker's sockets
 * belong to the request that opened them. Prepared statements are cached per connection.
 */
import postgres from "postgres";
import { retryConflicts, type Row, type Sql, type Statement, toDbError, toParam } from "./port.ts";

/**
 * Where clients live when they must not outlive a request (Workers). `use` answers the current
 * request's value for `key`, creating it with `make` and closing it with `close` once the
 * request's work has ended; outside any request it answers undefined.
 */
export interface RequestScope {
  use<T>(key: object, make: () => T, close: (value: T) => Promise<void>): T | undefined;
}

/** Options for the TCP adapter. */
export interface TcpOptions {
  /** Connections in the pool (default 10; per request on Workers: at most 3). */
  max?: number;
  /** A connection not open after this many seconds fails the call as unavailable (default 5). */
  connectTimeoutS?: number;
  /** Given on Workers: one client per request instead of one pool per process. */
  scope?: RequestScope;
}

type Client = postgres.Sql<Record<string, unknown>>;

/** Most connections one Worker request opens (Workers allow six open sockets per request). */
const PER_REQUEST_MAX = 3;

/** Opens the TCP adapter for a connection string (postgres://, postgresql://; sslmode honoured). */
export function openTcp(url: string, options: TcpOptions = {}): Sql {
  const settings = (max: number) => ({
    max,
    connect_timeout: options.connectTimeoutS ?? 5,
    // Array types are not used, so the type lookup each new connection would run is skipped
    // (and a Worker's per-request client saves that round trip).
    fetch_types: false,
    prepare: true,
    // Notices (e.g. "relation already exists, skipping") are not errors: keep them off stdout.
    onnotice: () => {},
    // Every setting is given here, so the driver reads no PG* environment variable of its own.
    idle_timeout: options.scope ? 0 : 300,
    max_lifetime: options.scope ? null : 60 * 30,
    backoff: 0.05,
    keep_alive: 30,
    debug: false,
    ssl: sslFrom(url),
    connection: { application_name: "game-platform" },
    types: TEXT_PARAMETERS,
  });
  // The custom serialisers change no TypeScript-visible value type, so the plain client type holds.
  const open = (max: number) =>
    postgres(
      url,
      settings(max) as unknown as postgres.Options<Record<string, postgres.PostgresType>>,
    ) as Client;
  const pool = options.scope ? undefined : open(options.max ?? 10);
  const key = {};

  /** Runs `fn` on the pool, this request's client, or (outside a request) a one-shot client. */
  async function withClient<T>(fn: (client: Client) => Promise<T>): Promise<T> {
    if (pool) return await fn(pool);
    const scoped = options.scope!.use(
      key,
      () => open(Math.min(options.max ?? PER_REQUEST_MAX, PER_REQUEST_MAX)),
      (client) => client.end({ timeout: 5 }),
    );
    if (scoped) return await fn(scoped);
    const once = open(1);
    try {
      return await fn(once);
    } finally {
      await once.end({ timeout: 5 });
    }
  }

  const run = (client: Client | postgres.TransactionSql, s: Statement) =>
    client.unsafe(s.text, (s.params ?? []).map(toParam) as postgres.ParameterOrJSON<never>[], {
      prepare: true,
    });

  return {
    kind: "tcp",
    query<T = Row>(text: string, params: unknown[] = []) {
      return retryConflicts(() =>
        withClient(async (client) => {
          try {
            // A plain array: the driver's result carries extra fields (count, columns, ...).
            return Array.from(await run(client, { text, params })) as T[];
          } catch (err) {
            throw toDbError(err);
          }
        })
      );
    },
    transaction(statements: Statement[]) {
      return retryConflicts(() =>
        withClient(async (client) => {
          try {
            // BEGIN, then every statement pipelined on the same connection, then COMMIT; a
            // failing statement rolls the whole batch back and its own error is thrown.
            const results = await client.begin((tx) => statements.map((s) => run(tx, s)));
            return (results as unknown as Row[][]).map((rows) => Array.from(rows));
          } catch (err) {
            throw toDbError(err);
          }
        })
      );
    },
    async close() {
      await pool?.end({ timeout: 5 });
    },
  };
}

/**
 * Parameters go out as the text `toParam` made of them, as the other adapters send them: the
 * driver would otherwise serialise by the type the server describes (a JSON text bound to a
 * jsonb parameter encoded again as a JSON string, "true" bound to a boolean sent as false).
 * Bytes stay bytea; the parsers are the driver's own.
 */
function asText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value instanceof Uint8Array) {
    return "\\x" + Array.from(value, (b) => b.toString(16).padStart(2, "0")).join("");
  }
  if (typeof value === "boolean") return value ? "t" : "f";
  return String(value);
}
const TEXT_PARAMETERS = {
  json: { to: 3802, from: [114, 3802], serialize: asText, parse: (v: string) => JSON.parse(v) },
  boolean: { to: 16, from: [16], serialize: asText, parse: (v: string) => v === "t" },
  date: {
    to: 1184,
    from: [1082, 1114, 1184],
    serialize: asText,
    parse: (v: string) => new Date(v),
  },
  bytea: {
    to: 17,
    from: [17],
    serialize: asText,
    parse: (v: string) => Uint8Array.from(v.slice(2).match(/../g) ?? [], (h) => parseInt(h, 16)),
  },
};

/**
 * TLS as the URL's `sslmode` asks: `disable` (or none) plain TCP, `require`/`prefer` encrypted
 * without verifying the certificate, `verify-ca`/`verify-full` verified.
 */
function sslFrom(url: string): boolean | "require" | "prefer" | "verify-full" {
  const mode = new URL(url).searchParams.get("sslmode");
  if (!mode || mode === "disable") return false;
  if (mode === "verify-ca" || mode === "verify-full") return "verify-full";
  return mode === "prefer" ? "prefer" : "require";
}
