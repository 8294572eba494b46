/**
 * The Redis TCP adapter (the product's client, lib/kv/resp.ts) when the link fails: an address
 * nothing listens on fails as unavailable instead of waiting, and a connection cut under the
 * client is replaced (calls fail as unavailable meanwhile, never hang). The cut runs when
 * REDIS_URL names a real Redis.
 */
import assert from "node:assert/strict";
import { KvError } from "../../../lib/kv/port.ts";
import { openRedisKv } from "../../../lib/kv/tcp.ts";
import { startTcpProxy } from "../tcp_proxy.ts";

const redisUrl = Deno.env.get("REDIS_URL");

Deno.test("kv(redis): an address nothing listens on is unavailable", async () => {
  const kv = openRedisKv("redis://127.0.0.1:1", { timeoutMs: 500 });
  try {
    for (const call of [() => kv.get("k"), () => kv.batch([{ op: "incr", key: "k" }])]) {
      await assert.rejects(call(), (err) => err instanceof KvError && err.unavailable);
    }
  } finally {
    await kv.close();
  }
});

Deno.test("kv(redis): a refused command is not an outage", {
  ignore: !redisUrl,
}, async () => {
  const kv = openRedisKv(redisUrl!);
  const key = `kvtest:${crypto.randomUUID()}:n`;
  try {
    await kv.set(key, "not a number");
    await assert.rejects(
      kv.incr(key),
      (err) => err instanceof KvError && !err.unavailable && /not an integer/.test(err.message),
    );
  } finally {
    await kv.del(key);
    await kv.close();
  }
});

Deno.test("kv(redis): a cut connection is replaced; calls meanwhile fail as unavailable", {
  ignore: !redisUrl,
}, async () => {
  const target = new URL(redisUrl!);
  const proxy = startTcpProxy({ hostname: target.hostname, port: Number(target.port || 6379) });
  const url = new URL(redisUrl!);
  url.hostname = "127.0.0.1";
  url.port = String(proxy.port);
  const kv = openRedisKv(url.toString(), { timeoutMs: 1_000 });
  const key = `kvtest:${crypto.randomUUID()}:cut`;
  try {
    assert.equal(await kv.set(key, "012", { ttlMs: 60_000 }), true);
    assert.equal(proxy.opened(), 1);
    proxy.cutAll();
    let served = false;
    for (let round = 0; round < 40 && !served; round++) {
      const results = await Promise.allSettled(Array.from({ length: 10 }, () => kv.get(key)));
      for (const r of results) {
        if (r.status === "rejected") {
          assert.ok(r.reason instanceof KvError && r.reason.unavailable, String(r.reason));
        } else assert.equal(r.value, "012");
      }
      served = results.every((r) => r.status === "fulfilled");
      if (!served) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(served, "the adapter answers again");
    assert.equal(proxy.opened(), 2, "over a new connection");
  } finally {
    await kv.del(key).catch(() => {});
    await kv.close();
    await proxy.close();
  }
});
