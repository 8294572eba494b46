import assert from "node:assert/strict";
import { testEnv } from "../../harness.ts";
import { appWith, keepingClock, koreanMobile, randomEmail, seedOtpTenant } from "./fixture.ts";

const DAY = 86_400_000;

Deno.test("cooldown: a second send within 30 s is DUPLICATE_OTP_EXISTS 409; after it, fine", async () => {
  await keepingClock(async (clock) => {
    const t = await seedOtpTenant();
    const to = koreanMobile();
    const first = await t.post("/otp/sms", { to, toCountryNo: "82" });
    assert.equal(first.status, 200);
    clock.advance(29_000);
    const dup = await t.post("/otp/send", { to: `+82${to.slice(1)}`, toCountryNo: "82" });
    assert.equal(dup.status, 409);
    assert.equal(dup.body.error.code, "DUPLICATE_OTP_EXISTS");
    assert.match(dup.body.error.reason, /try again in \d+ s/);
    // The refused send did not replace the first code.
    clock.advance(2_000);
    const later = await t.post("/otp/sms", { to, toCountryNo: "82" });
    assert.equal(later.status, 200, JSON.stringify(later.body));
    // Another receiver is not affected by this one's cooldown.
    assert.equal((await t.post("/otp/sms", { to: koreanMobile(), toCountryNo: "82" })).status, 200);
  });
});

Deno.test("cooldown applies to e-mail receivers too", async () => {
  const t = await seedOtpTenant();
  const receiver = randomEmail();
  const m = { sender: "a@game.example", senderName: "G", receiver, subject: "code" };
  assert.equal((await t.post("/otp/email", m)).status, 200);
  const dup = await t.post("/otp/email/send", m);
  assert.equal(dup.status, 409);
  assert.equal(dup.body.error.code, "DUPLICATE_OTP_EXISTS");
});

Deno.test("per receiver per day: OTP_RECEIVER_PER_DAY sends, then SMS_LIMIT_EXCEEDED 429", async () => {
  await keepingClock(async (clock) => {
    const { services } = await testEnv();
    const limit = services.config.OTP_RECEIVER_PER_DAY;
    // Start at noon UTC so the sends below stay inside one day.
    clock.set(Math.floor(clock.now() / DAY) * DAY + DAY / 2);
    const t = await seedOtpTenant();
    const to = koreanMobile();
    for (let i = 0; i < limit; i++) {
      const r = await t.post("/otp/sms", { to, toCountryNo: "82" });
      assert.equal(r.status, 200, `send ${i + 1}: ${JSON.stringify(r.body)}`);
      clock.advance(31_000);
    }
    const over = await t.post("/otp/sms", { to, toCountryNo: "82" });
    assert.equal(over.status, 429);
    assert.equal(over.body.error.code, "SMS_LIMIT_EXCEEDED");
    assert.match(over.body.error.reason, new RegExp(`limit of ${limit} OTPs per day`));
    // The limit is per receiver: someone else still gets a code; the next day, so does this one.
    assert.equal((await t.post("/otp/sms", { to: koreanMobile(), toCountryNo: "82" })).status, 200);
    clock.advance(DAY);
    assert.equal((await t.post("/otp/sms", { to, toCountryNo: "82" })).status, 200);
  });
});

Deno.test("per topic per minute: OTP_TOPIC_PER_MINUTE sends, then SMS_LIMIT_EXCEEDED 429", async () => {
  await keepingClock(async (clock) => {
    const post = await appWith((s) => ({ config: { ...s.config, OTP_TOPIC_PER_MINUTE: 3 } }));
    // Start just after a minute boundary so the sends share one minute.
    clock.set(Math.ceil(clock.now() / 60_000) * 60_000 + 1_000);
    const t = await seedOtpTenant();
    for (let i = 0; i < 3; i++) {
      const r = await post("/otp/sms", { to: koreanMobile(), toCountryNo: "82" }, t.headers);
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
    const over = await post("/otp/sms", { to: koreanMobile(), toCountryNo: "82" }, t.headers);
    assert.equal(over.status, 429);
    assert.equal(over.body.error.code, "SMS_LIMIT_EXCEEDED");
    assert.match(over.body.error.reason, /limit of 3 OTPs per minute/);
    // Another topic has its own budget; the next minute this one does again.
    const other = await seedOtpTenant();
    assert.equal(
      (await post("/otp/sms", { to: koreanMobile(), toCountryNo: "82" }, other.headers)).status,
      200,
    );
    clock.advance(60_000);
    assert.equal(
      (await post("/otp/sms", { to: koreanMobile(), toCountryNo: "82" }, t.headers)).status,
      200,
    );
  });
});

Deno.test("refused sends use up no budget: 429s for the topic do not count for the receiver", async () => {
  await keepingClock(async (clock) => {
    const { services } = await testEnv();
    const perDay = services.config.OTP_RECEIVER_PER_DAY;
    const post = await appWith((s) => ({ config: { ...s.config, OTP_TOPIC_PER_MINUTE: 1 } }));
    clock.set(Math.floor(clock.now() / DAY) * DAY + DAY / 2);
    const t = await seedOtpTenant();
    assert.equal(
      (await post("/otp/sms", { to: koreanMobile(), toCountryNo: "82" }, t.headers)).status,
      200,
    );
    const to = koreanMobile();
    for (let i = 0; i < perDay + 2; i++) {
      const r = await post("/otp/sms", { to, toCountryNo: "82" }, t.headers);
      assert.equal(r.status, 429, JSON.stringify(r.body));
    }
    for (let i = 0; i < perDay; i++) {
      clock.advance(61_000);
      const r = await post("/otp/sms", { to, toCountryNo: "82" }, t.headers);
      assert.equal(r.status, 200, `send ${i + 1}: ${JSON.stringify(r.body)}`);
    }
    clock.advance(61_000);
    const over = await post("/otp/sms", { to, toCountryNo: "82" }, t.headers);
    assert.match(over.body.error.reason, /per day/);
  });
});
