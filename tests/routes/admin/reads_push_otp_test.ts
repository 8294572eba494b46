import assert from "node:assert/strict";
import { admin, callJson, seedTenant, testEnv } from "../../harness.ts";
import { campaignBody, createTargeting, postCampaign, pushTenant } from "../push/fixture.ts";
import { assertNoSecret, assertNotFound } from "./fixture.ts";

Deno.test("OTP topics: listed per game, newest first; tenancy", async () => {
  const t = await seedTenant();
  const other = await seedTenant();
  for (const topic of ["login", "withdraw"]) {
    const res = await admin("POST", `/admin/v1/games/${t.gameIndex}/otp-topics`, {
      topic,
      serviceName: "My Game",
      mode: "provider",
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
  }
  const list = await admin("GET", `/admin/v1/games/${t.gameIndex}/otp-topics?limit=1`);
  assert.equal(list.status, 200);
  assert.equal(list.body.items[0].topic, "withdraw");
  assert.equal(list.body.items[0].expirySeconds, 180);
  const next = await admin(
    "GET",
    `/admin/v1/games/${t.gameIndex}/otp-topics?limit=1&cursor=${list.body.nextCursor}`,
  );
  assert.equal(next.body.items[0].topic, "login");
  assert.equal(next.body.nextCursor, null);
  const otherList = await admin("GET", `/admin/v1/games/${other.gameIndex}/otp-topics`);
  assert.deepEqual(otherList.body.items, []);
});

Deno.test("push: campaigns with tasks per zone and slice states; targetings; devices; tenancy", async () => {
  const { clock } = await testEnv();
  clock.set(Date.parse("2027-04-01T00:00:00Z"));
  const t = await pushTenant();
  const other = await seedTenant();
  const g = t.tenant.gameIndex;
  const body = campaignBody(t, {
    countries: ["KR", "US"],
    reservation: {
      localizing: true,
      startDate: "2027-05-03",
      endDate: "2027-05-03",
      time: "10:00",
      repeat: false,
    },
  });
  const created = await postCampaign(t, body);
  assert.equal(created.status < 300, true, JSON.stringify(created.body));
  const id = created.body.id as number;

  const list = await admin("GET", `/admin/v1/games/${g}/push/campaigns`);
  assert.equal(list.status, 200);
  assert.equal(list.body.items.length, 1);
  const summary = list.body.items[0];
  assert.equal(summary.id, id);
  assert.equal(summary.statusName, "registered");
  assert.equal(summary.description, "spring event");
  assert.deepEqual(summary.countries, ["KR", "US"]);
  assert.ok(summary.slices.pending > 1, JSON.stringify(summary));
  assert.equal(
    summary.nextSendAt,
    Math.min(
      ...Object.values(
        created.body.tasks as Record<string, { startTime: number }>,
      ).map((x) => x.startTime),
    ),
  );

  const detail = await admin("GET", `/admin/v1/games/${g}/push/campaigns/${id}`);
  assert.equal(detail.status, 200);
  const tasks = detail.body.tasks as { key: string; zones: string[]; sendAt: number }[];
  assert.equal(tasks.length, Object.keys(created.body.tasks).length);
  const seoul = tasks.find((x) => x.zones.includes("Asia/Seoul"))!;
  assert.equal(seoul.sendAt, Date.parse("2027-05-03T01:00:00Z") / 1000);
  assert.ok(tasks.some((x) => x.zones.includes("America/New_York")));
  assert.equal(detail.body.campaign.description, "spring event");

  assertNotFound(
    await admin("GET", `/admin/v1/games/${other.gameIndex}/push/campaigns/${id}`),
    "CAMPAIGN_NOT_FOUND",
  );
  const otherList = await admin("GET", `/admin/v1/games/${other.gameIndex}/push/campaigns`);
  assert.deepEqual(otherList.body.items, []);

  const targeting = await createTargeting(t);
  assert.equal(targeting.status < 300, true, JSON.stringify(targeting.body));
  const targetings = await admin("GET", `/admin/v1/games/${g}/push/targetings`);
  assert.equal(targetings.body.items.length, 1);
  assert.equal(targetings.body.items[0].description, "returning players");
  assert.equal(targetings.body.items[0].targets, 0);
  const otherTargetings = await admin("GET", `/admin/v1/games/${other.gameIndex}/push/targetings`);
  assert.deepEqual(otherTargetings.body.items, []);

  const token = `device-token-${crypto.randomUUID()}`;
  const device = await callJson("POST", "/push/v1/devices", {
    headers: t.headers,
    json: { appid: t.tenant.appid, token, platform: "ios", country: "KR", playerId: 77 },
  });
  assert.equal(device.status < 300, true, JSON.stringify(device.body));
  const devices = await admin("GET", `/admin/v1/games/${g}/push/devices?country=kr`);
  assert.equal(devices.body.items.length, 1);
  assert.equal(devices.body.items[0].zone, "Asia/Seoul");
  assert.equal(devices.body.items[0].playerId, "77");
  assert.equal(devices.body.items[0].tokenPrefix, token.slice(0, 8));
  assertNoSecret(devices.body, [token, t.headers.authorization.split(" ")[1]]);
  const none = await admin("GET", `/admin/v1/games/${other.gameIndex}/push/devices`);
  assert.deepEqual(none.body.items, []);
});
