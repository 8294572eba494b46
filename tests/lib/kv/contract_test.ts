/**
 * The KV port contract, run identically on every adapter available in this tier: the in-memory
 * adapter always, the Upstash adapter when UPSTASH_* point at a server (the bridged real tier),
 * and Redis over TCP when REDIS_URL is set (the TCP real tier).
 */
import assert from "node:assert/strict";
import type { Kv, KvScript } from "../../../lib/kv/port.ts";
import { openMemoryKv } from "../../../lib/kv/memory.ts";
import { openUpstashKv } from "../../../lib/kv/upstash.ts";
import { openRedisKv } from "../../../lib/kv/tcp.ts";

const url = Deno.env.get("UPSTASH_REDIS_REST_URL");
const token = Deno.env.get("UPSTASH_REDIS_REST_TOKEN");
const redisUrl = Deno.env.get("REDIS_URL");
const adapters: [string, () => Kv, boolean][] = [
  ["memory", () => openMemoryKv(), false],
  ["upstash", () => openUpstashKv(url!, token!), !url || !token],
  ["redis", () => openRedisKv(redisUrl!), !redisUrl],
];

/**
 * Counts a hit (expiry at the first hit), swaps a value and answers both, plus the old value:
 * integers and strings in one list. Its source is new in every run, so Redis has not loaded it.
 */
const swapScript: KvScript = {
  name: "contract-swap",
  lua: `-- ${crypto.randomUUID()}
local n = redis.call('incr', KEYS[1])
redis.call('pexpire', KEYS[1], ARGV[1], 'NX')
local old = redis.call('get', KEYS[2])
redis.call('set', KEYS[2], ARGV[2], 'PX', ARGV[1])
return {n, old or '', ARGV[2]}
`,
  local(kv, [counter, value], [ttlMs, next]) {
    const n = kv.incr(counter, { ttlMs: Number(ttlMs) });
    const old = kv.get(value);
    kv.set(value, next, { ttlMs: Number(ttlMs) });
    return [n, old ?? "", next];
  },
};

/** Increments a key; fails on a value that is not an integer. */
const incrScript: KvScript = {
  name: "contract-incr",
  lua: "return {redis.call('incr', KEYS[1])}",
  local: (kv, [key]) => [kv.incr(key)],
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const [name, open, ignore] of adapters) {
  const prefix = `kvtest:${crypto.randomUUID()}:`;
  const k = (s: string) => prefix + s;

  Deno.test({
    name: `kv(${name}): values round-trip as exact strings`,
    ignore,
    fn: async () => {
      const kv = open();
      for (const v of ["012345", "1234", "true", "null", '{"a":1}', "한국어 ✓", "", "1e3"]) {
        assert.equal(await kv.set(k("s"), v), true);
        assert.equal(await kv.get(k("s")), v);
      }
      assert.equal(await kv.get(k("missing")), null);
    },
  });

  Deno.test({
    name: `kv(${name}): set NX refuses an existing key`,
    ignore,
    fn: async () => {
      const kv = open();
      assert.equal(await kv.set(k("nx"), "first", { nx: true }), true);
      assert.equal(await kv.set(k("nx"), "second", { nx: true }), false);
      assert.equal(await kv.get(k("nx")), "first");
    },
  });

  Deno.test({
    name: `kv(${name}): TTL expires keys`,
    ignore,
    fn: async () => {
      const kv = open();
      await kv.set(k("ttl"), "v", { ttlMs: 150 });
      const ttl = await kv.pttl(k("ttl"));
      assert.ok(ttl > 0 && ttl <= 150, `pttl ${ttl}`);
      assert.equal(await kv.pttl(k("none")), -2);
      await kv.set(k("forever"), "v");
      assert.equal(await kv.pttl(k("forever")), -1);
      await sleep(300);
      assert.equal(await kv.get(k("ttl")), null);
      assert.equal(await kv.set(k("ttl"), "again", { nx: true }), true);
    },
  });

  Deno.test({
    name: `kv(${name}): incr counts and keeps the first expiry`,
    ignore,
    fn: async () => {
      const kv = open();
      assert.equal(await kv.incr(k("c"), { ttlMs: 10_000 }), 1);
      assert.equal(await kv.incr(k("c"), { ttlMs: 60_000 }), 2);
      assert.equal(await kv.incr(k("c"), { by: 5 }), 7);
      const ttl = await kv.pttl(k("c"));
      assert.ok(ttl > 0 && ttl <= 10_000, `the window starts at the first hit (pttl ${ttl})`);
      assert.equal(await kv.get(k("c")), "7");
    },
  });

  Deno.test({
    name: `kv(${name}): concurrent incr loses no update`,
    ignore,
    fn: async () => {
      const kv = open();
      const results = await Promise.all(
        Array.from({ length: 25 }, () => kv.incr(k("race"), { ttlMs: 5000 })),
      );
      assert.deepEqual(
        [...results].sort((a, b) => a - b),
        Array.from({ length: 25 }, (_, i) => i + 1),
      );
    },
  });

  Deno.test({
    name: `kv(${name}): incrMany counts each key in one call`,
    ignore,
    fn: async () => {
      const kv = open();
      assert.deepEqual(await kv.incrMany([], { ttlMs: 1000 }), []);
      await kv.set(k("m-b"), "41");
      const values = await kv.incrMany([k("m-a"), k("m-b"), k("m-a")], { ttlMs: 10_000 });
      assert.deepEqual(values, [1, 42, 2]);
      const fresh = await kv.pttl(k("m-a"));
      assert.ok(fresh > 0 && fresh <= 10_000, `new counters get the expiry (pttl ${fresh})`);
      const adopted = await kv.pttl(k("m-b"));
      assert.ok(
        adopted > 0 && adopted <= 10_000,
        `a key without expiry gets one (pttl ${adopted})`,
      );
      await kv.incrMany([k("m-a")], { ttlMs: 60_000 });
      assert.ok(await kv.pttl(k("m-a")) <= 10_000, "an existing expiry is kept");
      assert.deepEqual(await kv.incrMany([k("m-a")]), [4]);
    },
  });

  Deno.test({
    name: `kv(${name}): getdel reads once; del counts`,
    ignore,
    fn: async () => {
      const kv = open();
      await kv.set(k("once"), "007");
      assert.equal(await kv.getdel(k("once")), "007");
      assert.equal(await kv.getdel(k("once")), null);
      await kv.set(k("a"), "1");
      await kv.set(k("b"), "2");
      assert.equal(await kv.del(k("a"), k("b"), k("zzz")), 2);
      assert.equal(await kv.get(k("a")), null);
      await kv.ping();
    },
  });

  Deno.test({
    name: `kv(${name}): batch runs every command in order and answers each as its method would`,
    ignore,
    fn: async () => {
      const kv = open();
      await kv.set(k("b-old"), "012", { ttlMs: 60_000 });
      const out = await kv.batch([
        { op: "get", key: k("b-old") },
        { op: "set", key: k("b-old"), value: "new", nx: true },
        { op: "set", key: k("b-new"), value: "007", nx: true, ttlMs: 60_000 },
        { op: "incr", key: k("b-n"), ttlMs: 60_000 },
        { op: "incr", key: k("b-n"), by: 4, ttlMs: 1 },
        { op: "get", key: k("b-missing") },
        { op: "getdel", key: k("b-new") },
        { op: "del", keys: [k("b-old"), k("b-missing")] },
        { op: "del", keys: [] },
      ]);
      assert.deepEqual(out, ["012", false, true, 1, 5, null, "007", 1, 0]);
      assert.equal(await kv.get(k("b-old")), null);
      assert.equal(await kv.get(k("b-new")), null);
      // The counter's expiry was set by its first increment only (60 s, not 1 ms).
      const ttl = await kv.pttl(k("b-n"));
      assert.ok(ttl > 1_000 && ttl <= 60_000, `pttl ${ttl}`);
      assert.deepEqual(await kv.batch([]), []);
    },
  });

  Deno.test({
    name: `kv(${name}): a batch is atomic with respect to other commands`,
    ignore,
    fn: async () => {
      const kv = open();
      // 20 concurrent batches each read-and-increment: every batch sees its own increment's
      // result right after its own read, never another batch's in between.
      const results = await Promise.all(
        Array.from(
          { length: 20 },
          () => kv.batch([{ op: "get", key: k("atom") }, { op: "incr", key: k("atom") }]),
        ),
      );
      for (const [read, after] of results) {
        assert.equal(Number(read ?? 0) + 1, after);
      }
      assert.deepEqual(results.map((r) => r[1]).sort((a, b) => Number(a) - Number(b)), [
        ...Array.from({ length: 20 }, (_, i) => i + 1),
      ]);
    },
  });

  Deno.test({
    name: `kv(${name}): a script runs atomically and answers integers and exact strings`,
    ignore,
    fn: async () => {
      const kv = open();
      // The first call loads the script (NOSCRIPT, then EVAL), the next ones run it by hash.
      assert.deepEqual(await kv.script(swapScript, [k("s-n"), k("s-v")], [60_000, "012345"]), [
        1,
        "",
        "012345",
      ]);
      assert.deepEqual(await kv.script(swapScript, [k("s-n"), k("s-v")], [5_000, "한국어 ✓"]), [
        2,
        "012345",
        "한국어 ✓",
      ]);
      assert.equal(await kv.get(k("s-v")), "한국어 ✓");
      const ttl = await kv.pttl(k("s-n"));
      assert.ok(ttl > 5_000 && ttl <= 60_000, `the first hit set the expiry (pttl ${ttl})`);
      // 20 at once: each sees the value the previous one wrote, with nothing in between.
      const replies = await Promise.all(
        Array.from(
          { length: 20 },
          (_, i) => kv.script(swapScript, [k("s-race"), k("s-rv")], [60_000, String(i)]),
        ),
      );
      const byCount = [...replies].sort((a, b) => Number(a[0]) - Number(b[0]));
      assert.deepEqual(byCount.map((r) => r[0]), Array.from({ length: 20 }, (_, i) => i + 1));
      for (let i = 1; i < 20; i++) assert.equal(byCount[i][1], byCount[i - 1][2]);
    },
  });

  Deno.test({
    name: `kv(${name}): a script that fails rejects`,
    ignore,
    fn: async () => {
      const kv = open();
      assert.deepEqual(await kv.script(incrScript, [k("si")], []), [1]);
      await kv.set(k("si-text"), "not a number");
      await assert.rejects(kv.script(incrScript, [k("si-text")], []));
      assert.equal(await kv.get(k("si-text")), "not a number");
    },
  });
}
