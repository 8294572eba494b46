import assert from "node:assert/strict";
import {
  buildApnsRequest,
  buildFcmBody,
  deliveryCollapseId,
  RenderedMessages,
} from "../../../lib/push/message.ts";
import type { PushDelivery } from "../../../lib/push/sinks.ts";

const UUID = "0b0e5a52-4f3c-4f0e-9d7a-1c2b3a4d5e6f";

function delivery(over: Partial<PushDelivery> & { deviceId: number }): PushDelivery {
  const platform = over.platform ?? "android";
  return {
    id: `7:${over.deviceId}`,
    collapseId: deliveryCollapseId(UUID, over.deviceId),
    campaignId: 12,
    campaignUuid: UUID,
    sliceId: 7,
    appid: "app",
    platform,
    token: `tok-${over.deviceId}`,
    language: "en",
    notice: false,
    message: platform === "android"
      ? {
        title: 'Say "hi" \\ 안녕',
        message: "line\nbreak \u2028 \u0001",
        imageUrl: "https://cdn.example.com/a.png",
        messageExpanded: "more",
      }
      : { title: 'Ti"tle', message: "こんにちは", mediaUrl: "https://cdn.example.com/a.jpg" },
    option: { badge: 2, groupKey: "g" },
    ...over,
  };
}

const ctx = { sendAt: 1_800_000_000, ttlSeconds: 86_400 };

Deno.test("rendered FCM messages are the bytes buildFcmBody serializes, for every device", () => {
  const rendered = new RenderedMessages(UUID);
  const tokens = [
    "b1:APA91bXYZ",
    'quote"and\\backslash',
    "ünïcode-토큰",
    "control\u0000\u001f",
    "T00000000000000000000000000000000T",
  ];
  let id = 1;
  for (const platform of ["android", "ios"] as const) {
    for (const language of ["en", "ko"]) {
      for (const token of tokens) {
        const d = delivery({ deviceId: id++, platform, language, token });
        // The second device of a language is spliced from what the first rendered.
        assert.equal(rendered.fcmText(d, ctx), JSON.stringify(buildFcmBody(d, ctx)));
      }
    }
  }
  // iOS messages through FCM carry an expiration: a later second renders again.
  const later = { ...ctx, sendAt: ctx.sendAt + 5 };
  const d = delivery({ deviceId: 99, platform: "ios" });
  assert.equal(rendered.fcmText(d, later), JSON.stringify(buildFcmBody(d, later)));
  assert.match(
    rendered.fcmText(d, later),
    new RegExp(`"apns-expiration":"${later.sendAt + 86_400}"`),
  );
});

Deno.test("rendered messages keep a campaign's own collapse key when it overwrites", () => {
  const rendered = new RenderedMessages(UUID);
  const option = { overwrite: true, collapseKey: "spring" };
  for (const platform of ["android", "ios"] as const) {
    for (const deviceId of [1, 2]) {
      const d = delivery({ deviceId, platform, option });
      const text = rendered.fcmText(d, ctx);
      assert.equal(text, JSON.stringify(buildFcmBody(d, ctx)));
      assert.ok(!text.includes(d.collapseId));
    }
  }
  const d = delivery({ deviceId: 3, platform: "ios", option });
  assert.equal(rendered.apnsRequest(d, { expiresAt: 5 }).headers["apns-collapse-id"], "spring");
});

Deno.test("rendered APNs requests equal buildApnsRequest's, with each device's collapse id", () => {
  const rendered = new RenderedMessages(UUID);
  for (
    const [deviceId, language, expiresAt] of [[1, "en", 10], [2, "en", 10], [3, "ja", 11]] as const
  ) {
    const d = delivery({ deviceId, platform: "ios", language });
    const built = buildApnsRequest(d, { bundleId: "", expiresAt });
    const got = rendered.apnsRequest(d, { expiresAt });
    const { "apns-topic": _topic, ...headers } = built.headers;
    assert.deepEqual(got.headers, headers);
    assert.equal(got.headers["apns-collapse-id"], `${UUID}.${deviceId}`);
    assert.equal(got.body, JSON.stringify(built.payload));
    assert.equal(got.size, new TextEncoder().encode(got.body).byteLength);
  }
});

Deno.test("rendered messages refuse a delivery of another campaign", () => {
  const rendered = new RenderedMessages(UUID);
  const d = delivery({ deviceId: 1, campaignUuid: crypto.randomUUID() });
  assert.throws(() => rendered.fcmText(d, ctx), /another/);
});
