/**
 * A fresh game set up through the admin API only (no direct contract calls): wallets created and
 * funded, contracts deployed with their trust calls made, then mint, lock, unlock and both
 * convert directions through the public API.
 */
import assert from "node:assert/strict";
import { admin, callJson, seedTenant } from "../../harness.ts";
import { chainEnv, chainTestOptions, settleSent } from "../../lib/chain/anvil.ts";
import { createPolygonChain } from "../../../lib/chain/polygon.ts";

Deno.test({
  ...chainTestOptions,
  name: "a game is set up and played through the API only: lock, unlock, to-token, to-currency",
  async fn() {
    const { services } = await chainEnv();
    const tenant = await seedTenant("setup game");
    const h = tenant.chainHeaders;
    const gameIndex = tenant.gameIndex;
    const newWallet = async () =>
      (await admin("POST", "/admin/v1/wallets", { gameIndex })).body.address as string;
    const operator = await newWallet();
    const player = await newWallet();

    const fresh = await admin("GET", `/admin/v1/wallets/${operator}`);
    assert.equal(fresh.status, 200);
    // The XPLA side of the same key is covered by xpla_multisig_test.ts.
    const { xplaAddress: _x, xpla: _state, ...polygonSide } = fresh.body;
    assert.deepEqual(
      { ...polygonSide, createdAt: typeof fresh.body.createdAt },
      {
        address: operator,
        gameIndex,
        keyHeld: true,
        createdAt: "string",
        polygon: { chainId: 31337, balance: "0", balanceWei: "0", nonce: 0, lowBalance: true },
      },
    );

    const stranger = await admin("GET", `/admin/v1/wallets/0x${"42".repeat(20)}`);
    assert.equal(stranger.body.keyHeld, false);
    assert.equal(stranger.body.gameIndex, null);
    const badAddress = await admin("GET", "/admin/v1/wallets/0x1234");
    assert.equal(badAddress.status, 400);
    assert.equal(badAddress.body.error.message, "address is not a valid address");

    // Without gas a deploy says so (and which wallet), instead of a bare chain error.
    const broke = await admin("POST", "/admin/v1/contracts/deploy", {
      network: "polygon",
      gameIndex,
      type: "nft",
      from: operator,
      name: "Heroes",
    });
    assert.equal(broke.status, 400, JSON.stringify(broke.body));
    assert.equal(broke.body.error.code, "INSUFFICIENT_FUNDS");
    assert.match(broke.body.error.message, new RegExp(`${operator}.*lacks native currency`));

    for (const w of [operator, player]) {
      const funded = await admin("POST", `/admin/v1/wallets/${w}/fund`, { amount: "5" });
      assert.equal(funded.status, 200, JSON.stringify(funded.body));
    }
    const listed = await admin("GET", `/admin/v1/wallets?gameIndex=${gameIndex}`);
    assert.equal(listed.body.nextCursor, null);
    assert.deepEqual(
      listed.body.items.map((w: { address: string; polygon: { balance: string } }) => [
        w.address,
        w.polygon.balance,
      ]),
      [[player, "5"], [operator, "5"]],
      "newest first",
    );

    const deploy = async (body: Record<string, unknown>) => {
      const res = await admin("POST", "/admin/v1/contracts/deploy", {
        network: "polygon",
        gameIndex,
        from: operator,
        ...body,
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body;
    };
    const nft = (await deploy({ type: "nft", name: "Heroes" })).address;
    const lock = await deploy({ type: "lock", name: "Vault", nftContract: nft });
    assert.deepEqual(lock.calls.map((c: { call: string }) => c.call), ["setLockOperator"]);
    assert.deepEqual(lock.missingCalls, []);
    const token = (await deploy({
      type: "token",
      name: "Gold",
      symbol: "GLD",
      initialSupply: "1000000",
    })).address;
    const pool = await deploy({
      type: "convert-pool",
      name: "Pool",
      token,
      initialTokens: "600000",
    });
    assert.deepEqual(pool.calls.map((c: { call: string }) => c.call), [
      "setTrustedPool",
      "transfer",
    ]);
    const funded = await admin("POST", `/admin/v1/contracts/${pool.address}/calls`, {
      network: "polygon",
      call: "fundPool",
      args: { amount: "100000" },
    });
    assert.equal(funded.status, 200, JSON.stringify(funded.body));
    const poolInfo = await callJson("GET", `/service/v1/convert/pool/${pool.address}`, {
      headers: h,
    });
    assert.equal(poolInfo.body.data.convertPoolAmount, "700000");

    // A lock deployed by a wallet that is not the NFT's admin says which call is missing.
    const outsider = await newWallet();
    await admin("POST", `/admin/v1/wallets/${outsider}/fund`, { amount: "1" });
    const untrusted = await deploy({
      type: "lock",
      name: "Other vault",
      nftContract: nft,
      from: outsider,
    });
    assert.equal(untrusted.calls.length, 0);
    assert.equal(untrusted.missingCalls[0].call, "setLockOperator(lock, true)");
    assert.match(untrusted.missingCalls[0].reason, /is not an admin/);

    const send = async (path: string, body: Record<string, unknown>) => {
      const res = await callJson("POST", path, {
        headers: h,
        json: {
          playerId: "11",
          isSend: true,
          encoded: false,
          callbackUrl: "http://127.0.0.1:9/cb",
          ...body,
        },
      });
      assert.equal(res.body.code, 0, `${path}: ${JSON.stringify(res.body)}`);
      await settleSent(tenant.appid);
      return res.body.data.requestId as string;
    };
    const ids = [
      await send(`/service/v1/nft/${nft}/mint`, {
        from: operator,
        to: player,
        royaltyPercentage: 0,
        mintMsg: [{ tokenId: "1", metadata: { name: "Sword", image: "https://img.example/s" } }],
      }),
      await send(`/service/v1/nft/contract/${nft}/lock`, {
        from: player,
        lockContract: lock.address,
        tokenId: "1",
      }),
    ];
    const lockedAgain = await callJson("POST", `/service/v1/nft/contract/${nft}/lock`, {
      headers: h,
      json: {
        playerId: "11",
        isSend: true,
        encoded: false,
        callbackUrl: "http://127.0.0.1:9/cb",
        from: player,
        lockContract: lock.address,
        tokenId: "1",
      },
    });
    assert.equal(lockedAgain.body.code, 2004);
    ids.push(
      await send(`/service/v1/lock/contract/${lock.address}/unlock`, {
        from: operator,
        nftContract: nft,
        tokenId: "1",
      }),
    );
    const convert = { convertPool: pool.address, owner: player, gameCurrencyCode: "gold" };
    ids.push(
      await send("/service/v1/convert/to-token", {
        ...convert,
        gameTokenAmount: "300",
        gameCurrencyAmount: "30",
      }),
    );
    ids.push(
      await send("/service/v1/convert/to-currency", {
        ...convert,
        gameTokenAmount: "100",
        gameCurrencyAmount: "10",
      }),
    );
    const list = await callJson("GET", "/service/v1/tx?limit=100", { headers: h });
    const status = new Map(
      list.body.data.transactions.map((t: { requestId: string; txStatus: string }) => [
        t.requestId,
        t.txStatus,
      ]),
    );
    assert.deepEqual(ids.map((id) => status.get(id)), Array(5).fill("SUCCESS"));
    const balance = await callJson("GET", `/service/v1/ft/${token}/account/${player}/balance`, {
      headers: h,
    });
    assert.equal(balance.body.data.rawValue, "200");
    const after = await callJson("GET", `/service/v1/convert/pool/${pool.address}`, { headers: h });
    assert.deepEqual(after.body.data, {
      convertPoolAmount: "699800",
      gameCurrency: [{ goodsCode: "gold", goodsAmount: "20" }],
    });

    // Token transfer from a held wallet, and a role revoked, through the admin API.
    const moved = await admin("POST", `/admin/v1/contracts/${token}/calls`, {
      network: "polygon",
      call: "transfer",
      args: { to: player, amount: "50" },
    });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    const revoked = await admin("POST", `/admin/v1/contracts/${nft}/roles`, {
      network: "polygon",
      role: "minter",
      account: operator,
      grant: false,
    });
    assert.equal(revoked.body.hasRole, false);
    const wrongType = await admin("POST", `/admin/v1/contracts/${token}/calls`, {
      network: "polygon",
      call: "setLockOperator",
      args: { operator: lock.address },
    });
    assert.equal(wrongType.body.error.code, "CONTRACT_TYPE_MISMATCH");
    const missingArg = await admin("POST", `/admin/v1/contracts/${token}/calls`, {
      network: "polygon",
      call: "transfer",
      args: { to: player },
    });
    assert.equal(missingArg.status, 400);
    assert.equal(missingArg.body.error.message, "args.amount is required");

    // Funding from the node's dev account is refused on a chain that is not a local one.
    const local = services.chain!;
    services.chain = createPolygonChain({ rpcUrls: local.rpcUrls, chainId: 137 });
    try {
      const refused = await admin("POST", `/admin/v1/wallets/${player}/fund`, { amount: "1" });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error.code, "LOCAL_CHAIN_ONLY");
    } finally {
      services.chain = local;
    }
  },
});
