import assert from "node:assert/strict";
import { abi, bytecode } from "../../../contracts/artifacts/GameNFT.ts";
import { admin, callJson, seedTenant } from "../../harness.ts";
import { chainEnv, chainTestOptions, fundedWallet } from "../../lib/chain/anvil.ts";

Deno.test({
  ...chainTestOptions,
  name:
    "a wallet held for game A never signs for game B: isSend true is refused, false hands rawTx",
  async fn() {
    const t = await chainEnv();
    const gameA = await seedTenant("wallet owner game");
    const gameB = await seedTenant("wallet borrower game");
    const walletA = await fundedWallet(gameA.gameIndex, { kms: true });
    const player = await fundedWallet(gameB.gameIndex, { kms: false });
    // Game B's NFT contract whose minter is game A's wallet: only the key decides who may send.
    const deployHash = await walletA.wallet.deployContract({
      abi,
      bytecode,
      args: ["Borrowed", "BRW", walletA.address],
      account: walletA.wallet.account!,
      chain: walletA.wallet.chain,
    });
    const receipt = await t.client.waitForTransactionReceipt({ hash: deployHash });
    const nft = receipt.contractAddress!;
    const registered = await admin("POST", "/admin/v1/contracts", {
      network: "polygon",
      address: nft,
      type: "nft",
      name: "Borrowed",
      owner: walletA.address,
      gameIndex: gameB.gameIndex,
    });
    assert.equal(registered.status, 201, JSON.stringify(registered.body));
    const nonceBefore = await t.client.getTransactionCount({ address: walletA.address });

    const body = {
      playerId: "b-1",
      from: walletA.address,
      to: player.address,
      encoded: false,
      callbackUrl: "http://127.0.0.1:9/cb",
      mintMsg: [{ tokenId: "1", royaltyPercentage: 1, metadata: { name: "One", image: "i" } }],
    };
    const sent = await callJson("POST", `/service/v1/nft/${nft}/mint`, {
      json: { ...body, isSend: true },
      headers: gameB.chainHeaders,
    });
    assert.equal(sent.status, 400, JSON.stringify(sent.body));
    assert.equal(sent.body.code, 2010);
    await t.services.idle();
    assert.equal(await t.client.getTransactionCount({ address: walletA.address }), nonceBefore);
    const list = await callJson("GET", "/service/v1/tx?playerId=b-1", {
      headers: gameB.chainHeaders,
    });
    assert.equal(list.body.data.transactions.length, 0);

    // Signing outside the service is still possible: the unsigned transaction is handed back.
    const unsigned = await callJson("POST", `/service/v1/nft/${nft}/mint`, {
      json: { ...body, isSend: false },
      headers: gameB.chainHeaders,
    });
    assert.equal(unsigned.body.code, 0, JSON.stringify(unsigned.body));
    assert.equal(unsigned.body.data.status, "WAITING");
    assert.equal(unsigned.body.data.rawTx.from, walletA.address);

    // The admin cannot deploy for game B with game A's wallet either.
    const deploy = await admin("POST", "/admin/v1/contracts/deploy", {
      network: "polygon",
      gameIndex: gameB.gameIndex,
      type: "nft",
      from: walletA.address,
      name: "Stolen",
    });
    assert.equal(deploy.status, 400, JSON.stringify(deploy.body));
    assert.equal(deploy.body.error.code, "KEY_NOT_HELD");
    assert.equal(await t.client.getTransactionCount({ address: walletA.address }), nonceBefore);
  },
});
