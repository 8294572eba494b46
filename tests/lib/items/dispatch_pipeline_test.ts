/**
 * The dispatcher keeps its sends in flight without waiting for a claim round to finish: one slow
 * game-server answer holds up only its own row, and every row is still recorded once.
 */
import assert from "node:assert/strict";
import { testEnv } from "../../harness.ts";
import { itemFixture } from "./fixture.ts";
import { registerItemRequest } from "../../../lib/items/register.ts";
import { dispatchDueItems } from "../../../lib/items/dispatcher.ts";
import type { ItemRequestInput } from "../../../lib/items/record.ts";
import type { Sql } from "../../../lib/db/port.ts";

Deno.test("dispatcher: a slow answer holds up only its own row; claims and outcomes stay batched", async () => {
  const { services } = await testEnv();
  await using f = await itemFixture("http");
  const N = 60;
  const ids: string[] = [];
  for (let i = 0; i < N; i++) {
    const input: ItemRequestInput & { transactionId: string } = {
      transactionId: `pipe-${i}-${crypto.randomUUID().slice(0, 8)}`,
      gameIndex: f.tenant.gameIndex,
      idCategory: "vid",
      id: `player-${i}`,
      detail: [{ action: "send", assetCode: "gold", amount: 1 }],
      reason: "e",
      serverId: "s1",
    };
    ids.push(input.transactionId);
    await registerItemRequest(services.db, input, { nowMs: services.clock.now() });
  }
  const seen: string[] = [];
  const db: Sql = {
    ...services.db,
    query(text, params) {
      seen.push(text);
      return services.db.query(text, params);
    },
  };
  // The first row sent waits 8 s for its answer.
  f.server.faults.push({ kind: "slow", ms: 8_000 });
  let done = false;
  const run = dispatchDueItems({ ...services, db }, {
    gameIndex: f.tenant.gameIndex,
    batchSize: 8,
    concurrency: 4,
    attemptTimeoutMs: 30_000,
  }).finally(() => done = true);
  // Every other row is applied while the slow one is still unanswered (a dispatcher that waited
  // for each claim round would stop at the slow row's round: at most 7 applied).
  const deadline = Date.now() + 7_000;
  while (f.server.store.applied.length < N - 1 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.equal(done, false, "the slow answer is still pending");
  assert.equal(f.server.store.applied.length, N - 1, "every row but the slow one applied");
  assert.equal(await run, N);
  assert.equal(f.server.store.applied.length, N);
  assert.equal(f.server.received, N, "each row sent once");
  const rows = await services.db.query<{ status: string; n: string }>(
    `select status, count(*) as n from item_requests
      where game_index = $1 and transaction_id in (select jsonb_array_elements_text($2::jsonb))
      group by status`,
    [f.tenant.gameIndex, JSON.stringify(ids)],
  );
  assert.deepEqual(rows.map((r) => [r.status, Number(r.n)]), [["DELIVERED", N]]);
  const claims = seen.filter((t) => /set lease_token = \$2/.test(t)).length;
  const outcomes = seen.filter((t) => /jsonb_to_recordset\(\$1::jsonb\)/.test(t)).length;
  // 60 rows in claims of 8: 8 claims that find rows and at most one that finds none; outcomes in
  // writes of up to 8 answers (the last ones before the slow answer, then the slow one alone).
  assert.ok(claims >= 8 && claims <= 9, `claims: ${claims}`);
  assert.ok(outcomes >= 8 && outcomes <= 10, `outcome writes: ${outcomes}`);
});
