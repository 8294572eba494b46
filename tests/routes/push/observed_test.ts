/**
 * Push provider calls are observed like every outbound call (a request line and
 * gp_outbound_calls_total per Google OAuth, FCM and APNs call, host only, no token), messages are
 * counted per provider and outcome, and every message carries its collapse id as the providers
 * document it (the fakes check the format).
 */
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
import { ADMIN_TOKEN, call, capturedLogs } from "../../harness.ts";
import { campaignBody, postCampaign, pushTenant } from "./fixture.ts";
import { parseMetrics, sumOf } from "../../metrics_scrape.ts";
import { checkFcmMessage } from "../../../dev/push_fakes.ts";

const fk = await pushFakes();

async function scrape() {
  const res = await call("GET", "/metrics", {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  assert.equal(res.status, 200);
  return parseMetrics(await res.text());
}

type Line = Record<string, unknown>;

Deno.test("observed: OAuth, FCM and APNs calls write outbound lines and counters; messages counted per provider and outcome", async () => {
  const t = await pushTenant();
  const { projectId, bundleId } = await providerCredentials(fk, t.tenant.appid);
  const host = new URL(fk.url).host;
  const apnsHost = new URL(Deno.env.get("APNS_ENDPOINT")!).host;
  const good = { android: fcmToken(), ios: apnsToken() };
  const dead = fcmToken();
  const flaky = apnsToken();
  await fk.script(dead, [], true);
  await fk.script(flaky, [{ status: 503 }]);
  for (const token of [good.android, dead]) await device(t, { token, platform: "android" });
  for (const token of [good.ios, flaky]) await device(t, { token, platform: "ios" });
  const before = await scrape();
  const logsBefore = capturedLogs().length;
  const r = await postCampaign(t, campaignBody(t, { reservation: reservationOn(3) }));
  assert.equal(r.status, 200, JSON.stringify(r.body));
  await dispatchAt(dueOn(3));
  const after = await scrape();
  const delta = (name: string, labels: Record<string, string>) =>
    sumOf(after, name, labels) - sumOf(before, name, labels);

  const calls = "gp_outbound_calls_total";
  assert.equal(delta(calls, { purpose: "push-oauth", host, outcome: "ok" }), 1, "one token");
  assert.equal(delta(calls, { purpose: "push-fcm", host, outcome: "ok" }), 1);
  assert.equal(delta(calls, { purpose: "push-fcm", host, outcome: "http_404" }), 1, "dead token");
  assert.equal(delta(calls, { purpose: "push-apns", host: apnsHost, outcome: "ok" }), 2);
  assert.equal(delta(calls, { purpose: "push-apns", host: apnsHost, outcome: "http_503" }), 1);
  assert.equal(
    delta("gp_outbound_call_duration_seconds_count", { purpose: "push-apns", outcome: "ok" }),
    2,
  );

  const messages = "gp_push_messages_total";
  assert.deepEqual(
    {
      fcmSent: delta(messages, { provider: "fcm", outcome: "sent" }),
      fcmInvalid: delta(messages, { provider: "fcm", outcome: "invalid_token" }),
      apnsSent: delta(messages, { provider: "apns", outcome: "sent" }),
      apnsRetried: delta(messages, { provider: "apns", outcome: "retried" }),
      failed: delta(messages, { outcome: "failed" }),
    },
    { fcmSent: 1, fcmInvalid: 1, apnsSent: 2, apnsRetried: 1, failed: 0 },
  );

  const lines = capturedLogs().slice(logsBefore).map((l) => JSON.parse(l) as Line)
    .filter((l) => l.msg === "outbound" && String(l.purpose).startsWith("push-"));
  const shown = lines.map((l) => ({ purpose: l.purpose, host: l.host, outcome: l.outcome }));
  assert.deepEqual(
    shown.filter((l) => l.purpose === "push-apns" && l.outcome === "http_503"),
    [{ purpose: "push-apns", host: apnsHost, outcome: "http_503" }],
  );
  assert.equal(lines.length, 6, JSON.stringify(shown));
  for (const l of lines) {
    assert.deepEqual(Object.keys(l).sort(), [
      "durationMs",
      "host",
      "level",
      "msg",
      "outcome",
      "purpose",
      "t",
    ]);
  }
  const text = capturedLogs().slice(logsBefore).join("\n");
  for (const token of [good.android, good.ios, dead, flaky]) {
    assert.ok(!text.includes(token), "no device token in any log line");
  }
  assert.ok(!/ya29\.|bearer /i.test(text), "no access or provider token in any log line");

  // Every message carries the collapse id of its campaign and device, as each provider takes it.
  const uuid = r.body.uuid as string;
  const fcm = await fk.received({ project: projectId });
  const apns = await fk.received({ topic: bundleId });
  assert.equal(fcm.length + apns.length, 3);
  for (const m of [...fcm, ...apns]) {
    assert.match(m.collapseId ?? "", new RegExp(`^${uuid}\\.\\d+$`));
  }
  const android = fcm[0].body.android as Record<string, unknown>;
  assert.equal(android.collapse_key, fcm[0].collapseId);
  assert.equal((android.notification as Record<string, unknown>).tag, fcm[0].collapseId);
  for (const m of apns) {
    assert.equal((m.body.headers as Record<string, string>)["apns-collapse-id"], m.collapseId);
  }
});

Deno.test("observed: the FCM fake refuses an empty collapse_key and a collapse id APNs would refuse", () => {
  const long = "c".repeat(65);
  const base = { token: fcmToken(), notification: { title: "a", body: "b" } };
  assert.equal(checkFcmMessage({ message: { ...base, android: { collapse_key: "k" } } }), null);
  assert.deepEqual(checkFcmMessage({ message: { ...base, android: { collapse_key: "" } } }), [
    "message.android.collapse_key",
    "must be a non-empty string",
  ]);
  assert.deepEqual(
    checkFcmMessage({
      message: { ...base, apns: { headers: { "apns-collapse-id": long }, payload: { aps: {} } } },
    }),
    ["message.apns.headers[apns-collapse-id]", "apns-collapse-id must be at most 64 bytes"],
  );
});
