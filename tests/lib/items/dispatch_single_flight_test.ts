/**
 * Registrations wake the game's one running dispatcher instead of each starting a claim loop,
 * and a claim round's outcomes are written in one statement.
 */
import assert from "node:assert/strict";
import { testEnv } from "../../harness.ts";
import { itemFixture } from "./fixture.ts";
import { createApp } from "../../../routes/mod.ts";
import type { Sql } from "../../../lib/db/port.ts";

Deno.test("40 concurrent registrations: one dispatcher, few claims, every request delivered once", async () => {
  const { services } = await testEnv();
  await using f = await itemFixture("http");
  const seen: string[] = [];
  const db: Sql = {
    ...services.db,
    query(text, params) {
      seen.push(text);
      return services.db.query(text, params);
    },
  };
  const app = createApp({ ...services, db });
  const bodies = Array.from({ length: 40 }, (_, i) => f.body({ id: `flight-${i}` }));
  const answers = await Promise.all(bodies.map((json) =>
    app.request("/items/v1/requests", {
      method: "POST",
      headers: { authorization: `Bearer ${f.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify(json),
    })
  ));
  assert.deepEqual(answers.map((r) => r.status), bodies.map(() => 202));
  await services.idle();
  for (const body of bodies) {
    const s = await f.status(String(body.transactionId));
    assert.equal(s.body.status, "DELIVERED", JSON.stringify(s.body));
  }
  assert.equal(f.server.store.applied.length, 40);
  const claims = seen.filter((t) => /set lease_token = \$2/.test(t)).length;
  const outcomes =
    seen.filter((t) =>
      /jsonb_to_recordset\(\$1::jsonb\) as x\(game_index int, transaction_id/.test(t)
    ).length;
  const inserts = seen.filter((t) => /insert into item_requests/.test(t)).length;
  // Registrations arriving together share inserts (at most one each); the endpoint check is part
  // of the insert: no statement reads item_endpoints but the inserts, claims and outcomes.
  assert.ok(inserts >= 1 && inserts <= 40, `inserts: ${inserts}`);
  const endpointReads = seen.filter((t) =>
    /item_endpoints/.test(t) &&
    !/insert into item_requests|set lease_token = \$2|update item_endpoints e set config_suspect/
      .test(t)
  );
  assert.deepEqual(endpointReads, []);
  // One dispatcher per game: a handful of claim rounds (not one per registration), each round's
  // outcomes in one statement.
  assert.ok(claims <= 8, `claims: ${claims}`);
  assert.ok(outcomes <= claims, `outcome statements ${outcomes} for ${claims} claims`);
  const kinds = new Map<string, number>();
  for (const t of seen) {
    const k = t.trim().slice(0, 40);
    kinds.set(k, (kinds.get(k) ?? 0) + 1);
  }
  assert.ok(seen.length <= 40 + 2 * 8, `statements: ${seen.length} ${JSON.stringify([...kinds])}`);
});

Deno.test("registering for a game without an endpoint is refused in the same statement", async () => {
  await using f = await itemFixture("http");
  const { services } = await testEnv();
  await services.db.query("delete from item_endpoints where game_index = $1", [f.tenant.gameIndex]);
  const r = await f.register(f.body());
  assert.equal(r.status, 409);
  assert.equal(r.body.message, `game ${f.tenant.gameIndex} has no item endpoint registered`);
});
