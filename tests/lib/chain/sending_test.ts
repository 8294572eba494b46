import assert from "node:assert/strict";
import { encodeFunctionData } from "viem";
import { abi as nftAbi } from "../../../contracts/artifacts/GameNFT.ts";
import { callJson } from "../../harness.ts";
import { chainEnv, chainTestOptions, nftTenant } from "./anvil.ts";
import { currentFees, signAndBroadcast } from "../../../lib/chain/sending.ts";
import { withSendLock } from "../../../lib/chain/send_lock.ts";
import { createPolygonChain } from "../../../lib/chain/polygon.ts";
import { txRecordStatement } from "../../../lib/chain/tx_insert.ts";

Deno.test({
  ...chainTestOptions,
  name: "two concurrent sends from one wallet get distinct consecutive nonces",
  async fn() {
    const t = await nftTenant("nonce game");
    const { tenant, minter } = t;
    const start = await t.client.getTransactionCount({ address: minter.address });
    await t.anvil.automine(false);
    try {
      const [a, b] = await Promise.all([t.mintOne("1"), t.mintOne("2")]);
      assert.equal(a.body.code, 0, JSON.stringify(a.body));
      assert.equal(b.body.code, 0, JSON.stringify(b.body));
      const txs = await Promise.all(
        [a, b].map((r) => t.client.getTransaction({ hash: r.body.data.txhash })),
      );
      const nonces = txs.map((x) => x.nonce).sort((x, y) => x - y);
      assert.deepEqual(nonces, [start, start + 1]);
      // Not mined yet: both are listed PENDING.
      await t.services.idle();
      const list = await callJson("GET", "/service/v1/tx", { headers: tenant.chainHeaders });
      assert.deepEqual(
        list.body.data.transactions.map((x: { txStatus: string }) => x.txStatus),
        ["PENDING", "PENDING"],
      );
    } finally {
      await t.anvil.mine();
      await t.anvil.automine(true);
    }
  },
});

Deno.test({
  ...chainTestOptions,
  name: "a send the node refuses for good leaves no record and gives its nonce to the next send",
  async fn() {
    const t = await nftTenant("release game");
    const { tenant, minter, nft } = t;
    const chain = t.services.chain!;
    const fees = await currentFees(chain);
    const data = encodeFunctionData({
      abi: nftAbi,
      functionName: "mintBatch",
      args: [minter.address, [1n], ["u"], [0n]],
    });
    const before = await t.client.getTransactionCount({ address: minter.address });
    const record = (requestId: string) => ({
      requestId,
      appid: tenant.appid,
      request: (hash: string, nonce: number) =>
        txRecordStatement({
          requestId,
          req: {
            appid: tenant.appid,
            gameIndex: tenant.gameIndex,
            network: "polygon",
            playerId: "1",
            params: {},
          },
          chainId: chain.chainId,
          type: "MINT",
          status: "PENDING",
          from: minter.address,
          contract: nft,
          hash,
          nonce,
          now: new Date(),
        }),
    });
    const refused = crypto.randomUUID();
    // Gas far below the intrinsic cost: the node refuses the broadcast.
    await assert.rejects(() =>
      signAndBroadcast(t.services, chain, {
        from: minter.address,
        gameIndex: tenant.gameIndex,
        to: nft,
        data,
        gas: 1000n,
        ...fees,
      }, record(refused))
    );
    const left = await t.services.db.query(
      "select 1 from chain_txs where request_id = $1 union all select 1 from chain_tx_attempts where request_id = $1",
      [refused],
    );
    assert.equal(left.length, 0, "the refused send left no record");
    const okId = crypto.randomUUID();
    const ok = await signAndBroadcast(t.services, chain, {
      from: minter.address,
      gameIndex: tenant.gameIndex,
      to: nft,
      data,
      gas: 500_000n,
      ...fees,
    }, record(okId));
    assert.equal(ok.nonce, before);
    const [attempt] = await t.services.db.query<{ nonce: string; tx_hash: string }>(
      "select nonce::text, tx_hash from chain_tx_attempts where request_id = $1",
      [okId],
    );
    assert.deepEqual(attempt, { nonce: String(before), tx_hash: ok.hash });
  },
});

Deno.test("the send lock serialises holders of the same wallet only", async () => {
  const { services } = await chainEnv();
  const key = { chainId: 1, address: "0xabc" + crypto.randomUUID().slice(0, 8) };
  const order: string[] = [];
  const hold = (name: string, ms: number, k = key) =>
    withSendLock(services.db, k, async () => {
      order.push(`${name}+`);
      await new Promise((r) => setTimeout(r, ms));
      order.push(`${name}-`);
    });
  await Promise.all([hold("a", 100), hold("b", 10)]);
  assert.ok(
    order.join() === "a+,a-,b+,b-" || order.join() === "b+,b-,a+,a-",
    order.join(),
  );
  // Another wallet is not blocked.
  const other = { chainId: 1, address: key.address + "f" };
  order.length = 0;
  await Promise.all([
    hold("a", 150),
    (async () => {
      await new Promise((r) => setTimeout(r, 20));
      await hold("c", 1, other);
    })(),
  ]);
  assert.deepEqual(order, ["a+", "c+", "c-", "a-"]);
});

Deno.test({
  ...chainTestOptions,
  name: "EIP-1559 fees come from the node and are capped by POLYGON_MAX_FEE_GWEI",
  async fn() {
    const t = await chainEnv();
    const uncapped = await currentFees(t.services.chain!);
    assert.ok(uncapped.maxFeePerGas > 0n);
    assert.ok(uncapped.maxPriorityFeePerGas <= uncapped.maxFeePerGas);
    const capGwei = Number(uncapped.maxFeePerGas) / 2e9;
    const capped = await currentFees(
      createPolygonChain({ rpcUrl: t.anvil.url, chainId: 31337, maxFeeGwei: capGwei }),
    );
    assert.equal(capped.maxFeePerGas, BigInt(Math.round(capGwei * 1e9)));
    assert.ok(capped.maxPriorityFeePerGas <= capped.maxFeePerGas);
  },
});
