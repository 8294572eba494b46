import assert from "node:assert/strict";
import { appWith, koreanMobile, seedOtpTenant } from "./fixture.ts";
import { openUpstashKv } from "../../../lib/kv/upstash.ts";
import { startUpstashBridge } from "../../../dev/upstash_bridge.ts";
import type { Kv } from "../../../lib/kv/port.ts";

/** A TCP port nothing listens on (bound, read, released). */
function deadPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

async function assertOutage(kv: Kv) {
  const t = await seedOtpTenant();
  const post = await appWith(() => ({ kv }));
  const to = koreanMobile();
  for (
    const [path, body] of [
      ["/otp/sms", { to, toCountryNo: "82" }],
      ["/otp/verify", { to, toCountryNo: "82", otp: "123456" }],
    ] as const
  ) {
    const r = await post(path, body, t.headers);
    assert.equal(r.status, 503, `${path}: ${JSON.stringify(r.body)}`);
    assert.equal(r.body.error.code, "SERVICE_UNAVAILABLE");
    assert.match(r.body.error.reason, /unavailable/);
    assert.equal(r.headers.get("retry-after"), "5");
  }
}

Deno.test("otp: Upstash driver pointed at an address nothing listens on answers 503", async () => {
  await assertOutage(openUpstashKv(`http://127.0.0.1:${deadPort()}`, "token"));
});

Deno.test("otp: a stopped Upstash endpoint answers 503", async () => {
  const token = crypto.randomUUID();
  const bridge = await startUpstashBridge({ token });
  await bridge.close();
  await assertOutage(openUpstashKv(bridge.url, token));
});

Deno.test("otp: an Upstash endpoint whose Redis is down answers 503", async () => {
  const token = crypto.randomUUID();
  const bridge = await startUpstashBridge({ token, redisUrl: `redis://127.0.0.1:${deadPort()}` });
  try {
    await assertOutage(openUpstashKv(bridge.url, token));
  } finally {
    await bridge.close();
  }
});
