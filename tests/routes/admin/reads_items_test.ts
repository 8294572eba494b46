import assert from "node:assert/strict";
import { admin, callJson, seedTenant, testEnv } from "../../harness.ts";
import { itemFixture } from "../../lib/items/fixture.ts";
import { assertNoSecret, assertNotFound, walkPages } from "./fixture.ts";

Deno.test("item endpoint: probe now records health history; tenancy; the vendor word never shown", async () => {
  await using f = await itemFixture("http");
  const other = await seedTenant();
  const g = f.tenant.gameIndex;
  const empty = await admin("GET", `/admin/v1/games/${g}/item-endpoint/probes`);
  assert.deepEqual(empty.body, { items: [], nextCursor: null });

  const probe = await admin("POST", `/admin/v1/games/${g}/item-endpoint/probe`);
  assert.equal(probe.status, 200, JSON.stringify(probe.body));
  assert.deepEqual(probe.body, { healthy: true, error: null });
  await f.server.stop();
  const down = await admin("POST", `/admin/v1/games/${g}/item-endpoint/probe`);
  assert.equal(down.body.healthy, false);
  assert.equal(typeof down.body.error, "string");

  const history = await admin("GET", `/admin/v1/games/${g}/item-endpoint/probes`);
  assert.deepEqual(history.body.items.map((p: { healthy: boolean }) => p.healthy), [false, true]);
  const view = await admin("GET", `/admin/v1/games/${g}/item-endpoint`);
  assert.equal(view.body.health.healthy, false);
  assertNoSecret([history.body, view.body, probe.body], [f.vendorWord]);

  assertNotFound(
    await admin("POST", `/admin/v1/games/${other.gameIndex}/item-endpoint/probe`),
    "ITEM_ENDPOINT_NOT_FOUND",
  );
  const none = await admin("GET", `/admin/v1/games/${other.gameIndex}/item-endpoint/probes`);
  assert.deepEqual(none.body.items, []);
});

Deno.test("delivery log: newest first, paged, filtered by status and transactionId; tenancy", async () => {
  const { services } = await testEnv();
  await using f = await itemFixture("http");
  const other = await seedTenant();
  const g = f.tenant.gameIndex;
  const ids = [];
  for (let i = 0; i < 3; i++) {
    const body = f.body({ id: `log-user-${i}` });
    assert.equal((await f.register(body)).status, 202);
    ids.push(body.transactionId as string);
    await services.idle();
  }
  const all = await walkPages(`/admin/v1/games/${g}/item-requests`, 2);
  assert.deepEqual(all.map((d) => d.transactionId), [...ids].reverse());
  assert.ok(all.every((d) => d.status === "DELIVERED"), JSON.stringify(all));
  assert.equal(all[0].record.id, "log-user-2");
  assert.equal(all[0].attempts, 1);
  assert.equal(all[0].lastCode, 20000);
  assertNoSecret(all, [f.vendorWord, f.apiKey]);

  const byId = await admin("GET", `/admin/v1/games/${g}/item-requests?transactionId=${ids[1]}`);
  assert.deepEqual(byId.body.items.map((d: { transactionId: string }) => d.transactionId), [
    ids[1],
  ]);
  const failed = await admin("GET", `/admin/v1/games/${g}/item-requests?status=FAILED`);
  assert.deepEqual(failed.body.items, []);
  const bad = await admin("GET", `/admin/v1/games/${g}/item-requests?status=LOST`);
  assert.equal(bad.status, 400);
  assert.match(bad.body.error.message, /^status/);

  const one = await admin("GET", `/admin/v1/games/${g}/item-requests/${ids[0]}`);
  assert.equal(one.status, 200);
  assert.equal(one.body.status, "DELIVERED");
  assertNotFound(
    await admin("GET", `/admin/v1/games/${other.gameIndex}/item-requests/${ids[0]}`),
    "TRANSACTION_NOT_FOUND",
  );
  const otherLog = await admin("GET", `/admin/v1/games/${other.gameIndex}/item-requests`);
  assert.deepEqual(otherLog.body.items, []);
});

Deno.test("retry now: a FAILED request is delivered after the game server is fixed", async () => {
  const { services } = await testEnv();
  await using f = await itemFixture("http");
  const other = await seedTenant();
  const g = f.tenant.gameIndex;
  // 40004 is a permanent refusal: the request fails without retries.
  f.server.faults.push({ kind: "code", code: 40004, message: "maintenance" });
  const body = f.body({ id: "retry-user" });
  const id = body.transactionId as string;
  await f.register(body);
  await services.idle();
  const failed = await admin("GET", `/admin/v1/games/${g}/item-requests?status=FAILED`);
  assert.deepEqual(failed.body.items.map((d: { transactionId: string }) => d.transactionId), [id]);
  assert.equal(failed.body.items[0].lastCode, 40004);

  assertNotFound(
    await admin("POST", `/admin/v1/games/${other.gameIndex}/item-requests/${id}/retry`),
    "TRANSACTION_NOT_FOUND",
  );
  const retry = await admin("POST", `/admin/v1/games/${g}/item-requests/${id}/retry`);
  assert.equal(retry.status, 200, JSON.stringify(retry.body));
  assert.deepEqual(retry.body, { transactionId: id, status: "RETRYING" });
  await services.idle();
  const after = await admin("GET", `/admin/v1/games/${g}/item-requests/${id}`);
  assert.equal(after.body.status, "DELIVERED");
  assert.deepEqual(f.server.store.itemsOf("vid", "retry-user"), { gold: 100 });

  const again = await admin("POST", `/admin/v1/games/${g}/item-requests/${id}/retry`);
  assert.equal(again.status, 409);
  assert.equal(again.body.error.code, "NOT_RETRYABLE");
  assert.match(again.body.error.message, /DELIVERED/);
});

Deno.test("CPA campaigns: listed per game with rewarded counts; filtered by app; tenancy", async () => {
  await using f = await itemFixture("http");
  const other = await seedTenant();
  const g = f.tenant.gameIndex;
  const detail = [{ action: "send", assetCode: "gem", amount: 5 }];
  for (const cpaCode of ["tutorial", "level-10"]) {
    const reg = await admin("POST", `/admin/v1/games/${g}/cpa`, {
      appid: f.tenant.appid,
      cpaCode,
      subReason: "6",
      detail,
    });
    assert.equal(reg.status, 201);
  }
  const note = await callJson("POST", "/api/cpa", {
    json: { appid: f.tenant.appid, vid: "v-1", server_id: "s1", cpa_code: "tutorial" },
  });
  assert.equal(note.body.result_code, 0, JSON.stringify(note.body));
  const list = await admin("GET", `/admin/v1/games/${g}/cpa`);
  assert.equal(list.status, 200);
  assert.deepEqual(
    list.body.items.map((c: { cpaCode: string; rewarded: number }) => [c.cpaCode, c.rewarded]),
    [["level-10", 0], ["tutorial", 1]],
  );
  assert.deepEqual(list.body.items[0].detail, [{ action: "send", assetCode: "gem", amount: 5 }]);
  const byApp = await admin("GET", `/admin/v1/games/${g}/cpa?appid=nope`);
  assert.deepEqual(byApp.body.items, []);
  const otherList = await admin("GET", `/admin/v1/games/${other.gameIndex}/cpa`);
  assert.deepEqual(otherList.body.items, []);
  await (await testEnv()).services.idle();
});

Deno.test("send items as admin: delivered like an items API request; game checked", async () => {
  const { services } = await testEnv();
  await using f = await itemFixture("http");
  const other = await seedTenant();
  const g = f.tenant.gameIndex;
  const body = f.body({ id: "admin-grant" });
  const sent = await admin("POST", `/admin/v1/games/${g}/item-requests`, body);
  assert.equal(sent.status, 202, JSON.stringify(sent.body));
  assert.deepEqual(sent.body, { transactionId: body.transactionId, created: true });
  await services.idle();
  const one = await admin("GET", `/admin/v1/games/${g}/item-requests/${body.transactionId}`);
  assert.equal(one.body.status, "DELIVERED");
  assert.equal(one.body.source, "admin");
  assert.deepEqual(f.server.store.itemsOf("vid", "admin-grant"), { gold: 100 });

  const mismatch = await admin("POST", `/admin/v1/games/${other.gameIndex}/item-requests`, body);
  assert.equal(mismatch.status, 400);
  assert.equal(mismatch.body.error.message, `gameIndex must be ${other.gameIndex}`);
  const noEndpoint = await admin("POST", `/admin/v1/games/${other.gameIndex}/item-requests`, {
    ...body,
    gameIndex: other.gameIndex,
  });
  assert.equal(noEndpoint.status, 409);
  assert.equal(noEndpoint.body.error.code, "ITEM_ENDPOINT_MISSING");
});
