/** Idempotency-Key on the blockchain API's writing endpoints. */
import assert from "node:assert/strict";
import { callJson } from "../../harness.ts";
import { chainTestOptions, nftTenant } from "../../lib/chain/anvil.ts";

type Env = Awaited<ReturnType<typeof nftTenant>>;

function keyed(t: Env, key: string, id: string, extra: Record<string, unknown> = {}) {
  return t.mintOne(id, extra, { "idempotency-key": key });
}

async function records(t: Env): Promise<number> {
  const [row] = await t.services.db.query<{ n: number }>(
    "select count(*)::int as n from chain_txs where appid = $1",
    [t.tenant.appid],
  );
  return row.n;
}

const sentCount = (t: Env) => t.client.getTransactionCount({ address: t.minter.address });

Deno.test({
  ...chainTestOptions,
  name: "the same key and body answer the first answer again without a second transaction",
  async fn() {
    const t = await nftTenant("idem replay game");
    const before = await sentCount(t);
    const first = await keyed(t, "order-1", "1");
    assert.equal(first.body.code, 0, JSON.stringify(first.body));
    assert.equal(first.headers.get("idempotent-replayed"), null);
    const again = await keyed(t, "order-1", "1");
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, first.body);
    assert.equal(again.headers.get("idempotent-replayed"), "true");
    await t.services.idle();
    assert.equal(await records(t), 1);
    assert.equal(await sentCount(t), before + 1);
    // Keys are per app: another app's request with the same key is its own.
    const other = await nftTenant("idem other game");
    const theirs = await keyed(other, "order-1", "1");
    assert.equal(theirs.body.code, 0);
    assert.notEqual(theirs.body.data.txhash, first.body.data.txhash);
  },
});

Deno.test({
  ...chainTestOptions,
  name: "the same key with another body is refused with 2131; a malformed key with 2130",
  async fn() {
    const t = await nftTenant("idem conflict game");
    const first = await keyed(t, "order-2", "1");
    assert.equal(first.body.code, 0);
    const other = await keyed(t, "order-2", "2");
    assert.equal(other.status, 409);
    assert.equal(other.body.code, 2131);
    assert.match(other.body.message, /Idempotency-Key order-2 was used with another request/);
    const bad = await keyed(t, "has space", "3");
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body, {
      code: 2130,
      message: "Idempotency-Key must be 1 to 255 visible ASCII characters",
    });
    assert.equal(await records(t), 1);
  },
});

Deno.test({
  ...chainTestOptions,
  name: "two concurrent identical requests send one transaction and both get its answer",
  async fn() {
    const t = await nftTenant("idem concurrent game");
    const before = await sentCount(t);
    const [a, b, c] = await Promise.all([
      keyed(t, "order-3", "1"),
      keyed(t, "order-3", "1"),
      keyed(t, "order-3", "1"),
    ]);
    for (const r of [a, b, c]) assert.equal(r.body.code, 0, JSON.stringify(r.body));
    assert.equal(b.body.data.txhash, a.body.data.txhash);
    assert.equal(c.body.data.txhash, a.body.data.txhash);
    await t.services.idle();
    assert.equal(await records(t), 1);
    assert.equal(await sentCount(t), before + 1);
  },
});

Deno.test({
  ...chainTestOptions,
  name: "a run whose instance died after sending is answered from its record, not sent again",
  async fn() {
    const t = await nftTenant("idem takeover game");
    const first = await keyed(t, "order-4", "1");
    assert.equal(first.body.code, 0);
    const before = await sentCount(t);
    // As if the instance died before storing the answer: the key is still running, lease over.
    await t.services.db.query(
      `update idempotency_keys set state = 'running', status = null, body = null,
              lease_until = $2 where appid = $1`,
      [t.tenant.appid, new Date(t.clock.now() - 1)],
    );
    const again = await keyed(t, "order-4", "1");
    assert.equal(again.body.code, 0, JSON.stringify(again.body));
    assert.deepEqual(again.body.data, first.body.data);
    await t.services.idle();
    assert.equal(await sentCount(t), before, "no second transaction");
    assert.equal(await records(t), 1);
  },
});

Deno.test({
  ...chainTestOptions,
  name: "a key is kept for IDEMPOTENCY_TTL_HOURS, then stands for a new request",
  async fn() {
    const t = await nftTenant("idem ttl game");
    const first = await keyed(t, "order-5", "1");
    // A day later the access token has expired too: a fresh one each time.
    const freshToken = async () => {
      const tok = await callJson("POST", "/v2/auth-token", {
        json: { clientId: t.tenant.clientId, clientSecret: t.tenant.clientSecret },
      });
      t.tenant.chainHeaders.authorization = `Bearer ${tok.body.data.accessToken}`;
    };
    t.clock.advance(t.services.config.IDEMPOTENCY_TTL_HOURS * 3_600_000 - 1_000);
    await freshToken();
    assert.deepEqual((await keyed(t, "order-5", "1")).body, first.body);
    t.clock.advance(2_000);
    await freshToken();
    const later = await keyed(t, "order-5", "2");
    assert.equal(later.body.code, 0, JSON.stringify(later.body));
    assert.notEqual(later.body.data.requestId, first.body.data.requestId);
  },
});

Deno.test({
  ...chainTestOptions,
  name: "PATCH /service/v1/tx/hash with a key is replayed too",
  async fn() {
    const t = await nftTenant("idem patch game");
    const waiting = await t.mintOne("1", { isSend: false });
    const patch = () =>
      callJson("PATCH", "/service/v1/tx/hash", {
        headers: { ...t.tenant.chainHeaders, "idempotency-key": "patch-1" },
        json: { requestId: waiting.body.data.requestId, txHash: `0x${"ef".repeat(32)}` },
      });
    const first = await patch();
    assert.equal(first.body.code, 0, JSON.stringify(first.body));
    const again = await patch();
    assert.deepEqual(again.body, first.body);
    assert.equal(again.headers.get("idempotent-replayed"), "true");
  },
});
