/**
 * Registrations that arrive together share statements (a group commit) and each still gets the
 * answer it would get alone: created, the same again (not created), a conflicting body, a game
 * without an endpoint, and the same new id twice in one burst (one created, one repeat).
 */
import assert from "node:assert/strict";
import { seedTenant, testEnv } from "../../harness.ts";
import { itemFixture } from "./fixture.ts";
import { registerItemRequest } from "../../../lib/items/register.ts";
import type { ItemRequestInput } from "../../../lib/items/record.ts";
import { DomainError } from "../../../lib/errors.ts";
import type { Row, Sql } from "../../../lib/db/port.ts";

Deno.test("item registration: a burst shares statements, every caller gets its own answer", async () => {
  const { services } = await testEnv();
  await using f = await itemFixture();
  const bare = await seedTenant("no endpoint game");
  let statements = 0;
  const db: Sql = {
    ...services.db,
    query<T = Row>(text: string, params?: unknown[]) {
      statements++;
      return services.db.query<T>(text, params);
    },
  };
  const input = (over: Partial<ItemRequestInput> = {}): ItemRequestInput => ({
    transactionId: `burst-${crypto.randomUUID()}`,
    gameIndex: f.tenant.gameIndex,
    idCategory: "vid",
    id: "player-1",
    detail: [{ action: "send", assetCode: "gold", amount: 1 }],
    reason: "e",
    serverId: "s1",
    ...over,
  });
  const register = (x: ItemRequestInput) =>
    registerItemRequest(db, x, { nowMs: services.clock.now(), requireEndpoint: true });
  const earlier = input();
  assert.deepEqual(await register(earlier), {
    transactionId: earlier.transactionId,
    created: true,
  });
  statements = 0;

  const fresh = Array.from({ length: 40 }, () => input());
  const twice = input();
  const answers = await Promise.allSettled([
    ...fresh.map(register),
    register(earlier),
    register({ ...earlier, detail: [{ action: "send", assetCode: "gold", amount: 2 }] }),
    register(input({ gameIndex: bare.gameIndex })),
    register(twice),
    register(twice),
  ]);
  const value = (i: number) => (answers[i] as PromiseFulfilledResult<unknown>).value;
  const error = (i: number) => (answers[i] as PromiseRejectedResult).reason;
  for (const [i, x] of fresh.entries()) {
    assert.deepEqual(value(i), { transactionId: x.transactionId, created: true });
  }
  assert.deepEqual(value(40), { transactionId: earlier.transactionId, created: false });
  assert.ok(error(41) instanceof DomainError && error(41).code === "TRANSACTION_CONFLICT");
  assert.ok(error(42) instanceof DomainError && error(42).code === "ITEM_ENDPOINT_MISSING");
  assert.deepEqual(
    [value(43), value(44)].map((r) => (r as { created: boolean }).created).sort(),
    [false, true],
    "the same new id twice: registered once",
  );
  assert.ok(statements < 45 / 2, `${statements} statements for 45 registrations`);

  const [{ n }] = await services.db.query<{ n: number }>(
    `select count(*)::int as n from item_requests where game_index = $1
      and transaction_id in (select jsonb_array_elements_text($2::jsonb))`,
    [f.tenant.gameIndex, [...fresh, twice, earlier].map((x) => x.transactionId)],
  );
  assert.equal(n, 42, "each request stored once");
  await services.idle();
});
