import assert from "node:assert/strict";
import { testEnv } from "../../harness.ts";
import { keepingClock, koreanMobile, seedOtpTenant } from "./fixture.ts";
import { startReceiver } from "../../lib/otp/receiver.ts";
import { hmacSha256Hex } from "../../../lib/crypto/hashing.ts";

Deno.test("direct sending posts the spec's callback JSON, field by field, signed", async () => {
  const game = startReceiver(() => new Response(null, { status: 204 }));
  try {
    const t = await seedOtpTenant({
      mode: "direct",
      callbackUrl: `${game.url}/otp-hook`,
      serviceName: "Hive",
    });
    const to = "010-2345-6789";
    const r = await t.post("/otp/sms", { to, toCountryNo: "82", lang: "ja", lookup: true });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.provider, "DIRECTSEND");
    assert.equal(game.received.length, 1);
    const hit = game.received[0];
    assert.equal(hit.method, "POST");
    assert.equal(hit.path, "/otp-hook");
    assert.match(hit.headers.get("content-type") ?? "", /^application\/json/);
    const payload = JSON.parse(hit.body);
    assert.deepEqual(Object.keys(payload).sort(), [
      "expiry",
      "expiryTimestamp",
      "lang",
      "lookup",
      "otp",
      "provider",
      "retry",
      "serviceName",
      "to",
      "toCountryNo",
    ]);
    assert.equal(payload.to, to);
    assert.equal(payload.toCountryNo, "82");
    assert.equal(payload.lang, "ja");
    assert.equal(payload.retry, false);
    assert.equal(payload.lookup, true);
    assert.equal(payload.serviceName, "Hive");
    assert.equal(payload.otp, r.body.otp);
    assert.equal(payload.provider, "DIRECTSEND");
    assert.equal(payload.expiry, r.body.expiry);
    assert.equal(typeof payload.expiryTimestamp, "number");
    assert.ok(Number.isInteger(payload.expiryTimestamp));
    // The timestamp and the zoned text name the same instant.
    assert.equal(Date.parse(payload.expiry.replace(/\[.*\]$/, "")), payload.expiryTimestamp);
    // X-Signature: t=<unix s>,v1=HMAC-SHA256(webhook secret, t + "." + body)
    const sig = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(hit.headers.get("x-signature") ?? "");
    assert.ok(sig, hit.headers.get("x-signature") ?? "no signature");
    const { services } = await testEnv();
    assert.equal(
      sig[2],
      await hmacSha256Hex(services.secrets.webhookSecret, `${sig[1]}.${hit.body}`),
    );
    // The code the game received is the one that verifies.
    const v = await t.post("/otp/verify", { to, toCountryNo: "82", otp: payload.otp });
    assert.deepEqual(v.body, { result: true });
  } finally {
    await game.close();
  }
});

Deno.test("retry is detected within 5 minutes of the last send and not after", async () => {
  const game = startReceiver();
  try {
    await keepingClock(async (clock) => {
      const t = await seedOtpTenant({ mode: "direct", callbackUrl: game.url });
      const to = koreanMobile();
      const retryOf = (i: number) => JSON.parse(game.received[i].body).retry;
      assert.equal((await t.post("/otp/sms", { to, toCountryNo: "82" })).status, 200);
      assert.equal(retryOf(0), false, "first send");
      clock.advance(60_000);
      assert.equal((await t.post("/otp/sms", { to, toCountryNo: "82" })).status, 200);
      assert.equal(retryOf(1), true, "one minute later");
      clock.advance(4 * 60_000 + 50_000);
      assert.equal((await t.post("/otp/sms", { to, toCountryNo: "82" })).status, 200);
      assert.equal(retryOf(2), true, "4 min 50 s after the previous send");
      clock.advance(5 * 60_000 + 1_000);
      assert.equal((await t.post("/otp/sms", { to, toCountryNo: "82" })).status, 200);
      assert.equal(retryOf(3), false, "5 min 1 s after the previous send");
      // An explicit value wins over detection.
      clock.advance(31_000);
      assert.equal((await t.post("/otp/sms", { to, toCountryNo: "82", retry: false })).status, 200);
      assert.equal(retryOf(4), false, "explicit false");
      const other = koreanMobile();
      assert.equal(
        (await t.post("/otp/sms", { to: other, toCountryNo: "82", retry: true })).status,
        200,
      );
      assert.equal(retryOf(5), true, "explicit true");
    });
  } finally {
    await game.close();
  }
});

Deno.test("a failing callback is PROVIDER_ERROR 502 and leaves no valid code", async () => {
  let answer = 200;
  const game = startReceiver(() => new Response("nope", { status: answer }));
  try {
    await keepingClock(async (clock) => {
      const t = await seedOtpTenant({ mode: "direct", callbackUrl: game.url });
      const to = koreanMobile();
      const ok = await t.post("/otp/sms", { to, toCountryNo: "82" });
      assert.equal(ok.status, 200);
      clock.advance(31_000);
      answer = 400;
      const failed = await t.post("/otp/sms", { to, toCountryNo: "82" });
      assert.equal(failed.status, 502);
      assert.equal(failed.body.error.code, "PROVIDER_ERROR");
      assert.match(failed.body.error.reason, /callback refused the message \(HTTP 400\)/);
      const code = JSON.parse(game.received.at(-1)!.body).otp;
      assert.deepEqual((await t.post("/otp/verify", { to, toCountryNo: "82", otp: code })).body, {
        result: false,
      });
      // A failed send does not hold the cooldown: the caller can try again at once.
      answer = 200;
      const again = await t.post("/otp/sms", { to, toCountryNo: "82" });
      assert.equal(again.status, 200, JSON.stringify(again.body));
      // 5xx answers are retried (OTP_DELIVERY_RETRIES) before giving up.
      const before = game.received.length;
      answer = 503;
      clock.advance(31_000);
      const down = await t.post("/otp/sms", { to, toCountryNo: "82" });
      assert.equal(down.status, 502);
      const { services } = await testEnv();
      assert.equal(game.received.length - before, 1 + services.config.OTP_DELIVERY_RETRIES);
    });
  } finally {
    await game.close();
  }
});
