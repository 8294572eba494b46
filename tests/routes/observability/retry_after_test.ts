import assert from "node:assert/strict";
import { appWith, testEnv } from "../../harness.ts";
import { DomainError } from "../../../lib/errors.ts";
import { koreanMobile, seedOtpTenant } from "../otp/fixture.ts";

Deno.test("OTP 429: Retry-After is the seconds until the exceeded limit resets", async () => {
  const { clock } = await testEnv();
  const t = await seedOtpTenant();
  const app = await appWith({ config: { OTP_COOLDOWN_SECONDS: 0, OTP_RECEIVER_PER_DAY: 1 } });
  const to = koreanMobile();
  const send = () =>
    app.request("/otp/sms", {
      method: "POST",
      headers: { ...t.headers, "content-type": "application/json" },
      body: JSON.stringify({ to, toCountryNo: "82" }),
    });
  assert.equal((await send()).status, 200);
  const refused = await send();
  assert.equal(refused.status, 429);
  assert.equal((await refused.json()).error.code, "SMS_LIMIT_EXCEEDED");
  const day = 86_400_000;
  const untilMidnight = Math.ceil((day - (clock.now() % day)) / 1000);
  const header = Number(refused.headers.get("retry-after"));
  assert.ok(Math.abs(header - untilMidnight) <= 2, `${header} vs ${untilMidnight}`);
});

Deno.test("every 429 and 503 carries Retry-After, whichever family renders it", async () => {
  const app = await appWith();
  // Paths in each envelope family that no auth middleware guards (the header is set after every
  // family's renderer, so the family decides only the body).
  const prefixes = ["/v2", "/items", "/api/cpa", "/health"];
  for (const prefix of prefixes) {
    app.get(`${prefix}/test-only/down`, () => {
      throw new DomainError("unavailable", "DATABASE_UNAVAILABLE", "database unavailable");
    });
    app.get(`${prefix}/test-only/busy`, () => {
      throw new DomainError("rate_limited", "RATE_LIMITED", "too many requests");
    });
  }
  for (const prefix of prefixes) {
    const down = await app.request(`${prefix}/test-only/down`);
    assert.equal(down.status, 503, prefix);
    assert.ok(Number(down.headers.get("retry-after")) >= 1, `${prefix} 503`);
    await down.body?.cancel();
    // CPA has no 429 (the spec's CPA answers 400/401/500/503).
    if (prefix === "/api/cpa") continue;
    const busy = await app.request(`${prefix}/test-only/busy`);
    assert.equal(busy.status, 429, prefix);
    assert.ok(Number(busy.headers.get("retry-after")) >= 1, `${prefix} 429`);
    await busy.body?.cancel();
  }
});
