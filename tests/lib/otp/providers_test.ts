import assert from "node:assert/strict";
import { createOutbound } from "../../../lib/outbound/mod.ts";
import { createTwilioSms } from "../../../lib/otp/delivery/twilio.ts";
import { createSendgridEmail } from "../../../lib/otp/delivery/sendgrid.ts";
import { createLogProviders } from "../../../lib/otp/delivery/log.ts";
import { DomainError } from "../../../lib/errors.ts";
import { SENDGRID_KEY, startFakeSendgrid, startFakeTwilio, TWILIO } from "./fake_providers.ts";

const outbound = createOutbound({ allowPrivate: true, defaultTimeoutMs: 5_000 });
const ctx = { outbound, nowMs: Date.now() };
const sms = {
  to: "+821012345678",
  text: "[Game] Your code is 123456.",
  lang: "en",
  retry: false,
  expiresAtMs: Date.now() + 60_000,
};

function twilio(baseUrl: string, extra: Partial<Parameters<typeof createTwilioSms>[0]> = {}) {
  return createTwilioSms({
    baseUrl,
    accountSid: TWILIO.sid,
    authToken: TWILIO.token,
    from: TWILIO.from,
    timeoutMs: 2_000,
    retries: 0,
    ...extra,
  });
}

function sendgrid(baseUrl: string) {
  return createSendgridEmail({ baseUrl, apiKey: SENDGRID_KEY, timeoutMs: 2_000, retries: 0 });
}

function isProviderError(pattern: RegExp) {
  return (err: unknown) => {
    assert.ok(err instanceof DomainError, String(err));
    assert.equal(err.code, "PROVIDER_ERROR");
    assert.equal(err.kind, "upstream");
    assert.match(err.message, pattern);
    return true;
  };
}

Deno.test("Twilio: posts the form-encoded Messages API request with Basic auth", async () => {
  const fake = startFakeTwilio();
  try {
    await twilio(fake.url).send(ctx, sms);
    assert.equal(fake.received.length, 1);
    const form = new URLSearchParams(fake.received[0].body);
    assert.equal(form.get("To"), "+821012345678");
    assert.equal(form.get("From"), TWILIO.from);
    assert.equal(form.get("Body"), sms.text);
  } finally {
    await fake.close();
  }
});

Deno.test("Twilio: a messaging service replaces From", async () => {
  const fake = startFakeTwilio();
  try {
    await twilio(fake.url, { from: undefined, messagingServiceSid: "MG123" }).send(ctx, sms);
    const form = new URLSearchParams(fake.received[0].body);
    assert.equal(form.get("MessagingServiceSid"), "MG123");
    assert.equal(form.get("From"), null);
  } finally {
    await fake.close();
  }
});

Deno.test("Twilio: refusals and bad credentials become PROVIDER_ERROR with Twilio's message", async () => {
  const fake = startFakeTwilio({ status: 400, code: 21211, message: "Invalid 'To' Phone Number" });
  const fake2 = startFakeTwilio();
  try {
    await assert.rejects(
      twilio(fake.url).send(ctx, sms),
      isProviderError(/HTTP 400: 21211 Invalid 'To'/),
    );
    await assert.rejects(
      twilio(fake2.url, { authToken: "wrong" }).send(ctx, sms),
      isProviderError(/HTTP 401: 20003 Authenticate/),
    );
  } finally {
    await fake.close();
    await fake2.close();
  }
});

Deno.test("Twilio: an unreachable API is a PROVIDER_ERROR", async () => {
  const fake = startFakeTwilio();
  await fake.close();
  await assert.rejects(twilio(fake.url).send(ctx, sms), isProviderError(/could not be reached/));
});

Deno.test("SendGrid: posts the v3 mail send JSON with Bearer auth", async () => {
  const fake = startFakeSendgrid();
  try {
    const provider = sendgrid(fake.url);
    await provider.send(ctx, {
      from: "no-reply@game.example",
      fromName: "Game",
      to: "user@example.com",
      subject: "Your code",
      text: "Your code is 123456.",
      html: "<p>Your code is 123456.</p>",
      lang: "en",
      expiresAtMs: Date.now() + 60_000,
    });
    assert.equal(fake.received.length, 1);
    const mail = JSON.parse(fake.received[0].body);
    assert.deepEqual(mail.personalizations, [{ to: [{ email: "user@example.com" }] }]);
    assert.deepEqual(mail.from, { email: "no-reply@game.example", name: "Game" });
    assert.equal(mail.subject, "Your code");
    assert.deepEqual(mail.content.map((c: { type: string }) => c.type), [
      "text/plain",
      "text/html",
    ]);
  } finally {
    await fake.close();
  }
});

Deno.test("SendGrid: a refusal becomes PROVIDER_ERROR naming the field", async () => {
  const fake = startFakeSendgrid(403);
  try {
    const provider = sendgrid(fake.url);
    await assert.rejects(
      provider.send(ctx, {
        from: "x@y.z",
        fromName: "n",
        to: "a@b.c",
        subject: "s",
        text: "t",
        html: "h",
        lang: "en",
        expiresAtMs: Date.now() + 1000,
      }),
      isProviderError(/HTTP 403: from: The from address does not match/),
    );
  } finally {
    await fake.close();
  }
});

Deno.test("log provider: keeps the last messages, newest first, and forgets expired ones", async () => {
  const log = createLogProviders(2);
  const now = 1_000_000;
  await log.sms.send({ outbound, nowMs: now }, { ...sms, text: "a", expiresAtMs: now + 100 });
  await log.sms.send({ outbound, nowMs: now }, { ...sms, text: "b", expiresAtMs: now + 1000 });
  await log.sms.send({ outbound, nowMs: now }, { ...sms, text: "c", expiresAtMs: now + 1000 });
  assert.deepEqual(log.outbox.list(now).map((m) => m.text), ["c", "b"]);
  assert.deepEqual(log.outbox.list(now + 1000).map((m) => m.text), []);
});

Deno.test("log provider: the outbox wraps around many times, entries whole and in order", async () => {
  const log = createLogProviders(3);
  const now = 2_000_000;
  for (let i = 0; i < 10; i++) {
    const expiresAtMs = now + (i === 8 ? 10 : 1000);
    await log.sms.send({ outbound, nowMs: now + i }, { ...sms, text: `s${i}`, expiresAtMs });
  }
  await log.email.send({ outbound, nowMs: now + 10 }, {
    from: "a@b.c",
    fromName: "n",
    to: "d@e.f",
    subject: "s",
    text: "e10",
    html: "h",
    lang: "en",
    expiresAtMs: now + 1000,
  });
  assert.deepEqual(log.outbox.list(now).map((m) => m.text), ["e10", "s9", "s8"]);
  // s8 expired: gone for good, and nothing older comes back in its place.
  assert.deepEqual(log.outbox.list(now + 10).map((m) => m.text), ["e10", "s9"]);
  const [email, last] = log.outbox.list(now + 10);
  assert.deepEqual(email, {
    channel: "email",
    to: "d@e.f",
    subject: "s",
    text: "e10",
    lang: "en",
    sentAt: new Date(now + 10).toISOString(),
    expiresAt: new Date(now + 1000).toISOString(),
  });
  assert.deepEqual(Object.keys(last), [
    "channel",
    "to",
    "text",
    "lang",
    "retry",
    "sentAt",
    "expiresAt",
  ]);
  assert.equal(last.sentAt, new Date(now + 9).toISOString());
});
