import assert from "node:assert/strict";
import { abi as tokenAbi } from "../../../contracts/artifacts/GameToken.ts";
import { abi as poolAbi } from "../../../contracts/artifacts/ConvertPool.ts";
import { admin, callJson, seedTenant } from "../../harness.ts";
import { chainEnv, chainTestOptions, deploy, fundedWallet } from "../../lib/chain/anvil.ts";

Deno.test({
  ...chainTestOptions,
  name:
    "convert both directions, pool info, balances with decimals, exhausted pool, replayed request id",
  async fn() {
    const t = await chainEnv();
    const tenant = await seedTenant("convert game");
    const h = tenant.chainHeaders;
    const operator = await fundedWallet(tenant.gameIndex, { kms: true });
    const player = await fundedWallet(tenant.gameIndex, { kms: true });
    const token = await deploy({
      gameIndex: tenant.gameIndex,
      type: "token",
      from: operator.address,
      name: "Gold",
      symbol: "GLD",
      initialSupply: "1000000000000000000000",
      symbolUri: "https://img.example/gld.png",
    });
    const pool = await deploy({
      gameIndex: tenant.gameIndex,
      type: "convert-pool",
      from: operator.address,
      name: "Pool",
      token,
    });
    const write = async (functionName: "transfer" | "setTrustedPool", args: readonly unknown[]) => {
      const hash = await operator.wallet.writeContract(
        {
          account: operator.wallet.account!,
          chain: operator.wallet.chain,
          address: token,
          abi: tokenAbi,
          functionName,
          args,
        } as Parameters<typeof operator.wallet.writeContract>[0],
      );
      await t.client.waitForTransactionReceipt({ hash });
    };
    await write("transfer", [pool, 100_000000000000000000n]);
    await write("setTrustedPool", [pool, true]);

    const balance = async (who: string) =>
      (await callJson("GET", `/service/v1/ft/${token}/account/${who}/balance`, { headers: h }))
        .body;
    const b0 = await balance(player.address);
    assert.deepEqual(b0, {
      code: 0,
      message: "success",
      data: {
        value: "0",
        rawValue: "0",
        decimals: 18,
        symbol: "GLD",
        symbolUri: "https://img.example/gld.png",
      },
    });

    const base = {
      playerId: "5",
      isSend: true,
      encoded: false,
      callbackUrl: "http://127.0.0.1:9/cb",
      owner: player.address,
      convertPool: pool,
    };
    const toToken = await callJson("POST", "/service/v1/convert/to-token", {
      headers: h,
      json: {
        ...base,
        gameTokenAmount: "2500000000000000000",
        gameCurrencyCode: "gold",
        gameCurrencyAmount: "250",
      },
    });
    assert.equal(toToken.body.code, 0, JSON.stringify(toToken.body));
    await t.services.idle();
    const b1 = await balance(player.address);
    assert.equal(b1.data.value, "2.5");
    assert.equal(b1.data.rawValue, "2500000000000000000");
    let info = await callJson("GET", `/service/v1/convert/pool/${pool}`, { headers: h });
    assert.deepEqual(info.body.data, {
      convertPoolAmount: "97500000000000000000",
      gameCurrency: [{ goodsCode: "gold", goodsAmount: "250" }],
    });

    const toCurrency = await callJson("POST", "/service/v1/convert/to-currency", {
      headers: h,
      json: {
        ...base,
        gameTokenAmount: "500000000000000000",
        gameCurrencyCode: "gold",
        gameCurrencyAmount: "50",
      },
    });
    assert.equal(toCurrency.body.code, 0, JSON.stringify(toCurrency.body));
    await t.services.idle();
    assert.equal((await balance(player.address)).data.value, "2");
    info = await callJson("GET", `/service/v1/convert/pool/${pool}`, { headers: h });
    assert.deepEqual(info.body.data, {
      convertPoolAmount: "98000000000000000000",
      gameCurrency: [{ goodsCode: "gold", goodsAmount: "200" }],
    });

    const exhausted = await callJson("POST", "/service/v1/convert/to-token", {
      headers: h,
      json: {
        ...base,
        gameTokenAmount: "99000000000000000000",
        gameCurrencyCode: "gold",
        gameCurrencyAmount: "1",
      },
    });
    assert.equal(exhausted.status, 409);
    assert.equal(exhausted.body.code, 2006);

    // The pool itself refuses a request id it has processed (replay through the contract).
    await assert.rejects(
      () =>
        t.client.simulateContract({
          account: operator.address,
          address: pool,
          abi: poolAbi,
          functionName: "toToken",
          args: [toToken.body.data.requestId, player.address, 1n, "gold", 1n],
        }),
      /RequestAlreadyProcessed/,
    );
    // ...and the API refuses a reused caller-chosen request id.
    const first = await callJson("POST", "/service/v1/convert/to-token", {
      headers: h,
      json: {
        ...base,
        requestId: "conv-1",
        gameTokenAmount: "1",
        gameCurrencyCode: "gold",
        gameCurrencyAmount: "1",
      },
    });
    assert.equal(first.body.code, 0);
    const replay = await callJson("POST", "/service/v1/convert/to-token", {
      headers: h,
      json: {
        ...base,
        requestId: "conv-1",
        gameTokenAmount: "1",
        gameCurrencyCode: "gold",
        gameCurrencyAmount: "1",
      },
    });
    assert.equal(replay.status, 409);
    assert.equal(replay.body.code, 2012);
    await t.services.idle();

    const wrongType = await callJson(
      "GET",
      `/service/v1/ft/${pool}/account/${player.address}/balance`,
      {
        headers: h,
      },
    );
    assert.equal(wrongType.body.code, 2002);
    const badAmount = await callJson("POST", "/service/v1/convert/to-token", {
      headers: h,
      json: { ...base, gameTokenAmount: "1.5", gameCurrencyCode: "gold", gameCurrencyAmount: "1" },
    });
    assert.equal(badAmount.body.code, 1000);
    const overflowing = await callJson("POST", "/service/v1/convert/to-currency", {
      headers: h,
      json: {
        ...base,
        gameTokenAmount: "9".repeat(78),
        gameCurrencyCode: "gold",
        gameCurrencyAmount: "1",
      },
    });
    assert.equal(overflowing.status, 400, JSON.stringify(overflowing.body));
    assert.equal(overflowing.body.code, 1000);
    const badType = await callJson("POST", "/service/v1/convert/sideways", {
      headers: h,
      json: { ...base, gameTokenAmount: "1", gameCurrencyCode: "gold", gameCurrencyAmount: "1" },
    });
    assert.equal(badType.body.code, 1000);
    // Contracts of another game are not visible.
    const other = await seedTenant("other game");
    const foreign = await callJson("GET", `/service/v1/convert/pool/${pool}`, {
      headers: other.chainHeaders,
    });
    assert.equal(foreign.body.code, 2001);
    const listed = await admin("POST", "/admin/v1/contracts", {
      network: "polygon",
      address: pool,
      type: "convert-pool",
      name: "Pool",
      owner: operator.address,
      gameIndex: tenant.gameIndex,
    });
    assert.equal(listed.status, 409);
  },
});
