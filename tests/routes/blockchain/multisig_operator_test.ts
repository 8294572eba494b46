/**
 * A 2-of-3 Safe as the operator of a lock and a convert pool (ownership handed over through the
 * admin API): unlock and to-token are prepared as Safe transactions and executed with two owners'
 * signatures.
 */
import assert from "node:assert/strict";
import type { Hex } from "viem";
import { admin, callJson } from "../../harness.ts";
import {
  chainTestOptions,
  deploy,
  fundedWallet,
  nftTenant,
  settleSent,
} from "../../lib/chain/anvil.ts";
import { createSafe, owners, safeContractsReady, signAndSend } from "../../lib/chain/safe.ts";
import { abi as nftAbi } from "../../../contracts/artifacts/GameNFT.ts";

Deno.test({
  ...chainTestOptions,
  name: "a Safe operating a lock and a pool unlocks and converts to token through its owners",
  async fn() {
    const { tenant, client, minter, player, nft, mintOne } = await nftTenant(
      "multisig operator game",
    );
    await safeContractsReady(tenant.gameIndex);
    const h = tenant.chainHeaders;
    const gameIndex = tenant.gameIndex;
    const creator = await fundedWallet(gameIndex, { kms: false });
    const [o1, o2, o3] = owners(3);
    const safe = await createSafe(h, creator, [o1.address, o2.address, o3.address], 2);
    const lock = await deploy({
      gameIndex,
      type: "lock",
      from: minter.address,
      name: "Vault",
      nftContract: nft,
    });
    const token = await deploy({
      gameIndex,
      type: "token",
      from: minter.address,
      name: "Gold",
      initialSupply: "1000",
    });
    const pool = await deploy({
      gameIndex,
      type: "convert-pool",
      from: minter.address,
      name: "Pool",
      token,
      initialTokens: "500",
    });
    for (const contract of [lock, pool]) {
      const handed = await admin("POST", `/admin/v1/contracts/${contract}/calls`, {
        network: "polygon",
        call: "transferOwnership",
        args: { newOwner: safe },
      });
      assert.equal(handed.status, 200, JSON.stringify(handed.body));
    }

    assert.equal((await mintOne("5")).body.code, 0);
    await settleSent(tenant.appid);
    const common = { playerId: "9", encoded: false, callbackUrl: "http://127.0.0.1:9/cb" };
    const locked = await callJson("POST", `/service/v1/nft/contract/${nft}/lock`, {
      headers: h,
      json: { ...common, isSend: false, from: player.address, lockContract: lock, tokenId: "5" },
    });
    assert.equal(locked.body.code, 0, JSON.stringify(locked.body));
    assert.equal(locked.body.data.hashedTx, undefined);
    await signAndSend(player, locked.body.data.rawTx);

    const viaSafe = async (prepared: { rawTx: unknown; hashedTx: Hex }) => {
      const res = await callJson("POST", `/core/v1/multisig/tx/${safe}`, {
        headers: h,
        json: {
          encoded: false,
          from: creator.address,
          tx: prepared.rawTx,
          signatures: [
            await o3.signMessage({ message: { raw: prepared.hashedTx } }),
            await o1.sign({ hash: prepared.hashedTx }),
          ],
        },
      });
      assert.equal(res.body.code, 0, JSON.stringify(res.body));
      return await signAndSend(creator, res.body.data.rawTx);
    };

    const unlock = await callJson("POST", `/service/v1/lock/contract/${lock}/unlock`, {
      headers: h,
      json: { ...common, isSend: false, from: safe, nftContract: nft, tokenId: "5" },
    });
    assert.equal(unlock.body.code, 0, JSON.stringify(unlock.body));
    assert.match(unlock.body.data.hashedTx, /^0x[0-9a-f]{64}$/);
    await viaSafe(unlock.body.data);
    assert.equal(
      await client.readContract({ address: nft, abi: nftAbi, functionName: "ownerOf", args: [5n] }),
      player.address,
    );

    // to-token is sent by the pool's operator, read from the chain: now the Safe.
    const toToken = await callJson("POST", "/service/v1/convert/to-token", {
      headers: h,
      json: {
        ...common,
        isSend: false,
        owner: player.address,
        convertPool: pool,
        gameTokenAmount: "40",
        gameCurrencyCode: "gem",
        gameCurrencyAmount: "4",
      },
    });
    assert.equal(toToken.body.code, 0, JSON.stringify(toToken.body));
    assert.equal(toToken.body.data.rawTx.to, pool);
    await viaSafe(toToken.body.data);
    const balance = await callJson(
      "GET",
      `/service/v1/ft/${token}/account/${player.address}/balance`,
      {
        headers: h,
      },
    );
    assert.equal(balance.body.data.rawValue, "40");
  },
});
