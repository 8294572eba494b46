import assert from "node:assert/strict";
import {
  apnsToken,
  dispatchAt,
  fcmToken,
  providerCredentials,
  pushFakes,
  registerDevice as device,
} from "./fakes.ts";
import { admin, seedTenant, testEnv } from "../../harness.ts";
import { campaignBody, postCampaign, pushTenant } from "./fixture.ts";

const fk = await pushFakes();
const DUE = Date.UTC(2027, 4, 3, 1) + 1000; // the fixture's 2027-05-03 10:00 Asia/Seoul

async function p384Pem(): Promise<string> {
  const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-384" }, true, [
    "sign",
    "verify",
  ]);
  const der = new Uint8Array(await crypto.subtle.exportKey("pkcs8", pair.privateKey));
  const b64 = btoa(String.fromCharCode(...der));
  return `-----BEGIN PRIVATE KEY-----\n${b64}\n-----END PRIVATE KEY-----\n`;
}

Deno.test("credentials: stored sealed, never returned, bad input refused naming the field", async () => {
  const tenant = await seedTenant("push creds");
  const path = `/admin/v1/push/apps/${tenant.appid}/credentials`;
  const sa = await fk.serviceAccount("creds-project");
  const key = await fk.apnsKey("com.example.creds");
  const apns = {
    teamId: key.teamId,
    keyId: key.keyId,
    privateKey: key.privateKey,
    bundleId: "com.example.creds",
    production: true,
  };
  const refused = async (body: unknown, message: string) => {
    const r = await admin("PUT", path, body);
    assert.equal(r.status, 400, JSON.stringify(r.body));
    assert.equal(r.body.error.message, message);
  };
  await refused(
    { fcm: { serviceAccount: { ...sa, type: "authorized_user" } } },
    'fcm.serviceAccount.type: must be "service_account" (a Google service-account key file)',
  );
  await refused(
    { fcm: { serviceAccount: { ...sa, private_key: "not a key" } } },
    'fcm.serviceAccount.private_key must be an RSA private key in PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----")',
  );
  await refused(
    { fcm: { serviceAccount: { ...sa, private_key: key.privateKey } } },
    'fcm.serviceAccount.private_key must be an RSA private key in PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----")',
  );
  await refused(
    { apns: { ...apns, privateKey: await p384Pem() } },
    "apns.privateKey must be a P-256 (ES256) private key in PKCS#8 PEM (the .p8 file from Apple)",
  );
  await refused(
    { apns: { ...apns, teamId: "abc" } },
    "apns.teamId: must be the 10-character Apple team id",
  );
  await refused({}, "body: give fcm, apns or both");
  const missing = await admin("PUT", "/admin/v1/push/apps/no-such-app/credentials", { apns });
  assert.equal(missing.status, 404);
  assert.equal(missing.body.error.code, "APP_NOT_FOUND");

  const put = await admin("PUT", path, { fcm: { serviceAccount: sa }, apns });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  const got = await admin("GET", path);
  assert.equal(got.status, 200);
  assert.deepEqual(got.body.fcm, {
    configured: true,
    projectId: "creds-project",
    clientEmail: sa.client_email,
    fingerprint: got.body.fcm.fingerprint,
    error: null,
  });
  assert.match(got.body.fcm.fingerprint, /^[A-Za-z0-9_-]{43}$/);
  assert.equal(got.body.apns.teamId, key.teamId);
  assert.equal(got.body.apns.production, true);
  const shown = JSON.stringify(got.body) + JSON.stringify(put.body);
  assert.ok(!shown.includes("PRIVATE KEY"), "no key material is returned");
  const { services } = await testEnv();
  const [row] = await services.db.query<{ fcm_sealed: string; apns_sealed: string }>(
    "select fcm_sealed, apns_sealed from push_credentials where appid = $1",
    [tenant.appid],
  );
  assert.match(row.fcm_sealed, /^v1:/);
  assert.ok(!row.fcm_sealed.includes("PRIVATE") && !row.apns_sealed.includes("PRIVATE"));

  assert.equal((await admin("DELETE", `${path}?provider=apns`)).status, 204);
  const afterOne = await admin("GET", path);
  assert.equal(afterOne.body.apns, null);
  assert.equal(afterOne.body.fcm.projectId, "creds-project");
  assert.equal((await admin("DELETE", path)).status, 204);
  const gone = await admin("GET", path);
  assert.equal(gone.status, 404);
  assert.equal(gone.body.error.code, "PUSH_CREDENTIALS_NOT_FOUND");
});

const TEXT = {
  en: { title: "Hello", message: "Spring event starts", extra: "More spring", ticker: "Spring!" },
  ko: { title: "안녕", message: "봄 이벤트 시작", extra: "봄 더보기", ticker: "봄!" },
  ja: { title: "こんにちは", message: "春のイベント", extra: "春もっと", ticker: "春!" },
} as const;

function notification() {
  return Object.fromEntries(
    Object.entries(TEXT).map(([lang, t]) => [lang, {
      android: {
        title: t.title,
        message: t.message,
        messageExpanded: t.extra,
        imageUrl: `https://cdn.example.com/${lang}.png`,
        ticker: t.ticker,
        summaryText: `summary ${lang}`,
      },
      ios: { title: t.title, message: t.message, mediaUrl: `https://cdn.example.com/${lang}.jpg` },
    }]),
  );
}

Deno.test("bulk campaign: one correctly built message per Android and iOS device in three languages", async () => {
  const t = await pushTenant();
  const { projectId, bundleId } = await providerCredentials(fk, t.tenant.appid);
  const devices: { token: string; platform: "android" | "ios"; lang: keyof typeof TEXT }[] = [];
  for (const lang of ["en", "ko", "ja"] as const) {
    devices.push({ token: fcmToken(), platform: "android", lang });
    devices.push({ token: apnsToken(), platform: "ios", lang });
  }
  // A French device gets the default language.
  const fr = { token: fcmToken(), platform: "android" as const, lang: "en" as const };
  const frIos = { token: apnsToken(), platform: "ios" as const, lang: "en" as const };
  for (const d of devices) {
    await device(t, { token: d.token, platform: d.platform, language: d.lang });
  }
  await device(t, { token: fr.token, platform: "android", language: "fr-FR" });
  await device(t, { token: frIos.token, platform: "ios", language: "fr" });
  devices.push(fr, frIos);
  const campaign = await postCampaign(
    t,
    campaignBody(t, {
      notice: true,
      notification: notification(),
      option: {
        badge: 3,
        overwrite: true,
        collapseKey: "spring",
        groupKey: "events",
        android: { icon: "ic_event", sound: "" },
        ios: { sound: "" },
      },
    }),
  );
  assert.equal(campaign.status, 200, JSON.stringify(campaign.body));
  const id = campaign.body.id as number;
  const uuid = campaign.body.uuid as string;
  const sentAt = Math.floor(DUE / 1000);
  await dispatchAt(DUE);

  const fcm = await fk.received({ project: projectId });
  const apns = await fk.received({ topic: bundleId });
  assert.equal(fcm.length, 4, "one FCM message per Android device");
  assert.equal(apns.length, 4, "one APNs request per iOS device");
  for (const d of devices) {
    const t = TEXT[d.lang];
    const data = { campaignId: String(id), campaignUuid: uuid, notice: "true", language: d.lang };
    if (d.platform === "android") {
      const got = fcm.filter((r) => r.token === d.token);
      assert.equal(got.length, 1, `exactly one message for ${d.token}`);
      assert.deepEqual(got[0].body, {
        token: d.token,
        notification: {
          title: t.title,
          body: t.message,
          image: `https://cdn.example.com/${d.lang}.png`,
        },
        android: {
          priority: "HIGH",
          ttl: "86400s",
          collapse_key: "spring",
          notification: {
            sound: "default",
            icon: "ic_event",
            ticker: t.ticker,
            notification_count: 3,
            tag: "spring",
          },
        },
        data: {
          ...data,
          messageExpanded: t.extra,
          summaryText: `summary ${d.lang}`,
          groupKey: "events",
        },
      });
    } else {
      const got = apns.filter((r) => r.token === d.token);
      assert.equal(got.length, 1, `exactly one request for ${d.token}`);
      const headers = got[0].body.headers as Record<string, string>;
      const expiration = Number(headers["apns-expiration"]);
      assert.ok(Math.abs(expiration - (sentAt + 86_400)) < 120, `expiration ${expiration}`);
      assert.deepEqual(headers, {
        "apns-topic": bundleId,
        "apns-push-type": "alert",
        "apns-priority": "10",
        "apns-expiration": headers["apns-expiration"],
        "apns-collapse-id": "spring",
      });
      assert.deepEqual(got[0].body.payload, {
        aps: {
          alert: { title: t.title, body: t.message },
          sound: "default",
          badge: 3,
          "thread-id": "events",
          "mutable-content": 1,
        },
        ...data,
        mediaUrl: `https://cdn.example.com/${d.lang}.jpg`,
      });
    }
  }
  const { services } = await testEnv();
  const slices = await services.db.query(
    "select state, targeted, sent, failed, invalid, retried, resent from push_slices where campaign_id = $1",
    [id],
  );
  assert.deepEqual(slices, [{
    state: "sent",
    targeted: 8,
    sent: 8,
    failed: 0,
    invalid: 0,
    retried: 0,
    resent: 0,
  }]);
  // A second run sends nothing more.
  await dispatchAt(DUE + 60_000);
  assert.equal((await fk.received({ project: projectId })).length, 4);
});
