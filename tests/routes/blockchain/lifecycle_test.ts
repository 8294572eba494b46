/**
 * The transaction lifecycle on a node that does not mine at once (automatic mining off): stuck
 * transactions replaced, dropped ones broadcast again, a nonce taken by an outside transaction,
 * many sends through a fee spike, cancel, and reorganisations with and without confirmations.
 */
import assert from "node:assert/strict";
import { type Hex, parseGwei } from "viem";
import { admin, callJson } from "../../harness.ts";
import { chainTestOptions, nftTenant } from "../../lib/chain/anvil.ts";
import { callbackSink } from "./callback_sink.ts";
import { runScheduled } from "../../../lib/scheduled.ts";
import type { PolygonChain } from "../../../lib/chain/polygon.ts";

type Env = Awaited<ReturnType<typeof nftTenant>>;

/** A tenant on a node with automatic mining off, and helpers to drive it. */
async function manualChain(name: string) {
  const t = await nftTenant(name);
  const sink = callbackSink();
  await t.anvil.automine(false);
  const chain = t.services.chain!;
  const saved = { ...chain };
  const mintTo = (id: string, extra: Record<string, unknown> = {}) =>
    t.mintOne(id, { callbackUrl: sink.url, ...extra });
  const view = async (requestId: string) => {
    const res = await admin(
      "GET",
      `/admin/v1/games/${t.tenant.gameIndex}/transactions/${requestId}`,
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  /** Mines one block whose base fee is `gwei` (a spike leaves cheaper transactions out). */
  const mineAtBaseFee = async (gwei: string) => {
    await t.anvil.rpc("anvil_setNextBlockBaseFeePerGas", [`0x${parseGwei(gwei).toString(16)}`]);
    await t.anvil.mine();
  };
  /** Lets TX_STUCK_AFTER_MS pass and runs the scheduled work. */
  const afterStuckTime = async () => {
    t.clock.advance(chain.stuckAfterMs);
    await runScheduled(t.services);
  };
  const receiptOf = (hash: string) =>
    t.client.getTransactionReceipt({ hash: hash as Hex }).catch(() => null);
  return {
    ...t,
    sink,
    chain,
    mintTo,
    view,
    mineAtBaseFee,
    afterStuckTime,
    receiptOf,
    async close() {
      Object.assign(chain as PolygonChain, saved);
      // Leave nothing pending for the next test: whatever remains is mined.
      await t.anvil.rpc("anvil_setNextBlockBaseFeePerGas", ["0x1"]);
      await t.anvil.mine();
      await t.anvil.automine(true);
      await sink.close();
    },
  };
}

async function sentMint(m: Awaited<ReturnType<typeof manualChain>>, id: string) {
  const res = await m.mintTo(id);
  assert.equal(res.body.code, 0, JSON.stringify(res.body));
  await m.services.idle();
  return res.body.data as { txhash: Hex; requestId: string };
}

async function listed(t: Env) {
  const res = await callJson("GET", "/service/v1/tx", { headers: t.tenant.chainHeaders });
  return res.body.data.transactions as { requestId: string; txStatus: string; txHash: string }[];
}

Deno.test({
  ...chainTestOptions,
  name: "a mint left out by a base-fee spike is replaced with raised fees, mined, reported once",
  async fn() {
    const m = await manualChain("spike game");
    try {
      const sent = await sentMint(m, "1");
      await m.mineAtBaseFee("500");
      assert.equal(await m.receiptOf(sent.txhash), null, "the spike left it out");
      await runScheduled(m.services);
      assert.equal((await m.view(sent.requestId)).attempts.length, 1, "not replaced before due");
      await m.afterStuckTime();
      const replaced = await m.view(sent.requestId);
      assert.equal(replaced.attempts.length, 2);
      const [first, second] = replaced.attempts;
      assert.equal(second.nonce, first.nonce);
      assert.ok(BigInt(second.maxFeePerGas) >= BigInt(first.maxFeePerGas) * 11n / 10n);
      assert.ok(
        BigInt(second.maxPriorityFeePerGas) >= BigInt(first.maxPriorityFeePerGas) * 11n / 10n,
      );
      assert.ok(BigInt(second.maxFeePerGas) > parseGwei("500"), "covers the spiked base fee");
      await m.anvil.mine();
      await runScheduled(m.services);
      const done = await m.view(sent.requestId);
      assert.equal(done.status, "SUCCESS");
      assert.equal(done.txHash, second.txHash);
      assert.equal((await m.receiptOf(second.txHash))?.status, "success");
      const [row] = await listed(m);
      assert.deepEqual([row.txStatus, row.txHash], ["SUCCESS", second.txHash]);
      await m.afterStuckTime();
      assert.equal(m.sink.received.length, 1, "one callback");
      assert.deepEqual(
        [m.sink.received[0].body.txStatus, m.sink.received[0].body.txHash],
        ["SUCCESS", second.txHash],
      );
      assert.equal(m.sink.received[0].webhookId, `tx_${sent.requestId}`);
    } finally {
      await m.close();
    }
  },
});

Deno.test({
  ...chainTestOptions,
  name: "a mint the node dropped is broadcast again with its signed bytes and mined",
  async fn() {
    const m = await manualChain("drop game");
    try {
      const sent = await sentMint(m, "1");
      await m.anvil.rpc("anvil_dropTransaction", [sent.txhash]);
      assert.equal(await m.client.getTransaction({ hash: sent.txhash }).catch(() => null), null);
      await m.afterStuckTime();
      assert.ok(await m.client.getTransaction({ hash: sent.txhash }), "known to the node again");
      await m.anvil.mine();
      await runScheduled(m.services);
      const done = await m.view(sent.requestId);
      assert.equal(done.status, "SUCCESS");
      assert.equal(done.txHash, sent.txhash);
      assert.equal(done.attempts.length, 1, "the same signed bytes, not a new attempt");
      assert.equal(m.sink.received.length, 1);
    } finally {
      await m.close();
    }
  },
});

Deno.test({
  ...chainTestOptions,
  name:
    "a nonce taken by an outside transaction fails its request with the reason; the next send is mined",
  async fn() {
    const m = await manualChain("outside game");
    try {
      const sent = await sentMint(m, "1");
      const [attempt] = (await m.view(sent.requestId)).attempts;
      // The same wallet, signing elsewhere, replaces it in the pool with a self-transfer.
      const outside = await m.minter.wallet.sendTransaction({
        account: m.minter.wallet.account!,
        chain: m.minter.wallet.chain,
        to: m.minter.address,
        value: 0n,
        nonce: Number(attempt.nonce),
        maxFeePerGas: BigInt(attempt.maxFeePerGas) * 3n,
        maxPriorityFeePerGas: BigInt(attempt.maxPriorityFeePerGas) * 3n,
      });
      await m.anvil.mine();
      assert.equal((await m.receiptOf(outside))?.status, "success");
      await runScheduled(m.services);
      const failed = await m.view(sent.requestId);
      assert.equal(failed.status, "FAILED");
      assert.equal(
        failed.failReason,
        `nonce ${attempt.nonce} was used by a transaction that is not one of this request's`,
      );
      assert.equal(m.sink.received.length, 1);
      assert.equal(m.sink.received[0].body.txStatus, "FAILED");
      const next = await sentMint(m, "2");
      await m.anvil.mine();
      await runScheduled(m.services);
      const ok = await m.view(next.requestId);
      assert.equal(ok.status, "SUCCESS");
      assert.equal(ok.nonce, String(Number(attempt.nonce) + 1));
    } finally {
      await m.close();
    }
  },
});

Deno.test({
  ...chainTestOptions,
  name: "20 mints from one wallet through a fee spike all end mined, in nonce order, no gap",
  async fn() {
    const m = await manualChain("burst game");
    try {
      const sent: { txhash: Hex; requestId: string }[] = [];
      for (let i = 0; i < 20; i++) sent.push(await sentMint(m, String(i + 1)));
      await m.mineAtBaseFee("300");
      await m.afterStuckTime();
      await m.anvil.mine();
      await runScheduled(m.services);
      const views = await Promise.all(sent.map((x) => m.view(x.requestId)));
      assert.deepEqual(views.map((v) => v.status), Array(20).fill("SUCCESS"));
      const nonces = views.map((v) => Number(v.nonce));
      const first = nonces[0];
      assert.deepEqual(nonces, nonces.map((_, i) => first + i), "consecutive, in request order");
      const receipts = await Promise.all(views.map((v) => m.receiptOf(v.txHash)));
      const positions = receipts.map((r) => [r!.blockNumber, r!.transactionIndex] as const);
      for (let i = 1; i < positions.length; i++) {
        const [b0, i0] = positions[i - 1];
        const [b1, i1] = positions[i];
        assert.ok(b1 > b0 || (b1 === b0 && i1 > i0), "mined in nonce order");
      }
      assert.equal(
        await m.client.getTransactionCount({ address: m.minter.address }),
        first + 20,
        "no nonce left unused",
      );
      assert.equal(m.sink.received.length, 20);
    } finally {
      await m.close();
    }
  },
});

Deno.test({
  ...chainTestOptions,
  name: "cancel of a stuck request: a self-transfer at its nonce is mined and it ends FAILED",
  async fn() {
    const m = await manualChain("cancel game");
    try {
      const sent = await sentMint(m, "1");
      await m.mineAtBaseFee("400");
      const res = await admin(
        "POST",
        `/admin/v1/games/${m.tenant.gameIndex}/transactions/${sent.requestId}/cancel`,
      );
      assert.equal(res.status, 202, JSON.stringify(res.body));
      assert.equal(res.body.status, "PENDING");
      const cancel = await m.client.getTransaction({ hash: res.body.cancelTxHash });
      assert.equal(cancel.to?.toLowerCase(), m.minter.address.toLowerCase());
      assert.equal(cancel.value, 0n);
      assert.equal(String(cancel.nonce), res.body.nonce);
      assert.equal((await m.view(sent.requestId)).status, "PENDING", "until the cancel is mined");
      await m.anvil.mine();
      await runScheduled(m.services);
      const done = await m.view(sent.requestId);
      assert.equal(done.status, "FAILED");
      assert.match(done.failReason, /^cancelled: the cancel 0x[0-9a-f]{64} was mined$/);
      assert.equal(done.txHash, res.body.cancelTxHash);
      assert.deepEqual(done.attempts.map((a: { kind: string }) => a.kind), ["send", "cancel"]);
      assert.ok(done.cancelRequestedAt);
      assert.equal(m.sink.received.length, 1);
      assert.equal(m.sink.received[0].body.txStatus, "FAILED");
      // Now final: a second cancel is refused.
      const again = await admin(
        "POST",
        `/admin/v1/games/${m.tenant.gameIndex}/transactions/${sent.requestId}/cancel`,
      );
      assert.equal(again.status, 409);
      assert.equal(again.body.error.code, "TX_NOT_PENDING");
    } finally {
      await m.close();
    }
  },
});

Deno.test({
  ...chainTestOptions,
  name: "cancel refusals: unknown request, one signed outside the service, an XPLA request",
  async fn() {
    const t = await nftTenant("cancel refusal game");
    const path = (id: string) => `/admin/v1/games/${t.tenant.gameIndex}/transactions/${id}/cancel`;
    const unknown = await admin("POST", path("no-such-request"));
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.code, "REQUEST_NOT_FOUND");
    const waiting = await t.mintOne("1", { isSend: false });
    const requestId = waiting.body.data.requestId;
    await callJson("PATCH", "/service/v1/tx/hash", {
      headers: t.tenant.chainHeaders,
      json: { requestId, txHash: `0x${"cd".repeat(32)}` },
    });
    const outside = await admin("POST", path(requestId));
    assert.equal(outside.status, 409);
    assert.equal(outside.body.error.code, "TX_NOT_CANCELLABLE");
    assert.match(outside.body.error.message, /signed outside the service/);
    await t.services.db.query(
      `update chain_txs set network = 'xpla' where request_id = $1`,
      [requestId],
    );
    const xpla = await admin("POST", path(requestId));
    assert.equal(xpla.status, 400);
    assert.equal(xpla.body.error.code, "NETWORK_UNSUPPORTED");
    assert.match(xpla.body.error.message, /supported for polygon transactions the service signed/);
  },
});

Deno.test({
  ...chainTestOptions,
  name:
    "a reorganisation after the receipt, confirmations 0: back to PENDING, mined again, one callback",
  async fn() {
    const m = await manualChain("reorg0 game");
    try {
      m.chain.confirmations = 0;
      const sent = await sentMint(m, "1");
      await m.anvil.mine();
      await runScheduled(m.services);
      assert.equal((await m.view(sent.requestId)).status, "SUCCESS");
      assert.equal(m.sink.received.length, 1);
      await m.anvil.rpc("anvil_reorg", [1, []]);
      assert.equal(await m.receiptOf(sent.txhash), null, "the reorganisation removed it");
      await runScheduled(m.services);
      const back = await m.view(sent.requestId);
      assert.equal(back.status, "PENDING");
      assert.equal(back.minedBlock, null);
      assert.ok(await m.client.getTransaction({ hash: sent.txhash }), "broadcast again");
      await m.anvil.mine();
      await runScheduled(m.services);
      assert.equal((await m.view(sent.requestId)).status, "SUCCESS");
      await m.afterStuckTime();
      assert.equal(m.sink.received.length, 1, "the same final state is reported once");
    } finally {
      await m.close();
    }
  },
});

Deno.test({
  ...chainTestOptions,
  name: "a reorganisation shallower than the confirmations: SUCCESS only after them, one callback",
  async fn() {
    const m = await manualChain("reorgN game");
    try {
      m.chain.confirmations = 3;
      const sent = await sentMint(m, "1");
      await m.anvil.mine();
      await runScheduled(m.services);
      const mined = await m.view(sent.requestId);
      assert.equal(mined.status, "PENDING", "mined, waiting for confirmations");
      assert.ok(mined.minedBlock);
      await m.anvil.mine();
      await m.anvil.rpc("anvil_reorg", [2, []]);
      await runScheduled(m.services);
      const back = await m.view(sent.requestId);
      assert.equal(back.status, "PENDING");
      assert.equal(back.minedBlock, null, "the block left the chain");
      await m.anvil.mine();
      await runScheduled(m.services);
      assert.equal((await m.view(sent.requestId)).status, "PENDING", "mined again, 0 on top");
      for (let i = 0; i < 3; i++) await m.anvil.mine();
      await runScheduled(m.services);
      assert.equal((await m.view(sent.requestId)).status, "SUCCESS");
      assert.equal(m.sink.received.length, 1);
      assert.equal(m.sink.received[0].body.txStatus, "SUCCESS");
    } finally {
      await m.close();
    }
  },
});
