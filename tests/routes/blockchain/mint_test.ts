import assert from "node:assert/strict";
import { type Hex, parseTransaction, serializeTransaction } from "viem";
import { abi as nftAbi } from "../../../contracts/artifacts/GameNFT.ts";
import { callJson } from "../../harness.ts";
import { chainTestOptions, deploy, nftTenant, settleSent } from "../../lib/chain/anvil.ts";
import { callbackSink, signatureValid } from "./callback_sink.ts";
import { runScheduled } from "../../../lib/scheduled.ts";

async function setup() {
  const env = await nftTenant("mint game", { name: "Heroes", symbol: "HERO" });
  const mint = (body: Record<string, unknown>, contract: string = env.nft) =>
    callJson("POST", `/service/v1/nft/${contract}/mint`, {
      json: body,
      headers: env.tenant.chainHeaders,
    });
  return { ...env, mint };
}

function entry(tokenId: string, extra: Record<string, unknown> = {}) {
  return {
    tokenId,
    royaltyPercentage: 5,
    metadata: { name: `Hero ${tokenId}`, image: `https://img.example/${tokenId}.png` },
    ...extra,
  };
}

Deno.test({
  ...chainTestOptions,
  name: "mint with isSend true is sent, confirmed, listed SUCCESS and reported to the callback",
  async fn() {
    const t = await setup();
    const sink = callbackSink();
    try {
      const res = await t.mint({
        playerId: "1001",
        from: t.minter.address,
        to: t.player.address,
        isSend: true,
        encoded: false,
        callbackUrl: sink.url,
        mintMsg: [
          entry("1"),
          entry("2", {
            royaltyPercentage: 7.5,
            metadata: {
              name: "Hero 2",
              image: "ipfs://bafy/2.png",
              attributes: [
                { traitType: "level", value: 3, maxValue: 10 },
                { traitType: "born", displayType: "date", value: 1700000000 },
              ],
            },
          }),
        ],
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.code, 0);
      assert.equal(res.body.data.status, "PENDING");
      assert.match(res.body.data.txhash, /^0x[0-9a-f]{64}$/);
      assert.equal(typeof res.body.data.requestId, "string");
      await settleSent(t.tenant.appid);

      const owner = await t.client.readContract({
        address: t.nft,
        abi: nftAbi,
        functionName: "ownerOf",
        args: [2n],
      });
      assert.equal(owner, t.player.address);
      const uri = await t.client.readContract({
        address: t.nft,
        abi: nftAbi,
        functionName: "tokenURI",
        args: [2n],
      });
      assert.equal(uri, `http://localhost/metadata/polygon/${t.nft}/2`);
      const [, royalty] = await t.client.readContract({
        address: t.nft,
        abi: nftAbi,
        functionName: "royaltyInfo",
        args: [2n, 10_000n],
      });
      assert.equal(royalty, 750n);

      const list = await callJson("GET", "/service/v1/tx?playerId=1001", {
        headers: t.tenant.chainHeaders,
      });
      assert.equal(list.body.code, 0);
      assert.equal(list.body.data.transactions.length, 1);
      const rec = list.body.data.transactions[0];
      assert.equal(rec.txStatus, "SUCCESS");
      assert.equal(rec.txType, "MINT");
      assert.equal(rec.txHash, res.body.data.txhash);
      assert.equal(rec.playerId, 1001);
      assert.equal(rec.address, t.minter.address);
      assert.equal(rec.appid, t.tenant.appid);
      assert.deepEqual(list.body.data.meta, {
        totalItems: 1,
        itemCount: 1,
        itemsPerPage: 20,
        totalPages: 1,
        currentPage: 1,
        totalCapped: false,
        nextCursor: null,
      });

      assert.equal(sink.received.length, 1);
      assert.deepEqual(sink.received[0].body, {
        requestId: res.body.data.requestId,
        txHash: res.body.data.txhash,
        txStatus: "SUCCESS",
        txType: "MINT",
      });
      assert.ok(await signatureValid(t.services.secrets.webhookSecret, sink.received[0]));

      // NFT information, both methods, and the public metadata the token URI points at.
      for (const method of ["GET", "POST"]) {
        const info = await callJson(method, `/service/v1/nft/${t.nft}/tokens/2`, {
          headers: t.tenant.chainHeaders,
        });
        assert.equal(info.body.code, 0, JSON.stringify(info.body));
        assert.equal(info.body.data.nftContract, t.nft);
        assert.equal(info.body.data.tokenId, "2");
        assert.equal(info.body.data.tokenUri, uri);
        assert.equal(info.body.data.gatewayUrl, uri);
        assert.equal(info.body.data.metadata.image, "ipfs://bafy/2.png");
      }
      const meta = await callJson("GET", new URL(uri).pathname);
      assert.equal(meta.status, 200);
      assert.equal(meta.body.name, "Hero 2");
      assert.deepEqual(meta.body.attributes[0], { trait_type: "level", value: 3, max_value: 10 });
      const missing = await callJson("GET", `/service/v1/nft/${t.nft}/tokens/99`, {
        headers: t.tenant.chainHeaders,
      });
      assert.equal(missing.status, 404);
      assert.equal(missing.body.code, 2009);
    } finally {
      await sink.close();
    }
  },
});

Deno.test({
  ...chainTestOptions,
  name: "mint with isSend false returns rawTx; signed outside, broadcast, hash registered, SUCCESS",
  async fn() {
    const t = await setup();
    const body = {
      playerId: "p-7",
      from: t.minter.address,
      to: t.player.address,
      isSend: false,
      encoded: false,
      callbackUrl: "http://127.0.0.1:9/unused",
      royaltyPercentage: 2,
      mintMsg: [{ tokenId: "10", metadata: { name: "Ten", image: "https://img.example/10.png" } }],
    };
    const res = await t.mint(body);
    assert.equal(res.body.code, 0, JSON.stringify(res.body));
    const raw = res.body.data.rawTx;
    assert.equal(res.body.data.status, "WAITING");
    for (const k of ["nonce", "chainId", "gas", "maxFeePerGas", "maxPriorityFeePerGas"]) {
      assert.equal(typeof raw[k], "number", k);
    }
    assert.equal(raw.from, t.minter.address);
    assert.equal(raw.to, t.nft);
    assert.equal(raw.chainId, 31337);

    let list = await callJson("GET", "/service/v1/tx?playerId=p-7", {
      headers: t.tenant.chainHeaders,
    });
    assert.equal(list.body.data.transactions[0].txStatus, "WAITING");
    assert.equal(list.body.data.transactions[0].requestParams.mintMsg[0].royaltyPercentage, 2);

    const signed = await t.minter.wallet.signTransaction({
      account: t.minter.wallet.account!,
      chain: t.minter.wallet.chain,
      type: "eip1559",
      to: raw.to,
      data: raw.data,
      nonce: raw.nonce,
      gas: BigInt(raw.gas),
      maxFeePerGas: BigInt(raw.maxFeePerGas),
      maxPriorityFeePerGas: BigInt(raw.maxPriorityFeePerGas),
    });
    const hash = await t.client.sendRawTransaction({ serializedTransaction: signed });
    const patched = await callJson("PATCH", "/service/v1/tx/hash", {
      json: { requestId: res.body.data.requestId, txHash: hash },
      headers: t.tenant.chainHeaders,
    });
    assert.deepEqual(patched.body, { code: 0, message: "success" });
    await t.services.idle();
    await runScheduled(t.services);
    list = await callJson("GET", "/service/v1/tx?playerId=p-7", { headers: t.tenant.chainHeaders });
    assert.equal(list.body.data.transactions[0].txStatus, "SUCCESS");
    assert.equal(list.body.data.transactions[0].txHash, hash);

    // The same hash cannot be attached to another request; unknown request ids are refused.
    const other = await t.mint({ ...body, mintMsg: [{ ...body.mintMsg[0], tokenId: "11" }] });
    const taken = await callJson("PATCH", "/service/v1/tx/hash", {
      json: { requestId: other.body.data.requestId, txHash: hash },
      headers: t.tenant.chainHeaders,
    });
    assert.equal(taken.status, 409);
    assert.equal(taken.body.code, 2014);
    const unknown = await callJson("PATCH", "/service/v1/tx/hash", {
      json: { requestId: "nope", txHash: hash },
      headers: t.tenant.chainHeaders,
    });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.code, 2013);

    // encoded true: the serialized unsigned transaction.
    const enc = await t.mint({
      ...body,
      encoded: true,
      mintMsg: [{ ...body.mintMsg[0], tokenId: "12" }],
    });
    assert.equal(typeof enc.body.data.rawTx, "string");
    const parsed = parseTransaction(enc.body.data.rawTx as Hex);
    assert.equal(parsed.chainId, 31337);
    assert.equal(parsed.to?.toLowerCase(), t.nft.toLowerCase());
    assert.equal(serializeTransaction(parsed), enc.body.data.rawTx);
  },
});

Deno.test({
  ...chainTestOptions,
  name: "mint refusals: limit, duplicates, key not held, metadata, contract registry, request id",
  async fn() {
    const t = await setup();
    const base = {
      playerId: "1",
      from: t.minter.address,
      to: t.player.address,
      isSend: true,
      encoded: false,
      callbackUrl: "http://127.0.0.1:9/cb",
    };
    const tooMany = await t.mint({
      ...base,
      mintMsg: Array.from({ length: 51 }, (_, i) => entry(String(i + 100))),
    });
    assert.equal(tooMany.status, 400);
    assert.equal(tooMany.body.code, 2007);

    const fifty = await t.mint({
      ...base,
      mintMsg: Array.from({ length: 50 }, (_, i) => entry(String(i + 100))),
    });
    assert.equal(fifty.body.code, 0, JSON.stringify(fifty.body));
    await t.services.idle();

    const again = await t.mint({ ...base, mintMsg: [entry("100")] });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 2008);
    assert.match(again.body.message, /ERC721InvalidSender/);
    const twice = await t.mint({ ...base, mintMsg: [entry("5"), entry("5")] });
    assert.equal(twice.body.code, 2008);
    assert.equal(twice.body.message, "mintMsg[1].tokenId 5 appears twice");

    const keyless = await t.mint({ ...base, from: t.player.address, mintMsg: [entry("6")] });
    assert.equal(keyless.status, 400);
    assert.equal(keyless.body.code, 2010);

    const notMinter = await t.mint({
      ...base,
      from: t.player.address,
      isSend: false,
      mintMsg: [entry("6")],
    });
    assert.equal(notMinter.status, 422);
    assert.equal(notMinter.body.code, 2011);
    assert.match(notMinter.body.message, /AccessControlUnauthorizedAccount/);

    const noImage = await t.mint({
      ...base,
      mintMsg: [entry("7"), { tokenId: "8", royaltyPercentage: 1, metadata: { name: "x" } }],
    });
    assert.equal(noImage.status, 400);
    assert.equal(noImage.body.code, 1000);
    assert.equal(noImage.body.message, "mintMsg[1].metadata.image is required");
    const overMax = await t.mint({
      ...base,
      mintMsg: [entry("7", {
        metadata: { name: "x", image: "y", attributes: [{ value: 10, maxValue: 10 }] },
      })],
    });
    assert.equal(overMax.body.code, 1000);
    assert.match(overMax.body.message, /mintMsg\[0\]\.metadata\.attributes\[0\]\.value/);
    const millis = await t.mint({
      ...base,
      mintMsg: [entry("7", {
        metadata: {
          name: "x",
          image: "y",
          attributes: [{ displayType: "date", value: 1700000000000 }],
        },
      })],
    });
    assert.equal(millis.body.code, 1000);
    const noRoyalty = await t.mint({
      ...base,
      mintMsg: [{ tokenId: "7", metadata: { name: "x", image: "y" } }],
    });
    assert.equal(noRoyalty.body.code, 1000);
    assert.match(noRoyalty.body.message, /mintMsg\[0\]\.royaltyPercentage is required/);

    const unknown = await t.mint({ ...base, mintMsg: [entry("7")] }, t.player.address);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.code, 2001);
    const lock = await deploy({
      gameIndex: t.tenant.gameIndex,
      type: "lock",
      from: t.minter.address,
      name: "L",
    });
    const wrongType = await t.mint({ ...base, mintMsg: [entry("7")] }, lock);
    assert.equal(wrongType.status, 400);
    assert.equal(wrongType.body.code, 2002);

    const first = await t.mint({ ...base, requestId: "order-42", mintMsg: [entry("7")] });
    assert.equal(first.body.code, 0);
    assert.equal(first.body.data.requestId, "order-42");
    const dup = await t.mint({ ...base, requestId: "order-42", mintMsg: [entry("8")] });
    assert.equal(dup.status, 409);
    assert.equal(dup.body.code, 2012);
    await t.services.idle();
  },
});
