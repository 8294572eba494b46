/**
 * The page cache behind GET /service/v1/tx: reused within its bound, this instance's own writes
 * seen at once (per app, or every app when the writer does not know it), a page read while a write
 * happened not kept, concurrent reads of one page sharing one query; and through the route, a
 * request recorded by this instance listed at once while a row written behind its back waits for
 * the bound.
 */
import assert from "node:assert/strict";
import { appWith, seedTenant, testEnv } from "../../harness.ts";
import type { Sql } from "../../../lib/db/port.ts";
import { cachedTxList, readTxList, txRecordsChanged } from "../../../lib/chain/tx_list_cache.ts";
import { insertRecord } from "../../../lib/chain/tx_insert.ts";

/** A database handle of its own, so a cache and write counters of its own. */
async function ownDb(): Promise<Sql> {
  const { services } = await testEnv();
  return { ...services.db };
}

/** A page loader that counts its calls and answers with the current `version`. */
function counter() {
  const state = { loads: 0, version: "v1" };
  const load = () => {
    state.loads++;
    return Promise.resolve(state.version);
  };
  return { state, load };
}

/** A page loader whose answer waits for `release()`; `calls` counts the reads it started. */
function gatedLoad(answer: string) {
  const gate = { calls: 0, release: () => {} };
  const load = () => {
    gate.calls++;
    return new Promise<string>((resolve) => gate.release = () => resolve(answer));
  };
  return { gate, load };
}

Deno.test("tx list cache: reused within the bound, read again after it, off at 0", async () => {
  const db = await ownDb();
  const { state, load } = counter();
  const t = 1_000_000;
  assert.equal(await readTxList(db, "app", "p1", load, { ttlMs: 1_000, nowMs: t }), "v1");
  state.version = "v2";
  assert.equal(await readTxList(db, "app", "p1", load, { ttlMs: 1_000, nowMs: t + 999 }), "v1");
  assert.equal(state.loads, 1);
  // Another page of the same app is its own entry.
  assert.equal(await readTxList(db, "app", "p2", load, { ttlMs: 1_000, nowMs: t + 999 }), "v2");
  assert.equal(await readTxList(db, "app", "p1", load, { ttlMs: 1_000, nowMs: t + 1_000 }), "v2");
  assert.equal(state.loads, 3);
  state.version = "v3";
  assert.equal(await readTxList(db, "app", "p1", load, { ttlMs: 0 }), "v3");
  assert.equal(await readTxList(db, "app", "p1", load, { ttlMs: 0 }), "v3");
  assert.equal(state.loads, 5);
});

Deno.test("tx list cache: a write of this instance makes the app's pages stale at once", async () => {
  const db = await ownDb();
  const a = counter();
  const b = counter();
  const t = 2_000_000;
  const opts = { ttlMs: 60_000, nowMs: t };
  await readTxList(db, "a", "p", a.load, opts);
  await readTxList(db, "b", "p", b.load, opts);
  a.state.version = b.state.version = "v2";
  txRecordsChanged(db, "a");
  assert.equal(await readTxList(db, "a", "p", a.load, opts), "v2", "app a read again");
  assert.equal(await readTxList(db, "b", "p", b.load, opts), "v1", "app b untouched");
  // A write whose app is not known makes every app's pages stale.
  a.state.version = b.state.version = "v3";
  txRecordsChanged(db);
  assert.equal(await readTxList(db, "a", "p", a.load, opts), "v3");
  assert.equal(await readTxList(db, "b", "p", b.load, opts), "v3");
  assert.deepEqual([a.state.loads, b.state.loads], [3, 2]);
  // Another handle (another instance's cache) is not affected by this one's writes.
  const other = await ownDb();
  await readTxList(other, "a", "p", a.load, opts);
  txRecordsChanged(db, "a");
  await readTxList(other, "a", "p", a.load, opts);
  assert.equal(a.state.loads, 4);
});

Deno.test("tx list cache: a page read while this instance wrote is answered but not kept; concurrent reads share one query", async () => {
  const db = await ownDb();
  const t = 3_000_000;
  const opts = { ttlMs: 60_000, nowMs: t };
  const { gate, load: slow } = gatedLoad("old");
  const first = readTxList(db, "app", "p", slow, opts);
  const second = readTxList(db, "app", "p", slow, opts);
  assert.equal(gate.calls, 1, "the second read waits for the first one's query");
  txRecordsChanged(db, "app");
  const fresh = counter();
  fresh.state.version = "new";
  const third = readTxList(db, "app", "p", fresh.load, opts);
  assert.equal(fresh.state.loads, 1, "a reader after the write does not join the old read");
  assert.equal(await third, "new");
  gate.release();
  assert.deepEqual(await Promise.all([first, second]), ["old", "old"]);
  // The old read neither is served again nor displaces the newer page.
  assert.equal(await readTxList(db, "app", "p", fresh.load, opts), "new");
  assert.equal(fresh.state.loads, 1);
});

Deno.test("tx list cache: a write of one app leaves another app's read in flight shared and kept", async () => {
  const db = await ownDb();
  const opts = { ttlMs: 60_000, nowMs: 4_000_000 };
  const { gate, load: slow } = gatedLoad("y1");
  const first = readTxList(db, "y", "p", slow, opts);
  txRecordsChanged(db, "x");
  const second = readTxList(db, "y", "p", slow, opts);
  assert.equal(gate.calls, 1, "app x's write did not start a second query for app y");
  gate.release();
  assert.deepEqual(await Promise.all([first, second]), ["y1", "y1"]);
  assert.equal(await readTxList(db, "y", "p", slow, opts), "y1", "and app y's page was kept");
  assert.equal(gate.calls, 1);
});

Deno.test("tx list: a record written by this instance is listed at once; one written elsewhere within the bound", async () => {
  const { services } = await testEnv();
  const app = await appWith({ config: { TX_LIST_CACHE_MS: 60_000 } });
  const t = await seedTenant("tx list cache route");
  const list = async () => {
    const res = await app.request("/service/v1/tx", { headers: t.chainHeaders });
    assert.equal(res.status, 200);
    const body = await res.json();
    return body.data.transactions.map((x: { requestId: string }) => x.requestId);
  };
  assert.deepEqual(await list(), []);
  const record = (requestId: string) => ({
    requestId,
    req: {
      appid: t.appid,
      gameIndex: t.gameIndex,
      network: "polygon",
      playerId: "7",
      params: { tokenId: "1" },
    },
    chainId: 31337,
    type: "MINT" as const,
    status: "WAITING",
    from: "0x00000000000000000000000000000000000000aa",
    contract: "0x00000000000000000000000000000000000000bb",
    hash: null,
    nonce: null,
    now: new Date(Date.UTC(2026, 0, 1)),
  });
  await insertRecord(services, record(`${t.appid}-own`));
  assert.deepEqual(await list(), [`${t.appid}-own`], "this instance's write is listed at once");
  // Another instance's write (a row inserted behind this instance's back) waits for the bound.
  await services.db.query(
    `insert into chain_txs (request_id, appid, game_index, network, chain_id, player_id, tx_type,
       status, from_address, contract, request_params, created_at, updated_at)
     values ($1, $2, $3, 'polygon', 31337, '7', 'MINT', 'WAITING', '0xf', '0xc', '{}', now(), now())`,
    [`${t.appid}-elsewhere`, t.appid, t.gameIndex],
  );
  assert.deepEqual(await list(), [`${t.appid}-own`], "served from the cache within the bound");
  const uncached = await appWith({ config: { TX_LIST_CACHE_MS: 0 } });
  const res = await uncached.request("/service/v1/tx", { headers: t.chainHeaders });
  const ids = (await res.json()).data.transactions.map((x: { requestId: string }) => x.requestId);
  assert.deepEqual(ids, [`${t.appid}-elsewhere`, `${t.appid}-own`], "TX_LIST_CACHE_MS=0 reads");
});

Deno.test("tx list cache: cachedTxList answers what readTxList would from the cache, and nothing else", async () => {
  const db = await ownDb();
  const { state, load } = counter();
  const t = 5_000_000;
  const opts = { ttlMs: 1_000, nowMs: t };
  assert.equal(cachedTxList(db, "app", "p", t), undefined, "nothing read yet");
  await readTxList(db, "app", "p", load, opts);
  assert.equal(cachedTxList(db, "app", "p", t + 999)?.json, "v1");
  assert.equal(cachedTxList(db, "app", "q", t + 999), undefined, "another page");
  assert.equal(cachedTxList(db, "other", "p", t + 999), undefined, "another app");
  assert.equal(cachedTxList(db, "app", "p", t + 1_000), undefined, "past the bound");
  await readTxList(db, "app", "p", load, opts);
  txRecordsChanged(db, "other");
  assert.equal(cachedTxList(db, "app", "p", t)?.json, "v1", "another app's write");
  txRecordsChanged(db, "app");
  assert.equal(cachedTxList(db, "app", "p", t), undefined, "this app's write");
  state.version = "v2";
  await readTxList(db, "app", "p", load, opts);
  assert.equal(cachedTxList(db, "app", "p", t)?.json, "v2");
  txRecordsChanged(db);
  assert.equal(cachedTxList(db, "app", "p", t), undefined, "a write of any app");
  assert.equal(cachedTxList(await ownDb(), "app", "p", t), undefined, "another instance");
});
