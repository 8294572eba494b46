import assert from "node:assert/strict";
import { LruCache } from "../../../lib/cache/lru.ts";
import { generatePrivateJwk, loadSigningKey } from "../../../lib/auth/keys.ts";
import { issueTokenPair, verifyAppToken } from "../../../lib/auth/tokens.ts";

Deno.test("lru: bounded, least recently used dropped first, expired entries never returned", () => {
  const cache = new LruCache<string, number>(2);
  cache.set("a", 1, 1_000);
  cache.set("b", 2, 1_000);
  assert.equal(cache.get("a", 0), 1); // a is now the most recently used
  cache.set("c", 3, 1_000);
  assert.equal(cache.size, 2);
  assert.equal(cache.get("b", 0), undefined);
  assert.equal(cache.get("a", 0), 1);
  assert.equal(cache.get("c", 999), 3);
  assert.equal(cache.entry("c", 999)?.value, 3);
  assert.equal(cache.entry("c", 999)?.expiresAt, 1_000, "an entry tells its expiry");
  assert.equal(cache.entry("c", 1_000), undefined);
  assert.equal(cache.get("c", 1_000), undefined);
  cache.deleteWhere((v) => v === 1);
  assert.equal(cache.get("a", 0), undefined);
});

Deno.test("token cache: a cached access token still expires, and is never taken for another use", async () => {
  const key = await loadSigningKey(await generatePrivateJwk());
  const now = Date.now();
  const pair = await issueTokenPair(key, { appid: "app", gameIndex: 1, clientId: "cli" }, now);
  assert.equal((await verifyAppToken(key, pair.accessToken, "access", now)).appid, "app");
  assert.equal((await verifyAppToken(key, pair.accessToken, "access", now + 1)).appid, "app");
  await assert.rejects(
    verifyAppToken(key, pair.accessToken, "refresh", now),
    (e: { code?: string }) => e.code === "TOKEN_INVALID",
  );
  await assert.rejects(
    verifyAppToken(key, pair.accessToken, "access", now + 24 * 3600_000 + 1_000),
    (e: { code?: string }) => e.code === "TOKEN_EXPIRED",
  );
});

Deno.test("lru: an entry used within the newest half is kept; one used earlier is moved up", () => {
  const cache = new LruCache<number, number>(10);
  for (let i = 0; i < 10; i++) cache.set(i, i, 1_000);
  // Entry 0 is the oldest: using it moves it to the newest end, so the next insert drops 1.
  assert.equal(cache.get(0, 0), 0);
  cache.set(10, 10, 1_000);
  assert.equal(cache.get(1, 0), undefined);
  assert.equal(cache.get(0, 0), 0);
  // Using entries over and over never lets them be dropped while others are inserted.
  for (let i = 11; i < 40; i++) {
    assert.equal(cache.get(0, 0), 0);
    cache.set(i, i, 1_000);
  }
  assert.equal(cache.size, 10);
  assert.equal(cache.get(0, 0), 0);
  // The others are the nine newest.
  assert.equal(cache.get(30, 0), undefined);
  for (let i = 31; i < 40; i++) assert.equal(cache.get(i, 0), i);
});

Deno.test("lru: weighted entries are bounded by their total weight; a value heavier than the bound is not kept", () => {
  const cache = new LruCache<string, string>(10, 100);
  cache.set("a", "x", 1_000, 40);
  cache.set("b", "y", 1_000, 40);
  assert.equal(cache.weight, 80);
  cache.set("c", "z", 1_000, 30); // 110 > 100: the oldest (a) goes
  assert.equal(cache.get("a", 0), undefined);
  assert.deepEqual([cache.get("b", 0), cache.get("c", 0), cache.weight], ["y", "z", 70]);
  cache.set("b", "y2", 1_000, 10); // replacing an entry replaces its weight
  assert.equal(cache.weight, 40);
  cache.set("c", "huge", 1_000, 101); // too heavy: not stored, and the old value is gone
  assert.equal(cache.get("c", 0), undefined);
  assert.equal(cache.weight, 10);
  assert.equal(cache.get("b", 1_000), undefined); // expired entries give their weight back
  assert.equal(cache.weight, 0);
  cache.set("d", "w", 1_000, 5);
  cache.delete("d");
  assert.deepEqual([cache.size, cache.weight], [0, 0]);
});

Deno.test("lru: in a weight-bounded cache a used entry is kept over older ones; a weight that is not a number is refused", () => {
  const cache = new LruCache<string, number>(2_000, 100);
  cache.set("hot", 0, 1_000, 10);
  for (let i = 0; i < 50; i++) {
    cache.set(`cold${i}`, i, 1_000, 10);
    assert.equal(cache.get("hot", 0), 0, `hot entry kept after ${i + 1} inserts`);
  }
  assert.ok(cache.weight <= 100);
  assert.throws(() => cache.set("x", 1, 1_000, NaN), RangeError);
  assert.throws(() => cache.set("x", 1, 1_000, -1), RangeError);
});
