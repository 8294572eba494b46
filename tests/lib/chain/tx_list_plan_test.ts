/**
 * The transaction list stays flat in history: with 100,000 records of one app, every form of the
 * list query (first page, by cursor, by player, by dates, a later page) is planned on an index,
 * never a sequential scan, and paging by cursor walks the records in order without gaps.
 */
import assert from "node:assert/strict";
import { seedTenant, testEnv } from "../../harness.ts";
import { seedChainTxs } from "../../seed_rows.ts";
import { listTransactions } from "../../../lib/chain/tx_records.ts";
import { PENDING_SCAN_SQL } from "../../../lib/chain/tracker.ts";
import type { Row, Sql } from "../../../lib/db/port.ts";

/** A Sql whose queries are EXPLAINed instead of run; the plans are collected. */
function explaining(db: Sql, plans: string[]): Sql {
  return {
    ...db,
    async query<T = Row>(text: string, params?: unknown[]) {
      const rows = await db.query<{ "QUERY PLAN": string }>(`explain ${text}`, params);
      plans.push(rows.map((r) => r["QUERY PLAN"]).join("\n"));
      return [{ total: 0, rows: null }] as T[];
    },
  };
}

// Real PostgreSQL tier only: seeding 100,000 rows into PGlite takes most of a minute.
const real = Boolean(Deno.env.get("DATABASE_URL"));

Deno.test({
  name: "transaction list: no sequential scan with 100,000 records",
  ignore: !real,
}, async () => {
  const { services } = await testEnv();
  const t = await seedTenant("plan game");
  await seedChainTxs(services.db, { appid: t.appid, gameIndex: t.gameIndex, rows: 100_000 });
  // Other apps' records too, so the app filter has something to skip.
  const other = await seedTenant("plan game 2");
  await seedChainTxs(services.db, { appid: other.appid, gameIndex: other.gameIndex, rows: 5_000 });
  await services.db.query("analyze chain_txs");

  const base = { appid: t.appid, network: "polygon", limit: 20 };
  const ids = (page: { transactions: { requestId: string }[] }) =>
    page.transactions.map((x) => x.requestId);
  const first = await listTransactions(services.db, { ...base, page: 1 });
  assert.equal(first.transactions.length, 20);
  assert.equal(first.meta.totalItems, 100_000, "the unfiltered total is exact");
  assert.equal(first.meta.totalCapped, false);
  const byDates = await listTransactions(services.db, {
    ...base,
    page: 1,
    startDate: "2000-01-01",
    endDate: "2999-12-31",
  });
  assert.equal(byDates.meta.totalItems, 1_000, "a filtered total is capped");
  assert.equal(byDates.meta.totalCapped, true);
  const second = await listTransactions(services.db, {
    ...base,
    page: 2,
    cursor: first.meta.nextCursor!,
  });
  const byOffset = await listTransactions(services.db, { ...base, page: 2 });
  assert.deepEqual(ids(second), ids(byOffset), "a cursor continues exactly where the page ended");
  // A page number reads the same rows as following the cursors to it.
  const third = await listTransactions(services.db, {
    ...base,
    page: 3,
    cursor: second.meta.nextCursor!,
  });
  const thirdByNumber = await listTransactions(services.db, { ...base, page: 3 });
  assert.deepEqual(ids(thirdByNumber), ids(third));
  assert.equal(thirdByNumber.transactions.length, 20);

  const plans: string[] = [];
  const db = explaining(services.db, plans);
  await listTransactions(db, { ...base, page: 1 });
  await listTransactions(db, { ...base, page: 2, cursor: first.meta.nextCursor! });
  await listTransactions(db, { ...base, page: 1, playerId: "player-7" });
  await listTransactions(db, { ...base, page: 1, startDate: "2026-01-01", endDate: "2026-12-31" });
  await listTransactions(db, { ...base, page: 50 });
  // The chain tracker's scheduled scan of PENDING transactions (every tenth seeded row).
  await services.db.query(
    "update chain_txs set sent_at = created_at where appid = $1 and status = 'PENDING'",
    [t.appid],
  );
  await services.db.query("analyze chain_txs");
  const scan = await services.db.query<{ "QUERY PLAN": string }>(
    `explain ${PENDING_SCAN_SQL}`,
    [137],
  );
  plans.push(scan.map((r) => r["QUERY PLAN"]).join("\n"));
  assert.equal(plans.length, 6);
  for (const plan of plans) {
    assert.doesNotMatch(plan, /Seq Scan on chain_txs/, plan);
    assert.match(plan, /Index (Only )?Scan/, plan);
  }
});
