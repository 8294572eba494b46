import assert from "node:assert/strict";
import { admin, callJson } from "../../harness.ts";
import { chainTestOptions, fundedWallet, nftTenant } from "../../lib/chain/anvil.ts";
import { createSafe, owners, safeContractsReady, signAndSend } from "../../lib/chain/safe.ts";

Deno.test({
  ...chainTestOptions,
  name:
    "Safe nonces: prepared transactions take consecutive nonces, execute in order, and stop holding after SAFE_NONCE_HOLD_MS",
  async fn() {
    const { tenant, player, nft, clock, services } = await nftTenant("multisig nonce game");
    await safeContractsReady(tenant.gameIndex);
    const headers = tenant.chainHeaders;
    const creator = await fundedWallet(tenant.gameIndex, { kms: false });
    const [o1, o2] = owners(2);
    const safe = await createSafe(headers, creator, [o1.address, o2.address], 1);
    await admin("POST", `/admin/v1/contracts/${nft}/roles`, {
      network: "polygon",
      role: "minter",
      account: safe,
      grant: true,
    });
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
