import assert from "node:assert/strict";
import { callJson, seedTenant } from "../../harness.ts";
import { chainEnv, chainTestOptions, deploy, fundedWallet } from "../../lib/chain/anvil.ts";
import { runScheduled } from "../../../lib/scheduled.ts";

Deno.test({
  ...chainTestOptions,
  name: "chain node stopped mid-test: 503 CHAIN_UNAVAILABLE, then recovery after restart",
  async fn() {
    const t = await chainEnv();
    const tenant = await seedTenant("outage game");
    const h = tenant.chainHeaders;
    const owner = await fundedWallet(tenant.gameIndex, { kms: true });
    const token = await deploy({
      gameIndex: tenant.gameIndex,
      type: "token",
      from: owner.address,
      name: "T",
      symbol: "T",
      initialSupply: "5",
    });
    const balance = () =>
      callJson("GET", `/service/v1/ft/${token}/account/${owner.address}/balance`, { headers: h });
    assert.equal((await balance()).body.data.rawValue, "5");

    await t.anvil.stop();
    try {
      const down = await balance();
      assert.equal(down.status, 503);
      assert.deepEqual(down.body, { code: 5031, message: "blockchain node unreachable" });
      const nft = await deploy({
        gameIndex: tenant.gameIndex,
        type: "nft",
        from: owner.address,
        name: "N",
      })
        .catch((err) => err as Error);
      assert.ok(nft instanceof Error && /5031|unreachable/.test(nft.message), String(nft));
      const mint = await callJson("POST", `/service/v1/nft/${token}/mint`, {
        headers: h,
        json: {
          playerId: "1",
          from: owner.address,
          to: owner.address,
          isSend: true,
          encoded: false,
          callbackUrl: "http://127.0.0.1:9/cb",
          royaltyPercentage: 1,
          mintMsg: [{ tokenId: "1", metadata: { name: "a", image: "b" } }],
        },
      });
      // The registry answers first (token is not an NFT); the chain is not needed for that.
      assert.equal(mint.body.code, 2002);
      // The tracker pauses instead of failing.
      await runScheduled(t.services);
    } finally {
      await t.anvil.start();
    }
    // A fresh node (state reset): the same service works again without a restart.
    const again = await fundedWallet(tenant.gameIndex, { kms: true });
    const token2 = await deploy({
      gameIndex: tenant.gameIndex,
      type: "token",
      from: again.address,
      name: "T2",
      symbol: "T2",
      initialSupply: "7",
    });
    const up = await callJson("GET", `/service/v1/ft/${token2}/account/${again.address}/balance`, {
      headers: h,
    });
    assert.equal(up.status, 200);
    assert.equal(up.body.data.rawValue, "7");
  },
});
