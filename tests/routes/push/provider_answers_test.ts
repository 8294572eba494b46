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
import { admin, testEnv } from "../../harness.ts";
import { campaignBody, postCampaign, type PushTenant, pushTenant } from "./fixture.ts";
import { fetchOnlyPushHttp } from "../../../lib/push/provider_http.ts";

const fk = await pushFakes();

async function campaignOn(t: PushTenant, day: number): Promise<number> {
  const r = await postCampaign(t, campaignBody(t, { reservation: reservationOn(day) }));
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.id as number;
}

async function counts(campaignId: number) {
  const { services } = await testEnv();
  const [row] = await services.db.query<Record<string, number>>(
    `select sum(targeted)::int as targeted, sum(sent)::int as sent, sum(failed)::int as failed,
       sum(invalid)::int as invalid, sum(retried)::int as retried
     from push_slices where campaign_id = $1`,
    [campaignId],
  );
  return row;
}

async function activeOf(ids: number[]) {
  const { services } = await testEnv();
  const rows = await services.db.query<{ id: string; active: boolean }>(
    "select id, active from push_devices where id in (select jsonb_array_elements_text($1::jsonb)::bigint)",
    [ids],
  );
  return Object.fromEntries(rows.map((r) => [Number(r.id), r.active]));
}

Deno.test("dead tokens: FCM UNREGISTERED / INVALID_ARGUMENT and APNs 410 / BadDeviceToken deactivate the device; the next campaign skips it", async () => {
  const t = await pushTenant();
  const { projectId, bundleId } = await providerCredentials(fk, t.tenant.appid);
  const good = { android: fcmToken(), ios: apnsToken() };
  const unregistered = { android: fcmToken(), ios: apnsToken() };
  const malformed = { android: "bad token!", ios: "not-a-hex-device-token" };
  await fk.script(unregistered.android, [], true);
  await fk.script(unregistered.ios, [], true);
  const ids: Record<string, number> = {};
  for (const set of [good, unregistered, malformed]) {
    ids[set.android] = (await device(t, { token: set.android, platform: "android" })).id;
    ids[set.ios] = (await device(t, { token: set.ios, platform: "ios" })).id;
  }
  const first = await campaignOn(t, 3);
  await dispatchAt(dueOn(3));
  assert.deepEqual(await counts(first), {
    targeted: 6,
    sent: 2,
    failed: 0,
    invalid: 4,
    retried: 0,
  });
  const dead = [unregistered.android, unregistered.ios, malformed.android, malformed.ios];
  assert.deepEqual(
    await activeOf(Object.values(ids)),
    Object.fromEntries(Object.entries(ids).map(([tok, id]) => [id, !dead.includes(tok)])),
  );
  const { services } = await testEnv();
  const [reason] = await services.db.query<{ deactivated_reason: string }>(
    "select deactivated_reason from push_devices where id = $1",
    [ids[unregistered.ios]],
  );
  assert.equal(reason.deactivated_reason, "410 Unregistered");

  const second = await campaignOn(t, 4);
  await dispatchAt(dueOn(4));
  assert.deepEqual(await counts(second), {
    targeted: 2,
    sent: 2,
    failed: 0,
    invalid: 0,
    retried: 0,
  });
  for (const tok of dead) {
    assert.equal(
      (await fk.requests(tok)).length,
      1,
      `${tok} was asked once, by the first campaign`,
    );
  }
  assert.equal((await fk.received({ project: projectId })).length, 2);
  assert.equal((await fk.received({ topic: bundleId })).length, 2);
  // Registering again makes the device a target again.
  await device(t, { token: unregistered.android, platform: "android" });
  assert.equal((await activeOf([ids[unregistered.android]]))[ids[unregistered.android]], true);
});

Deno.test("retries: 429 with Retry-After is honoured, 5xx retried with backoff, both counted", async () => {
  const t = await pushTenant();
  const { projectId, bundleId } = await providerCredentials(fk, t.tenant.appid);
  const limited = fcmToken();
  const flaky = apnsToken();
  await fk.script(limited, [{ status: 429, retryAfter: 2 }]);
  await fk.script(flaky, [{ status: 503 }, { status: 429, retryAfter: 1 }]);
  await device(t, { token: limited, platform: "android" });
  await device(t, { token: flaky, platform: "ios" });
  const id = await campaignOn(t, 3);
  await dispatchAt(dueOn(3));
  const seen = await fk.requests(limited);
  assert.deepEqual(seen.map((r) => r.status), [429, 200]);
  assert.ok(
    seen[1].at - seen[0].at >= 2000,
    `waited ${seen[1].at - seen[0].at} ms of Retry-After 2`,
  );
  const ios = await fk.requests(flaky);
  assert.deepEqual(ios.map((r) => r.status), [503, 429, 200]);
  assert.ok(ios[2].at - ios[1].at >= 1000, `waited ${ios[2].at - ios[1].at} ms of Retry-After 1`);
  assert.ok(ios.every((r) => r.httpVersion === "2.0"), "APNs is spoken over HTTP/2");
  assert.equal((await fk.received({ project: projectId })).length, 1);
  assert.equal((await fk.received({ topic: bundleId })).length, 1);
  assert.deepEqual(await counts(id), { targeted: 2, sent: 2, failed: 0, invalid: 0, retried: 2 });
});

Deno.test("tokens: an expired OAuth token is refreshed once for all sends; an expired provider token renewed once", async () => {
  const t = await pushTenant();
  const { projectId, bundleId, key } = await providerCredentials(fk, t.tenant.appid);
  const tokens = Array.from({ length: 6 }, () => fcmToken());
  const iosTokens = Array.from({ length: 3 }, () => apnsToken());
  for (const tok of tokens) await device(t, { token: tok, platform: "android" });
  for (const tok of iosTokens) await device(t, { token: tok, platform: "ios" });
  await campaignOn(t, 3);
  await dispatchAt(dueOn(3));
  assert.equal(await fk.tokensIssued(projectId), 1, "one OAuth token shared by every send");
  // Provider tokens carry iat in seconds: let one tick so a renewed token is a newer one.
  await new Promise((r) => setTimeout(r, 1100));
  await fk.post("/_fake/fcm/expire-tokens", { projectId });
  await fk.post("/_fake/apns/expire-tokens", { keyId: key!.keyId });
  const id = await campaignOn(t, 4);
  await dispatchAt(dueOn(4));
  assert.equal(await fk.tokensIssued(projectId), 2, "refreshed once after the 401s");
  assert.deepEqual(await counts(id), { targeted: 9, sent: 9, failed: 0, invalid: 0, retried: 0 });
  assert.equal((await fk.received({ project: projectId })).length, 12);
  assert.equal((await fk.received({ topic: bundleId })).length, 6);
  const statuses = (await fk.requests(iosTokens[0])).map((r) => r.status);
  assert.ok(statuses.includes(403), "the old provider token was refused once");
});

Deno.test("credentials refused: the app's sends stop with a visible reason instead of burning tokens", async () => {
  const t = await pushTenant();
  const { projectId } = await providerCredentials(fk, t.tenant.appid, { fcm: true });
  const tokens = Array.from({ length: 5 }, () => fcmToken());
  for (const tok of tokens) await device(t, { token: tok, platform: "android" });
  await fk.post("/_fake/fcm/revoke", { projectId });
  const id = await campaignOn(t, 3);
  await dispatchAt(dueOn(3));
  for (const tok of tokens) assert.equal((await fk.requests(tok)).length, 0);
  assert.deepEqual(await counts(id), { targeted: 5, sent: 0, failed: 5, invalid: 0, retried: 0 });
  const view = await admin("GET", `/admin/v1/push/apps/${t.tenant.appid}/credentials`);
  assert.match(
    view.body.fcm.error.reason,
    /^FCM service account refused: token endpoint answered 400: invalid_grant/,
  );
  // The devices are not blamed.
  const { services } = await testEnv();
  const [row] = await services.db.query<{ n: number }>(
    "select count(*)::int as n from push_devices where appid = $1 and active",
    [t.tenant.appid],
  );
  assert.equal(row.n, 5);
  // New credentials clear the stop.
  await providerCredentials(fk, t.tenant.appid, { fcm: true });
  const again = await admin("GET", `/admin/v1/push/apps/${t.tenant.appid}/credentials`);
  assert.equal(again.body.fcm.error, null);
});

Deno.test("runtimes without HTTP/2 (Workers): iOS devices go through FCM's apns block", async () => {
  const t = await pushTenant();
  const { services } = await testEnv();
  const { projectId, bundleId } = await providerCredentials(fk, t.tenant.appid);
  const ios = fcmToken(); // an FCM registration token of an iOS app
  await device(t, { token: ios, platform: "ios", language: "en" });
  const saved = services.pushHttp;
  services.pushHttp = fetchOnlyPushHttp();
  try {
    const r = await postCampaign(
      t,
      campaignBody(t, {
        reservation: reservationOn(3),
        option: { badge: 1, groupKey: "g", overwrite: true, collapseKey: "c1" },
      }),
    );
    assert.equal(r.status, 200);
    await dispatchAt(dueOn(3));
    const got = await fk.received({ project: projectId });
    assert.equal(got.length, 1);
    const { "apns-expiration": exp, ...headers } = (got[0].body.apns as {
      headers: Record<string, string>;
    }).headers;
    assert.match(exp, /^\d+$/);
    assert.deepEqual(got[0].body, {
      token: ios,
      notification: { title: "Hello", body: "Spring event starts" },
      apns: {
        headers: { ...headers, "apns-expiration": exp },
        payload: {
          aps: {
            alert: { title: "Hello", body: "Spring event starts" },
            sound: "default",
            badge: 1,
            "thread-id": "g",
          },
        },
      },
      data: {
        campaignId: String(r.body.id),
        campaignUuid: r.body.uuid,
        notice: "false",
        language: "en",
      },
    });
    assert.deepEqual(headers, {
      "apns-push-type": "alert",
      "apns-priority": "5",
      "apns-collapse-id": "c1",
    });
    assert.equal((await fk.received({ topic: bundleId })).length, 0);
  } finally {
    services.pushHttp = saved;
  }
});

Deno.test("APNs payloads over 4 KB are not sent; the message fails with the size", async () => {
  const t = await pushTenant();
  const { bundleId } = await providerCredentials(fk, t.tenant.appid, { apns: true });
  const token = apnsToken();
  await device(t, { token, platform: "ios" });
  const long = "long ".repeat(900);
  const r = await postCampaign(
    t,
    campaignBody(t, {
      reservation: reservationOn(3),
      notification: { en: { ios: { title: "Big", message: long } } },
    }),
  );
  assert.equal(r.status, 200, JSON.stringify(r.body));
  await dispatchAt(dueOn(3));
  assert.equal((await fk.requests(token)).length, 0);
  assert.equal((await fk.received({ topic: bundleId })).length, 0);
  assert.deepEqual(await counts(r.body.id), {
    targeted: 1,
    sent: 0,
    failed: 1,
    invalid: 0,
    retried: 0,
  });
  const { services } = await testEnv();
  const [row] = await services.db.query<{ detail: string }>(
    "select detail from push_deliveries where campaign_id = $1",
    [r.body.id],
  );
  assert.match(row.detail, /^payload is \d+ bytes; APNs allows 4096$/);
});
