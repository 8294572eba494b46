/**
 * Local stand-in for the Upstash Redis REST API, backed by a real Redis.
 *
 * It speaks the protocol the way `@upstash/redis` 1.39.0 uses it: `POST /` with
 * one command as a JSON array, `POST /pipeline` and `POST /multi-exec` with an
 * array of commands, a bearer token, and `Upstash-Encoding: base64` (which the
 * client sends by default) asking for every string in a result to be base64 of
 * its raw bytes. Path-style commands (`GET /set/k/v`) are accepted too, as the
 * REST API documents them, for poking at it with curl.
 *
 * Redis is reached through the small RESP2 client below (no npm Redis package),
 * with a pool of connections; pipelines and transactions each run on a single
 * connection so that their commands stay in order and MULTI/EXEC stays atomic.
 *
 * Script mode: `deno run -A dev/upstash_bridge.ts --port 8079 --token secret
 *   [--hostname 127.0.0.1] [--redis-url redis://127.0.0.1:6379]`
 */
import { cliFlag } from "./cli_flag.ts";
// No `node:` imports on purpose: with "nodeModulesDir": "manual" they make
// `deno check` require npm:@types/node, which this repo does not install.

/** Options for {@link startUpstashBridge}. */
export interface UpstashBridgeOptions {
  /** TCP port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to bind; defaults to 127.0.0.1. */
  hostname?: string;
  /** Bearer token clients must present. */
  token: string;
  /** Redis to talk to, `redis://[user:password@]host[:port][/db]`; defaults to redis://127.0.0.1:6379. */
  redisUrl?: string;
}

/** A running Upstash bridge. */
export interface UpstashBridge {
  /** Base URL to pass as `url` to `new Redis({url, token})`. */
  url: string;
  /** Stops accepting requests, waits for in-flight ones and closes all Redis connections. */
  close(): Promise<void>;
}

/** An error reply from Redis (`-ERR ...`); a value, not a failure of the connection. */
class RedisReplyError {
  constructor(readonly message: string) {}
}

/**
 * A decoded RESP2 reply: simple strings are `string`, bulk strings stay raw
 * bytes (`Uint8Array`) so binary values survive, integers are numbers (bigint
 * beyond 2^53), nil bulk strings and nil arrays are `null`.
 */
type Reply = string | number | bigint | Uint8Array | null | RedisReplyError | Reply[];

interface RedisTarget {
  hostname: string;
  port: number;
  username?: string;
  password?: string;
  db?: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const CRLF = encoder.encode("\r\n");

// Commands that would leave a pooled connection in a state the next request
// does not expect (a transaction, another database, another protocol, a
// subscription, no replies), so they are refused instead of forwarded.
// Transactions are what /multi-exec is for.
const REFUSED_COMMANDS = new Set([
  "multi",
  "exec",
  "discard",
  "watch",
  "unwatch",
  "select",
  "auth",
  "hello",
  "reset",
  "quit",
  "subscribe",
  "psubscribe",
  "ssubscribe",
  "unsubscribe",
  "punsubscribe",
  "sunsubscribe",
  "monitor",
  "sync",
  "psync",
]);

/** One TCP connection to Redis with a buffered RESP2 reader. */
class RespConnection {
  /** Set once the byte stream can no longer be trusted; the pool then drops the connection. */
  broken = false;
  #conn: Deno.TcpConn;
  #buf = new Uint8Array(64 * 1024);
  #start = 0;
  #end = 0;

  private constructor(conn: Deno.TcpConn) {
    this.#conn = conn;
  }

  static async open(target: RedisTarget): Promise<RespConnection> {
    const conn = await Deno.connect({ hostname: target.hostname, port: target.port });
    const resp = new RespConnection(conn);
    try {
      const setup: string[][] = [];
      if (target.password !== undefined) {
        setup.push(
          target.username ? ["AUTH", target.username, target.password] : ["AUTH", target.password],
        );
      }
      if (target.db) setup.push(["SELECT", String(target.db)]);
      for (const reply of await resp.run(setup)) {
        if (reply instanceof RedisReplyError) {
          throw new Error(`Redis connection setup failed: ${reply.message}`);
        }
      }
      return resp;
    } catch (err) {
      resp.close();
      throw err;
    }
  }

  /** Writes all commands at once (pipelining) and reads one reply per command. */
  async run(commands: string[][]): Promise<Reply[]> {
    if (commands.length === 0) return [];
    try {
      await this.#writeAll(encodeCommands(commands));
      const replies: Reply[] = [];
      for (let i = 0; i < commands.length; i++) replies.push(await this.#readReply());
      return replies;
    } catch (err) {
      this.broken = true;
      throw err;
    }
  }

  close(): void {
    this.broken = true;
    try {
      this.#conn.close();
    } catch {
      // Already closed.
    }
  }

  async #writeAll(data: Uint8Array): Promise<void> {
    let offset = 0;
    while (offset < data.length) offset += await this.#conn.write(data.subarray(offset));
  }

  /** Reads more bytes from the socket into the buffer, compacting or growing it first. */
  async #fill(): Promise<void> {
    if (this.#start > 0) {
      this.#buf.copyWithin(0, this.#start, this.#end);
      this.#end -= this.#start;
      this.#start = 0;
    }
    if (this.#end === this.#buf.length) {
      const bigger = new Uint8Array(this.#buf.length * 2);
      bigger.set(this.#buf.subarray(0, this.#end));
      this.#buf = bigger;
    }
    const n = await this.#conn.read(this.#buf.subarray(this.#end));
    if (n === null) throw new Error("Redis closed the connection");
    this.#end += n;
  }

  async #readLine(): Promise<string> {
    let from = this.#start;
    while (true) {
      for (let i = from; i < this.#end - 1; i++) {
        if (this.#buf[i] === 13 && this.#buf[i + 1] === 10) {
          const line = decoder.decode(this.#buf.subarray(this.#start, i));
          this.#start = i + 2;
          return line;
        }
      }
      // Resume the scan where it stopped (minus the byte that may be a lone \r).
      const scanned = Math.max(this.#end - 1 - this.#start, 0);
      await this.#fill();
      from = this.#start + scanned;
    }
  }

  async #readBytes(length: number): Promise<Uint8Array> {
    while (this.#end - this.#start < length + 2) await this.#fill();
    // Copy out: the buffer is reused for the next reads.
    const bytes = this.#buf.slice(this.#start, this.#start + length);
    this.#start += length + 2;
    return bytes;
  }

  async #readReply(): Promise<Reply> {
    const line = await this.#readLine();
    const body = line.slice(1);
    switch (line[0]) {
      case "+":
        return body;
      case "-":
        return new RedisReplyError(body);
      case ":": {
        const n = Number(body);
        return Number.isSafeInteger(n) ? n : BigInt(body);
      }
      case "$": {
        const length = Number(body);
        return length < 0 ? null : await this.#readBytes(length);
      }
      case "*": {
        const count = Number(body);
        if (count < 0) return null;
        const items: Reply[] = [];
        for (let i = 0; i < count; i++) items.push(await this.#readReply());
        return items;
      }
      default:
        throw new Error(`unexpected RESP line from Redis: ${JSON.stringify(line.slice(0, 40))}`);
    }
  }
}

/** Encodes commands as RESP arrays of bulk strings (binary safe, UTF-8 for text). */
function encodeCommands(commands: string[][]): Uint8Array {
  const chunks: Uint8Array[] = [];
  for (const command of commands) {
    chunks.push(encoder.encode(`*${command.length}\r\n`));
    for (const arg of command) {
      const bytes = encoder.encode(arg);
      chunks.push(encoder.encode(`$${bytes.length}\r\n`), bytes, CRLF);
    }
  }
  const out = new Uint8Array(chunks.reduce((sum, c) => sum + c.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/** A small pool: each request borrows one connection for all of its commands. */
class RespPool {
  #idle: RespConnection[] = [];
  #waiters: { resolve(conn: RespConnection): void; reject(err: Error): void }[] = [];
  #size = 0;
  #closed = false;

  constructor(readonly target: RedisTarget, readonly max: number) {}

  /** Runs `work` on a borrowed connection; a connection that failed mid-way is discarded. */
  async use<T>(work: (conn: RespConnection) => Promise<T>): Promise<T> {
    const conn = await this.#acquire();
    try {
      return await work(conn);
    } finally {
      this.#release(conn);
    }
  }

  /** Closes idle connections now; borrowed ones are closed when they come back. */
  close(): void {
    this.#closed = true;
    for (const conn of this.#idle.splice(0)) conn.close();
    for (const waiter of this.#waiters.splice(0)) waiter.reject(new Error("bridge is closing"));
  }

  async #acquire(): Promise<RespConnection> {
    if (this.#closed) throw new Error("bridge is closing");
    const idle = this.#idle.pop();
    if (idle) return idle;
    if (this.#size < this.max) {
      this.#size++;
      try {
        return await RespConnection.open(this.target);
      } catch (err) {
        this.#size--;
        this.#wakeWaiter();
        throw err;
      }
    }
    return await new Promise((resolve, reject) => this.#waiters.push({ resolve, reject }));
  }

  #release(conn: RespConnection): void {
    if (conn.broken || this.#closed) {
      conn.close();
      this.#size--;
      this.#wakeWaiter();
      return;
    }
    const waiter = this.#waiters.shift();
    if (waiter) waiter.resolve(conn);
    else this.#idle.push(conn);
  }

  /** A slot freed up: let the longest waiter open a fresh connection in it. */
  #wakeWaiter(): void {
    const waiter = this.#waiters.shift();
    if (waiter) this.#acquire().then(waiter.resolve, waiter.reject);
  }
}

/** Raised for malformed HTTP requests (400 with an Upstash-style `error`). */
class BadRequest extends Error {}

/** Starts the Upstash REST bridge; resolves once it is listening. */
export function startUpstashBridge(opts: UpstashBridgeOptions): Promise<UpstashBridge> {
  if (!opts.token) return Promise.reject(new Error("startUpstashBridge: a token is required"));
  const hostname = opts.hostname ?? "127.0.0.1";
  const pool = new RespPool(parseRedisUrl(opts.redisUrl ?? "redis://127.0.0.1:6379"), 16);
  const expectedToken = encoder.encode(opts.token);

  function authorized(req: Request, url: URL): boolean {
    const header = req.headers.get("Authorization") ?? "";
    const match = /^Bearer\s+(.+)$/i.exec(header.trim());
    // Upstash also accepts the token as the _token query parameter.
    const presented = match?.[1] ?? url.searchParams.get("_token");
    if (!presented) return false;
    const bytes = encoder.encode(presented);
    return sameBytes(bytes, expectedToken);
  }

  async function handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    if (req.method === "OPTIONS") return new Response(null, { status: 204, headers: CORS_HEADERS });
    if (!authorized(req, url)) return jsonResponse(401, { error: "Unauthorized" });
    const base64 = req.headers.get("Upstash-Encoding")?.toLowerCase() === "base64";
    try {
      if (url.pathname === "/pipeline" || url.pathname === "/multi-exec") {
        if (req.method !== "POST") throw new BadRequest("ERR use POST");
        const body = await readJson(req);
        if (!Array.isArray(body) || body.length === 0) {
          throw new BadRequest("ERR expected a non-empty JSON array of commands");
        }
        const commands = body.map(toCommand);
        return url.pathname === "/pipeline"
          ? await runPipeline(commands, base64)
          : await runMultiExec(commands, base64);
      }
      const command = url.pathname === "/"
        ? toCommand(await readJson(req))
        : await pathCommand(req, url);
      const refused = refusal(command);
      if (refused) return jsonResponse(400, { error: refused });
      const [reply] = await pool.use((conn) => conn.run([command]));
      if (reply instanceof RedisReplyError) return jsonResponse(400, { error: reply.message });
      return jsonResponse(200, { result: toJsonValue(reply, base64) });
    } catch (err) {
      if (err instanceof BadRequest) return jsonResponse(400, { error: err.message });
      const message = err instanceof Error ? err.message : String(err);
      return jsonResponse(500, { error: `ERR upstash bridge: ${message}` });
    }
  }

  /** Not atomic, but in order on one connection; each command answers for itself. */
  async function runPipeline(commands: string[][], base64: boolean): Promise<Response> {
    const refusals = commands.map(refusal);
    const allowed = commands.filter((_, i) => !refusals[i]);
    const replies = await pool.use((conn) => conn.run(allowed));
    let next = 0;
    const results = commands.map((_, i) => {
      const refused = refusals[i];
      if (refused) return { error: refused };
      const reply = replies[next++];
      return reply instanceof RedisReplyError
        ? { error: reply.message }
        : { result: toJsonValue(reply, base64) };
    });
    return jsonResponse(200, results);
  }

  /**
   * MULTI, the commands and EXEC go out together on one connection. A command
   * Redis rejects while queueing makes EXEC abort the whole transaction (400);
   * errors raised while executing are reported per command, like a pipeline.
   */
  async function runMultiExec(commands: string[][], base64: boolean): Promise<Response> {
    const refused = commands.map(refusal).find((r) => r !== undefined);
    if (refused) return jsonResponse(400, { error: refused });
    const replies = await pool.use((conn) => conn.run([["MULTI"], ...commands, ["EXEC"]]));
    const exec = replies[replies.length - 1];
    if (exec instanceof RedisReplyError) {
      const cause = replies.slice(1, -1).find((r) => r instanceof RedisReplyError);
      const detail = cause instanceof RedisReplyError ? ` (${cause.message})` : "";
      return jsonResponse(400, { error: exec.message + detail });
    }
    if (!Array.isArray(exec)) {
      return jsonResponse(400, { error: "EXECABORT transaction was aborted" });
    }
    return jsonResponse(
      200,
      exec.map((reply) =>
        reply instanceof RedisReplyError
          ? { error: reply.message }
          : { result: toJsonValue(reply, base64) }
      ),
    );
  }

  return new Promise((resolve, reject) => {
    let server: Deno.HttpServer<Deno.NetAddr>;
    try {
      server = Deno.serve({
        port: opts.port ?? 0,
        hostname,
        onListen({ port }) {
          resolve({
            url: `http://${urlHost(hostname)}:${port}`,
            async close() {
              await server.shutdown();
              pool.close();
            },
          });
        },
      }, handle);
    } catch (err) {
      reject(err);
    }
  });
}

const CORS_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
  "Access-Control-Allow-Headers": "*",
};

// JSON.rawJSON (V8 has it; TypeScript's lib does not yet) lets integers beyond
// 2^53 go out as exact JSON numbers, as Upstash sends them.
const rawJson = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON;

/**
 * Turns a reply into the JSON `result`. With base64 encoding every string,
 * simple or bulk and at any depth, becomes base64 of its bytes; numbers and
 * nulls stay as they are. The client decodes exactly that (it also accepts a
 * bare top-level "OK", which base64 of "OK" decodes to as well).
 */
function toJsonValue(reply: Reply, base64: boolean): unknown {
  if (reply === null || typeof reply === "number") return reply;
  if (typeof reply === "bigint") return rawJson(reply.toString());
  if (Array.isArray(reply)) return reply.map((item) => toJsonValue(item, base64));
  // An error nested in an array (e.g. returned by a Lua script) becomes its text.
  const bytes = reply instanceof Uint8Array
    ? reply
    : encoder.encode(reply instanceof RedisReplyError ? reply.message : reply);
  return base64 ? toBase64(bytes) : decoder.decode(bytes);
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  // Chunked so that the spread stays well below the engine's argument limit.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** Compares in time independent of where the inputs differ, so the token cannot be guessed byte by byte. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

/** Validates one command: a non-empty array of strings, numbers or booleans. */
function toCommand(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new BadRequest("ERR a command must be a non-empty JSON array");
  }
  return value.map((arg) => {
    if (typeof arg === "string") return arg;
    if (typeof arg === "number" || typeof arg === "boolean") return String(arg);
    throw new BadRequest(
      `ERR command arguments must be strings or numbers, got ${JSON.stringify(arg)}`,
    );
  });
}

/** `/cmd/arg1/arg2`, with a POST body (if any) as the last argument. */
async function pathCommand(req: Request, url: URL): Promise<string[]> {
  let command: string[];
  try {
    command = url.pathname.split("/").filter((s) => s !== "").map(decodeURIComponent);
  } catch {
    throw new BadRequest("ERR malformed percent-encoding in the command path");
  }
  if (req.method === "POST") {
    const body = await req.text();
    if (body !== "") command.push(body);
  }
  return command;
}

function refusal(command: string[]): string | undefined {
  const name = command[0].toLowerCase();
  const clientReply = name === "client" && command[1]?.toLowerCase() === "reply";
  if (REFUSED_COMMANDS.has(name) || clientReply) {
    return `ERR command '${command[0]}' is not supported by the local Upstash bridge`;
  }
  return undefined;
}

async function readJson(req: Request): Promise<unknown> {
  const text = await req.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new BadRequest("ERR failed to parse the request body as JSON");
  }
}

function parseRedisUrl(redisUrl: string): RedisTarget {
  const url = new URL(redisUrl);
  if (url.protocol !== "redis:") {
    throw new Error(`unsupported Redis URL (only redis:// is): ${redisUrl}`);
  }
  const db = url.pathname.replace(/^\//, "");
  return {
    hostname: url.hostname.replace(/^\[(.*)\]$/, "$1") || "127.0.0.1",
    port: url.port ? Number(url.port) : 6379,
    username: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    db: db ? Number(db) : undefined,
  };
}

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", ...CORS_HEADERS },
  });
}

/** Host part of a URL for a listening address (wildcards become loopback). */
function urlHost(hostname: string): string {
  if (hostname === "0.0.0.0") return "127.0.0.1";
  if (hostname === "::") return "[::1]";
  return hostname.includes(":") ? `[${hostname}]` : hostname;
}

/** Script mode: serves until SIGINT or SIGTERM. */
async function main(): Promise<void> {
  const token = cliFlag("token");
  if (!token) {
    console.error(
      "usage: deno run -A dev/upstash_bridge.ts --token <token> [--port N] [--hostname H] [--redis-url URL]",
    );
    Deno.exit(2);
  }
  const bridge = await startUpstashBridge({
    port: Number(cliFlag("port") ?? 0),
    hostname: cliFlag("hostname"),
    token,
    redisUrl: cliFlag("redis-url"),
  });
  console.log(JSON.stringify({ url: bridge.url, token }));
  async function stop() {
    await bridge.close();
    Deno.exit(0);
  }
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
}

if (import.meta.main) await main();
