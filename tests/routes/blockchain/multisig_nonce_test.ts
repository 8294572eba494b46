import assert from "node:assert/strict";
import { callJson } from "../../harness.ts";
import { chainTestOptions, settleSent } from "../../lib/chain/anvil.ts";
import { safeMinterTenant, sendSigned, signAndSend } from "../../lib/chain/safe.ts";
import { callbackSink } from "./callback_sink.ts";

Deno.test({
  ...chainTestOptions,
  name:
    "Safe nonces: prepared transactions take consecutive nonces, execute in order, and stop holding after SAFE_NONCE_HOLD_MS",
  async fn() {
    const { tenant, player, nft, clock, services, creator, safe, owners: [, o2] } =
      await safeMinterTenant("multisig nonce game", 2, 1);
    const headers = tenant.chainHeaders;
    const prepare = async (tokenId: string) => {
      const res = await callJson("POST", `/service/v1/nft/${nft}/mint`, {
        headers,
        json: {
          playerId: "3",
          from: safe,
          to: player.address,
          isSend: false,
          encoded: false,
          callbackUrl: "http://127.0.0.1:9/cb",
          royaltyPercentage: 0,
          mintMsg: [{ tokenId, metadata: { name: tokenId, image: "https://img.example/n" } }],
        },
      });
      assert.equal(res.body.code, 0, JSON.stringify(res.body));
      return res.body.data;
    };
    const execute = async (prepared: { rawTx: unknown; hashedTx: `0x${string}` }) =>
      await callJson("POST", `/core/v1/multisig/tx/${safe}`, {
        headers,
        json: {
          encoded: false,
          from: creator.address,
          tx: prepared.hashedTx,
          signatures: [await o2.sign({ hash: prepared.hashedTx })],
        },
      });

    const a = await prepare("10");
    const b = await prepare("11");
    assert.deepEqual([a.rawTx.nonce, b.rawTx.nonce], [0, 1]);
    const outOfOrder = await execute(b);
    assert.equal(outOfOrder.body.code, 2110, JSON.stringify(outOfOrder.body));
    assert.match(outOfOrder.body.message, /nonces 0 to 0 must be executed first/);

    try {
      // A and B are abandoned: after the hold, nonce 0 is given out again.
      clock.advance(services.config.SAFE_NONCE_HOLD_MS + 1_000);
      const c = await prepare("12");
      assert.equal(c.rawTx.nonce, 0);
      const ok = await execute(c);
      assert.equal(ok.body.code, 0, JSON.stringify(ok.body));
      // The object form of rawTx (encoded false) is signed and sent as well.
      await signAndSend(creator, ok.body.data.rawTx);
      const replaced = await execute(a);
      assert.equal(replaced.body.code, 2110);
      assert.match(replaced.body.message, /already executed or replaced/);
      const d = await prepare("13");
      assert.equal(d.rawTx.nonce, 1);
    } finally {
      clock.reset();
    }
  },
});

Deno.test({
  ...chainTestOptions,
  name:
    "a reverted execution fails the prepared request; a later successful one makes it SUCCESS with a second callback",
  async fn() {
    const { tenant, player, nft, creator, safe, owners: [o1] } = await safeMinterTenant(
      "multisig retry game",
      2,
      1,
    );
    const headers = tenant.chainHeaders;
    const sink = callbackSink();
    try {
      const mint = await callJson("POST", `/service/v1/nft/${nft}/mint`, {
        headers,
        json: {
          playerId: "4",
          from: safe,
          to: player.address,
          isSend: false,
          encoded: true,
          callbackUrl: sink.url,
          royaltyPercentage: 0,
          mintMsg: [{ tokenId: "20", metadata: { name: "x", image: "https://img.example/x" } }],
        },
      });
      const { rawTx, hashedTx, requestId } = mint.body.data;
      const signatures = [await o1.sign({ hash: hashedTx })];
      const execute = () =>
        callJson("POST", `/core/v1/multisig/tx/${safe}`, {
          headers,
          json: { encoded: true, from: creator.address, tx: rawTx, signatures },
        });
      const status = async () => {
        await settleSent(tenant.appid);
        const list = await callJson("GET", "/service/v1/tx?limit=100", { headers });
        return list.body.data.transactions.find((t: { requestId: string }) =>
          t.requestId === requestId
        ).txStatus;
      };
      const register = (id: string, txHash: string) =>
        callJson("PATCH", "/service/v1/tx/hash", { headers, json: { requestId: id, txHash } });

      // Too little gas: execTransaction runs out and reverts; the Safe nonce stays unused.
      const first = await execute();
      assert.equal(first.body.code, 0, JSON.stringify(first.body));
      const starved = await sendSigned(creator, first.body.data.rawTx, { gas: 60_000n });
      assert.equal(starved.status, "reverted");
      await register(first.body.data.requestId, starved.hash);
      assert.equal(await status(), "FAILED");

      const second = await execute();
      assert.equal(second.body.code, 0, JSON.stringify(second.body));
      const sent = await sendSigned(creator, second.body.data.rawTx);
      assert.equal(sent.status, "success");
      await register(second.body.data.requestId, sent.hash);
      assert.equal(await status(), "SUCCESS");
      for (let i = 0; i < 50 && sink.received.length < 2; i++) {
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.deepEqual(
        sink.received.map((r) => [r.body.txStatus, r.body.txHash]),
        [["FAILED", starved.hash], ["SUCCESS", sent.hash]],
      );
    } finally {
      await sink.close();
    }
  },
});
