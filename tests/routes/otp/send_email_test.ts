import assert from "node:assert/strict";
import { admin } from "../../harness.ts";
import { randomEmail, seedOtpTenant } from "./fixture.ts";

const mail = (receiver: string) => ({
  sender: "no-reply@game.example",
  senderName: "Game Support",
  receiver,
  subject: "Your verification code",
});

for (const path of ["/otp/email", "/otp/email/send"]) {
  Deno.test(`${path} sends the code by e-mail and answers otp and expiry only`, async () => {
    const t = await seedOtpTenant();
    const receiver = randomEmail();
    const r = await t.post(path, { ...mail(receiver), lang: "de" });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(Object.keys(r.body).sort(), ["expiry", "otp"]);
    assert.match(r.body.otp, /^\d{6}$/);
    assert.match(r.body.expiry, /\+09:00\[Asia\/Seoul\]$/);
    const outbox = await admin("GET", "/admin/v1/otp/outbox");
    assert.equal(outbox.status, 200);
    assert.equal(outbox.body.email, "LOG");
    const mine = outbox.body.messages.find((m: { to: string }) => m.to === receiver);
    assert.equal(mine.channel, "email");
    assert.equal(mine.subject, "Your verification code");
    assert.equal(mine.lang, "de");
    assert.ok(mine.text.includes(r.body.otp), mine.text);
    assert.ok(mine.text.includes("Bestätigungscode"), mine.text);
    const v = await t.post("/otp/verify", { receiver, otp: r.body.otp });
    assert.deepEqual(v.body, { result: true });
  });
}

Deno.test("e-mail: bad bodies are VALIDATION_FAIL 422 naming the field", async () => {
  const t = await seedOtpTenant();
  const cases: [unknown, RegExp][] = [
    [{ ...mail("not-an-address") }, /^receiver: /],
    [{ ...mail(randomEmail()), sender: "nobody" }, /^sender: /],
    [{ ...mail(randomEmail()), subject: "" }, /^subject: /],
    [{ ...mail(randomEmail()), senderName: undefined }, /^senderName is required/],
    [{ ...mail(randomEmail()), lang: "kr" }, /^lang: /],
  ];
  for (const [json, reason] of cases) {
    const r = await t.post("/otp/email", json);
    assert.equal(r.status, 422, JSON.stringify(json));
    assert.equal(r.body.error.code, "VALIDATION_FAIL");
    assert.match(r.body.error.reason, reason, JSON.stringify(r.body));
  }
});

Deno.test("the outbox is admin-only", async () => {
  const { callJson } = await import("../../harness.ts");
  const r = await callJson("GET", "/admin/v1/otp/outbox");
  assert.equal(r.status, 401);
});
