/** In-process KV with Redis semantics and an injectable clock: the embedded default. */
import type { Kv, KvCommand, KvResult, SetOptions } from "./port.ts";

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
  // Synchronous steps, so that a batch runs with nothing in between (as MULTI/EXEC does).
  function set(key: string, value: string, options: SetOptions = {}): boolean {
    sweep();
    if (options.nx && live(key)) return false;
    map.set(key, { value, expiresAt: options.ttlMs !== undefined ? now() + options.ttlMs : null });
    return true;
  }
  function getdel(key: string): string | null {
    const e = live(key);
    map.delete(key);
    return e?.value ?? null;
  }
  function incr(key: string, options: { by?: number; ttlMs?: number } = {}): number {
    sweep();
    const e = live(key);
    const current = e ? Number(e.value) : 0;
    if (!Number.isInteger(current)) throw new Error("ERR value is not an integer or out of range");
    const next = current + (options.by ?? 1);
    const expiresAt = e?.expiresAt ?? (options.ttlMs !== undefined ? now() + options.ttlMs : null);
    map.set(key, { value: String(next), expiresAt });
    return next;
  }
  function del(keys: string[]): number {
    let n = 0;
    for (const k of keys) if (live(k) && map.delete(k)) n++;
    return n;
  }
  function run(c: KvCommand): KvResult {
    switch (c.op) {
      case "get":
        return live(c.key)?.value ?? null;
      case "getdel":
        return getdel(c.key);
      case "set":
        return set(c.key, c.value, c);
      case "incr":
        return incr(c.key, c);
      case "del":
        return del(c.keys);
    }
  }
  const settle = <T>(step: () => T): Promise<T> => {
    try {
      return Promise.resolve(step());
    } catch (err) {
      return Promise.reject(err);
    }
  };
  const kv: Kv = {
    kind: "memory",
    get(key) {
      return Promise.resolve(live(key)?.value ?? null);
    },
    set(key: string, value: string, options: SetOptions = {}) {
      return settle(() => set(key, value, options));
    },
    getdel(key) {
      return settle(() => getdel(key));
    },
    incr(key, options = {}) {
      return settle(() => incr(key, options));
    },
    incrMany(keys, options = {}) {
      return settle(() => keys.map((key) => incr(key, { ttlMs: options.ttlMs })));
    },
    batch(commands) {
      // Like EXEC: a command that fails answers with its error, the others still run; the batch
      // rejects with the first error after all ran.
      let failure: unknown;
      const out = commands.map((c) => {
        try {
          return run(c);
        } catch (err) {
          failure ??= err;
          return null;
        }
      });
      return failure === undefined ? Promise.resolve(out) : Promise.reject(failure);
    },
    script(script, keys, args) {
      return settle(() =>
        script.local(
          { get: (key) => live(key)?.value ?? null, set, incr, del },
          keys,
          args.map(String),
        )
      );
    },
    del(...keys) {
      return settle(() => del(keys));
    },
    pttl(key) {
      const e = live(key);
      if (!e) return Promise.resolve(-2);
      return Promise.resolve(e.expiresAt === null ? -1 : e.expiresAt - now());
    },
    ping() {
      return Promise.resolve();
    },
    close() {
      return Promise.resolve();
    },
  };
  return kv;
}
