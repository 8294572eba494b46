import assert from "node:assert/strict";
import { admin, callJson } from "../../harness.ts";
import { koreanMobile, seedOtpTenant } from "./fixture.ts";

const body = () => ({ to: koreanMobile(), toCountryNo: "82" });

function assertError(
  r: { status: number; body: { error: { code: string; reason: string } } },
  status: number,
  code: string,
) {
  assert.equal(r.status, status, JSON.stringify(r.body));
  assert.deepEqual(Object.keys(r.body), ["error"]);
  assert.deepEqual(Object.keys(r.body.error).sort(), ["code", "reason"]);
  assert.equal(r.body.error.code, code);
  assert.equal(typeof r.body.error.reason, "string");
}

Deno.test("auth: a missing Authorization header is UNAUTHORIZED 401", async () => {
  const t = await seedOtpTenant();
  for (const path of ["/otp/sms", "/otp/send", "/otp/email", "/otp/email/send", "/otp/verify"]) {
    const r = await callJson("POST", path, { json: body(), headers: { topic: t.topic } });
    assertError(r, 401, "UNAUTHORIZED");
  }
});

Deno.test("auth: an invalid key is UNAUTHORIZED 401", async () => {
  const t = await seedOtpTenant();
  const r = await t.post("/otp/sms", body(), { authorization: "bearer not-a-key" });
  assertError(r, 401, "UNAUTHORIZED");
});

Deno.test("auth: a scheme other than bearer is FORBIDDEN 403", async () => {
  const t = await seedOtpTenant();
  const r = await t.post("/otp/sms", body(), { authorization: `Basic ${t.apiKey}` });
  assertError(r, 403, "FORBIDDEN");
  const upper = await t.post("/otp/sms", body(), { authorization: `Bearer ${t.apiKey}` });
  assert.equal(upper.status, 200, "the scheme is case-insensitive");
});

Deno.test("auth: a key without the otp scope is FORBIDDEN 403", async () => {
  const t = await seedOtpTenant();
  const pushKey = await admin("POST", `/admin/v1/games/${t.gameIndex}/api-keys`, {
    scopes: ["push"],
  });
  const r = await t.post("/otp/sms", body(), { authorization: `bearer ${pushKey.body.apiKey}` });
  assertError(r, 403, "FORBIDDEN");
});

Deno.test("auth: a revoked key is UNAUTHORIZED 401 at once", async () => {
  const t = await seedOtpTenant();
  const to = koreanMobile();
  const sent = await t.post("/otp/sms", { to, toCountryNo: "82" });
  assert.equal(sent.status, 200);
  const revoked = await admin("DELETE", `/admin/v1/api-keys/${t.keyId}`);
  assert.equal(revoked.status, 204);
  assertError(await t.post("/otp/sms", body()), 401, "UNAUTHORIZED");
  assertError(
    await t.post("/otp/verify", { to, toCountryNo: "82", otp: sent.body.otp }),
    401,
    "UNAUTHORIZED",
  );
});

Deno.test("topic: a missing Topic header is NO_TOPIC 400", async () => {
  const t = await seedOtpTenant();
  const r = await callJson("POST", "/otp/sms", {
    json: body(),
    headers: { authorization: t.headers.authorization },
  });
  assertError(r, 400, "NO_TOPIC");
  const blank = await t.post("/otp/verify", { receiver: "a@b.c", otp: "1" }, { topic: "  " });
  assertError(blank, 400, "NO_TOPIC");
});

Deno.test("topic: an unknown topic, or another game's topic, is NO_TOPIC 400", async () => {
  const t = await seedOtpTenant();
  const other = await seedOtpTenant();
  assertError(await t.post("/otp/sms", body(), { topic: "no-such-topic" }), 400, "NO_TOPIC");
  assertError(await t.post("/otp/email", {}, { topic: other.topic }), 400, "NO_TOPIC");
});

Deno.test("an unknown OTP path is NOT_FOUND 404 in the OTP envelope", async () => {
  const t = await seedOtpTenant();
  const r = await t.post("/otp/nothing-here", {});
  assertError(r, 404, "NOT_FOUND");
});
