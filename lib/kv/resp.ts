/**
 * A small Redis client (RESP2) over one Deno TCP or TLS connection, for the Deno server.
 *
 * Commands issued in the same turn of the event loop share one write, and their replies are
 * matched in order. Replies are parsed straight from the bytes read, into strings, numbers,
 * arrays and errors, without per-byte string building or keeping the read buffers alive: what a
 * command leaves behind is its promise, its arguments and its reply, so little of it outlives a
 * young-generation collection.
 *
 * A lost connection is re-established in the background (50 ms × attempts, at most 1 s apart).
 * A command in flight when the connection dropped, or issued while disconnected, is tried once
 * more after reconnecting and then fails; one with no answer within `timeoutMs` fails too (one
 * sweep timer per client while commands are pending, not a timer per command), and the
 * connection it waited on is dropped and replaced, since it may be half-open.
 */

/** An argument: a string (sent as its UTF-8 bytes) or a number (sent as its decimal text). */
export type RespArg = string | number;

/** A reply: a string, an integer, null, an error inside an array (EXEC), or a list of replies. */
export type RespReply = string | number | null | RespError | RespReply[];

/** An error reply from Redis; its message is Redis's text (`NOSCRIPT ...`, `WRONGTYPE ...`). */
export class RespError extends Error {
  override name = "RespError";
}

/** The link to Redis failed: not connected, connection lost, or no answer in time. */
export class RespUnavailable extends Error {
  override name = "RespUnavailable";
}

/** Client options. */
export interface RespOptions {
  /** A command with no answer after this long fails, and so does a connect (default 3000 ms). */
  timeoutMs?: number;
}

/** Where and how to connect, read from a redis:// or rediss:// URL. */
export interface RespTarget {
  hostname: string;
  port: number;
  tls: boolean;
  username?: string;
  password?: string;
  db?: number;
}

/**
 * Reads `redis://[user[:password]@]host[:port][/db]` (or `rediss://` for TLS). Credentials are
 * percent-decoded. Errors never contain the password.
 */
export function parseRedisUrl(url: string): RespTarget {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error("Redis URL: not a valid URL (expected redis://host[:port][/db])");
  }
  if (u.protocol !== "redis:" && u.protocol !== "rediss:") {
    throw new Error(`Redis URL: scheme ${u.protocol} is not redis:// or rediss://`);
  }
  const tls = u.protocol === "rediss:";
  let hostname = u.hostname;
  if (hostname.startsWith("[") && hostname.endsWith("]")) hostname = hostname.slice(1, -1);
  if (!hostname) throw new Error("Redis URL: no host");
  const port = u.port ? Number(u.port) : 6379;
  const target: RespTarget = { hostname, port, tls };
  const path = u.pathname.replace(/^\/+/, "");
  if (path) {
    if (!/^\d+$/.test(path)) throw new Error(`Redis URL: database "${path}" is not a number`);
    target.db = Number(path);
  }
  const decode = (s: string, what: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      throw new Error(`Redis URL: the ${what} is not valid percent-encoding`);
    }
  };
  if (u.password) target.password = decode(u.password, "password");
  if (u.username) target.username = decode(u.username, "user name");
  return target;
}

// ---------------------------------------------------------------------------------------------
// Reply parser

const CR = 13;
const LF = 10;

/** What `ReplyParser.next` answers while the bytes of the next reply have not all arrived. */
export const INCOMPLETE: unique symbol = Symbol("incomplete");

const decoder = new TextDecoder();

/**
 * Parses replies from bytes that arrive in pieces. It owns one buffer: `space()` is where the
 * next read goes, `commit(n)` counts what was read, `next()` answers one reply or INCOMPLETE.
 * A reply split across reads is parsed again from its start once more bytes are there.
 */
export class ReplyParser {
  private buf: Uint8Array;
  private start = 0;
  private end = 0;
  private pos = 0;

  constructor(size = 64 * 1024) {
    this.buf = new Uint8Array(size);
  }

  /** Free room at the end of the buffer (moving unparsed bytes to the front, or growing). */
  space(min = 4096): Uint8Array {
    if (this.start === this.end) this.start = this.end = 0;
    if (this.buf.length - this.end < min) {
      const pending = this.end - this.start;
      if (this.start > 0 && this.buf.length - pending >= min) {
        this.buf.copyWithin(0, this.start, this.end);
      } else {
        const grown = new Uint8Array(Math.max(this.buf.length * 2, pending + min));
        grown.set(this.buf.subarray(this.start, this.end));
        this.buf = grown;
      }
      this.start = 0;
      this.end = pending;
    }
    return this.buf.subarray(this.end);
  }

  /** Counts `n` bytes just read into `space()`. */
  commit(n: number): void {
    this.end += n;
  }

  /** Copies bytes in (for callers that do not read into `space()`). */
  push(bytes: Uint8Array): void {
    this.space(bytes.length).set(bytes);
    this.commit(bytes.length);
  }

  /** The next complete reply, or INCOMPLETE. */
  next(): RespReply | typeof INCOMPLETE {
    if (this.start === this.end) return INCOMPLETE;
    this.pos = this.start;
    const reply = this.reply();
    if (reply !== INCOMPLETE) this.start = this.pos;
    return reply;
  }

  /** Bytes received and not yet parsed. */
  get buffered(): number {
    return this.end - this.start;
  }

  /** The index of the CR ending the line at `pos`, or -1 when the line is not all there. */
  private lineEnd(): number {
    const cr = this.buf.indexOf(CR, this.pos);
    // indexOf may find a stale byte past `end`: then the line has not arrived yet.
    if (cr < 0 || cr + 1 >= this.end) return -1;
    if (this.buf[cr + 1] !== LF) throw new Error("Redis reply: CR without LF");
    return cr;
  }

  /** The integer written in ASCII in [from, to). */
  private int(from: number, to: number): number {
    const buf = this.buf;
    let i = from;
    let negative = false;
    if (buf[i] === 45 /* - */) {
      negative = true;
      i++;
    }
    if (i >= to) throw new Error("Redis reply: empty number");
    let n = 0;
    for (; i < to; i++) {
      const d = buf[i] - 48;
      if (d < 0 || d > 9) throw new Error("Redis reply: bad number");
      n = n * 10 + d;
    }
    return negative ? -n : n;
  }

  private text(from: number, to: number): string {
    if (from === to) return "";
    return decoder.decode(this.buf.subarray(from, to));
  }

  private reply(): RespReply | typeof INCOMPLETE {
    if (this.pos >= this.end) return INCOMPLETE;
    const buf = this.buf;
    const type = buf[this.pos];
    const cr = this.lineEnd();
    if (cr < 0) return INCOMPLETE;
    const from = this.pos + 1;
    this.pos = cr + 2;
    switch (type) {
      case 43: // + simple string
        // The answers seen most often, without decoding.
        if (cr - from === 2 && buf[from] === 79 && buf[from + 1] === 75) return "OK";
        if (cr - from === 6 && buf[from] === 81 && buf[from + 1] === 85) {
          const queued = this.text(from, cr);
          if (queued === "QUEUED") return "QUEUED";
          return queued;
        }
        return this.text(from, cr);
      case 45: // - error
        return new RespError(this.text(from, cr));
      case 58: // : integer
        return this.int(from, cr);
      case 36: { // $ bulk string
        const len = this.int(from, cr);
        if (len < 0) return null;
        const dataEnd = this.pos + len;
        if (dataEnd + 2 > this.end) return INCOMPLETE;
        const s = this.text(this.pos, dataEnd);
        this.pos = dataEnd + 2;
        return s;
      }
      case 42: { // * array
        const count = this.int(from, cr);
        if (count < 0) return null;
        const items: RespReply[] = new Array(count);
        for (let i = 0; i < count; i++) {
          const item = this.reply();
          if (item === INCOMPLETE) return INCOMPLETE;
          items[i] = item;
        }
        return items;
      }
      default:
        throw new Error(`Redis reply: unknown type byte ${type}`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Command encoder

const encoder = new TextEncoder();

/** The number of bytes UTF-8 takes for `s` (lone surrogates count as U+FFFD, as encodeInto writes). */
function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        // A surrogate pair: 2 UTF-16 units, 4 bytes.
        n += 2;
        i++;
      } else n += 2;
    } else n += 2;
  }
  return n;
}

/** Commands encoded as RESP arrays of bulk strings into a growing buffer. */
export class CommandWriter {
  buf: Uint8Array;
  pos = 0;

  constructor(size = 16 * 1024) {
    this.buf = new Uint8Array(size);
  }

  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const grown = new Uint8Array(Math.max(this.buf.length * 2, this.pos + n));
    grown.set(this.buf.subarray(0, this.pos));
    this.buf = grown;
  }

  /** Writes `prefix` (a `*` or `$` byte), the non-negative integer `n`, then CRLF. */
  private header(prefix: number, n: number): void {
    this.room(24);
    const buf = this.buf;
    buf[this.pos++] = prefix;
    if (n === 0) buf[this.pos++] = 48;
    else {
      let digits = 0;
      for (let m = n; m > 0; m = Math.floor(m / 10)) digits++;
      let at = this.pos + digits;
      this.pos = at;
      for (let m = n; m > 0; m = Math.floor(m / 10)) buf[--at] = 48 + (m % 10);
    }
    buf[this.pos++] = CR;
    buf[this.pos++] = LF;
  }

  private bulk(arg: RespArg): void {
    const s = typeof arg === "number" ? String(arg) : arg;
    const len = utf8Length(s);
    this.header(36, len);
    this.room(len + 2);
    const buf = this.buf;
    if (len === s.length) {
      // ASCII: one byte per character, no encoder call.
      let at = this.pos;
      for (let i = 0; i < s.length; i++) buf[at++] = s.charCodeAt(i);
      this.pos = at;
    } else {
      this.pos += encoder.encodeInto(s, buf.subarray(this.pos, this.pos + len)).written;
    }
    buf[this.pos++] = CR;
    buf[this.pos++] = LF;
  }

  /** Appends one command. */
  command(args: readonly RespArg[]): void {
    this.header(42, args.length);
    for (let i = 0; i < args.length; i++) this.bulk(args[i]);
  }
}

// ---------------------------------------------------------------------------------------------
// Client

/**
 * One request: a command, or a MULTI ... EXEC group sent together (its answer is EXEC's). It is
 * kept until answered so that it can be sent again over a new connection.
 */
class Request {
  /** Replies still to come on the connection it was written to. */
  left = 0;
  /** Set once the caller has its answer (or its failure); a late reply is then dropped. */
  settled = false;
  /** Connections it was lost with (in flight, or waiting while disconnected). */
  lost = 0;

  constructor(
    readonly args: readonly RespArg[] | null,
    readonly group: readonly (readonly RespArg[])[] | null,
    readonly at: number,
    readonly resolve: (reply: RespReply) => void,
    readonly reject: (err: Error) => void,
  ) {}

  /** The number of replies its commands get. */
  get replies(): number {
    return this.group ? this.group.length + 2 : 1;
  }

  write(w: CommandWriter): void {
    if (this.group) {
      w.command(MULTI);
      for (const c of this.group) w.command(c);
      w.command(EXEC);
    } else w.command(this.args!);
  }

  fail(err: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.reject(err);
  }
}

const MULTI = ["MULTI"] as const;
const EXEC = ["EXEC"] as const;

/** Requests in order, with a moving head (cheap removal at the front). */
class Queue {
  private items: (Request | undefined)[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }
  push(r: Request): void {
    this.items.push(r);
  }
  peek(): Request | undefined {
    return this.items[this.head];
  }
  shift(): Request | undefined {
    const r = this.items[this.head];
    this.items[this.head++] = undefined;
    if (this.head === this.items.length) {
      this.items.length = 0;
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return r;
  }
  /** Removes and answers every request, in order. */
  drain(): Request[] {
    const out = this.items.slice(this.head) as Request[];
    this.items = [];
    this.head = 0;
    return out;
  }
  /** Every request, in order, left in place. */
  forEach(fn: (r: Request) => void): void {
    for (let i = this.head; i < this.items.length; i++) fn(this.items[i]!);
  }
}

type Conn = Deno.TcpConn | Deno.TlsConn;

/** One live connection: its socket, what was written to it and awaits a reply. */
interface Link {
  conn: Conn;
  /** Requests written (or being written) to this connection, in order. */
  inflight: Queue;
  /** The parser of this connection's replies. */
  parser: ReplyParser;
  /** Set once the connection is gone (closed by us or by the other end). */
  dead: boolean;
  /** Commands encoded and not yet written, and the buffer being written meanwhile. */
  writer: CommandWriter;
  spare: CommandWriter;
  writing: boolean;
  flushQueued: boolean;
}

function newLink(conn: Conn): Link {
  return {
    conn,
    inflight: new Queue(),
    parser: new ReplyParser(),
    dead: false,
    writer: new CommandWriter(),
    spare: new CommandWriter(),
    writing: false,
    flushQueued: false,
  };
}

/** A Redis connection with pipelining, reconnects and timeouts. */
export class RespClient {
  readonly target: RespTarget;
  private readonly timeoutMs: number;
  /** The connection that answers commands (handshake done), or null. */
  private link: Link | null = null;
  /** A connection attempt in progress. */
  private connecting: Promise<void> | null = null;
  /** Requests waiting for a connection. */
  private waiting = new Queue();
  /** Failed connect attempts in a row (the backoff). */
  private attempts = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private sweepTimer: ReturnType<typeof setInterval> | undefined;
  private closed = false;
  /** Counters for diagnostics and tests. */
  readonly stats = { writes: 0, connects: 0 };

  constructor(url: string, options: RespOptions = {}) {
    this.target = parseRedisUrl(url);
    this.timeoutMs = options.timeoutMs ?? 3_000;
  }

  /** Sends one command; answers its reply (an error reply rejects with RespError). */
  call(args: readonly RespArg[]): Promise<RespReply> {
    return this.request(args, null);
  }

  /**
   * Sends MULTI, the commands and EXEC together; answers EXEC's list (an error inside it is a
   * RespError in its place), or null when the transaction was discarded.
   */
  exec(commands: readonly (readonly RespArg[])[]): Promise<RespReply[] | null> {
    return this.request(null, commands) as Promise<RespReply[] | null>;
  }

  private request(
    args: readonly RespArg[] | null,
    group: readonly (readonly RespArg[])[] | null,
  ): Promise<RespReply> {
    if (this.closed) return Promise.reject(new RespUnavailable("Redis client is closed"));
    return new Promise<RespReply>((resolve, reject) => {
      const r = new Request(args, group, performance.now(), resolve, reject);
      this.startSweep();
      const link = this.link;
      if (link) this.send(link, r);
      else {
        this.waiting.push(r);
        this.ensureConnecting();
      }
    });
  }

  /** Encodes a request for `link` and has it written at the end of this turn. */
  private send(link: Link, r: Request): void {
    r.left = r.replies;
    link.inflight.push(r);
    r.write(link.writer);
    if (!link.flushQueued && !link.writing) {
      link.flushQueued = true;
      queueMicrotask(() => this.flush(link));
    }
  }

  /** Writes what was encoded, and then whatever was encoded while writing, until nothing is left. */
  private async flush(link: Link): Promise<void> {
    link.flushQueued = false;
    if (link.writing) return;
    link.writing = true;
    try {
      while (link.writer.pos > 0 && !link.dead) {
        const out = link.writer;
        link.writer = link.spare;
        link.spare = out;
        const bytes = out.buf.subarray(0, out.pos);
        out.pos = 0;
        this.stats.writes++;
        let sent = 0;
        while (sent < bytes.length) sent += await link.conn.write(bytes.subarray(sent));
      }
    } catch {
      this.lose(link);
    } finally {
      link.writing = false;
    }
  }

  private ensureConnecting(): void {
    if (this.closed || this.link || this.connecting || this.reconnectTimer !== undefined) return;
    this.connecting = this.connect().finally(() => this.connecting = null);
  }

  /** One connect attempt: socket, AUTH, SELECT, then the waiting requests are sent. */
  private async connect(): Promise<void> {
    const t = this.target;
    let conn: Conn | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new RespUnavailable(`Redis at ${t.hostname}:${t.port}: connect timed out`)),
        this.timeoutMs,
      );
    });
    let link: Link | null = null;
    let gaveUp = false;
    try {
      const opening = t.tls
        ? Deno.connectTls({ hostname: t.hostname, port: t.port })
        : Deno.connect({ hostname: t.hostname, port: t.port });
      // A connection that opens after the timeout is closed at once.
      opening.then((c) => {
        if (gaveUp) closeQuietly(c);
      }, () => {});
      conn = await Promise.race([opening, timedOut]);
      if ("setNoDelay" in conn) conn.setNoDelay(true);
      if ("setKeepAlive" in conn) conn.setKeepAlive(true);
      link = newLink(conn);
      this.stats.connects++;
      void this.readLoop(link);
      const hello: Promise<RespReply>[] = [];
      const internal = (args: RespArg[]) =>
        hello.push(
          new Promise<RespReply>((resolve, reject) => {
            this.send(link!, new Request(args, null, performance.now(), resolve, reject));
          }),
        );
      if (t.password !== undefined) {
        internal(t.username ? ["AUTH", t.username, t.password] : ["AUTH", t.password]);
      }
      if (t.db) internal(["SELECT", t.db]);
      if (hello.length) await Promise.race([Promise.all(hello), timedOut]);
      if (link.dead) throw new RespUnavailable("Redis connection closed during the handshake");
      this.link = link;
      this.attempts = 0;
      for (const r of this.waiting.drain()) {
        if (!r.settled) this.send(link, r);
      }
    } catch (err) {
      gaveUp = true;
      if (link) {
        link.dead = true;
        closeQuietly(link.conn);
      } else if (conn) closeQuietly(conn);
      this.attempts++;
      const reason = err instanceof RespError ? err : new RespUnavailable(
        `Redis at ${t.hostname}:${t.port} unreachable: ${(err as Error)?.message ?? err}`,
      );
      this.countLoss(this.waiting, reason);
      this.scheduleReconnect();
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Counts a lost connection against each request of `queue`: a request lost a second time
   * fails with `reason`; the others stay in `waiting`, in order.
   */
  private countLoss(queue: Queue, reason: Error): void {
    const keep: Request[] = [];
    for (const r of queue.drain()) {
      if (r.settled) continue;
      if (++r.lost > 1) r.fail(reason);
      else keep.push(r);
    }
    for (const r of this.waiting.drain()) if (!r.settled) keep.push(r);
    for (const r of keep) this.waiting.push(r);
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer !== undefined) return;
    const delay = Math.min(50 * Math.max(1, this.attempts), 1_000);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.ensureConnecting();
    }, delay);
  }

  private async readLoop(link: Link): Promise<void> {
    const { conn, parser } = link;
    try {
      for (;;) {
        const n = await conn.read(parser.space());
        if (n === null) break;
        parser.commit(n);
        for (;;) {
          const reply = parser.next();
          if (reply === INCOMPLETE) break;
          this.answer(link, reply);
        }
      }
    } catch {
      // A read on a closed or reset connection: the link is lost.
    }
    this.lose(link);
  }

  /** Hands one reply to the oldest request in flight. */
  private answer(link: Link, reply: RespReply): void {
    const r = link.inflight.peek();
    if (!r) return; // Nothing asked for it (cannot happen with an honest server).
    if (--r.left > 0) return; // MULTI's OK and QUEUED: the group answers with EXEC's reply.
    link.inflight.shift();
    if (r.settled) return;
    r.settled = true;
    if (reply instanceof RespError) r.reject(reply);
    else r.resolve(reply);
  }

  /** The connection is gone: what was in flight waits for the next one (or fails). */
  private lose(link: Link): void {
    if (link.dead) return;
    link.dead = true;
    closeQuietly(link.conn);
    if (this.link !== link) {
      // Lost during the handshake: connect() counts the attempt; AUTH and SELECT just fail.
      const lost = new RespUnavailable("Redis connection lost");
      for (const r of link.inflight.drain()) r.fail(lost);
      return;
    }
    this.link = null;
    if (this.closed) {
      const gone = new RespUnavailable("Redis client is closed");
      for (const r of link.inflight.drain()) r.fail(gone);
      return;
    }
    this.countLoss(link.inflight, new RespUnavailable("Redis connection lost"));
    this.attempts++;
    this.scheduleReconnect();
  }

  /** One timer while requests are pending: fails those older than the timeout. */
  private startSweep(): void {
    if (this.sweepTimer !== undefined) return;
    const every = Math.max(10, Math.min(250, Math.floor(this.timeoutMs / 4)));
    this.sweepTimer = setInterval(() => this.sweep(), every);
  }

  private sweep(): void {
    const oldest = performance.now() - this.timeoutMs;
    let pending = 0;
    const timedOut = () =>
      new RespUnavailable(`Redis command timed out after ${this.timeoutMs} ms`);
    // In flight: failed now. A connection that leaves a command unanswered that long is taken
    // for dead (a half-open socket would otherwise stall every later command until TCP gives
    // up): it is dropped and replaced, and what else was in flight on it is tried once more.
    const link = this.link;
    let stalled = false;
    link?.inflight.forEach((r) => {
      if (r.settled) return;
      if (r.at <= oldest) {
        r.fail(timedOut());
        stalled = true;
      } else pending++;
    });
    if (link && stalled) this.lose(link);
    const keep: Request[] = [];
    for (const r of this.waiting.drain()) {
      if (r.settled) continue;
      if (r.at <= oldest) r.fail(timedOut());
      else keep.push(r);
    }
    for (const r of keep) this.waiting.push(r);
    pending += keep.length;
    if (pending === 0) this.stopSweep();
  }

  private stopSweep(): void {
    if (this.sweepTimer === undefined) return;
    clearInterval(this.sweepTimer);
    this.sweepTimer = undefined;
  }

  /**
   * Sends QUIT and waits (at most the timeout) for the answers still on the way, then closes.
   * Nothing reconnects afterwards; commands waiting for a connection fail.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    // A connection being opened still carries what waits for it (its own timeout bounds it).
    if (this.connecting) await this.connecting;
    const gone = new RespUnavailable("Redis client is closed");
    for (const r of this.waiting.drain()) r.fail(gone);
    const link = this.link;
    if (link && !link.dead) {
      const quit = new Promise<RespReply>((resolve, reject) =>
        this.send(link, new Request(["QUIT"], null, performance.now(), resolve, reject))
      );
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        quit.catch(() => null),
        new Promise((r) => timer = setTimeout(r, this.timeoutMs)),
      ]);
      clearTimeout(timer);
    }
    if (this.link) this.lose(this.link);
    this.stopSweep();
  }
}

function closeQuietly(conn: Conn): void {
  try {
    conn.close();
  } catch { /* already closed */ }
}
