/**
 * Counting a 100-text batch for the repeat-text rule through the Upstash driver against the
 * machine's Redis (via the local Upstash bridge): one incrMany call vs one incr per text.
 * Skipped when no Redis listens on 127.0.0.1:6379.
 *
 *   deno bench -A bench/kv_bench.ts
 */
import { startUpstashBridge } from "../dev/upstash_bridge.ts";
import { openUpstashKv } from "../lib/kv/upstash.ts";

async function redisUp(): Promise<boolean> {
  try {
    (await Deno.connect({ hostname: "127.0.0.1", port: 6379 })).close();
    return true;
  } catch {
    return false;
  }
}

const up = await redisUp();
const token = crypto.randomUUID();
const bridge = up ? await startUpstashBridge({ token }) : null;
const kv = bridge ? openUpstashKv(bridge.url, token) : null;
const keys = Array.from({ length: 100 }, (_, i) => `bench:kv:${token}:${i}`);

Deno.bench({
  name: "repeat rule, 100 texts: one incrMany (one MULTI/EXEC)",
  group: "kv-batch",
  baseline: true,
  ignore: !kv,
  fn: async () => {
    await kv!.incrMany(keys, { ttlMs: 30_000 });
  },
});

Deno.bench({
  name: "repeat rule, 100 texts: one incr per text, concurrently",
  group: "kv-batch",
  ignore: !kv,
  fn: async () => {
    await Promise.all(keys.map((k) => kv!.incr(k, { ttlMs: 30_000 })));
  },
});

globalThis.addEventListener("unload", () => {
  kv?.del(...keys);
  bridge?.close();
});
