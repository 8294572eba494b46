import assert from "node:assert/strict";
import { callJson, testEnv } from "../../harness.ts";
import { campaignBody, postCampaign, pushTenant } from "../../routes/push/fixture.ts";
import { dispatchDuePushes, SLICE_LEASE_MS } from "../../../lib/push/dispatch.ts";
import { webhookSink } from "../../../lib/push/sinks.ts";
import { hmacSha256Hex } from "../../../lib/crypto/hashing.ts";

Deno.test("webhook sink: signed batches; a refused slice is retried after its lease", async () => {
  const { services, clock } = await testEnv();
  const received: { signature: string; body: string }[] = [];
  let answer = 503;
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    received.push({ signature: req.headers.get("x-signature") ?? "", body: await req.text() });
    return new Response(null, { status: answer });
  });
  try {
    const t = await pushTenant();
    const reg = await callJson("POST", "/push/v1/devices", {
      headers: t.headers,
      json: {
        appid: t.tenant.appid,
        token: "wh-1",
        platform: "ios",
        country: "KR",
        language: "ko",
      },
    });
    const campaign = await postCampaign(t, campaignBody(t, { countries: ["KR"] }));
    const id = campaign.body.id as number;
    // Other tests' campaigns may be due at the same instant: look at this campaign's batches.
    const forCampaign = () =>
      received.filter((r) =>
        JSON.parse(r.body).messages.some((m: { campaignId: number }) => m.campaignId === id)
      );
    const sink = webhookSink(services, `http://127.0.0.1:${server.addr.port}/push`);
    const at = Date.UTC(2027, 4, 3, 1) + 1000;
    try {
      clock.set(at);
      const failed = await dispatchDuePushes(services, clock.now(), { sink });
      assert.ok(failed.failed >= 1, "a 503 after retries fails the slice");
      assert.equal(forCampaign().length, 3, "one attempt plus two retries");
      const [slice] = await services.db.query<{ state: string }>(
        "select state from push_slices where campaign_id = $1",
        [id],
      );
      assert.equal(slice.state, "leased", "not sent: it stays leased until the lease runs out");
      answer = 200;
      await dispatchDuePushes(services, clock.now(), { sink });
      assert.equal(forCampaign().length, 3, "a live lease is not taken over");
      clock.set(at + SLICE_LEASE_MS + 1000);
      await dispatchDuePushes(services, clock.now(), { sink });
    } finally {
      clock.reset();
    }
    const last = forCampaign()[forCampaign().length - 1];
    const messages = JSON.parse(last.body).messages;
    const mine = messages.filter((m: { campaignId: number }) => m.campaignId === id);
    assert.equal(mine.length, 1);
    assert.equal(mine[0].deviceId, reg.body.id);
    assert.equal(mine[0].token, "wh-1");
    assert.equal(mine[0].platform, "ios");
    assert.equal(mine[0].language, "en", "no ko message: the default language");
    assert.deepEqual(mine[0].message, { title: "Hello", message: "Spring event starts" });
    assert.equal(mine[0].id, `${mine[0].sliceId}:${reg.body.id}`);
    const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(last.signature);
    assert.ok(m, last.signature);
    assert.equal(m[2], await hmacSha256Hex(services.secrets.webhookSecret, `${m[1]}.${last.body}`));
    const [slice] = await services.db.query<{ state: string; attempts: number }>(
      "select state, attempts from push_slices where campaign_id = $1",
      [id],
    );
    assert.deepEqual(slice, { state: "sent", attempts: 2 });
  } finally {
    await server.shutdown();
  }
});
