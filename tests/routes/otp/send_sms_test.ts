import assert from "node:assert/strict";
import { admin } from "../../harness.ts";
import { koreanMobile, seedOtpTenant } from "./fixture.ts";

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
