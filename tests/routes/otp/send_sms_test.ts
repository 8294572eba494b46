import assert from "node:assert/strict";
import { admin, callJson, testEnv } from "../../harness.ts";
import { koreanMobile, seedOtpTenant } from "./fixture.ts";
import { OTP_LANGS } from "../../../lib/otp/messages.ts";

const EXPIRY = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}(?:[+-]\d{2}:\d{2}|Z)\[[A-Za-z_/]+\]$/;

for (const path of ["/otp/sms", "/otp/send"]) {
  Deno.test(`${path} sends a 6-digit code through the log provider and answers otp, provider, expiry`, async () => {
    const t = await seedOtpTenant();
    const to = koreanMobile();
    const r = await t.post(path, { to, toCountryNo: "82", lang: "ko" });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(Object.keys(r.body).sort(), ["expiry", "otp", "provider"]);
    assert.match(r.body.otp, /^\d{6}$/);
    assert.equal(r.body.provider, "LOG");
    assert.match(r.body.expiry, EXPIRY);
    assert.ok(r.body.expiry.endsWith("+09:00[Asia/Seoul]"), r.body.expiry);
    const outbox = await admin("GET", "/admin/v1/otp/outbox");
    const mine = outbox.body.messages.find((m: { to: string }) => m.to === `+82${to.slice(1)}`);
    assert.ok(mine, "the log provider kept the message");
    assert.equal(mine.channel, "sms");
    assert.ok(mine.text.includes(r.body.otp));
    assert.ok(mine.text.startsWith("[Summoners War] 인증번호"), mine.text);
  });
}

Deno.test("send: lang defaults to en; codeLength, expiry and time zone come from the topic", async () => {
  const t = await seedOtpTenant({ codeLength: 8, expirySeconds: 300, timeZone: "Europe/Paris" });
  const { clock } = await testEnv();
  const to = koreanMobile();
  const before = clock.now();
  const r = await t.post("/otp/sms", { to, toCountryNo: "82" });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.match(r.body.otp, /^\d{8}$/);
  assert.match(r.body.expiry, /^\d{4}-\d{2}-\d{2}T[\d:.]+\+0[12]:00\[Europe\/Paris\]$/);
  const [local, zone] = r.body.expiry.split("[");
  assert.equal(zone, "Europe/Paris]");
  const expiresAt = Date.parse(local);
  assert.ok(expiresAt >= before + 300_000 && expiresAt <= clock.now() + 300_000, r.body.expiry);
  const outbox = await admin("GET", "/admin/v1/otp/outbox");
  const mine = outbox.body.messages.find((m: { to: string }) => m.to === `+82${to.slice(1)}`);
  assert.equal(mine.lang, "en");
  assert.equal(
    mine.text,
    `[Summoners War] Your verification code is ${r.body.otp}. It is valid for 5 minutes.`,
  );
});

Deno.test("send: every one of the spec's 18 languages is accepted, case-insensitively, and used", async () => {
  assert.equal(OTP_LANGS.length, 18);
  const t = await seedOtpTenant();
  const english = (otp: string) => `[Summoners War] Your verification code is ${otp}.`;
  for (const lang of OTP_LANGS) {
    const to = koreanMobile();
    const r = await t.post("/otp/sms", { to, toCountryNo: "82", lang: lang.toUpperCase() });
    assert.equal(r.status, 200, `${lang}: ${JSON.stringify(r.body)}`);
    const outbox = await admin("GET", "/admin/v1/otp/outbox");
    const mine = outbox.body.messages.find((m: { to: string }) => m.to === `+82${to.slice(1)}`);
    assert.equal(mine.lang, lang);
    assert.ok(
      mine.text.startsWith("[Summoners War] ") && mine.text.includes(r.body.otp),
      mine.text,
    );
    // Only en may read as English: every other code gets its own language's sentence.
    assert.equal(mine.text.startsWith(english(r.body.otp)), lang === "en", mine.text);
  }
  const bad = await t.post("/otp/sms", { to: koreanMobile(), toCountryNo: "82", lang: "xx" });
  assert.equal(bad.status, 422);
  assert.equal(bad.body.error.code, "VALIDATION_FAIL");
  assert.match(bad.body.error.reason, /^lang: /);
});

Deno.test("send: lookup true accepts a valid number", async () => {
  const t = await seedOtpTenant();
  const r = await t.post("/otp/sms", { to: koreanMobile(), toCountryNo: "82", lookup: true });
  assert.equal(r.status, 200, JSON.stringify(r.body));
});

Deno.test("send: lookup true refuses an invalid number with INVALID_PHONE_NUMBER 422", async () => {
  const t = await seedOtpTenant();
  for (const [to, cc] of [["0101234", "82"], ["2025550123", "82"], ["+12025550123", "82"]]) {
    const r = await t.post("/otp/sms", { to, toCountryNo: cc, lookup: true });
    assert.equal(r.status, 422, to);
    assert.deepEqual(Object.keys(r.body.error).sort(), ["code", "reason"]);
    assert.equal(r.body.error.code, "INVALID_PHONE_NUMBER");
  }
  // Without lookup the format is not checked, as the spec says.
  const r = await t.post("/otp/sms", { to: "0101234", toCountryNo: "82" });
  assert.equal(r.status, 200);
});

Deno.test("send: bad bodies are VALIDATION_FAIL 422 naming the field", async () => {
  const t = await seedOtpTenant();
  const cases: [unknown, RegExp][] = [
    [{ toCountryNo: "82" }, /^to is required/],
    [{ to: koreanMobile() }, /^toCountryNo is required/],
    [{ to: "call me", toCountryNo: "82" }, /^to: must be a phone number/],
    [{ to: koreanMobile(), toCountryNo: "KR" }, /^toCountryNo: must be a country calling code/],
    [{ to: koreanMobile(), toCountryNo: "82", retry: "yes" }, /^retry: /],
    [{ to: koreanMobile(), toCountryNo: "82", lookup: 1 }, /^lookup: /],
    [[], /body|expected object/],
  ];
  for (const [json, reason] of cases) {
    const r = await t.post("/otp/sms", json);
    assert.equal(r.status, 422, JSON.stringify(json));
    assert.equal(r.body.error.code, "VALIDATION_FAIL");
    assert.match(r.body.error.reason, reason, JSON.stringify(r.body));
  }
});

Deno.test("send: malformed JSON and a wrong content type are VALIDATION_FAIL 422", async () => {
  const t = await seedOtpTenant();
  const malformed = await callJson("POST", "/otp/sms", {
    body: '{"to": "010',
    headers: { ...t.headers, "content-type": "application/json" },
  });
  assert.equal(malformed.status, 422);
  assert.equal(malformed.body.error.code, "VALIDATION_FAIL");
  assert.match(malformed.body.error.reason, /JSON/);
  const text = await callJson("POST", "/otp/send", {
    body: "to=01012345678",
    headers: { ...t.headers, "content-type": "text/plain" },
  });
  assert.equal(text.status, 422);
  assert.equal(text.body.error.code, "VALIDATION_FAIL");
});

Deno.test("send: an oversized body is VALIDATION_FAIL 422 in the OTP envelope", async () => {
  const t = await seedOtpTenant();
  const { services } = await testEnv();
  const big = JSON.stringify({
    to: koreanMobile(),
    toCountryNo: "82",
    pad: "x".repeat(services.config.MAX_BODY_BYTES),
  });
  const r = await callJson("POST", "/otp/sms", {
    body: big,
    headers: { ...t.headers, "content-type": "application/json" },
  });
  assert.equal(r.status, 422);
  assert.equal(r.body.error.code, "VALIDATION_FAIL");
  assert.match(r.body.error.reason, /too large/);
});
