import assert from "node:assert/strict";
import { abi as nftAbi } from "../../../contracts/artifacts/GameNFT.ts";
import { callJson, seedTenant } from "../../harness.ts";
import {
  chainEnv,
  chainTestOptions,
  deploy,
  fundedWallet,
  settleSent,
} from "../../lib/chain/anvil.ts";

Deno.test({
  ...chainTestOptions,
  name: "lock then unlock: escrow holds the NFT (not transferable), then returns it",
  async fn() {
    const t = await chainEnv();
    const tenant = await seedTenant("lock game");
    const h = tenant.chainHeaders;
    const operator = await fundedWallet(tenant.gameIndex, { kms: true });
    const player = await fundedWallet(tenant.gameIndex, { kms: true });
    const stranger = await fundedWallet(tenant.gameIndex, { kms: true });
    const nft = await deploy({
      gameIndex: tenant.gameIndex,
      type: "nft",
      from: operator.address,
      name: "N",
    });
    const lock = await deploy({
      gameIndex: tenant.gameIndex,
      type: "lock",
      from: operator.address,
      name: "L",
    });
    // The NFT trusts the escrow (admin call on the contract itself).
    const trust = await operator.wallet.writeContract({
      account: operator.wallet.account!,
      chain: operator.wallet.chain,
      address: nft,
      abi: nftAbi,
      functionName: "setLockOperator",
      args: [lock, true],
    });
    await t.client.waitForTransactionReceipt({ hash: trust });
    const minted = await callJson("POST", `/service/v1/nft/${nft}/mint`, {
      headers: h,
      json: {
        playerId: "9",
        from: operator.address,
        to: player.address,
        isSend: true,
        encoded: false,
        callbackUrl: "http://127.0.0.1:9/cb",
        royaltyPercentage: 0,
        mintMsg: [{ tokenId: "1", metadata: { name: "a", image: "b" } }],
      },
    });
    assert.equal(minted.body.code, 0, JSON.stringify(minted.body));
    await settleSent(tenant.appid);
    const ownerOf = () =>
      t.client.readContract({ address: nft, abi: nftAbi, functionName: "ownerOf", args: [1n] });

    const lockBody = {
      playerId: "9",
      isSend: true,
      encoded: false,
      callbackUrl: "http://127.0.0.1:9/cb",
      lockContract: lock,
      tokenId: "1",
    };
    const notOwner = await callJson("POST", `/service/v1/nft/contract/${nft}/lock`, {
      headers: h,
      json: { ...lockBody, from: stranger.address },
    });
    assert.equal(notOwner.status, 403);
    assert.equal(notOwner.body.code, 2003);
    // The lock's operator (trusted by the NFT, so the contract would move any holder's token)
    // does not own it either: refused before signing, whether the service sends or not.
    for (const isSend of [true, false]) {
      const byOperator = await callJson("POST", `/service/v1/nft/contract/${nft}/lock`, {
        headers: h,
        json: { ...lockBody, isSend, from: operator.address },
      });
      assert.equal(byOperator.status, 403, JSON.stringify(byOperator.body));
      assert.equal(byOperator.body.code, 2003);
      assert.match(byOperator.body.message, /does not own token 1/);
    }
    assert.equal(await ownerOf(), player.address);
    const notLocked = await callJson("POST", `/service/v1/lock/contract/${lock}/unlock`, {
      headers: h,
      json: { ...lockBody, from: operator.address, nftContract: nft, lockContract: undefined },
    });
    assert.equal(notLocked.status, 409);
    assert.equal(notLocked.body.code, 2005);

    const locked = await callJson("POST", `/service/v1/nft/contract/${nft}/lock`, {
      headers: h,
      json: { ...lockBody, from: player.address },
    });
    assert.equal(locked.body.code, 0, JSON.stringify(locked.body));
    assert.equal(locked.body.data.status, "PENDING");
    await settleSent(tenant.appid);
    assert.equal(await ownerOf(), lock);
    // Locked: the player can no longer move it.
    await assert.rejects(() =>
      t.client.simulateContract({
        account: player.address,
        address: nft,
        abi: nftAbi,
        functionName: "transferFrom",
        args: [player.address, stranger.address, 1n],
      })
    );
    const twice = await callJson("POST", `/service/v1/nft/contract/${nft}/lock`, {
      headers: h,
      json: { ...lockBody, from: player.address },
    });
    assert.equal(twice.status, 409);
    assert.equal(twice.body.code, 2004);

    const unlocked = await callJson("POST", `/service/v1/lock/contract/${lock}/unlock`, {
      headers: h,
      json: { ...lockBody, from: operator.address, nftContract: nft, lockContract: undefined },
    });
    assert.equal(unlocked.body.code, 0, JSON.stringify(unlocked.body));
    await settleSent(tenant.appid);
    assert.equal(await ownerOf(), player.address);
    // Unlocked: transferable again.
    await t.client.simulateContract({
      account: player.address,
      address: nft,
      abi: nftAbi,
      functionName: "transferFrom",
      args: [player.address, stranger.address, 1n],
    });
    const list = await callJson("GET", "/service/v1/tx?playerId=9", { headers: h });
    assert.deepEqual(
      list.body.data.transactions.map((
        x: { txType: string; txStatus: string },
      ) => [x.txType, x.txStatus]),
      [["UNLOCK", "SUCCESS"], ["LOCK", "SUCCESS"], ["MINT", "SUCCESS"]],
    );
    // Deployed contracts are listed under their deployer, filtered by type.
    const owned = await callJson(
      "GET",
      `/service/v1/contract/owner/${operator.address}?contractType=lock`,
      { headers: h },
    );
    assert.deepEqual(
      owned.body.data.contracts.map((c: { address: string; type: string }) => [c.address, c.type]),
      [[lock, "lock"]],
    );
    // The escrow's event carries the request id.
    const logs = await t.client.getContractEvents({
      address: lock,
      abi: (await import("../../../contracts/artifacts/NftLock.ts")).abi,
      eventName: "Unlocked",
      fromBlock: 0n,
    });
    assert.equal(logs[0].args.requestId, unlocked.body.data.requestId);
  },
});
