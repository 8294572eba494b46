/** In-process KV with Redis semantics and an injectable clock: the embedded default. */
import type { Kv, SetOptions } from "./port.ts";

interface Entry {
  value: string;
  expiresAt: number | null;
}

/** Creates an in-memory KV; `now` drives expiry so tests can move time. */
export function openMemoryKv(now: () => number = Date.now): Kv {
  const map = new Map<string, Entry>();
  let ops = 0;
  function live(key: string): Entry | undefined {
    const e = map.get(key);
    if (!e) return undefined;
    if (e.expiresAt !== null && e.expiresAt <= now()) {
      map.delete(key);
      return undefined;
    }
    return e;
  }
  function sweep() {
    // Occasional sweep keeps expired keys from piling up in long-running dev servers.
    if (++ops % 1024 !== 0) return;
    const t = now();
    for (const [k, e] of map) if (e.expiresAt !== null && e.expiresAt <= t) map.delete(k);
  }
  const kv: Kv = {
    kind: "memory",
    get(key) {
      return Promise.resolve(live(key)?.value ?? null);
    },
    set(key: string, value: string, options: SetOptions = {}) {
      sweep();
      if (options.nx && live(key)) return Promise.resolve(false);
      map.set(key, {
        value,
        expiresAt: options.ttlMs !== undefined ? now() + options.ttlMs : null,
      });
      return Promise.resolve(true);
    },
    getdel(key) {
      const e = live(key);
      map.delete(key);
      return Promise.resolve(e?.value ?? null);
    },
    incr(key, options = {}) {
      sweep();
      const e = live(key);
      const current = e ? Number(e.value) : 0;
      if (!Number.isInteger(current)) {
        return Promise.reject(new Error("ERR value is not an integer or out of range"));
      }
      const next = current + (options.by ?? 1);
      const expiresAt = e?.expiresAt ??
        (options.ttlMs !== undefined ? now() + options.ttlMs : null);
      map.set(key, { value: String(next), expiresAt });
      return Promise.resolve(next);
    },
    async incrMany(keys, options = {}) {
      const out: number[] = [];
      for (const key of keys) out.push(await kv.incr(key, { ttlMs: options.ttlMs }));
      return out;
    },
    del(...keys) {
      let n = 0;
      for (const k of keys) if (live(k) && map.delete(k)) n++;
      return Promise.resolve(n);
    },
    pttl(key) {
      const e = live(key);
      if (!e) return Promise.resolve(-2);
      return Promise.resolve(e.expiresAt === null ? -1 : e.expiresAt - now());
    },
    ping() {
      return Promise.resolve();
    },
  };
  return kv;
}
