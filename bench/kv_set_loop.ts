/**
 * Bare SETs with TTL through the TCP Redis adapter (lib/kv/tcp.ts) at a concurrency, in one
 * process: throughput and p50/p99, and, run with `--v8-flags=--trace-gc`, the young-generation
 * pauses (scavenges) the run caused, read from V8's trace by bench/kv_gc.ts. `--tree DIR` loads
 * the adapter from another checkout (a `git archive` of main, to measure it beside this one).
 *
 *   deno run -A bench/kv_set_loop.ts [--n 60000] [--concurrency 20] [--tree DIR]
 */
import { cliFlag } from "../dev/cli_flag.ts";
import type { Kv } from "../lib/kv/port.ts";

const N = Number(cliFlag("n") ?? 60_000);
const CONCURRENCY = Number(cliFlag("concurrency") ?? 20);
const TREE = cliFlag("tree");
const REDIS_URL = Deno.env.get("REDIS_URL") ?? "redis://127.0.0.1:6379";

const module = TREE
  ? `file://${TREE.replace(/\/$/, "")}/lib/kv/tcp.ts`
  : new URL("../lib/kv/tcp.ts", import.meta.url).href;
const { openRedisKv } = await import(module) as { openRedisKv: (url: string) => Kv };
const kv = openRedisKv(REDIS_URL);
const prefix = `setloop:${crypto.randomUUID().slice(0, 8)}`;

async function loop(count: number): Promise<number[]> {
  const times: number[] = [];
  let seq = 0;
  const worker = async () => {
    while (seq < count) {
      const i = seq++;
      const t = performance.now();
      await kv.set(`${prefix}:${i}`, "x", { ttlMs: 30_000 });
      times.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return times;
}

await loop(2_000); // warm-up
const t0 = performance.now();
const times = await loop(N);
const seconds = (performance.now() - t0) / 1000;
times.sort((a, b) => a - b);
const pct = (p: number) => times[Math.min(times.length - 1, Math.floor(times.length * p))];
// On stderr: under --trace-gc, V8's lines share stdout.
console.error(JSON.stringify({
  n: N,
  concurrency: CONCURRENCY,
  perSecond: Math.round(N / seconds),
  p50: +pct(0.5).toFixed(3),
  p99: +pct(0.99).toFixed(3),
  max: +times[times.length - 1].toFixed(3),
}));
await kv.close();
