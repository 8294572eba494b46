/** Redis over Upstash's REST protocol (production). */
import { Redis } from "@upstash/redis/cloudflare";
import type { Kv, SetOptions } from "./port.ts";

/** Opens the Upstash adapter. Automatic JSON deserialisation is off so "012345" stays a string. */
export function openUpstashKv(url: string, token: string): Kv {
  const redis = new Redis({ url, token, automaticDeserialization: false, enableTelemetry: false });
  const asText = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return {
    kind: "upstash",
    async get(key) {
      return asText(await redis.get(key));
    },
    async set(key: string, value: string, options: SetOptions = {}) {
      const opts: Record<string, unknown> = {};
      if (options.ttlMs !== undefined) opts.px = Math.max(1, Math.ceil(options.ttlMs));
      if (options.nx) opts.nx = true;
      // deno-lint-ignore no-explicit-any
      const r = await redis.set(key, value, opts as any);
      return r === "OK" || r === "ok";
    },
    async getdel(key) {
      return asText(await redis.getdel(key));
    },
    async incr(key, options = {}) {
      const tx = redis.multi();
      tx.incrby(key, options.by ?? 1);
      if (options.ttlMs !== undefined) {
        tx.pexpire(key, Math.max(1, Math.ceil(options.ttlMs)), "NX");
      }
      const [value] = await tx.exec<[number, number?]>();
      return Number(value);
    },
    async incrMany(keys, options = {}) {
      if (keys.length === 0) return [];
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
    },
    async del(...keys) {
      if (keys.length === 0) return 0;
      return Number(await redis.del(...keys));
    },
    async pttl(key) {
      return Number(await redis.pttl(key));
    },
    async ping() {
      await redis.ping();
    },
  };
}
