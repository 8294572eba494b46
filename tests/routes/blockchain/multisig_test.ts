import assert from "node:assert/strict";
import { type Hex, keccak256 } from "viem";
import { admin, callJson } from "../../harness.ts";
import { chainTestOptions, fundedWallet, nftTenant, settleSent } from "../../lib/chain/anvil.ts";
import { owners, safeContractsReady, signAndSend } from "../../lib/chain/safe.ts";
import { callbackSink } from "./callback_sink.ts";
import { runScheduled } from "../../../lib/scheduled.ts";
import { abi as safeAbi } from "../../../contracts/artifacts/safe/SafeL2.ts";
import { abi as nftAbi } from "../../../contracts/artifacts/GameNFT.ts";

function mintBody(from: string, to: string, tokenId: string, extra: Record<string, unknown> = {}) {
  return {
    playerId: "7",
    from,
    to,
    isSend: false,
    encoded: false,
    callbackUrl: "http://127.0.0.1:9/cb",
    royaltyPercentage: 1,
    mintMsg: [{ tokenId, metadata: { name: `t${tokenId}`, image: "https://img.example/t.png" } }],
    ...extra,
  };
}

Deno.test({
  ...chainTestOptions,
  name:
    "a 2-of-3 Safe is created, granted the minter role, and mints through two owners' signatures",
  async fn() {
    const { tenant, client, minter, player, nft } = await nftTenant("multisig mint game");
    await safeContractsReady(tenant.gameIndex);
    const headers = tenant.chainHeaders;
    const creator = await fundedWallet(tenant.gameIndex, { kms: false });
    const [o1, o2, o3] = owners(3);
    const outsider = owners(1)[0];

    // Create: the address is known before anything is mined.
    const created = await callJson("POST", "/core/v1/multisig", {
      headers,
      json: { from: creator.address, signers: [o1.address, o2.address, o3.address], threshold: 2 },
    });
    assert.equal(created.body.code, 0, JSON.stringify(created.body));
    const safe = created.body.data.address as Hex;
    assert.match(created.body.data.rawTx, /^0x02/);
    assert.equal(await client.getCode({ address: safe }), undefined);
    await signAndSend(creator, created.body.data.rawTx);
    assert.ok(((await client.getCode({ address: safe })) ?? "0x").length > 2);
    const read = { address: safe, abi: safeAbi } as const;
    assert.deepEqual(await client.readContract({ ...read, functionName: "getOwners" }), [
      o1.address,
      o2.address,
      o3.address,
    ]);
    assert.equal(await client.readContract({ ...read, functionName: "getThreshold" }), 2n);

    // Before the minter role, the simulation from the Safe reverts.
    const early = await callJson("POST", `/service/v1/nft/${nft}/mint`, {
      headers,
      json: mintBody(safe, player.address, "1"),
    });
    assert.equal(early.body.code, 2011, JSON.stringify(early.body));

    const granted = await admin("POST", `/admin/v1/contracts/${nft}/roles`, {
      network: "polygon",
      role: "minter",
      account: safe,
      grant: true,
    });
    assert.equal(granted.status, 200, JSON.stringify(granted.body));
    assert.equal(granted.body.hasRole, true);
    assert.equal(granted.body.from, minter.address);

    // isSend true with a Safe sender is refused with its own code.
    const sendSafe = await callJson("POST", `/service/v1/nft/${nft}/mint`, {
      headers,
      json: mintBody(safe, player.address, "1", { isSend: true }),
    });
    assert.equal(sendSafe.body.code, 2109, JSON.stringify(sendSafe.body));

    const sink = callbackSink();
    try {
      const mint = await callJson("POST", `/service/v1/nft/${nft}/mint`, {
        headers,
        json: mintBody(safe, player.address, "1", { callbackUrl: sink.url }),
      });
      assert.equal(mint.body.code, 0, JSON.stringify(mint.body));
      const { rawTx, hashedTx, requestId } = mint.body.data;
      assert.equal(rawTx.to, nft);
      assert.equal(rawTx.operation, 0);
      const onChainHash = await client.readContract({
        ...read,
        functionName: "getTransactionHash",
        args: [
          rawTx.to,
          BigInt(rawTx.value),
          rawTx.data,
          rawTx.operation,
          BigInt(rawTx.safeTxGas),
          BigInt(rawTx.baseGas),
          BigInt(rawTx.gasPrice),
          rawTx.gasToken,
          rawTx.refundReceiver,
          BigInt(rawTx.nonce),
        ],
      });
      assert.equal(hashedTx, onChainHash);
      assert.equal(rawTx.nonce, 0);

      // A second prepared transaction takes the next Safe nonce; its encoding hashes to hashedTx.
      const second = await callJson("POST", `/service/v1/nft/${nft}/mint`, {
        headers,
        json: mintBody(safe, player.address, "2", { encoded: true }),
      });
      assert.equal(second.body.code, 0, JSON.stringify(second.body));
      assert.match(second.body.data.rawTx, /^0x1901[0-9a-f]{128}$/);
      assert.equal(keccak256(second.body.data.rawTx), second.body.data.hashedTx);
      const secondOnChain = await client.readContract({
        ...read,
        functionName: "encodeTransactionData",
        args: [
          nft,
          0n,
          (await prepared(second.body.data.requestId)).data,
          0,
          0n,
          0n,
          0n,
          "0x0000000000000000000000000000000000000000",
          "0x0000000000000000000000000000000000000000",
          1n,
        ],
      });
      assert.equal(second.body.data.rawTx, secondOnChain);

      // Owner 1 signs the raw hash, owner 2 signs it as a personal message.
      const sig1 = await o1.sign({ hash: hashedTx });
      const sig2 = await o2.signMessage({ message: { raw: hashedTx } });
      const sigOutsider = await outsider.sign({ hash: hashedTx });
      const path = `/core/v1/multisig/tx/${safe}`;
      const exec = (json: Record<string, unknown>, to = path) =>
        callJson("POST", to, {
          headers,
          json: { encoded: true, from: creator.address, tx: rawTx, ...json },
        });

      const one = await exec({ signatures: [sig1] });
      assert.equal(one.body.code, 2104, JSON.stringify(one.body));
      const stranger = await exec({ signatures: [sig1, sigOutsider] });
      assert.equal(stranger.body.code, 2102, JSON.stringify(stranger.body));
      assert.match(stranger.body.message, /signatures\[1\]/);
      const twice = await exec({ signatures: [sig1, sig1] });
      assert.equal(twice.body.code, 2103, JSON.stringify(twice.body));
      assert.match(twice.body.message, /signatures\[1\].*signatures\[0\]/);
      const malformed = await exec({ signatures: [sig1, "0x1234"] });
      assert.equal(malformed.body.code, 2105, JSON.stringify(malformed.body));
      const mismatch = await exec({ signatures: [sig1, sig2], to: player.address });
      assert.equal(mismatch.body.code, 1000, JSON.stringify(mismatch.body));
      const unknown = await exec({ signatures: [sig1, sig2], tx: { ...rawTx, nonce: 9 } });
      assert.equal(unknown.body.code, 2108, JSON.stringify(unknown.body));
      const notSafe = await exec(
        { signatures: [sig1, sig2] },
        `/core/v1/multisig/tx/${player.address}`,
      );
      assert.equal(notSafe.body.code, 2101, JSON.stringify(notSafe.body));

      // Signatures in any order; the body's `to` form and the string "true" both work.
      const ok = await exec(
        { encoded: "true", to: safe, signatures: [sig2, sig1] },
        "/core/v1/multisig/tx",
      );
      assert.equal(ok.body.code, 0, JSON.stringify(ok.body));
      assert.equal(ok.body.data.requestId, ok.body.data.reqeustId);
      assert.match(ok.body.data.rawTx, /^0x02/);
      const txHash = await signAndSend(creator, ok.body.data.rawTx);
      assert.equal(
        await client.readContract({
          address: nft,
          abi: nftAbi,
          functionName: "ownerOf",
          args: [1n],
        }),
        player.address,
      );

      const patched = await callJson("PATCH", "/service/v1/tx/hash", {
        headers,
        json: { requestId: ok.body.data.requestId, txHash },
      });
      assert.equal(patched.body.code, 0, JSON.stringify(patched.body));
      await settleSent(tenant.appid);
      const list = await callJson("GET", "/service/v1/tx?limit=100", { headers });
      const byId = new Map(
        list.body.data.transactions.map((t: { requestId: string }) => [t.requestId, t]),
      );
      // deno-lint-ignore no-explicit-any
      const minted = byId.get(requestId) as any;
      assert.equal(minted.txStatus, "SUCCESS");
      assert.equal(minted.txHash, txHash);
      assert.equal(minted.address, safe);
      // deno-lint-ignore no-explicit-any
      const execRecord = byId.get(ok.body.data.requestId) as any;
      assert.equal(execRecord.txStatus, "SUCCESS");
      assert.equal(execRecord.txType, "MULTISIG_TX");
      // deno-lint-ignore no-explicit-any
      assert.equal((byId.get(second.body.data.requestId) as any).txStatus, "WAITING");
      for (let i = 0; i < 50 && sink.received.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.equal(sink.received.length, 1);
      assert.deepEqual(sink.received[0].body, {
        requestId,
        txHash,
        txStatus: "SUCCESS",
        txType: "MINT",
      });

      // Executed: the same Safe transaction cannot be assembled again.
      const again = await exec({ signatures: [sig1, sig2] });
      assert.equal(again.body.code, 2110, JSON.stringify(again.body));
    } finally {
      await sink.close();
    }
  },
});

async function prepared(requestId: string): Promise<{ data: Hex }> {
  const { services } = await (await import("../../harness.ts")).testEnv();
  const [row] = await services.db.query<{ tx: { data: Hex } }>(
    "select tx from multisig_txs where request_id = $1",
    [requestId],
  );
  return row.tx;
}

Deno.test({
  ...chainTestOptions,
  name: "multisig creation validates signers and threshold, and needs no chain write",
  async fn() {
    const { tenant, client, services } = await nftTenant("multisig validation game");
    await safeContractsReady(tenant.gameIndex);
    const headers = tenant.chainHeaders;
    const [a, b] = owners(2);
    const creator = await fundedWallet(tenant.gameIndex, { kms: false });
    const from = creator.address;
    const create = (json: Record<string, unknown>) =>
      callJson("POST", "/core/v1/multisig", { headers, json: { from, ...json } });
    const zero = await create({ signers: [a.address, b.address], threshold: 0 });
    assert.equal(zero.body.code, 2106);
    const high = await create({ signers: [a.address, b.address], threshold: 3 });
    assert.equal(high.body.code, 2106);
    assert.match(high.body.message, /1 to 2/);
    const frac = await create({ signers: [a.address, b.address], threshold: 1.5 });
    assert.equal(frac.body.code, 2106);
    const dup = await create({
      signers: [a.address, b.address.toLowerCase(), b.address],
      threshold: 1,
    });
    assert.equal(dup.body.code, 1000);
    assert.match(dup.body.message, /signers\[2\] repeats signers\[1\]/);
    const bad = await create({ signers: [a.address, "0x12"], threshold: 1 });
    assert.equal(bad.body.code, 1000);
    assert.match(bad.body.message, /signers\[1\]/);
    const none = await create({ signers: [], threshold: 1 });
    assert.equal(none.body.code, 1000);
    const many = await create({ signers: owners(21).map((o) => o.address), threshold: 1 });
    assert.equal(many.body.code, 1000);

    // Same body twice: two wallets. Same saltNonce: the same wallet.
    const body = { signers: [a.address, b.address], threshold: 1 };
    const first = await create(body);
    const second = await create(body);
    assert.notEqual(first.body.data.address, second.body.data.address);
    const salted = await create({ ...body, saltNonce: first.body.data.saltNonce });
    assert.equal(salted.body.data.address, first.body.data.address);
    assert.equal(await client.getCode({ address: first.body.data.address }), undefined);

    const listed = await admin("GET", `/admin/v1/multisig?gameIndex=${tenant.gameIndex}`);
    assert.equal(listed.status, 200);
    assert.equal(listed.body.items.length, 2);
    assert.equal(listed.body.nextCursor, null);
    assert.equal(listed.body.items[0].state, "CREATING");
    assert.deepEqual(listed.body.items[0].owners, [a.address, b.address]);

    // The scheduled tracker notices the wallet once its creation is mined.
    await signAndSend(creator, second.body.data.rawTx);
    await runScheduled(services);
    const after = await admin("GET", `/admin/v1/multisig?gameIndex=${tenant.gameIndex}`);
    const byAddress = new Map(
      after.body.items.map((w: { address: string; state: string }) => [w.address, w.state]),
    );
    assert.equal(byAddress.get(second.body.data.address), "DEPLOYED");
    assert.equal(byAddress.get(first.body.data.address), "CREATING");
    const again = await create({ ...body, saltNonce: second.body.data.saltNonce });
    assert.equal(again.body.code, 2111, JSON.stringify(again.body));

    const xpla = await callJson("POST", "/core/v1/multisig", {
      headers: { ...headers, "x-network": "xpla" },
      json: { from, ...body },
    });
    // xpla multisig wallets live in xpla_multisig_test.ts; without XPLA_LCD_URL they answer 5031.
    assert.equal(xpla.body.code, services.xpla ? 2122 : 5031, JSON.stringify(xpla.body));
    const anonymous = await callJson("POST", "/core/v1/multisig", { json: { from, ...body } });
    assert.equal(anonymous.status, 401);
  },
});
