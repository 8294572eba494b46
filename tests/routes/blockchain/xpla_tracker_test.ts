import assert from "node:assert/strict";
import { runScheduled } from "../../../lib/scheduled.ts";
import {
  sendWithXplaJs,
  settleXpla,
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
