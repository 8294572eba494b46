/**
 * The item-state cache behind GET /items/v1/requests/{id}: reused within its bound, a DELIVERED
 * state for a minute, this instance's own changes seen at once, unknown requests never
 * remembered, concurrent reads sharing one query.
 */
import assert from "node:assert/strict";
import { seedTenant, testEnv } from "../../harness.ts";
import type { Sql } from "../../../lib/db/port.ts";
import { registerSampleItem } from "../../seed_rows.ts";
import {
  cachedItemRequest,
  DELIVERED_STATE_CACHE_MS,
  forgetItemStates,
  loadItemRequest,
  readItemRequest,
} from "../../../lib/items/state_cache.ts";
import { retryItemRequest } from "../../../lib/items/retry.ts";

/** A database handle of its own (so a cache of its own) that counts the item reads. */
async function countingDb() {
  const { services } = await testEnv();
  // `fail`: while it is set, the state reads fail after 5 ms (as on a lost connection).
  const counted = { reads: 0, fail: false };
  const db: Sql = {
    ...services.db,
    async query(text, params) {
      if (/from item_requests\s+where game_index = \$1 and transaction_id = \$2/.test(text)) {
        counted.reads++;
        if (counted.fail) {
          await new Promise((r) => setTimeout(r, 5));
          throw new Error("connection lost");
        }
      }
      return await services.db.query(text, params);
    },
  };
  return { db, counted };
}

/** Registers one request of the game (with the given transactionId, or a generated one). */
async function register(db: Sql, gameIndex: number, transactionId?: string) {
  const { services } = await testEnv();
  return await registerSampleItem(db, { gameIndex, transactionId, nowMs: services.clock.now() });
}

async function registered(db: Sql, name: string) {
  const tenant = await seedTenant(name);
  return await register(db, tenant.gameIndex);
}

/** Changes a row behind the cache's back, as another instance would. */
async function setStatus(
  db: Sql,
  key: { gameIndex: number; transactionId: string },
  status: string,
) {
  await db.query(
    `update item_requests set status = $3,
       delivered_at = case when $3 = 'DELIVERED' then now() else delivered_at end
      where game_index = $1 and transaction_id = $2`,
    [key.gameIndex, key.transactionId, status],
  );
}

Deno.test("item state: reused within the bound, read again after it", async () => {
  const { db, counted } = await countingDb();
  const key = await registered(db, "state cache bound");
  const t = 1_000_000;
  assert.equal((await readItemRequest(db, key, { ttlMs: 1_000, nowMs: t })).status, "REGISTERED");
  await setStatus(db, key, "RETRYING");
  // (t + 749: short of the last quarter of the bound, where a hit is also read again.)
  const again = await readItemRequest(db, key, { ttlMs: 1_000, nowMs: t + 749 });
  assert.equal(again.status, "REGISTERED", "served from the cache within the bound");
  assert.equal(counted.reads, 1);
  const later = await readItemRequest(db, key, { ttlMs: 1_000, nowMs: t + 1_000 });
  assert.equal(later.status, "RETRYING", "read again once the bound has passed");
  assert.equal(counted.reads, 2);
  // ttlMs 0 turns the cache off.
  await setStatus(db, key, "FAILED");
  assert.equal((await readItemRequest(db, key, { ttlMs: 0 })).status, "FAILED");
  assert.equal(counted.reads, 3);
});

Deno.test("item state: a DELIVERED state is kept for a minute", async () => {
  const { db, counted } = await countingDb();
  const key = await registered(db, "state cache delivered");
  await setStatus(db, key, "DELIVERED");
  const t = 2_000_000;
  const first = await readItemRequest(db, key, { ttlMs: 1_000, nowMs: t });
  assert.equal(first.status, "DELIVERED");
  assert.ok(first.deliveredAt);
  await readItemRequest(db, key, { ttlMs: 1_000, nowMs: t + DELIVERED_STATE_CACHE_MS - 251 });
  assert.equal(counted.reads, 1);
  await readItemRequest(db, key, { ttlMs: 1_000, nowMs: t + DELIVERED_STATE_CACHE_MS });
  assert.equal(counted.reads, 2);
});

Deno.test("item state: this instance's own change is seen at once", async () => {
  const { db } = await countingDb();
  const key = await registered(db, "state cache retry");
  await setStatus(db, key, "FAILED");
  const t = Date.now();
  assert.equal((await readItemRequest(db, key, { ttlMs: 60_000, nowMs: t })).status, "FAILED");
  const { services } = await testEnv();
  await retryItemRequest(db, { ...key, nowMs: services.clock.now() });
  assert.equal((await readItemRequest(db, key, { ttlMs: 60_000, nowMs: t })).status, "RETRYING");
  // forgetItemStates is what the dispatcher calls for the rows a claim or an outcome changed.
  await setStatus(db, key, "DELIVERED");
  forgetItemStates(db, [key]);
  assert.equal((await readItemRequest(db, key, { ttlMs: 60_000, nowMs: t })).status, "DELIVERED");
});

Deno.test("item state: an unknown request is not remembered; concurrent reads share one query", async () => {
  const { db, counted } = await countingDb();
  const { gameIndex } = await registered(db, "state cache unknown");
  const missing = { gameIndex, transactionId: `later-${crypto.randomUUID()}` };
  await assert.rejects(
    readItemRequest(db, missing, { ttlMs: 60_000 }),
    (e: { code?: string }) => e.code === "TRANSACTION_NOT_FOUND",
  );
  await register(db, gameIndex, missing.transactionId);
  assert.equal((await readItemRequest(db, missing, { ttlMs: 60_000 })).status, "REGISTERED");

  const key = await registered(db, "state cache concurrent");
  const before = counted.reads;
  const views = await Promise.all(
    Array.from({ length: 20 }, () => readItemRequest(db, key, { ttlMs: 60_000 })),
  );
  assert.ok(views.every((v) => v.status === "REGISTERED"));
  assert.equal(counted.reads - before, 1);
});

Deno.test("item state: a read in flight while this instance changes the row is not kept", async () => {
  const { services } = await testEnv();
  let release!: () => void;
  const gate = new Promise<void>((r) => release = r);
  let reached!: () => void;
  const atGate = new Promise<void>((r) => reached = r);
  let hold = false;
  const db: Sql = {
    ...services.db,
    async query(text, params) {
      const rows = await services.db.query(text, params);
      if (hold && /from item_requests\s+where game_index/.test(text)) {
        reached();
        await gate;
      }
      return rows as never;
    },
  };
  const key = await registered(db, "state cache in flight");
  hold = true;
  const stale = readItemRequest(db, key, { ttlMs: 60_000 });
  await atGate;
  hold = false;
  await setStatus(db, key, "DELIVERED");
  forgetItemStates(db, [key]);
  release();
  assert.equal((await stale).status, "REGISTERED", "the old read answers its own caller");
  assert.equal((await readItemRequest(db, key, { ttlMs: 60_000 })).status, "DELIVERED");
});

Deno.test("item state: a failed read is neither kept nor shared once it has failed", async () => {
  const { db, counted } = await countingDb();
  const key = await registered(db, "state cache failed read");
  counted.fail = true;
  // Two reads during the failing one share it, and both see its failure.
  const both = [
    readItemRequest(db, key, { ttlMs: 60_000 }),
    readItemRequest(db, key, { ttlMs: 60_000 }),
  ];
  for (const read of both) await assert.rejects(read, /connection lost/);
  assert.equal(counted.reads, 1);
  counted.fail = false;
  assert.equal((await readItemRequest(db, key, { ttlMs: 60_000 })).status, "REGISTERED");
  assert.equal(counted.reads, 2, "the failed read was not kept: the next one asks again");
  await readItemRequest(db, key, { ttlMs: 60_000 });
  assert.equal(counted.reads, 2);
});

Deno.test("item state: loadItemRequest reads without looking in the cache and keeps the state from nowMs", async () => {
  const { db, counted } = await countingDb();
  const key = await registered(db, "state cache load");
  const t = 3_000_000;
  const [a, b] = [
    loadItemRequest(db, key, { ttlMs: 1_000, nowMs: t }),
    loadItemRequest(db, key, { ttlMs: 1_000, nowMs: t }),
  ];
  assert.equal(a, b, "concurrent loads of one request are one read");
  const view = await a;
  assert.equal(counted.reads, 1);
  assert.equal(cachedItemRequest(db, key, t + 999), view);
  assert.equal(cachedItemRequest(db, key, t + 1_000), undefined);
  // A load is a read of the database whatever the cache holds (the caller has looked already).
  await readItemRequest(db, key, { ttlMs: 1_000, nowMs: t + 1_000 });
  assert.equal(counted.reads, 2);
  await loadItemRequest(db, key, { ttlMs: 1_000, nowMs: t + 1_000 });
  assert.equal(counted.reads, 3);
  // readItemRequest answers a cached state without a read, as a promise like any other.
  assert.equal(
    await readItemRequest(db, key, { ttlMs: 1_000, nowMs: t + 1_500 }),
    cachedItemRequest(db, key, t + 1_500),
  );
  assert.equal(counted.reads, 3);
});

/** Waits (up to 5 s) until `done` holds: a background read has settled. */
async function until(done: () => boolean) {
  for (let i = 0; i < 1_000 && !done(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(done(), "the background read did not settle within 5 s");
}

Deno.test("item state: a hit in the last quarter of its bound is read again in the background, once", async () => {
  const { db, counted } = await countingDb();
  const key = await registered(db, "state cache refresh ahead");
  const t = 4_000_000;
  await readItemRequest(db, key, { ttlMs: 1_000, nowMs: t });
  await setStatus(db, key, "RETRYING");
  // Within the bound the cached state answers at once; the reads near its end start one read,
  // handed to the caller's background (Services.defer).
  const deferred: Promise<unknown>[] = [];
  const background = { defer: (work: Promise<unknown>) => void deferred.push(work) };
  assert.equal(cachedItemRequest(db, key, t + 800, 1_000, background)?.status, "REGISTERED");
  assert.equal(cachedItemRequest(db, key, t + 801, 1_000, background)?.status, "REGISTERED");
  assert.equal(counted.reads, 2, "one background read, shared by the hits while it runs");
  assert.equal(deferred.length, 1, "handed to the background once");
  assert.equal(((await deferred[0]) as { status: string }).status, "RETRYING");
  await until(() => cachedItemRequest(db, key, t + 900)?.status === "RETRYING");
  // The new state counts from when its read began (t + 800): a read past the old bound is a hit
  // that did not wait, and the new bound holds.
  assert.equal(
    (await readItemRequest(db, key, { ttlMs: 1_000, nowMs: t + 1_500 })).status,
    "RETRYING",
  );
  assert.equal(counted.reads, 2);
  assert.equal(cachedItemRequest(db, key, t + 1_800), undefined, "kept for the bound from t + 800");
  // Without a bound to renew (cachedItemRequest alone), a hit never reads.
  await readItemRequest(db, key, { ttlMs: 1_000, nowMs: t + 2_000 });
  const reads = counted.reads;
  cachedItemRequest(db, key, t + 2_900);
  assert.equal(counted.reads, reads);
});

Deno.test("item state: a failed background read is not kept and the cached state keeps its bound", async () => {
  const { db, counted } = await countingDb();
  const key = await registered(db, "state cache refresh fails");
  const t = 5_000_000;
  const first = await readItemRequest(db, key, { ttlMs: 1_000, nowMs: t });
  counted.fail = true;
  const deferred: Promise<unknown>[] = [];
  const background = { defer: (work: Promise<unknown>) => void deferred.push(work) };
  assert.equal(cachedItemRequest(db, key, t + 900, 1_000, background), first, "from the cache");
  assert.equal(counted.reads, 2);
  await assert.rejects(deferred[0], /connection lost/, "the background sees the failure");
  // Without a background the failure is swallowed (no unhandled rejection fails this test); it
  // is not kept: the next hit near the bound tries again.
  await until(() => {
    cachedItemRequest(db, key, t + 950, 1_000);
    return counted.reads >= 3;
  });
  // Settles whatever read is still in flight (joining it, or failing once more).
  await loadItemRequest(db, key, { ttlMs: 1_000, nowMs: t + 950 }).catch(() => {});
  assert.equal(cachedItemRequest(db, key, t + 999), first);
  assert.equal(cachedItemRequest(db, key, t + 1_000), undefined, "not kept past its bound");
  counted.fail = false;
  await assert.doesNotReject(readItemRequest(db, key, { ttlMs: 1_000, nowMs: t + 1_000 }));
});
