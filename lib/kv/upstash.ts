/** Redis over Upstash's REST protocol (production). */
import { Redis } from "@upstash/redis/cloudflare";
import { type Kv, type KvResult, type SetOptions, toKvError } from "./port.ts";

/** Options for the Upstash adapter. */
export interface UpstashOptions {
  /** A call that has not answered after this long fails as unavailable (default 3000 ms). */
  timeoutMs?: number;
}

/**
 * Opens the Upstash adapter. Automatic JSON deserialisation is off so "012345" stays a string.
 * A network failure is retried once after 50 ms; an outage then fails fast as KvError
 * (unavailable) instead of holding the request for the driver's default five retries.
 */
export function openUpstashKv(url: string, token: string, options: UpstashOptions = {}): Kv {
  const timeoutMs = options.timeoutMs ?? 3_000;
  const redis = new Redis({
    url,
    token,
    automaticDeserialization: false,
    enableTelemetry: false,
    retry: { retries: 1, backoff: () => 50 },
    signal: () => AbortSignal.timeout(timeoutMs),
  });
  const asText = (v: unknown) => (v === null || v === undefined ? null : String(v));
  const setOptions = (options: SetOptions) => {
    const opts: Record<string, unknown> = {};
    if (options.ttlMs !== undefined) opts.px = Math.max(1, Math.ceil(options.ttlMs));
    if (options.nx) opts.nx = true;
    // deno-lint-ignore no-explicit-any
    return opts as any;
  };
  const setDone = (r: unknown) => r === "OK" || r === "ok";
  async function guarded<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      throw toKvError(err);
    }
  }
  return {
    kind: "upstash",
    get(key) {
      return guarded(async () => asText(await redis.get(key)));
    },
    set(key: string, value: string, options: SetOptions = {}) {
      return guarded(async () => setDone(await redis.set(key, value, setOptions(options))));
    },
    getdel(key) {
      return guarded(async () => asText(await redis.getdel(key)));
    },
    incr(key, options = {}) {
      return guarded(async () => {
        const tx = redis.multi();
        tx.incrby(key, options.by ?? 1);
        if (options.ttlMs !== undefined) {
          tx.pexpire(key, Math.max(1, Math.ceil(options.ttlMs)), "NX");
        }
        const [value] = await tx.exec<[number, number?]>();
        return Number(value);
      });
    },
    incrMany(keys, options = {}) {
      if (keys.length === 0) return Promise.resolve([]);
      return guarded(async () => {
        const tx = redis.multi();
        for (const key of keys) {
          tx.incr(key);
          if (options.ttlMs !== undefined) {
            tx.pexpire(key, Math.max(1, Math.ceil(options.ttlMs)), "NX");
          }
        }
        const results = await tx.exec<unknown[]>();
        const step = options.ttlMs !== undefined ? 2 : 1;
        return keys.map((_, i) => Number(results[i * step]));
      });
    },
    batch(commands) {
      if (commands.length === 0) return Promise.resolve([]);
      return guarded(async () => {
        const tx = redis.multi();
        // How to read each command's answer out of the transaction's replies.
        const readers: ((replies: unknown[], at: number) => KvResult)[] = [];
        const widths: number[] = [];
        for (const c of commands) {
          switch (c.op) {
            case "get":
              tx.get(c.key);
              readers.push((r, i) => asText(r[i]));
              widths.push(1);
              break;
            case "getdel":
              tx.getdel(c.key);
              readers.push((r, i) => asText(r[i]));
              widths.push(1);
              break;
            case "set":
              tx.set(c.key, c.value, setOptions(c));
              readers.push((r, i) => setDone(r[i]));
              widths.push(1);
              break;
            case "incr":
              tx.incrby(c.key, c.by ?? 1);
              if (c.ttlMs !== undefined) tx.pexpire(c.key, Math.max(1, Math.ceil(c.ttlMs)), "NX");
              readers.push((r, i) => Number(r[i]));
              widths.push(c.ttlMs !== undefined ? 2 : 1);
              break;
            case "del":
              if (c.keys.length > 0) tx.del(...c.keys);
              readers.push((r, i) => (c.keys.length === 0 ? 0 : Number(r[i])));
              widths.push(c.keys.length > 0 ? 1 : 0);
              break;
          }
        }
        const replies = await tx.exec<unknown[]>();
        const out: KvResult[] = [];
        let at = 0;
        for (let i = 0; i < commands.length; i++) {
          out.push(readers[i](replies, at));
          at += widths[i];
        }
        return out;
      });
    },
    del(...keys) {
      if (keys.length === 0) return Promise.resolve(0);
      return guarded(async () => Number(await redis.del(...keys)));
    },
    pttl(key) {
      return guarded(async () => Number(await redis.pttl(key)));
    },
    ping() {
      return guarded(async () => {
        await redis.ping();
      });
    },
  };
}
