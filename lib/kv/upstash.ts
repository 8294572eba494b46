/** Redis over Upstash's REST protocol (production). */
import { Redis } from "@upstash/redis/cloudflare";
import { type Kv, type SetOptions, toKvError } from "./port.ts";

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
      return guarded(async () => {
        const opts: Record<string, unknown> = {};
        if (options.ttlMs !== undefined) opts.px = Math.max(1, Math.ceil(options.ttlMs));
        if (options.nx) opts.nx = true;
        // deno-lint-ignore no-explicit-any
        const r = await redis.set(key, value, opts as any);
        return r === "OK" || r === "ok";
      });
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
