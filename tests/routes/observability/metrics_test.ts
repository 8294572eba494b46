import assert from "node:assert/strict";
import { ADMIN_TOKEN, appWith, call, callJson, testEnv } from "../../harness.ts";
import { itemFixture } from "../../lib/items/fixture.ts";
import { koreanMobile, seedOtpTenant } from "../otp/fixture.ts";
import { campaignBody, postCampaign, pushTenant } from "../push/fixture.ts";
import { chatBody, chatMessage } from "../moderation/fixtures.ts";
import { parseMetrics, sumOf as sum } from "../../metrics_scrape.ts";

async function scrape(token = ADMIN_TOKEN) {
  const res = await call("GET", "/metrics", { headers: { authorization: `Bearer ${token}` } });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
  return parseMetrics(await res.text());
}

Deno.test("GET /metrics: refused without a token or with a wrong one, in the admin envelope", async () => {
  const none = await callJson("GET", "/metrics");
  assert.equal(none.status, 401);
  assert.equal(none.body.error.code, "UNAUTHORIZED");
  const wrong = await callJson("GET", "/metrics", { headers: { authorization: "Bearer nope" } });
  assert.equal(wrong.status, 401);
});

Deno.test("GET /metrics: METRICS_TOKEN scrapes too", async () => {
  const token = `metrics-${crypto.randomUUID()}`;
  const app = await appWith({ config: { METRICS_TOKEN: token } });
  const ok = await app.request("/metrics", { headers: { authorization: `Bearer ${token}` } });
  assert.equal(ok.status, 200);
  await ok.text();
  const admin = await app.request("/metrics", {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  assert.equal(admin.status, 200);
  await admin.text();
});

Deno.test("GET /metrics: counters match the traffic of every family", async () => {
  const { services } = await testEnv();
  await using items = await itemFixture("http");
  const otp = await seedOtpTenant();
  const push = await pushTenant();
  await services.idle();
  const before = await scrape();

  // blockchain: 2 requests on one route (1 ok, 1 unauthorized)
  const chainHeaders = items.tenant.chainHeaders;
  await call("GET", "/service/v1/contract/owner/0x1", { headers: chainHeaders });
  await call("GET", "/service/v1/contract/owner/0x1", { headers: { "x-network": "polygon" } });
  // chat and text detection: one request each (both refused)
  await call("POST", "/chat/api/v1/send-chat-log", {
    json: chatBody("ZZZZZZZZZZZZZZZZ", "0123456789abcdef", [chatMessage()]),
  });
  await call("POST", "/cads2/send-text-data", { json: {} });
  // CPA: one refused notification
  await call("POST", "/api/cpa", { json: {} });
  // items: one delivered request
  const body = items.body();
  assert.equal((await items.register(body)).status, 202);
  await services.idle();
  // OTP: one send, one duplicate (cooldown), one wrong and one right verification
  const to = koreanMobile();
  assert.equal((await otp.sendSms(to)).status, 200);
  assert.equal((await otp.sendSms(to)).status, 409);
  const { body: outbox } = await callJson("GET", "/admin/v1/otp/outbox", {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  // deno-lint-ignore no-explicit-any
  const code = outbox.messages.find((m: any) => m.to.endsWith(to.slice(1)))?.text.match(/\d{6}/)
    ?.[0];
  assert.ok(code, "the OTP reached the log provider");
  assert.equal((await otp.verifySms(to, code === "000000" ? "111111" : "000000")).status, 200);
  assert.equal((await otp.verifySms(to, code)).status, 200);
  // push: one campaign
  assert.equal((await postCampaign(push, campaignBody(push))).status, 200);
  // admin: one read
  await call("GET", `/admin/v1/games/${items.tenant.gameIndex}/chat-logs`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });

  const after = await scrape();
  const delta = (name: string, match: Record<string, string> = {}) =>
    sum(after, name, match) - sum(before, name, match);
  const req = "gp_http_requests_total";
  const owner = { family: "blockchain", route: "/service/v1/contract/owner/:owner" };
  assert.equal(delta(req, { ...owner, status: "200" }), 1);
  assert.equal(delta(req, { ...owner, status: "401" }), 1);
  assert.equal(delta(req, { family: "chat" }), 1);
  assert.equal(delta(req, { family: "tads" }), 1);
  assert.equal(delta(req, { family: "cpa" }), 1);
  assert.equal(delta(req, { family: "items", route: "/items/v1/requests", status: "202" }), 1);
  assert.equal(delta(req, { family: "otp", route: "/otp/sms" }), 2);
  assert.equal(delta(req, { family: "otp", route: "/otp/verify", status: "200" }), 2);
  assert.equal(delta(req, { family: "push", route: "/push/campaigns", status: "200" }), 1);
  assert.equal(delta(req, { family: "admin", route: "/admin/v1/games/:gameIndex/chat-logs" }), 1);
  assert.equal(delta("gp_http_request_duration_seconds_count", owner), 2);

  assert.equal(delta("gp_item_delivery_attempts_total", { outcome: "delivered" }), 1);
  assert.equal(delta("gp_item_delivery_attempt_duration_seconds_count"), 1);
  assert.equal(delta("gp_outbound_calls_total", { purpose: "item", outcome: "ok" }), 1);
  assert.ok(sum(after, "gp_item_outbox_requests", { status: "DELIVERED" }) >= 1);

  assert.equal(delta("gp_otp_sends_total", { channel: "sms", outcome: "sent" }), 1);
  assert.equal(
    delta("gp_otp_sends_total", { channel: "sms", outcome: "DUPLICATE_OTP_EXISTS" }),
    1,
  );
  assert.equal(delta("gp_otp_limit_refusals_total", { limit: "DUPLICATE_OTP_EXISTS" }), 1);
  assert.equal(delta("gp_otp_verifications_total", { outcome: "valid" }), 1);
  assert.equal(delta("gp_otp_verifications_total", { outcome: "invalid" }), 1);

  assert.ok(sum(after, "gp_push_slices", { state: "pending" }) >= 1);
  // The scrapes themselves are counted too (the first one, seen by the second).
  assert.equal(delta(req, { route: "/metrics", status: "200" }), 1);
});

Deno.test("scheduler runs are timed per job", async () => {
  const { services } = await testEnv();
  const { runScheduled, scheduledJobs } = await import("../../../lib/scheduled.ts");
  const before = await scrape();
  await runScheduled(services);
  const after = await scrape();
  for (const job of scheduledJobs) {
    const m = { job: job.name };
    assert.equal(
      sum(after, "gp_scheduler_job_duration_seconds_count", m) -
        sum(before, "gp_scheduler_job_duration_seconds_count", m),
      1,
      job.name,
    );
  }
});

Deno.test("with an Analytics Engine binding every request writes one data point", async () => {
  const points: { blobs?: string[]; doubles?: number[]; indexes?: string[] }[] = [];
  const app = await appWith({ analytics: { writeDataPoint: (p) => points.push(p) } });
  await (await app.request("/healthz")).text();
  const headers = { "content-type": "application/json" };
  await (await app.request("/v2/auth-token", { method: "POST", body: "{", headers })).text();
  assert.equal(points.length, 2);
  assert.deepEqual(points[0].indexes, ["admin"]);
  assert.deepEqual(points[0].blobs, ["/healthz", "GET", "200", ""]);
  assert.deepEqual(points[1].indexes, ["blockchain"]);
  assert.deepEqual(points[1].blobs?.slice(0, 3), ["/v2/auth-token", "POST", "400"]);
  assert.ok(points[1].blobs?.[3]);
  assert.equal(points[1].doubles?.[1], 400);
});

Deno.test("GET /metrics: made-up HTTP methods are counted as OTHER, adding no series each", async () => {
  const series = async () =>
    (await scrape()).filter((s) => s.name === "gp_http_requests_total").length;
  const made = () => `M${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
  // The first made-up method may add the OTHER series; forty more add nothing.
  await (await call(made(), "/items/v1/requests/x")).body?.cancel();
  await scrape(); // the scrape's own series is there from the next scrape on
  const before = await series();
  for (let i = 0; i < 40; i++) await (await call(made(), "/items/v1/requests/x")).body?.cancel();
  assert.equal(await series(), before);
  const samples = await scrape();
  const methods = new Set(
    samples.filter((s) => s.name === "gp_http_requests_total").map((s) => s.labels.method),
  );
  assert.ok(methods.has("OTHER"));
  assert.ok(
    [...methods].every((m) => /^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS|OTHER)$/.test(m)),
    [...methods].join(),
  );
});
