import assert from "node:assert/strict";
import { keepingClock, koreanMobile, randomEmail, seedOtpTenant } from "./fixture.ts";

/** A six-digit code that is not `otp`. */
function wrongCode(otp: string): string {
  return otp === "999999" ? "999998" : "999999";
}

Deno.test("verify: the sent code is valid, once", async () => {
  const t = await seedOtpTenant();
  const to = koreanMobile();
  const sent = await t.sendSms(to);
  assert.equal(sent.status, 200);
  const first = await t.verifySms(to, sent.body.otp);
  assert.equal(first.status, 200);
  assert.deepEqual(first.body, { result: true });
  const again = await t.verifySms(to, sent.body.otp);
  assert.deepEqual(again.body, { result: false });
});

Deno.test("verify: the number may be written differently than at send time", async () => {
  const t = await seedOtpTenant();
  const to = koreanMobile();
  const sent = await t.sendSms(to);
  const dashed = `+82 ${to.slice(1, 3)}-${to.slice(3, 7)}-${to.slice(7)}`;
  const r = await t.post("/otp/verify", { to: dashed, toCountryNo: "+82", otp: sent.body.otp });
  assert.deepEqual(r.body, { result: true });
});

Deno.test("verify: a wrong code is false and the right one still works", async () => {
  const t = await seedOtpTenant();
  const to = koreanMobile();
  const sent = await t.sendSms(to);
  const wrong = wrongCode(sent.body.otp);
  assert.deepEqual((await t.verifySms(to, wrong)).body, { result: false });
  assert.deepEqual((await t.verifySms(to, sent.body.otp)).body, { result: true });
});

Deno.test("verify: a new send replaces the previous code", async () => {
  await keepingClock(async (clock) => {
    const t = await seedOtpTenant();
    const to = koreanMobile();
    const first = await t.sendSms(to);
    clock.advance(31_000); // past the cooldown
    const second = await t.sendSms(to);
    assert.equal(second.status, 200, JSON.stringify(second.body));
    if (first.body.otp !== second.body.otp) {
      assert.deepEqual((await t.verifySms(to, first.body.otp)).body, { result: false });
    }
    assert.deepEqual((await t.verifySms(to, second.body.otp)).body, { result: true });
  });
});

Deno.test("verify: five wrong attempts void the code", async () => {
  const t = await seedOtpTenant();
  const to = koreanMobile();
  const sent = await t.sendSms(to);
  const wrong = wrongCode(sent.body.otp);
  for (let i = 0; i < 5; i++) {
    assert.deepEqual((await t.verifySms(to, wrong)).body, { result: false }, `attempt ${i + 1}`);
  }
  assert.deepEqual((await t.verifySms(to, sent.body.otp)).body, { result: false });
});

Deno.test("verify: four wrong attempts leave the code usable", async () => {
  const t = await seedOtpTenant();
  const to = koreanMobile();
  const sent = await t.sendSms(to);
  const wrong = wrongCode(sent.body.otp);
  for (let i = 0; i < 4; i++) await t.verifySms(to, wrong);
  assert.deepEqual((await t.verifySms(to, sent.body.otp)).body, { result: true });
});

Deno.test("verify: an expired code is false (topic validity, injectable clock)", async () => {
  await keepingClock(async (clock) => {
    const t = await seedOtpTenant({ expirySeconds: 60 });
    const to = koreanMobile();
    const sent = await t.sendSms(to);
    clock.advance(59_000);
    const other = koreanMobile();
    const sent2 = await t.sendSms(other);
    clock.advance(2_000);
    assert.deepEqual((await t.verifySms(to, sent.body.otp)).body, { result: false });
    // The second code (sent 2 s ago) is still valid: expiry is per code, not per clock jump.
    assert.deepEqual((await t.verifySms(other, sent2.body.otp)).body, { result: true });
  });
});

Deno.test("verify: concurrent right answers succeed exactly once", async () => {
  const t = await seedOtpTenant();
  const to = koreanMobile();
  const sent = await t.sendSms(to);
  const results = await Promise.all(
    Array.from({ length: 4 }, () => t.verifySms(to, sent.body.otp)),
  );
  assert.equal(results.filter((r) => r.body.result === true).length, 1);
});

Deno.test("verify: e-mail codes verify by receiver, case-insensitively", async () => {
  const t = await seedOtpTenant();
  const receiver = randomEmail();
  const sent = await t.post("/otp/email", {
    sender: "no-reply@game.example",
    senderName: "Game",
    receiver,
    subject: "Your code",
  });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  const r = await t.post("/otp/verify", { receiver: receiver.toUpperCase(), otp: sent.body.otp });
  assert.deepEqual(r.body, { result: true });
});

Deno.test("verify: codes belong to their topic and game", async () => {
  const a = await seedOtpTenant();
  const b = await seedOtpTenant();
  const to = koreanMobile();
  const sent = await a.sendSms(to);
  const elsewhere = await b.verifySms(to, sent.body.otp);
  assert.deepEqual(elsewhere.body, { result: false });
  // An SMS code is not an e-mail code either.
  const asEmail = await a.post("/otp/verify", { receiver: to, otp: sent.body.otp });
  assert.deepEqual(asEmail.body, { result: false });
  assert.deepEqual((await a.verifySms(to, sent.body.otp)).body, { result: true });
});

Deno.test("verify: a receiver that was never sent a code is false", async () => {
  const t = await seedOtpTenant();
  const r = await t.verifySms(koreanMobile(), "123456");
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, { result: false });
});

Deno.test("verify: the body must name one receiver and an otp (VALIDATION_FAIL)", async () => {
  const t = await seedOtpTenant();
  const cases: [unknown, RegExp][] = [
    [{ otp: "123456" }, /to and toCountryNo \(SMS\) or receiver \(e-mail\) is required/],
    [{ to: "01012345678", otp: "123456" }, /toCountryNo is required with to/],
    [{ toCountryNo: "82", otp: "123456" }, /to is required with toCountryNo/],
    [{ to: "01012345678", toCountryNo: "82", receiver: "a@b.c", otp: "1" }, /not both/],
    [{ to: "01012345678", toCountryNo: "82" }, /otp is required/],
    [{ to: "01012345678", toCountryNo: "82", otp: 123456 }, /otp/],
    [{ to: "01012345678", toCountryNo: "KR", otp: "1" }, /^toCountryNo: must be a country calling/],
  ];
  for (const [json, reason] of cases) {
    const r = await t.post("/otp/verify", json);
    assert.equal(r.status, 422, JSON.stringify(json));
    assert.equal(r.body.error.code, "VALIDATION_FAIL");
    assert.match(r.body.error.reason, reason);
  }
});
