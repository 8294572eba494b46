/**
 * Redis over TCP for REDIS_URL (redis://, rediss://) on the Deno server, through the product's
 * own RESP client (./resp.ts). Commands issued in the same turn of the event loop share one
 * write (pipelining). Upstash's REST adapter stays the choice on edge runtimes, which have no
 * long-lived sockets.
 */
import { RespClient, RespError } from "./resp.ts";
import {
  countersOverBatch,
  type Kv,
  kvCall,
  type KvCommand,
  type KvResult,
  type KvScript,
  scriptReply,
  type SetOptions,
} from "./port.ts";

/** Options for the TCP Redis adapter. */
export interface RedisTcpOptions {
  /** A command with no answer after this long fails as unavailable (default 3000 ms). */
  timeoutMs?: number;
}

type Call = [string, ...(string | number)[]];

const asText = (v: unknown) => (v === null || v === undefined ? null : String(v));
const px = (ms: number) => Math.max(1, Math.ceil(ms));

function setCall(key: string, value: string, options: SetOptions): Call {
  const call: Call = ["set", key, value];
  if (options.ttlMs !== undefined) call.push("PX", px(options.ttlMs));
  if (options.nx) call.push("NX");
  return call;
}

/**
 * The commands of a batch as Redis calls, and how to read each command's answer from the
 * replies (an `incr` with a window is INCRBY then PEXPIRE NX, so replies and commands differ).
 */
function plan(commands: KvCommand[]): { calls: Call[]; read(replies: unknown[]): KvResult[] } {
  const calls: Call[] = [];
  const readers: ((replies: unknown[]) => KvResult)[] = [];
  const answer = (call: Call, read: (reply: unknown) => KvResult) => {
    const at = calls.push(call) - 1;
    readers.push((replies) => read(replies[at]));
  };
  for (const c of commands) {
    switch (c.op) {
      case "get":
        answer(["get", c.key], asText);
        break;
      case "getdel":
        answer(["getdel", c.key], asText);
        break;
      case "set":
        answer(setCall(c.key, c.value, c), (r) => r === "OK");
        break;
      case "incr":
        answer(["incrby", c.key, c.by ?? 1], Number);
        // Expiry only where the key has none yet: a window starts at its first hit.
        if (c.ttlMs !== undefined) calls.push(["pexpire", c.key, px(c.ttlMs), "NX"]);
        break;
      case "del":
        if (c.keys.length === 0) readers.push(() => 0);
        else answer(["del", ...c.keys], Number);
        break;
    }
  }
  return { calls, read: (replies) => readers.map((read) => read(replies)) };
}

const shas = new WeakMap<KvScript, Promise<string>>();

/** The SHA-1 Redis knows a script by, computed once per script. */
function scriptSha(script: KvScript): Promise<string> {
  let sha = shas.get(script);
  if (!sha) {
    sha = crypto.subtle.digest("SHA-1", new TextEncoder().encode(script.lua)).then((d) =>
      Array.from(new Uint8Array(d), (b) => b.toString(16).padStart(2, "0")).join("")
    );
    shas.set(script, sha);
  }
  return sha;
}

/**
 * Opens the adapter. A lost connection is re-established in the background; meanwhile a command
 * is tried once more after reconnecting and then fails as KvError (unavailable), as does one
 * with no answer within `timeoutMs`, instead of waiting for Redis to come back.
 */
export function openRedisKv(url: string, options: RedisTcpOptions = {}): Kv {
  const redis = new RespClient(url, { timeoutMs: options.timeoutMs ?? 3_000 });
  const call = (c: Call) => redis.call(c);
  const kv: Kv = {
    kind: "redis",
    get(key) {
      return kvCall(async () => asText(await redis.call(["GET", key])));
    },
    set(key, value, options = {}) {
      return kvCall(async () => (await call(setCall(key, value, options))) === "OK");
    },
    getdel(key) {
      return kvCall(async () => asText(await redis.call(["GETDEL", key])));
    },
    ...countersOverBatch((commands) => kv.batch(commands)),
    batch(commands) {
      if (commands.length === 0) return Promise.resolve([]);
      const { calls, read } = plan(commands);
      return kvCall(async () => {
        const results = await redis.exec(calls);
        // exec answers null when the transaction was discarded (a watched key changed).
        if (!results) throw new Error("EXECABORT transaction discarded");
        // A command that failed inside the transaction fails the batch with Redis's error.
        const failed = results.find((reply) => reply instanceof RespError);
        if (failed) throw failed;
        return read(results);
      });
    },
    script(script, keys, args) {
      return kvCall(async () => {
        const sha = await scriptSha(script);
        const reply = await redis.call(["EVALSHA", sha, keys.length, ...keys, ...args]).catch(
          (err) => {
            // Not loaded yet (first use, or Redis restarted): EVAL sends and loads it.
            if (!(err instanceof RespError) || !err.message.startsWith("NOSCRIPT")) throw err;
            return redis.call(["EVAL", script.lua, keys.length, ...keys, ...args]);
          },
        );
        return scriptReply(reply);
      });
    },
    del(...keys) {
      if (keys.length === 0) return Promise.resolve(0);
      return kvCall(async () => Number(await redis.call(["DEL", ...keys])));
    },
    pttl(key) {
      return kvCall(async () => Number(await redis.call(["PTTL", key])));
    },
    ping() {
      return kvCall(async () => {
        await redis.call(["PING"]);
      });
    },
    close() {
      // QUIT lets answers still on the way arrive; a client that is not connected just stops.
      return redis.close();
    },
  };
  return kv;
}
