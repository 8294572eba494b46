import assert from "node:assert/strict";
import type { Hex } from "viem";
import { admin, callJson } from "../../harness.ts";
import { chainTestOptions, nftTenant, settleSent, TEST_CHAIN_ID } from "./anvil.ts";
import { createPolygonChain } from "../../../lib/chain/polygon.ts";
import { callbackSink } from "../../routes/blockchain/callback_sink.ts";
import { runScheduled } from "../../../lib/scheduled.ts";
import { trackPendingTransactions } from "../../../lib/chain/tracker.ts";

async function setup(name: string) {
  const t = await nftTenant(name);
  const mint = (id: string, extra: Record<string, unknown>) =>
    t.mintOne(id, { to: t.minter.address, ...extra });
  const statuses = async () =>
    (await callJson("GET", "/service/v1/tx", { headers: t.tenant.chainHeaders })).body.data
      .transactions
      .map((x: { txStatus: string }) => x.txStatus);
  return { ...t, mint, statuses };
}

Deno.test({
  ...chainTestOptions,
  name: "a refused callback is retried with backoff until the receiver accepts it",
  async fn() {
    const t = await setup("callback retry game");
    let answer = 500;
    const sink = callbackSink(() => answer);
    try {
      const res = await t.mint("1", { callbackUrl: sink.url });
      assert.equal(res.body.code, 0);
      await settleSent(t.tenant.appid);
      assert.equal(sink.received.length, 1);
      await runScheduled(t.services);
      assert.equal(sink.received.length, 1, "not due again before its backoff");
      answer = 200;
      t.clock.advance(t.services.config.CALLBACK_RETRY_MAX_MS);
      await runScheduled(t.services);
      assert.equal(sink.received.length, 2);
      assert.equal(sink.received[1].body.txStatus, "SUCCESS");
      const [row] = await t.services.db.query<
        { callback_state: string; callback_attempts: number }
      >(
        "select callback_state, callback_attempts from chain_txs where request_id = $1",
        [res.body.data.requestId],
      );
      assert.deepEqual(row, { callback_state: "done", callback_attempts: 2 });
      t.clock.advance(t.services.config.CALLBACK_RETRY_MAX_MS);
      await runScheduled(t.services);
      assert.equal(sink.received.length, 2, "delivered once");
    } finally {
      await sink.close();
    }
  },
});

Deno.test({
  ...chainTestOptions,
  name:
    "a registered hash never seen stays PENDING while its nonce is unused, FAILED once another transaction uses it",
  async fn() {
    const t = await setup("drop game");
    const sink = callbackSink();
    try {
      const res = await t.mint("1", { isSend: false, callbackUrl: sink.url });
      const ghost = `0x${"ab".repeat(32)}` as Hex;
      const patched = await callJson("PATCH", "/service/v1/tx/hash", {
        headers: t.tenant.chainHeaders,
        json: { requestId: res.body.data.requestId, txHash: ghost },
      });
      assert.equal(patched.body.code, 0);
      await t.services.idle();
      await runScheduled(t.services);
      assert.deepEqual(await t.statuses(), ["PENDING"]);
      // Its signer may still broadcast it: time alone does not fail it.
      t.clock.advance(t.services.config.TX_DROP_AFTER_MS * 10);
      await runScheduled(t.services);
      assert.deepEqual(await t.statuses(), ["PENDING"]);
      assert.equal(sink.received.length, 0);
      // The wallet's next transaction takes the request's nonce: now it can never be mined.
      const other = await t.minter.wallet.sendTransaction({
        account: t.minter.wallet.account!,
        chain: t.minter.wallet.chain,
        to: t.minter.address,
        value: 0n,
        nonce: res.body.data.rawTx.nonce,
      });
      await t.client.waitForTransactionReceipt({ hash: other });
      await runScheduled(t.services);
      assert.deepEqual(await t.statuses(), ["FAILED"]);
      assert.equal(sink.received.length, 1);
      assert.equal(sink.received[0].body.txStatus, "FAILED");
      const view = await admin(
        "GET",
        `/admin/v1/games/${t.tenant.gameIndex}/transactions/${res.body.data.requestId}`,
      );
      assert.match(
        view.body.failReason,
        /nonce \d+ was used by a transaction that is not one of this request's/,
      );
    } finally {
      await sink.close();
    }
  },
});

Deno.test({
  ...chainTestOptions,
  name: "a transaction mined but reverted is FAILED",
  async fn() {
    const t = await setup("revert game");
    // Two unsigned mints of the same token id: both simulate fine, the second reverts when mined.
    const a = await t.mint("7", { isSend: false });
    const b = await t.mint("7", { isSend: false });
    assert.equal(a.body.code, 0);
    assert.equal(b.body.code, 0);
    const send = async (raw: Record<string, never>, nonce: number) => {
      const signed = await t.minter.wallet.signTransaction({
        account: t.minter.wallet.account!,
        chain: t.minter.wallet.chain,
        type: "eip1559",
        to: raw.to,
        data: raw.data,
        nonce,
        gas: BigInt(raw.gas),
        maxFeePerGas: BigInt(raw.maxFeePerGas),
        maxPriorityFeePerGas: BigInt(raw.maxPriorityFeePerGas),
      });
      return await t.client.sendRawTransaction({ serializedTransaction: signed });
    };
    const nonce = a.body.data.rawTx.nonce as number;
    const ha = await send(a.body.data.rawTx, nonce);
    const hb = await send(b.body.data.rawTx, nonce + 1);
    await t.client.waitForTransactionReceipt({ hash: hb });
    for (const [r, h] of [[a, ha], [b, hb]] as const) {
      await callJson("PATCH", "/service/v1/tx/hash", {
        headers: t.tenant.chainHeaders,
        json: { requestId: r.body.data.requestId, txHash: h },
      });
    }
    await t.services.idle();
    await runScheduled(t.services);
    const list = (await callJson("GET", "/service/v1/tx", { headers: t.tenant.chainHeaders })).body
      .data.transactions;
    const byId = Object.fromEntries(
      list.map((x: { requestId: string; txStatus: string }) => [x.requestId, x.txStatus]),
    );
    assert.equal(byId[a.body.data.requestId], "SUCCESS");
    assert.equal(byId[b.body.data.requestId], "FAILED");
  },
});

Deno.test({
  ...chainTestOptions,
  name: "one scheduled run settles every mined transaction and reports each once",
  async fn() {
    const t = await setup("batch settle game");
    const sink = callbackSink();
    await t.anvil.automine(false);
    try {
      const sent = await Promise.all(
        ["1", "2", "3"].map((id) => t.mint(id, { callbackUrl: sink.url })),
      );
      for (const r of sent) assert.equal(r.body.code, 0, JSON.stringify(r.body));
      await t.services.idle();
      assert.deepEqual(await t.statuses(), ["PENDING", "PENDING", "PENDING"]);
      await t.anvil.mine();
      await runScheduled(t.services);
      assert.deepEqual(await t.statuses(), ["SUCCESS", "SUCCESS", "SUCCESS"]);
      assert.deepEqual(
        sink.received.map((x) => x.body.requestId).sort(),
        sent.map((r) => r.body.data.requestId).sort(),
      );
      const states = await t.services.db.query<{ callback_state: string }>(
        "select callback_state from chain_txs where request_id in (select jsonb_array_elements_text($1::jsonb))",
        [sent.map((r) => r.body.data.requestId)],
      );
      assert.deepEqual(states.map((x) => x.callback_state), ["done", "done", "done"]);
      await runScheduled(t.services);
      assert.equal(sink.received.length, 3, "delivered once each");
    } finally {
      await t.anvil.automine(true);
      await sink.close();
    }
  },
});

Deno.test({
  ...chainTestOptions,
  name: "each callback's outcome is recorded as soon as it is answered, not when its batch ends",
  async fn() {
    const t = await setup("per callback game");
    const fast = callbackSink();
    let release = () => {};
    const gate = new Promise<void>((r) => release = r);
    const slow = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
      await req.text();
      await gate;
      return new Response("ok");
    });
    // Mined only after both are sent, so the first delivery is the scheduled run's.
    await t.anvil.automine(false);
    try {
      const a = await t.mint("1", { callbackUrl: fast.url });
      const b = await t.mint("2", { callbackUrl: `http://127.0.0.1:${slow.addr.port}/cb` });
      await t.services.idle();
      await t.anvil.mine();
      for (const r of [a, b]) {
        await t.client.waitForTransactionReceipt({ hash: r.body.data.txhash });
      }
      const state = async (r: typeof a) =>
        (await t.services.db.query<{ callback_state: string }>(
          "select callback_state from chain_txs where request_id = $1",
          [r.body.data.requestId],
        ))[0].callback_state;
      const run = runScheduled(t.services);
      let seen = false;
      for (let i = 0; i < 200 && !seen; i++) {
        seen = (await state(a)) === "done";
        if (!seen) await new Promise((r) => setTimeout(r, 25));
      }
      assert.ok(seen, "the answered callback is recorded while the other is in flight");
      assert.equal(await state(b), "due", "the one in flight is still claimed");
      assert.equal(fast.received.length, 1);
      release();
      await run;
      assert.equal(await state(b), "done");
      assert.equal(fast.received[0].webhookId, `tx_${a.body.data.requestId}`);
    } finally {
      release();
      await t.anvil.automine(true);
      await fast.close();
      await slow.shutdown();
    }
  },
});

Deno.test({
  ...chainTestOptions,
  name: "a callback in flight is not claimed again when a second tracker settles the same request",
  async fn() {
    const t = await setup("watched callback game");
    let release = () => {};
    const gate = new Promise<void>((r) => release = r);
    let received = 0;
    const slow = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
      await req.text();
      received++;
      await gate;
      return new Response("ok");
    });
    // A second instance whose node answers late: it reads the request PENDING, then settles it
    // SUCCESS after the first instance has already claimed and is delivering its callback.
    let letLateNodeAnswer = () => {};
    const lateNodeMayAnswer = new Promise<void>((r) => letLateNodeAnswer = r);
    const lateNode = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
      const body = await req.text();
      await lateNodeMayAnswer;
      return await fetch(t.anvil.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
    });
    const second = {
      ...t.services,
      chain: createPolygonChain({
        rpcUrl: `http://127.0.0.1:${lateNode.addr.port}`,
        chainId: TEST_CHAIN_ID,
        timeoutMs: 30_000,
      }),
    };
    await t.anvil.automine(false);
    try {
      const a = await t.mint("1", { callbackUrl: `http://127.0.0.1:${slow.addr.port}/cb` });
      await t.services.idle();
      await t.anvil.mine();
      await t.client.waitForTransactionReceipt({ hash: a.body.data.txhash });
      const late = trackPendingTransactions(second, t.clock.now());
      await new Promise((r) => setTimeout(r, 300));
      const first = trackPendingTransactions(t.services, t.clock.now());
      for (let i = 0; i < 200 && received === 0; i++) await new Promise((r) => setTimeout(r, 25));
      assert.equal(received, 1, "the first instance sends the callback");
      letLateNodeAnswer();
      await late;
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(received, 1, "the callback in flight is not sent a second time");
      release();
      await first;
    } finally {
      release();
      letLateNodeAnswer();
      await t.anvil.automine(true);
      await slow.shutdown();
      await lateNode.shutdown();
    }
  },
});
