import assert from "node:assert/strict";
import { admin, callJson, seedTenant, testEnv } from "../../harness.ts";
import {
  campaignBody,
  createTargeting,
  postCampaign,
  type PushTenant,
  pushTenant,
} from "./fixture.ts";
import { dispatchDuePushes, pushDispatchJob } from "../../../lib/push/dispatch.ts";
import { scheduledJobs } from "../../../lib/scheduled.ts";

async function device(t: PushTenant, body: Record<string, unknown>) {
  const r = await callJson("POST", "/push/v1/devices", {
    headers: t.headers,
    json: { appid: t.tenant.appid, platform: "android", country: "KR", ...body },
  });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body as { id: number; zone: string; language: string | null };
}

async function logged(campaignId: number) {
  const { services } = await testEnv();
  return await services.db.query<
    { device_id: string; message: { language: string; message: { title: string } } }
  >(
    "select device_id, message from push_log_messages where campaign_id = $1 order by device_id",
    [campaignId],
  );
}

async function campaignStatus(id: number) {
  const { services } = await testEnv();
  const [row] = await services.db.query<{ status: number }>(
    "select status from push_campaigns where id = $1",
    [id],
  );
  return row.status;
}

const KO = { title: "안녕", message: "봄 이벤트" };
const EN = { title: "Hello", message: "Spring event" };

Deno.test("devices: registration validates app, country, time zone; language is normalised", async () => {
  const t = await pushTenant();
  const d = await device(t, {
    token: "tok-a",
    timeZone: "US/Eastern",
    country: "us",
    language: "en-US",
  });
  assert.deepEqual({ zone: d.zone, language: d.language }, {
    zone: "America/New_York",
    language: "en",
  });
  const again = await device(t, { token: "tok-a", language: "ko-KR" });
  assert.equal(again.id, d.id, "the same app and token is one device");
  const post = (json: Record<string, unknown>) =>
    callJson("POST", "/push/v1/devices", { headers: t.headers, json });
  const base = { appid: t.tenant.appid, token: "x", platform: "android", country: "KR" };
  assert.deepEqual((await post({ ...base, country: "ZZ" })).body, {
    error: { reason: "country ZZ is not a country code of the spec's table" },
  });
  assert.deepEqual((await post({ ...base, timeZone: "Mars/Olympus" })).body, {
    error: { reason: "timeZone Mars/Olympus is not an IANA time zone" },
  });
  assert.equal((await post({ ...base, platform: "web" })).status, 400);
  const other = await seedTenant();
  assert.deepEqual((await post({ ...base, appid: other.appid })).body, {
    error: { reason: `appid ${other.appid} is not an app of game ${t.tenant.gameIndex}` },
  });
  const unauth = await callJson("POST", "/push/v1/devices", { json: base });
  assert.equal(unauth.status, 401);
});

Deno.test("dispatch: each device gets the campaign once, in its language, even with two dispatchers", async () => {
  assert.ok(
    scheduledJobs.includes(pushDispatchJob),
    "the dispatcher runs on the scheduled trigger",
  );
  const t = await pushTenant();
  const { services, clock } = await testEnv();
  const ko = await device(t, { token: "d-ko", language: "ko" });
  const en = await device(t, { token: "d-en", platform: "ios", language: "en-GB" });
  const ja = await device(t, { token: "d-ja", language: "ja" });
  const none = await device(t, { token: "d-none" });
  await device(t, { token: "d-us", country: "US", language: "ko" });
  const campaign = await postCampaign(
    t,
    campaignBody(t, {
      notification: { en: { android: EN, ios: EN }, ko: { android: KO, ios: KO } },
    }),
  );
  assert.equal(campaign.status, 200, JSON.stringify(campaign.body));
  const id = campaign.body.id as number;
  const at = Date.UTC(2027, 4, 3, 1);
  try {
    clock.set(at - 60_000);
    await dispatchDuePushes(services, clock.now());
    assert.equal((await logged(id)).length, 0, "nothing is sent before the task is due");
    assert.equal(await campaignStatus(id), 1);
    clock.set(at + 1000);
    await Promise.all([
      pushDispatchJob.run(services, clock.now()),
      pushDispatchJob.run(services, clock.now()),
    ]);
    await pushDispatchJob.run(services, clock.now());
  } finally {
    clock.reset();
  }
  const rows = await logged(id);
  const byDevice = Object.fromEntries(
    rows.map((r) => [Number(r.device_id), [r.message.language, r.message.message.title]]),
  );
  assert.deepEqual(byDevice, {
    [ko.id]: ["ko", "안녕"],
    [en.id]: ["en", "Hello"],
    [ja.id]: ["en", "Hello"],
    [none.id]: ["en", "Hello"],
  });
  assert.equal(await campaignStatus(id), 3, "registered -> sending -> completed");
  // The log sink ignores repeats, so check the claim itself: one claim, four deliveries.
  const slices = await services.db.query(
    "select state, attempts, delivered from push_slices where campaign_id = $1",
    [id],
  );
  assert.deepEqual(slices, [{ state: "sent", attempts: 1, delivered: 4 }]);
  const outbox = await admin("GET", "/admin/v1/push/outbox?limit=1000");
  assert.equal(outbox.status, 200);
  const mine = outbox.body.messages.filter((m: { campaignId: number }) => m.campaignId === id);
  assert.equal(mine.length, 4);
  const ios = mine.find((m: { deviceId: number }) => m.deviceId === en.id);
  assert.equal(ios.platform, "ios");
  assert.equal(ios.token, "d-en");
  const closed = await postCampaign(t, { ...campaignBody(t), id, status: 1 });
  assert.equal(closed.status, 409);
  assert.equal(closed.body.error.reason, `campaign ${id} is completed and cannot be edited`);
});

Deno.test("dispatch: distribution slices split the audience and go out interval minutes apart", async () => {
  const t = await pushTenant();
  const { services, clock } = await testEnv();
  const devices: { id: number }[] = [];
  for (let i = 0; i < 6; i++) devices.push(await device(t, { token: `slice-${i}` }));
  const campaign = await postCampaign(t, {
    ...campaignBody(t),
    distribution: { enable: true, interval: 10, count: 3 },
  });
  const id = campaign.body.id as number;
  const task = Object.values(campaign.body.tasks)[0] as { startTime: number; endTime: number };
  assert.equal(task.endTime - task.startTime, 20 * 60);
  assert.equal(campaign.body.lastEndTime, task.endTime);
  const sentIds = async () => (await logged(id)).map((r) => Number(r.device_id)).sort();
  const expected = (k: number) => devices.map((d) => d.id).filter((x) => x % 3 === k);
  try {
    clock.set(task.startTime * 1000 + 1000);
    await dispatchDuePushes(services, clock.now());
    assert.deepEqual(await sentIds(), expected(0).sort());
    assert.equal(await campaignStatus(id), 2, "sending while slices remain");
    clock.set((task.startTime + 600) * 1000 + 1000);
    await dispatchDuePushes(services, clock.now());
    assert.deepEqual(await sentIds(), [...expected(0), ...expected(1)].sort());
    clock.set(task.endTime * 1000 + 1000);
    await dispatchDuePushes(services, clock.now());
  } finally {
    clock.reset();
  }
  assert.deepEqual(await sentIds(), devices.map((d) => d.id).sort());
  assert.equal(await campaignStatus(id), 3);
});

Deno.test("dispatch: localizing tasks reach only their zones; targeting campaigns only their targets", async () => {
  const t = await pushTenant();
  const { services, clock } = await testEnv();
  const ny = await device(t, {
    token: "ny",
    country: "US",
    timeZone: "America/New_York",
    playerId: 11,
  });
  const berlin = await device(t, {
    token: "be",
    country: "DE",
    timeZone: "Europe/Berlin",
    playerId: 12,
  });
  const other = await device(t, { token: "be2", country: "DE", playerId: 13 });
  const targeting = await createTargeting(t, { description: "two players" });
  const tid = targeting.body.id;
  const up = await callJson("POST", `/push/targets/${tid}/direct/new`, {
    headers: t.headers,
    json: [11, 12].map((p) => ({ identifier: { playerId: p }, app: { appid: t.tenant.appid } })),
  });
  assert.equal(up.status, 200);
  const campaign = await postCampaign(
    t,
    campaignBody(t, {
      type: "T",
      targetingId: tid,
      countries: ["US", "DE"],
      reservation: {
        localizing: true,
        startDate: "2027-05-03",
        endDate: "2027-05-03",
        time: "09:00",
        repeat: false,
      },
    }),
  );
  assert.equal(campaign.status, 200, JSON.stringify(campaign.body));
  const id = campaign.body.id as number;
  try {
    clock.set(Date.UTC(2027, 4, 3, 7) + 1000); // 09:00 in Berlin (UTC+2)
    await dispatchDuePushes(services, clock.now());
    assert.deepEqual((await logged(id)).map((r) => Number(r.device_id)), [berlin.id]);
    clock.set(Date.UTC(2027, 4, 3, 13) + 1000); // 09:00 in New York (UTC-4)
    await dispatchDuePushes(services, clock.now());
  } finally {
    clock.reset();
  }
  const sent = (await logged(id)).map((r) => Number(r.device_id)).sort();
  assert.deepEqual(sent, [ny.id, berlin.id].sort());
  assert.ok(!sent.includes(other.id), "a device not in the targeting data gets nothing");
});
