import assert from "node:assert/strict";
import { base64 } from "@scure/base";
import { TxBody, TxRaw } from "cosmjs-types/cosmos/tx/v1beta1/tx";
import { runScheduled } from "../../../lib/scheduled.ts";
import {
  sendWithXplaJs,
  settleXpla,
  waitForTx,
  xplaNftTenant,
  xplaTestOptions,
} from "../../lib/chain/xpla_env.ts";
import { callbackSink } from "./callback_sink.ts";

function mintBody(t: Awaited<ReturnType<typeof xplaNftTenant>>, id: string, extra = {}) {
  return {
    playerId: "4",
    from: t.minter.address,
    to: t.player.address,
    isSend: true,
    encoded: false,
    callbackUrl: "http://127.0.0.1:9/cb",
    mintMsg: [{ tokenId: id, royaltyPercentage: 1, metadata: { name: id, image: id } }],
    ...extra,
  };
}

Deno.test({
  ...xplaTestOptions,
  name:
    "xpla sends from one wallet get consecutive sequences; an on-chain failure is FAILED and reported",
  async fn() {
    const t = await xplaNftTenant("xpla tracker game");
    const sink = callbackSink();
    try {
      // Concurrent sends from one wallet each get their own sequence (the send lock).
      const sent = await Promise.all(
        ["a", "b", "c"].map((id) =>
          t.call("POST", `/service/v1/nft/${t.nft}/mint`, mintBody(t, id))
        ),
      );
      for (const r of sent) assert.equal(r.status, 200, JSON.stringify(r.body));
      await settleXpla(t.tenant.appid);
      assert.equal(t.lcd.accounts.get(t.minter.address)!.sequence, 3);

      // Blocks held: two mints of the same id both pass simulation; the second fails in its block.
      t.lcd.holdBlocks(true);
      const first = await t.call("POST", `/service/v1/nft/${t.nft}/mint`, mintBody(t, "d"));
      const second = await t.call(
        "POST",
        `/service/v1/nft/${t.nft}/mint`,
        mintBody(t, "d", { callbackUrl: sink.url }),
      );
      assert.equal(second.status, 200, JSON.stringify(second.body));
      await t.services.idle();
      await runScheduled(t.services);
      const pending = await t.call("GET", "/service/v1/tx?playerId=4&limit=2");
      assert.deepEqual(
        pending.body.data.transactions.map((r: { txStatus: string }) => r.txStatus),
        ["PENDING", "PENDING"],
      );
      t.lcd.holdBlocks(false);
      await settleXpla(t.tenant.appid);
      const list = await t.call("GET", "/service/v1/tx?playerId=4");
      const status = new Map(
        list.body.data.transactions.map((r: { requestId: string; txStatus: string }) => [
          r.requestId,
          r.txStatus,
        ]),
      );
      assert.equal(status.get(first.body.data.requestId), "SUCCESS");
      assert.equal(status.get(second.body.data.requestId), "FAILED");
      assert.equal(sink.received.length, 1);
      assert.equal(sink.received[0].body.txStatus, "FAILED");

      // A registered hash of another transaction (the player's bank send) is FAILED.
      const waiting = await t.call(
        "POST",
        `/service/v1/nft/${t.nft}/mint`,
        mintBody(t, "e", { isSend: false, encoded: true }),
      );
      assert.equal(waiting.status, 200, JSON.stringify(waiting.body));
      const unrelated = await sendWithXplaJs(t.player, t.player.address, 1n);
      const patched = await t.call("PATCH", "/service/v1/tx/hash", {
        requestId: waiting.body.data.requestId,
        txHash: unrelated,
      });
      assert.equal(patched.status, 200);
      await settleXpla(t.tenant.appid);
      const after = await t.call("GET", "/service/v1/tx?playerId=4&limit=1");
      assert.equal(after.body.data.transactions[0].requestId, waiting.body.data.requestId);
      assert.equal(after.body.data.transactions[0].txStatus, "FAILED");

      // The same key sends a transaction elsewhere (still in the mempool): the chain names the
      // expected sequence and the service sends with it.
      t.lcd.holdBlocks(true);
      await sendWithXplaJs(t.minter, t.minter.address, 1n, { wait: false });
      const afterForeign = await t.call("POST", `/service/v1/nft/${t.nft}/mint`, mintBody(t, "f"));
      assert.equal(afterForeign.status, 200, JSON.stringify(afterForeign.body));
      t.lcd.holdBlocks(false);
      await settleXpla(t.tenant.appid);
      assert.deepEqual(t.lcd.query(t.nft, { owner_of: { token_id: "f" } }), {
        owner: t.player.address,
        approvals: [],
      });
    } finally {
      t.lcd.holdBlocks(false);
      await sink.close();
    }
  },
});

type Tenant = Awaited<ReturnType<typeof xplaNftTenant>>;

function attempts(t: Tenant, requestId: string) {
  return t.services.db.query<{
    seq: number;
    kind: string;
    tx_hash: string;
    nonce: string;
    fee: string;
    timeout_height: string;
    raw_tx: string;
  }>(
    `select seq, kind, tx_hash, nonce::text, fee, timeout_height::text, raw_tx
       from chain_tx_attempts where request_id = $1 order by seq`,
    [requestId],
  );
}

async function record(t: Tenant, requestId: string) {
  const [row] = await t.services.db.query<
    { status: string; tx_hash: string; fail_reason: string | null }
  >(
    "select status, tx_hash, fail_reason from chain_txs where request_id = $1",
    [requestId],
  );
  return row;
}

Deno.test({
  ...xplaTestOptions,
  name:
    "xpla: a send whose timeout_height passes unmined is signed again at its sequence and mined; the list and the one callback show the mined hash",
  async fn() {
    const t = await xplaNftTenant("xpla resign game");
    const blocks = t.services.xpla!.timeoutBlocks;
    const sink = callbackSink();
    try {
      t.lcd.holdBlocks(true);
      const sentAt = t.lcd.height();
      const sent = await t.call(
        "POST",
        `/service/v1/nft/${t.nft}/mint`,
        mintBody(t, "r1", { callbackUrl: sink.url }),
      );
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      const { requestId, txhash: first } = sent.body.data;
      await t.services.idle();
      let tries = await attempts(t, requestId);
      assert.equal(tries.length, 1);
      assert.equal(tries[0].kind, "send");
      assert.equal(tries[0].tx_hash, first);
      assert.equal(tries[0].nonce, "0");
      assert.match(tries[0].fee, /^[1-9]\d*axpla$/);
      assert.equal(tries[0].timeout_height, String(sentAt + blocks));
      const signedBody = TxBody.decode(TxRaw.decode(base64.decode(tries[0].raw_tx)).bodyBytes);
      assert.equal(signedBody.timeoutHeight, BigInt(sentAt + blocks));

      // Whatever the time, nothing is decided or signed again while the hash can still land.
      await runScheduled(t.services, Date.now() + 10 * t.services.config.TX_DROP_AFTER_MS);
      assert.equal((await record(t, requestId)).status, "PENDING");
      assert.equal((await attempts(t, requestId)).length, 1);

      // The chain reaches the timeout height without including it (its mempool drops it).
      t.lcd.advanceBlocks(blocks - 1);
      await runScheduled(t.services);
      assert.equal((await attempts(t, requestId)).length, 1, "one block before: still valid");
      t.lcd.advanceBlocks(1);
      await runScheduled(t.services);
      tries = await attempts(t, requestId);
      assert.equal(tries.length, 2);
      assert.equal(tries[1].kind, "resign");
      assert.equal(tries[1].nonce, "0");
      assert.equal(tries[1].fee, tries[0].fee);
      assert.equal(tries[1].timeout_height, String(t.lcd.height() + blocks));
      assert.notEqual(tries[1].tx_hash, first);
      const pending = await record(t, requestId);
      assert.equal(pending.status, "PENDING");
      assert.equal(pending.tx_hash, tries[1].tx_hash);
      await runScheduled(t.services);
      assert.equal((await attempts(t, requestId)).length, 2, "signed again once");

      t.lcd.holdBlocks(false);
      await settleXpla(t.tenant.appid);
      const list = await t.call("GET", "/service/v1/tx?playerId=4&limit=1");
      assert.equal(list.body.data.transactions[0].requestId, requestId);
      assert.equal(list.body.data.transactions[0].txStatus, "SUCCESS");
      assert.equal(list.body.data.transactions[0].txHash, tries[1].tx_hash);
      const old = await fetch(`${t.lcd.url}/cosmos/tx/v1beta1/txs/${first}`);
      assert.equal(old.status, 404);
      await old.body?.cancel();
      assert.equal(sink.received.length, 1);
      assert.equal(sink.received[0].body.txHash, tries[1].tx_hash);
      assert.equal(sink.received[0].body.txStatus, "SUCCESS");
      assert.deepEqual(t.lcd.query(t.nft, { owner_of: { token_id: "r1" } }), {
        owner: t.player.address,
        approvals: [],
      });
    } finally {
      t.lcd.holdBlocks(false);
      await sink.close();
    }
  },
});

Deno.test({
  ...xplaTestOptions,
  name:
    "xpla: a send whose sequence another transaction used is FAILED with its reason once it cannot land; the wallet's next send is mined",
  async fn() {
    const t = await xplaNftTenant("xpla sequence used game");
    const blocks = t.services.xpla!.timeoutBlocks;
    const sink = callbackSink();
    try {
      t.lcd.holdBlocks(true);
      const sent = await t.call(
        "POST",
        `/service/v1/nft/${t.nft}/mint`,
        mintBody(t, "u1", { callbackUrl: sink.url }),
      );
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      const { requestId, txhash } = sent.body.data;
      await t.services.idle();
      t.lcd.advanceBlocks(blocks);
      // The same key sends elsewhere at that sequence before the tracker signs again.
      const foreign = await sendWithXplaJs(t.minter, t.minter.address, 1n, { wait: false });
      t.lcd.holdBlocks(false);
      await waitForTx(foreign);
      await runScheduled(t.services);
      const failed = await record(t, requestId);
      assert.equal(failed.status, "FAILED");
      assert.equal(failed.tx_hash, txhash);
      assert.equal(
        failed.fail_reason,
        `sequence 0 of ${t.minter.address} was used by another transaction; this request's transaction was not included`,
      );
      assert.equal((await attempts(t, requestId)).length, 1);
      assert.equal(sink.received.length, 1);
      assert.equal(sink.received[0].body.txStatus, "FAILED");

      const next = await t.call("POST", `/service/v1/nft/${t.nft}/mint`, mintBody(t, "u2"));
      assert.equal(next.status, 200, JSON.stringify(next.body));
      await settleXpla(t.tenant.appid);
      assert.equal((await record(t, next.body.data.requestId)).status, "SUCCESS");
    } finally {
      t.lcd.holdBlocks(false);
      await sink.close();
    }
  },
});
