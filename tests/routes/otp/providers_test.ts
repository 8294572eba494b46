import assert from "node:assert/strict";
import { type Config, loadConfig } from "../../../lib/config.ts";
import { createOtpProviders } from "../../../lib/otp/delivery/mod.ts";
import { appWith, koreanMobile, randomEmail, seedOtpTenant } from "./fixture.ts";
import {
  SENDGRID_KEY,
  startFakeSendgrid,
  startFakeTwilio,
  TWILIO,
} from "../../lib/otp/fake_providers.ts";

/** The app with OTP providers built from the test configuration plus `change` (no retries). */
function appWithProviders(change: Partial<Config>) {
  return appWith((services) => ({
    otpProviders: createOtpProviders({ ...services.config, OTP_DELIVERY_RETRIES: 0, ...change }),
  }));
}

function twilioEnv(url: string): Partial<Config> {
  return {
    OTP_SMS_PROVIDER: "twilio",
    TWILIO_API_BASE_URL: url,
    TWILIO_ACCOUNT_SID: TWILIO.sid,
    TWILIO_AUTH_TOKEN: TWILIO.token,
    TWILIO_FROM: TWILIO.from,
  };
}

function sendgridEnv(url: string): Partial<Config> {
  return {
    OTP_EMAIL_PROVIDER: "sendgrid",
    SENDGRID_API_BASE_URL: url,
    SENDGRID_API_KEY: SENDGRID_KEY,
  };
}

Deno.test("provider mode sends SMS through Twilio and reports it as the provider", async () => {
  const twilio = startFakeTwilio();
  try {
    const post = await appWithProviders(twilioEnv(twilio.url));
    const t = await seedOtpTenant();
    const to = koreanMobile();
    const r = await post("/otp/sms", { to, toCountryNo: "82", lang: "en" }, t.headers);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.provider, "TWILIO");
    const form = new URLSearchParams(twilio.received[0].body);
    assert.equal(form.get("To"), `+82${to.slice(1)}`);
    assert.equal(
      form.get("Body"),
      `[Summoners War] Your verification code is ${r.body.otp}. It is valid for 3 minutes.`,
    );
    const v = await post("/otp/verify", { to, toCountryNo: "82", otp: r.body.otp }, t.headers);
    assert.deepEqual(v.body, { result: true });
  } finally {
    await twilio.close();
  }
});

Deno.test("a Twilio refusal is PROVIDER_ERROR 502 and the code is not valid", async () => {
  const twilio = startFakeTwilio({
    status: 400,
    code: 21610,
    message: "Attempt to send to unsubscribed recipient",
  });
  try {
    const post = await appWithProviders(twilioEnv(twilio.url));
    const t = await seedOtpTenant();
    const to = koreanMobile();
    const r = await post("/otp/sms", { to, toCountryNo: "82" }, t.headers);
    assert.equal(r.status, 502);
    assert.equal(r.body.error.code, "PROVIDER_ERROR");
    assert.match(
      r.body.error.reason,
      /TWILIO refused the message \(HTTP 400: 21610 Attempt to send/,
    );
    assert.ok(!r.body.error.reason.includes(TWILIO.token));
    const code = /is (\d{6})\./.exec(new URLSearchParams(twilio.received[0].body).get("Body")!)![1];
    const v = await post("/otp/verify", { to, toCountryNo: "82", otp: code }, t.headers);
    assert.deepEqual(v.body, { result: false });
  } finally {
    await twilio.close();
  }
});

Deno.test("provider mode sends e-mail through SendGrid", async () => {
  const sendgrid = startFakeSendgrid();
  try {
    const post = await appWithProviders(sendgridEnv(sendgrid.url));
    const t = await seedOtpTenant();
    const receiver = randomEmail();
    const r = await post("/otp/email", {
      sender: "no-reply@game.example",
      senderName: "Game <Support>",
      receiver,
      subject: "Code",
      lang: "fr",
    }, t.headers);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const sent = JSON.parse(sendgrid.received[0].body);
    assert.deepEqual(sent.personalizations, [{ to: [{ email: receiver }] }]);
    assert.deepEqual(sent.from, { email: "no-reply@game.example", name: "Game <Support>" });
    assert.ok(sent.content[0].value.includes(r.body.otp));
    assert.ok(sent.content[0].value.includes("Votre code"));
    assert.ok(sent.content[1].value.startsWith("<p>[Summoners War]"), sent.content[1].value);
  } finally {
    await sendgrid.close();
  }
});

Deno.test("a SendGrid refusal is PROVIDER_ERROR 502 and the code is not valid", async () => {
  const sendgrid = startFakeSendgrid(403);
  try {
    const post = await appWithProviders(sendgridEnv(sendgrid.url));
    const t = await seedOtpTenant();
    const receiver = randomEmail();
    const r = await post("/otp/email", {
      sender: "x@game.example",
      senderName: "G",
      receiver,
      subject: "Code",
    }, t.headers);
    assert.equal(r.status, 502);
    assert.equal(r.body.error.code, "PROVIDER_ERROR");
    const code = /is (\d{6})\./.exec(JSON.parse(sendgrid.received[0].body).content[0].value)![1];
    assert.deepEqual((await post("/otp/verify", { receiver, otp: code }, t.headers)).body, {
      result: false,
    });
  } finally {
    await sendgrid.close();
  }
});

Deno.test("provider settings are checked at start-up", () => {
  assert.throws(() => loadConfig({ OTP_SMS_PROVIDER: "twilio" }), /TWILIO_ACCOUNT_SID/);
  assert.throws(() => loadConfig({ OTP_EMAIL_PROVIDER: "sendgrid" }), /SENDGRID_API_KEY/);
  assert.throws(() => loadConfig({ OTP_SMS_PROVIDER: "carrier-pigeon" }), /OTP_SMS_PROVIDER/);
});
