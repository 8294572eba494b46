/** Redis over Upstash's REST protocol (production). */
import { Redis } from "@upstash/redis/cloudflare";
import {
  countersOverBatch,
  type Kv,
  kvCall,
  type KvResult,
  type KvScript,
  scriptReply,
  type SetOptions,
} from "./port.ts";

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
  const scripts = new WeakMap<KvScript, ReturnType<typeof redis.createScript>>();
  const asText = (v: unknown) => (v === null || v === undefined ? null : String(v));
  const setOptions = (options: SetOptions) => {
    const opts: Record<string, unknown> = {};
    if (options.ttlMs !== undefined) opts.px = Math.max(1, Math.ceil(options.ttlMs));
    if (options.nx) opts.nx = true;
    // deno-lint-ignore no-explicit-any
    return opts as any;
  };
  const setDone = (r: unknown) => r === "OK" || r === "ok";
  const kv: Kv = {
    kind: "upstash",
    get(key) {
      return kvCall(async () => asText(await redis.get(key)));
    },
    set(key: string, value: string, options: SetOptions = {}) {
      return kvCall(async () => setDone(await redis.set(key, value, setOptions(options))));
    },
    getdel(key) {
      return kvCall(async () => asText(await redis.getdel(key)));
    },
    ...countersOverBatch((commands) => kv.batch(commands)),
    batch(commands) {
      if (commands.length === 0) return Promise.resolve([]);
      return kvCall(async () => {
        const tx = redis.multi();
        // Each command's answer, read from the transaction's replies by position.
        const answers: ((replies: unknown[]) => KvResult)[] = [];
        let queued = 0;
        const answer = (read: (reply: unknown) => KvResult) => {
          const at = queued++;
          answers.push((replies) => read(replies[at]));
        };
        for (const c of commands) {
          switch (c.op) {
            case "get":
              tx.get(c.key);
              answer(asText);
              break;
            case "getdel":
              tx.getdel(c.key);
              answer(asText);
              break;
            case "set":
              tx.set(c.key, c.value, setOptions(c));
              answer(setDone);
              break;
            case "incr":
              tx.incrby(c.key, c.by ?? 1);
              answer(Number);
              if (c.ttlMs !== undefined) {
                // Expiry only where the key has none yet: a window starts at its first hit.
                tx.pexpire(c.key, Math.max(1, Math.ceil(c.ttlMs)), "NX");
                queued++;
              }
              break;
            case "del":
              if (c.keys.length === 0) answers.push(() => 0);
              else {
                tx.del(...c.keys);
                answer(Number);
              }
              break;
          }
        }
        const replies = await tx.exec<unknown[]>();
        return answers.map((read) => read(replies));
      });
    },
    script(script, keys, args) {
      return kvCall(async () => {
        let loaded = scripts.get(script);
        if (!loaded) scripts.set(script, loaded = redis.createScript(script.lua));
        // EVALSHA, and EVAL when Redis answers NOSCRIPT.
        return scriptReply(await loaded.exec(keys, args.map(String)));
      });
    },
    del(...keys) {
      if (keys.length === 0) return Promise.resolve(0);
      return kvCall(async () => Number(await redis.del(...keys)));
    },
    pttl(key) {
      return kvCall(async () => Number(await redis.pttl(key)));
    },
    ping() {
      return kvCall(async () => {
        await redis.ping();
      });
    },
    close() {
      return Promise.resolve();
    },
  };
  return kv;
}
