/**
 * The transaction list's totalItems: exact for the unfiltered list at any size (per app and
 * network, kept by triggers with every insert and delete, also under concurrent writes, and filled
 * in for records older than the counts), capped for a filtered list.
 */
import assert from "node:assert/strict";
import { seedTenant, testEnv } from "../../harness.ts";
import { seedChainTxs } from "../../seed_rows.ts";
import { listTransactions, TX_COUNT_CAP } from "../../../lib/chain/tx_records.ts";
import { txRecordStatement } from "../../../lib/chain/tx_insert.ts";
import type { Sql } from "../../../lib/db/port.ts";
import { openPglite } from "../../../lib/db/pglite.ts";
import { migrate } from "../../../lib/db/migrate.ts";
import { migrations } from "../../../lib/db/migrations/mod.ts";

function record(appid: string, gameIndex: number, requestId: string, network = "polygon") {
  return txRecordStatement({
    requestId,
    req: { appid, gameIndex, network, playerId: "p1", params: {}, callbackUrl: undefined },
    chainId: 137,
    type: "MINT",
    status: "WAITING",
    from: "0xf",
    contract: "0xc",
    hash: null,
    nonce: null,
    now: new Date(),
  });
}

async function counted(db: Sql, appid: string, network = "polygon") {
  const [row] = await db.query<{ n: string | number }>(
    "select n from chain_tx_counts where appid = $1 and network = $2",
    [appid, network],
  );
  return row ? Number(row.n) : 0;
}

async function actual(db: Sql, appid: string, network = "polygon") {
  const [row] = await db.query<{ n: number }>(
    "select count(*)::int as n from chain_txs where appid = $1 and network = $2",
    [appid, network],
  );
  return row.n;
}

Deno.test("transaction list: totalItems is exact past the old cap; a filtered list keeps the cap", async () => {
  const { services } = await testEnv();
  const db = services.db;
  const t = await seedTenant("count game");
  await seedChainTxs(db, { appid: t.appid, gameIndex: t.gameIndex, rows: 1_200 });
  await seedChainTxs(db, { appid: t.appid, gameIndex: t.gameIndex, rows: 7, network: "xpla" });
  const base = { appid: t.appid, network: "polygon", page: 1, limit: 20 };

  const all = await listTransactions(db, base);
  assert.equal(all.meta.totalItems, 1_200);
  assert.equal(all.meta.totalCapped, false);
  assert.equal(all.meta.totalPages, 60);
  const last = await listTransactions(db, { ...base, page: 60 });
  assert.equal(last.transactions.length, 20);
  assert.equal(last.meta.totalItems, 1_200);
  const xpla = await listTransactions(db, { ...base, network: "xpla" });
  assert.equal(xpla.meta.totalItems, 7);

  // Filters count through the index, at most TX_COUNT_CAP records.
  const byDates = await listTransactions(db, {
    ...base,
    startDate: "2000-01-01",
    endDate: "2999-12-31",
  });
  assert.equal(byDates.meta.totalItems, TX_COUNT_CAP);
  assert.equal(byDates.meta.totalCapped, true);
  const byPlayer = await listTransactions(db, { ...base, playerId: "player-7" });
  assert.equal(byPlayer.meta.totalItems, 2); // records 7 and 1,007
  assert.equal(byPlayer.meta.totalCapped, false);

  // A withdrawn record leaves the count with it.
  const [gone] = await db.query<{ request_id: string }>(
    "delete from chain_txs where request_id = (select request_id from chain_txs where appid = $1 and network = 'polygon' limit 1) returning request_id",
    [t.appid],
  );
  assert.ok(gone);
  assert.equal((await listTransactions(db, base)).meta.totalItems, 1_199);

  // An app without records counts 0.
  const empty = await listTransactions(db, { ...base, appid: `${t.appid}-none` });
  assert.equal(empty.meta.totalItems, 0);
  assert.equal(empty.meta.totalCapped, false);
});

Deno.test("transaction list: concurrent inserts and deletes keep the count exact", async () => {
  const { services } = await testEnv();
  const db = services.db;
  const a = await seedTenant("count race a");
  const b = await seedTenant("count race b");
  const ids = Array.from({ length: 40 }, (_, i) => `${a.appid}-race-${i}`);
  await Promise.all([
    ...ids.map((id) => db.transaction([record(a.appid, a.gameIndex, id)])),
    // One statement writing two apps, twice at once (the count rows are locked in one order).
    ...[0, 1].map((i) =>
      db.query(
        `insert into chain_txs (request_id, appid, game_index, network, chain_id, player_id,
           tx_type, status, from_address, contract, request_params, created_at, updated_at)
         select x.id, x.appid, x.game, 'polygon', 137, 'p', 'MINT', 'WAITING', '0xf', '0xc',
                '{}'::jsonb, now(), now()
           from (values ($1, $3::int, $5), ($2, $4::int, $6)) as x(appid, game, id)`,
        [
          a.appid,
          b.appid,
          a.gameIndex,
          b.gameIndex,
          `${a.appid}-both-${i}`,
          `${b.appid}-both-${i}`,
        ],
      )
    ),
  ]);
  assert.equal(await counted(db, a.appid), 42);
  assert.equal(await counted(db, b.appid), 2);
  await Promise.all(
    ids.slice(0, 15).map((id) => db.query("delete from chain_txs where request_id = $1", [id])),
  );
  assert.equal(await counted(db, a.appid), 27);
  assert.equal(await actual(db, a.appid), 27);
  assert.equal(
    (await listTransactions(db, { appid: a.appid, network: "polygon", page: 1, limit: 5 }))
      .meta.totalItems,
    27,
  );
  // A refused insert (a request id already used) counts nothing.
  await assert.rejects(db.transaction([record(a.appid, a.gameIndex, ids[20])]));
  assert.equal(await counted(db, a.appid), 27);
});

Deno.test("transaction list: the counts migration counts the records already there", async () => {
  const db = await openPglite();
  try {
    const at = migrations.findIndex((m) => m.name === "0023_tx_counts");
    assert.ok(at > 0);
    await migrate(db, migrations.slice(0, at));
    await db.query("insert into games (game_index, name) values (1, 'g')");
    await seedChainTxs(db, { appid: "old-app", gameIndex: 1, rows: 30 });
    await seedChainTxs(db, { appid: "old-app", gameIndex: 1, rows: 4, network: "xpla" });
    await seedChainTxs(db, { appid: "other", gameIndex: 1, rows: 3 });
    assert.deepEqual(await migrate(db), [
      "0023_tx_counts",
      ...migrations.slice(at + 1).map((m) => m.name),
    ]);
    assert.equal(await counted(db, "old-app"), 30);
    assert.equal(await counted(db, "old-app", "xpla"), 4);
    assert.equal(await counted(db, "other"), 3);
    await seedChainTxs(db, { appid: "old-app", gameIndex: 1, rows: 5 });
    const page = await listTransactions(db, {
      appid: "old-app",
      network: "polygon",
      page: 1,
      limit: 20,
    });
    assert.equal(page.meta.totalItems, 35);
  } finally {
    await db.close();
  }
});
