/**
 * The key-value port (Redis semantics). Values are strings and always come back as the exact
 * string stored ("012345" stays "012345").
 */

/** Options for set. */
export interface SetOptions {
  /** Time to live in milliseconds. */
  ttlMs?: number;
  /** Only set when the key does not exist. */
  nx?: boolean;
}

/** One command of a batch; each means what the method of the same name does. */
export type KvCommand =
  | { op: "get"; key: string }
  | { op: "set"; key: string; value: string; ttlMs?: number; nx?: boolean }
  | { op: "getdel"; key: string }
  | { op: "incr"; key: string; by?: number; ttlMs?: number }
  | { op: "del"; keys: string[] };

/** The answer of one batched command: get/getdel a string or null, set a boolean, incr/del a number. */
export type KvResult = string | number | boolean | null;

/** What a script answers: a list of strings and integers (Lua's nil/false never appear in it). */
export type KvScriptReply = (string | number)[];

/**
 * The in-memory adapter's store, step by step, as a script's local form sees it. Each step means
 * what the Kv method of the same name does; nothing else runs while a script's steps run.
 */
export interface KvLocalStore {
  get(key: string): string | null;
  set(key: string, value: string, options?: SetOptions): boolean;
  incr(key: string, options?: { by?: number; ttlMs?: number }): number;
  del(keys: string[]): number;
}

/**
 * An atomic step of several commands, run by Redis in one round trip (EVALSHA, loaded with EVAL
 * when Redis answers NOSCRIPT) and by the in-memory adapter as TypeScript with the same meaning.
 * Every key the script touches is in KEYS; arguments arrive as strings (ARGV). Its answer is a
 * flat list of strings and integers, the same from both forms.
 */
export interface KvScript {
  /** Names the script in errors. */
  readonly name: string;
  /** The Lua source Redis runs. */
  readonly lua: string;
  /** The same steps over the in-memory store (synchronous, so nothing runs in between). */
  local(store: KvLocalStore, keys: string[], args: string[]): KvScriptReply;
}

/** Reads a script's reply from a driver: integers as numbers, everything else as strings. */
export function scriptReply(reply: unknown): KvScriptReply {
  if (!Array.isArray(reply)) throw new Error(`ERR script answered ${typeof reply}, not a list`);
  return reply.map((v) => typeof v === "number" ? v : String(v));
}

/** The KV store as the application sees it. */
export interface Kv {
  /** Returns the value or null. */
  get(key: string): Promise<string | null>;
  /** Sets a value; returns false when `nx` was given and the key already existed. */
  set(key: string, value: string, options?: SetOptions): Promise<boolean>;
  /** Returns the value and deletes the key in one step (single-use reads). */
  getdel(key: string): Promise<string | null>;
  /**
   * Increments a counter by `by` (default 1) and returns the new value. When `ttlMs` is given
   * the expiry is set only if the key has none yet, so a window starts at its first hit.
   * Both happen atomically (MULTI/EXEC on Redis, no Lua).
   */
  incr(key: string, options?: { by?: number; ttlMs?: number }): Promise<number>;
  /**
   * Increments several counters by one in one round trip, each like `incr` (expiry set on its
   * first hit); a key listed twice counts twice. Returns the new values in order.
   */
  incrMany(keys: string[], options?: { ttlMs?: number }): Promise<number[]>;
  /**
   * Runs the commands in order as one atomic step in one round trip (MULTI/EXEC on Redis) and
   * returns each command's answer, as its own method would give it.
   */
  batch(commands: KvCommand[]): Promise<KvResult[]>;
  /**
   * Runs a script atomically in one round trip with the given keys and arguments (numbers are
   * passed as their decimal text).
   */
  script(script: KvScript, keys: string[], args: (string | number)[]): Promise<KvScriptReply>;
  /** Deletes keys; returns how many existed. */
  del(...keys: string[]): Promise<number>;
  /** Remaining time to live in ms; -1 without expiry, -2 when the key does not exist. */
  pttl(key: string): Promise<number>;
  /** Round trip check for readiness probes. */
  ping(): Promise<void>;
  /** Releases the connection, if the adapter holds one. */
  close(): Promise<void>;
  /** Adapter name. */
  readonly kind: "upstash" | "memory" | "redis";
}

/** A KV failure; `unavailable` when the store could not be reached or did not answer. */
export class KvError extends Error {
  override name = "KvError";
  constructor(message: string, readonly unavailable: boolean, options?: ErrorOptions) {
    super(message, options);
  }
}

/** Redis replies that refuse a command (a fault of the command, not an outage). */
const COMMAND_REFUSED = /^(WRONGTYPE|EXECABORT|ERR (value is not|wrong number|syntax|unknown))/;

/** Wraps whatever a driver threw into a KvError; anything but a refused command is an outage. */
export function toKvError(err: unknown): KvError {
  if (err instanceof KvError) return err;
  const message = (err as Error)?.message ?? String(err);
  return new KvError(message, !COMMAND_REFUSED.test(message), { cause: err });
}

/** Runs one adapter call, turning whatever the driver threw into a KvError. */
export async function kvCall<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw toKvError(err);
  }
}

/** `incr` and `incrMany` as batches, for adapters whose batch is one MULTI/EXEC round trip. */
export function countersOverBatch(batch: Kv["batch"]): Pick<Kv, "incr" | "incrMany"> {
  return {
    async incr(key, options = {}) {
      const [value] = await batch([{ op: "incr", key, ...options }]);
      return value as number;
    },
    async incrMany(keys, options = {}) {
      return await batch(
        keys.map((key) => ({ op: "incr", key, ttlMs: options.ttlMs })),
      ) as number[];
    },
  };
}
