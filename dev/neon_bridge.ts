/**
 * Local stand-in for Neon's SQL-over-HTTP endpoint, backed by a real PostgreSQL.
 *
 * It speaks the protocol the way `@neondatabase/serverless` 1.2.0 uses it from
 * `neon()`: one POST per query (or per non-interactive transaction), the target
 * database named by the `Neon-Connection-String` header, values returned as raw
 * Postgres text so that the client runs its own type parsers. The response and
 * error shapes follow Neon's proxy (proxy/src/serverless/sql_over_http.rs).
 *
 * Dev/test tooling only: it connects to whatever database the header names, so
 * it binds to loopback by default and must never be exposed.
 *
 * Script mode: `deno run -A dev/neon_bridge.ts --port 4444 [--hostname 127.0.0.1]`
 */
// No `node:` imports on purpose: with "nodeModulesDir": "manual" they make
// `deno check` require npm:@types/node, which this repo does not install.
import pg from "pg";
import { cliFlag } from "./cli_flag.ts";

/** Options for {@link startNeonBridge}. */
export interface NeonBridgeOptions {
  /** TCP port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to bind; defaults to 127.0.0.1. */
  hostname?: string;
}

/** A running Neon bridge. */
export interface NeonBridge {
  /** Base URL of the server, e.g. `http://127.0.0.1:4444`. */
  url: string;
  /** What to put in `neonConfig.fetchEndpoint` (the `/sql` path on `url`). */
  fetchEndpoint: string;
  /** Stops accepting requests, waits for in-flight ones and closes all Postgres pools. */
  close(): Promise<void>;
}

// The slice of the untyped `pg` package this file relies on.
interface PgField {
  name: string;
  tableID: number;
  columnID: number;
  dataTypeID: number;
  dataTypeSize: number;
  dataTypeModifier: number;
}
interface PgResult {
  command: string | null;
  rowCount: number | null;
  fields: PgField[];
  rows: (string | null)[][];
}
interface PgQueryConfig {
  text: string;
  values: (string | null)[];
  rowMode: "array";
  queryMode: "extended";
}
interface PgClient {
  query(query: PgQueryConfig | string): Promise<PgResult>;
  release(destroy?: boolean): void;
}
interface PgPool {
  connect(): Promise<PgClient>;
  query(query: PgQueryConfig): Promise<PgResult>;
  end(): Promise<void>;
  on(event: "error", listener: (err: Error) => void): void;
}

interface QueryData {
  query: string;
  params: (string | null)[];
  arrayMode?: boolean;
}

// Every field Neon copies from a Postgres ErrorResponse into its error body;
// the client copies the same names onto NeonDbError.
const ERROR_FIELDS = [
  "code",
  "detail",
  "hint",
  "position",
  "internalPosition",
  "internalQuery",
  "severity",
  "where",
  "table",
  "column",
  "schema",
  "dataType",
  "constraint",
  "file",
  "line",
  "routine",
] as const;

// Neon's header values for the isolation level of a batch, mapped to SQL.
const ISOLATION_LEVELS: Record<string, string> = {
  Serializable: "SERIALIZABLE",
  ReadUncommitted: "READ UNCOMMITTED",
  ReadCommitted: "READ COMMITTED",
  RepeatableRead: "REPEATABLE READ",
};

const CORS_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "POST, OPTIONS",
  "Access-Control-Allow-Headers": "Authorization, Content-Type, Neon-Connection-String, " +
    "Neon-Raw-Text-Output, Neon-Array-Mode, Neon-Batch-Isolation-Level, " +
    "Neon-Batch-Read-Only, Neon-Batch-Deferrable, Neon-Pool-Opt-In",
};

// The client runs pg-types on raw Postgres text itself, so pg must not parse
// anything: every column, whatever its type, comes back as the wire text.
const RAW_TEXT_TYPES = {
  getTypeParser(): (value: string) => string {
    return (value) => value;
  },
};

/** Raised for problems with the HTTP request itself (Neon answers those with 400). */
class BadRequest extends Error {}

/** Starts the Neon SQL-over-HTTP bridge; resolves once it is listening. */
export function startNeonBridge(opts: NeonBridgeOptions = {}): Promise<NeonBridge> {
  const hostname = opts.hostname ?? "127.0.0.1";
  const pools = new Map<string, PgPool>();

  function poolFor(connectionString: string): PgPool {
    const target = parseConnectionString(connectionString);
    const key = JSON.stringify(target);
    let pool = pools.get(key);
    if (!pool) {
      pool = new pg.Pool({
        ...target,
        max: 10,
        idleTimeoutMillis: 10_000,
        types: RAW_TEXT_TYPES,
      }) as PgPool;
      // An idle client dying (e.g. Postgres restarting) must not crash the bridge.
      pool.on(
        "error",
        (err) => console.error("neon bridge: idle Postgres client error:", err.message),
      );
      pools.set(key, pool);
    }
    return pool;
  }

  async function handle(req: Request): Promise<Response> {
    const path = new URL(req.url).pathname;
    if (path !== "/sql" && path !== "/") {
      return jsonResponse(404, { message: `no such endpoint: ${path}` });
    }
    if (req.method === "OPTIONS") return new Response(null, { status: 204, headers: CORS_HEADERS });
    if (req.method !== "POST") return jsonResponse(405, { message: "use POST" });
    try {
      const connectionString = req.headers.get("Neon-Connection-String");
      if (!connectionString) throw new BadRequest("missing Neon-Connection-String header");
      // The client always asks for raw text; converting values to JSON types the
      // way Neon does without it is not implemented, so refuse rather than differ.
      if (req.headers.get("Neon-Raw-Text-Output") !== "true") {
        throw new BadRequest("this bridge only supports Neon-Raw-Text-Output: true");
      }
      const defaultArrayMode = req.headers.get("Neon-Array-Mode") === "true";
      const payload = parsePayload(await readJson(req));
      const pool = poolFor(connectionString);
      if ("queries" in payload) {
        const begin = beginStatement(req.headers);
        const results = await runTransaction(pool, begin, payload.queries, defaultArrayMode);
        return jsonResponse(200, { results }, echoedBatchHeaders(req.headers));
      }
      const result = await pool.query(toPgQuery(payload));
      return jsonResponse(200, formatResult(result, payload.arrayMode ?? defaultArrayMode));
    } catch (err) {
      return errorResponse(err);
    }
  }

  return new Promise((resolve, reject) => {
    let server: Deno.HttpServer<Deno.NetAddr>;
    try {
      server = Deno.serve({
        port: opts.port ?? 0,
        hostname,
        onListen({ port }) {
          const url = `http://${urlHost(hostname)}:${port}`;
          resolve({
            url,
            fetchEndpoint: `${url}/sql`,
            async close() {
              await server.shutdown();
              const ending = [...pools.values()].map((pool) => pool.end());
              pools.clear();
              await Promise.all(ending);
            },
          });
        },
      }, handle);
    } catch (err) {
      reject(err);
    }
  });
}

/** Turns the connection string the client sends into pg connection settings. */
function parseConnectionString(connectionString: string) {
  let url: URL;
  try {
    url = new URL(connectionString);
  } catch {
    throw new BadRequest("Neon-Connection-String is not a valid URL");
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    throw new BadRequest("Neon-Connection-String must be a postgres:// or postgresql:// URL");
  }
  const database = decodeURIComponent(url.pathname.replace(/^\//, ""));
  if (!url.username || !url.hostname || !database) {
    throw new BadRequest("Neon-Connection-String must name a user, a host and a database");
  }
  // sslmode and friends are ignored on purpose: the bridge only targets local servers.
  return {
    user: decodeURIComponent(url.username),
    password: url.password ? decodeURIComponent(url.password) : undefined,
    host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: url.port ? Number(url.port) : 5432,
    database,
    application_name: url.searchParams.get("application_name") ?? "neon-bridge",
  };
}

async function readJson(req: Request): Promise<unknown> {
  const text = await req.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new BadRequest("request body is not valid JSON");
  }
}

/** Validates `{query, params}` or `{queries: [...]}` like Neon's untagged payload enum. */
function parsePayload(body: unknown): QueryData | { queries: QueryData[] } {
  if (isRecord(body) && Array.isArray(body.queries)) {
    return { queries: body.queries.map(parseQueryData) };
  }
  return parseQueryData(body);
}

function parseQueryData(value: unknown): QueryData {
  if (!isRecord(value) || typeof value.query !== "string") {
    throw new BadRequest('expected {"query": string, "params": [...]} or {"queries": [...]}');
  }
  if (value.params !== undefined && !Array.isArray(value.params)) {
    throw new BadRequest("params must be an array");
  }
  if (value.arrayMode !== undefined && typeof value.arrayMode !== "boolean") {
    throw new BadRequest("arrayMode must be a boolean");
  }
  return {
    query: value.query,
    params: (value.params ?? []).map(paramToText),
    arrayMode: value.arrayMode,
  };
}

/**
 * The client already turns every parameter into a string or null (pg's
 * prepareValue); other JSON values are converted the way Neon's proxy does, so
 * hand-written requests behave the same.
 */
function paramToText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return toPgArrayLiteral(value);
  return JSON.stringify(value);
}

function toPgArrayLiteral(items: unknown[]): string {
  const parts = items.map((item) => {
    if (item === null || item === undefined) return "NULL";
    if (Array.isArray(item)) return toPgArrayLiteral(item);
    const text = typeof item === "string" ? item : JSON.stringify(item);
    return `"${text.replace(/[\\"]/g, "\\$&")}"`;
  });
  return `{${parts.join(",")}}`;
}

function toPgQuery(data: QueryData): PgQueryConfig {
  // Extended protocol even without parameters, as Neon does: one statement per
  // query, and multi-statement strings fail instead of silently running.
  return { text: data.query, values: data.params, rowMode: "array", queryMode: "extended" };
}

/** Builds the BEGIN for a batch from Neon's transaction headers. */
function beginStatement(headers: Headers): string {
  const modes: string[] = [];
  const isolation = headers.get("Neon-Batch-Isolation-Level");
  if (isolation !== null) {
    const level = ISOLATION_LEVELS[isolation];
    if (!level) throw new BadRequest("invalid isolation level");
    modes.push(`ISOLATION LEVEL ${level}`);
  }
  // Like Neon, only the exact value "true" switches these on.
  if (headers.get("Neon-Batch-Read-Only") === "true") modes.push("READ ONLY");
  if (headers.get("Neon-Batch-Deferrable") === "true") modes.push("DEFERRABLE");
  return modes.length ? `BEGIN ${modes.join(", ")}` : "BEGIN";
}

/** Neon answers a batch with the transaction settings it applied. */
function echoedBatchHeaders(headers: Headers): Record<string, string> {
  const echoed: Record<string, string> = {};
  const isolation = headers.get("Neon-Batch-Isolation-Level");
  if (isolation !== null) echoed["Neon-Batch-Isolation-Level"] = isolation;
  for (const name of ["Neon-Batch-Read-Only", "Neon-Batch-Deferrable"]) {
    if (headers.get(name) === "true") echoed[name] = "true";
  }
  return echoed;
}

/** Runs a batch on one connection inside a transaction; any failure rolls it all back. */
async function runTransaction(
  pool: PgPool,
  begin: string,
  queries: QueryData[],
  defaultArrayMode: boolean,
): Promise<unknown[]> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query(begin);
    const results: unknown[] = [];
    try {
      for (const query of queries) {
        const result = await client.query(toPgQuery(query));
        results.push(formatResult(result, query.arrayMode ?? defaultArrayMode));
      }
      await client.query("COMMIT");
    } catch (err) {
      try {
        await client.query("ROLLBACK");
      } catch {
        // A connection that cannot roll back is in an unknown state: drop it.
        broken = true;
      }
      throw err;
    }
    return results;
  } catch (err) {
    if (!(err instanceof pg.DatabaseError)) broken = true;
    throw err;
  } finally {
    client.release(broken);
  }
}

/** Shapes a pg result like Neon's per-query JSON. */
function formatResult(result: PgResult, arrayMode: boolean) {
  const fields = result.fields.map((field) => ({
    name: field.name,
    dataTypeID: field.dataTypeID,
    tableID: field.tableID,
    columnID: field.columnID,
    dataTypeSize: field.dataTypeSize,
    dataTypeModifier: field.dataTypeModifier,
    format: "text",
  }));
  const rows = arrayMode
    ? result.rows
    : result.rows.map((row) => Object.fromEntries(row.map((value, i) => [fields[i].name, value])));
  return {
    rowAsArray: arrayMode,
    fields,
    rows,
    command: result.command ?? "",
    rowCount: result.rowCount,
  };
}

/**
 * Postgres errors go back as 400 with every ErrorResponse field, which the
 * client turns into a NeonDbError carrying the SQLSTATE; anything else is a
 * bridge or connection problem (500, shown by the client as "Server error").
 */
function errorResponse(err: unknown): Response {
  if (err instanceof BadRequest) return jsonResponse(400, { message: err.message, code: "" });
  if (err instanceof pg.DatabaseError) {
    const source = err as unknown as Record<string, unknown>;
    const body: Record<string, unknown> = { message: (err as Error).message };
    for (const field of ERROR_FIELDS) body[field] = source[field] ?? null;
    body.code ??= "";
    body.severity ??= "";
    return jsonResponse(400, body);
  }
  const message = err instanceof Error ? err.message : String(err);
  return jsonResponse(500, { message: `neon bridge: ${message}`, code: "" });
}

function jsonResponse(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", ...CORS_HEADERS, ...headers },
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Host part of a URL for a listening address (wildcards become loopback). */
function urlHost(hostname: string): string {
  if (hostname === "0.0.0.0") return "127.0.0.1";
  if (hostname === "::") return "[::1]";
  return hostname.includes(":") ? `[${hostname}]` : hostname;
}

/** Script mode: serves until SIGINT or SIGTERM. */
async function main(): Promise<void> {
  const bridge = await startNeonBridge({
    port: Number(cliFlag("port") ?? 0),
    hostname: cliFlag("hostname"),
  });
  console.log(JSON.stringify({ url: bridge.url, fetchEndpoint: bridge.fetchEndpoint }));
  async function stop() {
    await bridge.close();
    Deno.exit(0);
  }
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
}

if (import.meta.main) await main();
