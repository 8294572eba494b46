import assert from "node:assert/strict";
import { admin, testEnv } from "../../harness.ts";
import { itemFixture } from "./fixture.ts";
import { PROBE_INTERVAL_MS, probeDueEndpoints } from "../../../lib/items/probe.ts";
import { dispatchDueItems } from "../../../lib/items/dispatcher.ts";
import { itemDeliveryJob } from "../../../lib/items/jobs.ts";
import { scheduledJobs } from "../../../lib/scheduled.ts";

for (const transport of ["http", "tcp"] as const) {
  Deno.test(`${transport}: the health probe marks an endpoint unhealthy and healthy again`, async () => {
    const { services, clock } = await testEnv();
    await using f = await itemFixture(transport);
    const path = `/admin/v1/games/${f.tenant.gameIndex}/item-endpoint`;
    let ep = await admin("GET", path);
    assert.equal(ep.body.health.healthy, null, "unknown until probed");

    const first = await probeDueEndpoints(services, { gameIndex: f.tenant.gameIndex });
    assert.deepEqual(first, [{ gameIndex: f.tenant.gameIndex, healthy: true, error: null }]);
    const probe = JSON.parse(f.server.raw.at(-1)!.body);
    assert.equal(probe.transactionId, "", "the probe sends the record with empty values");
    assert.deepEqual(probe.detail, []);
    ep = await admin("GET", path);
    assert.equal(ep.body.health.healthy, true);
    assert.ok(ep.body.health.lastProbeAt);

    // Not due again before five minutes.
    assert.deepEqual(await probeDueEndpoints(services, { gameIndex: f.tenant.gameIndex }), []);

    await f.server.stop();
    clock.advance(PROBE_INTERVAL_MS);
    const down = await probeDueEndpoints(services, { gameIndex: f.tenant.gameIndex });
    assert.equal(down[0].healthy, false);
    ep = await admin("GET", path);
    assert.equal(ep.body.health.healthy, false);
    assert.ok(ep.body.health.lastError);

    // A request registered now waits: it is not attempted while the endpoint is unhealthy.
    const body = f.body({ id: "probe-user" });
    assert.equal((await f.register(body)).status, 202);
    await services.idle();
    let s = await f.status(String(body.transactionId));
    assert.equal(s.body.status, "REGISTERED");
    assert.equal(s.body.attempts, 0);

    await f.server.start();
    clock.advance(PROBE_INTERVAL_MS);
    await itemDeliveryJob.run(services, clock.now());
    ep = await admin("GET", path);
    assert.equal(ep.body.health.healthy, true);
    await dispatchDueItems(services, { gameIndex: f.tenant.gameIndex });
    s = await f.status(String(body.transactionId));
    assert.equal(s.body.status, "DELIVERED");
    assert.deepEqual(f.server.store.itemsOf("vid", "probe-user"), { gold: 100 });
  });
}

Deno.test("a reply without code and message twice in a row is unhealthy; one good reply is healthy", async () => {
  const { services, clock } = await testEnv();
  await using f = await itemFixture("http");
  f.server.faults.push({ kind: "garbage" }, { kind: "garbage" });
  const [r] = await probeDueEndpoints(services, { gameIndex: f.tenant.gameIndex });
  assert.equal(r.healthy, false);
  assert.match(r.error!, /without code and message/);
  f.server.faults.push({ kind: "garbage" });
  clock.advance(PROBE_INTERVAL_MS);
  const [again] = await probeDueEndpoints(services, { gameIndex: f.tenant.gameIndex });
  assert.equal(again.healthy, true, "the second probe of the round answered properly");
  // An error code with a message still counts as healthy (spec rule 4).
  f.server.faults.push({ kind: "code", code: 40005, message: "null" });
  clock.advance(PROBE_INTERVAL_MS);
  const [coded] = await probeDueEndpoints(services, { gameIndex: f.tenant.gameIndex });
  assert.equal(coded.healthy, true);
});

Deno.test("the item job runs with the scheduled work (Workers cron and the Deno interval)", () => {
  assert.ok(scheduledJobs.includes(itemDeliveryJob));
});
