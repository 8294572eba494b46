/**
 * The item read whose state is not cached is one query on an index: with 100,000 requests of the
 * game (and others' beside them), EXPLAIN of the read shows the primary key, never a sequential
 * scan, and the read answers the row asked for.
 */
import assert from "node:assert/strict";
import { seedTenant, testEnv } from "../../harness.ts";
import { registerSampleItem, seedDeliveredItems } from "../../seed_rows.ts";
import { getItemRequest } from "../../../lib/items/register.ts";
import type { Row, Sql } from "../../../lib/db/port.ts";

// Real PostgreSQL tiers only: seeding 100,000 rows into PGlite takes most of a minute.
const real = Boolean(Deno.env.get("DATABASE_URL"));

Deno.test({
  name: "item read: one indexed query with 100,000 requests of the game",
  ignore: !real,
}, async () => {
  const { services } = await testEnv();
  const t = await seedTenant("item plan game");
  const other = await seedTenant("item plan game 2");
  await seedDeliveredItems(services.db, { gameIndex: t.gameIndex, rows: 100_000 });
  await seedDeliveredItems(services.db, { gameIndex: other.gameIndex, rows: 5_000 });
  const item = await registerSampleItem(services.db, {
    gameIndex: t.gameIndex,
    nowMs: services.clock.now(),
  });
  await services.db.query("analyze item_requests");

  const statements: { text: string; params?: unknown[] }[] = [];
  const recording: Sql = {
    ...services.db,
    query<T = Row>(text: string, params?: unknown[]) {
      statements.push({ text, params });
      return services.db.query<T>(text, params);
    },
    transaction(batch) {
      statements.push(...batch);
      return services.db.transaction(batch);
    },
  };
  const view = await getItemRequest(recording, item);
  assert.equal(view.transactionId, item.transactionId);
  assert.equal(view.status, "REGISTERED");
  assert.equal(statements.length, 1, "one statement");

  for (const key of [item, { gameIndex: t.gameIndex, transactionId: "old-50000" }]) {
    const rows = await services.db.query<{ "QUERY PLAN": string }>(
      `explain ${statements[0].text}`,
      [key.gameIndex, key.transactionId],
    );
    const plan = rows.map((r) => r["QUERY PLAN"]).join("\n");
    assert.doesNotMatch(plan, /Seq Scan/, plan);
    assert.match(plan, /Index Scan using item_requests_pkey on item_requests/, plan);
  }
});
