import assert from "node:assert/strict";
import {
  apnsToken,
  dispatchAt,
  dueOn,
  fcmToken,
  providerCredentials,
  pushFakes,
  registerDevice as device,
  reservationOn,
} from "./fakes.ts";
import { callJson } from "../../harness.ts";
import {
  campaignBody,
  createTargeting,
  postCampaign,
  type PushTenant,
  pushTenant,
} from "./fixture.ts";

const fk = await pushFakes();

function get(t: PushTenant, path: string) {
  return callJson("GET", path, { headers: t.headers });
}

async function campaignOn(t: PushTenant, day: number, patch: Record<string, unknown> = {}) {
  const r = await postCampaign(t, campaignBody(t, { reservation: reservationOn(day), ...patch }));
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body as { id: number; uuid: string };
}

Deno.test("read API: campaign counts equal what the providers received; list, filters, paging", async () => {
  const t = await pushTenant();
  const { projectId, bundleId } = await providerCredentials(fk, t.tenant.appid);
  const dead = fcmToken();
  const limited = apnsToken();
  await fk.script(dead, [], true);
  await fk.script(limited, [{ status: 429, retryAfter: 1 }]);
  for (const token of [fcmToken(), fcmToken(), dead]) {
    await device(t, { token, platform: "android" });
  }
  for (const token of [apnsToken(), limited]) await device(t, { token, platform: "ios" });
  const a = await campaignOn(t, 3);
  await dispatchAt(dueOn(3));
  const received = (await fk.received({ project: projectId })).length +
    (await fk.received({ topic: bundleId })).length;
  const report = await get(t, `/push/campaigns/${a.id}`);
  assert.equal(report.status, 200, JSON.stringify(report.body));
  assert.match(report.headers.get("uuid") ?? "", /^[0-9a-f-]{36}$/);
  const r = report.body;
  assert.equal(r.status, 3);
  assert.equal(r.statusName, "completed");
  assert.equal(r.uuid, a.uuid);
  assert.equal(r.description, "spring event");
  assert.deepEqual(r.counts, {
    targeted: 5,
    sent: 4,
    failed: 0,
    invalid: 1,
    retried: 1,
    resent: 0,
  });
  assert.equal(r.counts.sent, received, "sent equals what the fakes accepted");
  const [key] = Object.keys(r.tasks);
  const task = r.tasks[key];
  assert.equal(task.state, "sent");
  assert.deepEqual(task.counts, r.counts);
  assert.equal(task.gmtOffset, 32400, "the registered task fields are kept");
  assert.ok(Date.parse(task.startedAt) <= Date.parse(task.finishedAt));
  assert.equal(task.slices.length, 1);
  assert.equal(task.slices[0].state, "sent");
  assert.equal(task.slices[0].lastError, "404 UNREGISTERED: Requested entity was not found.");

  const b = await campaignOn(t, 5, { description: "later" });
  const all = await get(t, "/push/campaigns");
  assert.deepEqual(all.body.campaigns.map((c: { id: number }) => c.id), [b.id, a.id]);
  assert.equal(all.body.next, null);
  assert.deepEqual(all.body.campaigns[1].counts, r.counts);
  assert.equal(all.body.campaigns[0].statusName, "registered");
  const completed = await get(t, "/push/campaigns?status=3");
  assert.deepEqual(completed.body.campaigns.map((c: { id: number }) => c.id), [a.id]);
  const first = await get(t, "/push/campaigns?limit=1");
  assert.deepEqual(first.body.campaigns.map((c: { id: number }) => c.id), [b.id]);
  assert.equal(first.body.next, b.id);
  const second = await get(t, `/push/campaigns?limit=1&cursor=${first.body.next}`);
  assert.deepEqual(second.body.campaigns.map((c: { id: number }) => c.id), [a.id]);
  const today = new Date().toISOString().slice(0, 10);
  const dated = await get(t, `/push/campaigns?from=${today}&to=${today}`);
  assert.equal(dated.body.campaigns.length, 2);
  const none = await get(t, "/push/campaigns?to=2020-01-01");
  assert.deepEqual(none.body, { campaigns: [], next: null });
  const badStatus = await get(t, "/push/campaigns?status=9");
  assert.equal(badStatus.status, 400);
  assert.match(badStatus.body.error.reason, /^status/);
  const badDate = await get(t, "/push/campaigns?from=2027-13-01");
  assert.deepEqual(badDate.body, { error: { reason: "from must be a date YYYY-MM-DD" } });
  const other = await pushTenant();
  const hidden = await get(other, `/push/campaigns/${a.id}`);
  assert.deepEqual(hidden.body, { error: { reason: `campaign ${a.id} not found` } });
  assert.equal(hidden.status, 404);
  assert.deepEqual((await get(other, "/push/campaigns")).body.campaigns, []);
});

Deno.test("cancel: a registered campaign is cancelled and never sent; a closed one answers 409", async () => {
  const t = await pushTenant();
  const { projectId } = await providerCredentials(fk, t.tenant.appid, { fcm: true });
  await device(t, { token: fcmToken(), platform: "android" });
  const c = await campaignOn(t, 6);
  const cancelled = await callJson("POST", `/push/campaigns/${c.id}/cancel`, {
    headers: t.headers,
  });
  assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
  assert.equal(cancelled.body.status, 4);
  const [task] = Object.values(cancelled.body.tasks) as { state: string }[];
  assert.equal(task.state, "cancelled");
  await dispatchAt(dueOn(6));
  assert.equal((await fk.received({ project: projectId })).length, 0);
  const again = await callJson("POST", `/push/campaigns/${c.id}/cancel`, { headers: t.headers });
  assert.equal(again.status, 409);
  assert.deepEqual(again.body, {
    error: { reason: `campaign ${c.id} is cancelled and cannot be edited` },
  });
  const missing = await callJson("POST", "/push/campaigns/999999999/cancel", {
    headers: t.headers,
  });
  assert.equal(missing.status, 404);
  const unauth = await callJson("POST", `/push/campaigns/${c.id}/cancel`);
  assert.equal(unauth.status, 401);
});

Deno.test("targets and devices: GET a targeting record and a device's state", async () => {
  const t = await pushTenant();
  await providerCredentials(fk, t.tenant.appid, { fcm: true });
  const targeting = await createTargeting(t);
  const id = targeting.body.id as number;
  const up = await callJson("POST", `/push/targets/${id}/direct/new`, {
    headers: t.headers,
    json: [1, 2].map((p) => ({ identifier: { playerId: p }, app: { appid: t.tenant.appid } })),
  });
  assert.equal(up.status, 200);
  const record = await get(t, `/push/targets/${id}`);
  assert.deepEqual(record.body, { ...targeting.body, available: true, targets: 2 });
  const missing = await get(t, "/push/targets/999999999");
  assert.deepEqual(missing.body, { error: { reason: "targeting 999999999 not found" } });
  const bad = await get(t, "/push/targets/abc");
  assert.equal(bad.status, 400);

  const dead = fcmToken();
  await fk.script(dead, [], true);
  const target = await device(t, { token: dead, platform: "android", playerId: 1 });
  const outsider = fcmToken();
  await device(t, { token: outsider, platform: "android", playerId: 3 });
  const c = await campaignOn(t, 7, { type: "T", targetingId: id });
  await dispatchAt(dueOn(7));
  const state = await get(t, `/push/devices/${t.tenant.appid}/${encodeURIComponent(dead)}`);
  assert.equal(state.status, 200, JSON.stringify(state.body));
  assert.equal(state.body.id, target.id);
  assert.equal(state.body.active, false);
  assert.equal(state.body.deactivatedReason, "404 UNREGISTERED: Requested entity was not found.");
  assert.deepEqual(
    state.body.deliveries.map((
      d: { campaignId: number; state: string },
    ) => [d.campaignId, d.state]),
    [[c.id, "invalid"]],
  );
  const untouched = await get(t, `/push/devices/${t.tenant.appid}/${outsider}`);
  assert.equal(untouched.body.active, true);
  assert.deepEqual(untouched.body.deliveries, [], "a targeting campaign skips non-targets");
  assert.equal((await fk.requests(outsider)).length, 0);
  const unknown = await get(t, `/push/devices/${t.tenant.appid}/nope`);
  assert.equal(unknown.status, 404);
  assert.deepEqual(unknown.body, {
    error: { reason: `no device with that token in app ${t.tenant.appid}` },
  });
});
