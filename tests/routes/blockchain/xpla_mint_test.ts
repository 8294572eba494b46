import assert from "node:assert/strict";
import { base64 } from "@scure/base";
import { SignDoc, TxRaw } from "cosmjs-types/cosmos/tx/v1beta1/tx";
import { Tx as XTx } from "@xpla/xpla.js";
import {
  broadcastBytes,
  settleXpla,
  xplaContract,
  xplaNftTenant,
  xplaTestOptions,
} from "../../lib/chain/xpla_env.ts";
import { callbackSink } from "./callback_sink.ts";
import { callJson } from "../../harness.ts";
import { createXplaChain } from "../../../lib/chain/xpla/lcd.ts";

function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

function entries(n: number, prefix = "t") {
  return Array.from({ length: n }, (_, i) => ({
    tokenId: `${prefix}${i}`,
    royaltyPercentage: 5,
    metadata: { name: `Hero ${i}`, image: `https://img.example/${i}.png` },
  }));
}

Deno.test({
  ...xplaTestOptions,
  name: "xpla: 200 tokens minted in one sent transaction, SUCCESS in the list and the callback",
  async fn() {
    const t = await xplaNftTenant("xpla mint game");
    const sink = callbackSink();
    try {
      const res = await t.call("POST", `/service/v1/nft/${t.nft}/mint`, {
        playerId: "7",
        from: t.minter.address,
        to: t.player.address,
        isSend: true,
        encoded: false,
        callbackUrl: sink.url,
        mintMsg: entries(200),
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.data.status, "PENDING");
      assert.match(res.body.data.txhash, /^[0-9A-F]{64}$/);
      await settleXpla(t.tenant.appid);

      const owner = t.lcd.query(t.nft, { owner_of: { token_id: "t199" } }) as { owner: string };
      assert.equal(owner.owner, t.player.address);
      const info = t.lcd.query(t.nft, { nft_info: { token_id: "t0" } }) as {
        token_uri: string;
        extension: Record<string, unknown>;
      };
      assert.equal(info.token_uri, `http://localhost/metadata/xpla/${t.nft}/t0`);
      assert.deepEqual(info.extension, {
        royalty_percentage: 5,
        royalty_payment_address: t.minter.address,
      });

      const list = await t.call("GET", "/service/v1/tx?playerId=7");
      assert.equal(list.body.data.transactions.length, 1);
      const rec = list.body.data.transactions[0];
      assert.equal(rec.txStatus, "SUCCESS");
      assert.equal(rec.txType, "MINT");
      assert.equal(rec.address, t.minter.address);
      assert.equal(rec.txHash, res.body.data.txhash);
      // The polygon list of the same app does not show xpla records.
      const onPolygon = await fetchPolygonList(t);
      assert.equal(onPolygon.length, 0);

      assert.equal(sink.received.length, 1);
      assert.deepEqual(sink.received[0].body, {
        requestId: res.body.data.requestId,
        txHash: res.body.data.txhash,
        txStatus: "SUCCESS",
        txType: "MINT",
      });

      const nft = await t.call("GET", `/service/v1/nft/${t.nft}/tokens/t3`);
      assert.equal(nft.status, 200, JSON.stringify(nft.body));
      assert.equal(nft.body.data.tokenUri, `http://localhost/metadata/xpla/${t.nft}/t3`);
      assert.equal(nft.body.data.metadata.name, "Hero 3");
      const missing = await t.call("GET", `/service/v1/nft/${t.nft}/tokens/nope`);
      assert.equal(missing.status, 404);
      assert.equal(missing.body.code, 2009);
    } finally {
      await sink.close();
    }
  },
});

async function fetchPolygonList(t: Awaited<ReturnType<typeof xplaNftTenant>>) {
  const res = await callJson("GET", "/service/v1/tx?playerId=7", {
    headers: { ...t.headers, "x-network": "polygon" },
  });
  return res.body.data.transactions as unknown[];
}

Deno.test({
  ...xplaTestOptions,
  name: "xpla: 201 tokens in one mint are refused with 2007, a repeated token id with 2008",
  async fn() {
    const t = await xplaNftTenant("xpla mint limit");
    const res = await t.call("POST", `/service/v1/nft/${t.nft}/mint`, {
      playerId: "7",
      from: t.minter.address,
      to: t.player.address,
      isSend: true,
      encoded: false,
      callbackUrl: "http://127.0.0.1:9/cb",
      mintMsg: entries(201),
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 2007);
    assert.match(res.body.message, /at most 200 per call on xpla/);
    const twice = await t.call("POST", `/service/v1/nft/${t.nft}/mint`, {
      playerId: "7",
      from: t.minter.address,
      to: t.player.address,
      isSend: false,
      encoded: false,
      callbackUrl: "http://127.0.0.1:9/cb",
      mintMsg: [...entries(2), entries(1)[0]],
    });
    assert.equal(twice.status, 409, JSON.stringify(twice.body));
    assert.equal(twice.body.code, 2008);
    assert.match(twice.body.message, /mintMsg\[2\]\.tokenId t0 appears twice/);
  },
});

Deno.test({
  ...xplaTestOptions,
  name: "xpla: isSend false answers the SignDoc; signed with xpla.js, broadcast, hash registered",
  async fn() {
    const t = await xplaNftTenant("xpla unsigned mint");
    // The player (active, key not held by the service) is this contract's minter.
    const own = await xplaContract(t.tenant, {
      kind: "cw721",
      type: "nft",
      creator: t.player.address,
      init: { name: "Own", symbol: "OWN", minter: t.player.address },
    });
    const res = await t.call("POST", `/service/v1/nft/${own}/mint`, {
      playerId: "8",
      from: t.player.address,
      to: t.player.address,
      isSend: false,
      encoded: true,
      callbackUrl: "http://127.0.0.1:9/cb",
      mintMsg: entries(3, "u"),
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data.status, "WAITING");
    const signDocBytes = base64.decode(res.body.data.rawTx);
    const doc = SignDoc.decode(signDocBytes);
    assert.equal(doc.chainId, t.lcd.chainId);

    const signature = await t.player.key.sign(Buffer.from(signDocBytes));
    const txBytes = TxRaw.encode({
      bodyBytes: doc.bodyBytes,
      authInfoBytes: doc.authInfoBytes,
      signatures: [signature],
    }).finish();
    // xpla.js reads the service's transaction.
    const decoded = XTx.fromBytes(txBytes);
    assert.equal(decoded.body.messages.length, 3);
    assert.equal(decoded.auth_info.signer_infos[0].public_key?.address(), t.player.address);

    const hash = await broadcastBytes(txBytes);
    const patched = await t.call("PATCH", "/service/v1/tx/hash", {
      requestId: res.body.data.requestId,
      txHash: hash.toLowerCase(),
    });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    await settleXpla(t.tenant.appid);
    const list = await t.call("GET", "/service/v1/tx?playerId=8");
    assert.equal(list.body.data.transactions[0].txStatus, "SUCCESS");
    assert.equal(list.body.data.transactions[0].txHash, hash);
    const owner = t.lcd.query(own, { owner_of: { token_id: "u2" } }) as { owner: string };
    assert.equal(owner.owner, t.player.address);

    // The object form carries the same sign doc and the decoded messages.
    const obj = await t.call("POST", `/service/v1/nft/${own}/mint`, {
      playerId: "8",
      from: t.player.address,
      to: t.player.address,
      isSend: false,
      encoded: false,
      callbackUrl: "http://127.0.0.1:9/cb",
      mintMsg: entries(1, "v"),
    });
    assert.equal(obj.status, 200, JSON.stringify(obj.body));
    const raw = obj.body.data.rawTx;
    assert.equal(raw.chainId, t.lcd.chainId);
    assert.equal(raw.sequence, "2");
    assert.equal(raw.body.messages[0].msg.mint.token_id, "v0");
    assert.equal(raw.authInfo.signerInfos[0].modeInfo.single.mode, "SIGN_MODE_DIRECT");
    assert.deepEqual(
      SignDoc.decode(base64.decode(raw.signDoc)).bodyBytes,
      base64.decode(raw.bodyBytes),
    );
  },
});

Deno.test({
  ...xplaTestOptions,
  name: "xpla: an account without a public key gets no unsigned tx; no LCD, or a dead one, is 5031",
  async fn() {
    const t = await xplaNftTenant("xpla inactive");
    const body = {
      playerId: "9",
      from: t.minter.address,
      to: t.player.address,
      isSend: false,
      encoded: true,
      callbackUrl: "http://127.0.0.1:9/cb",
      mintMsg: entries(1, "w"),
    };
    const res = await t.call("POST", `/service/v1/nft/${t.nft}/mint`, body);
    assert.equal(res.status, 400);
    assert.match(res.body.message, /no public key on xpla/);

    const saved = t.services.xpla!;
    try {
      t.services.xpla = undefined;
      const off = await t.call("POST", `/service/v1/nft/${t.nft}/mint`, body);
      assert.equal(off.status, 503);
      assert.equal(off.body.code, 5031);
      assert.match(off.body.message, /XPLA_LCD_URL is not configured/);
      // An LCD that does not answer: 5031 too, and its address is not in the message.
      const dead = `http://127.0.0.1:${closedPort()}`;
      t.services.xpla = createXplaChain({ lcdUrl: dead, chainId: saved.chainId, timeoutMs: 500 });
      const down = await t.call("POST", `/service/v1/nft/${t.nft}/mint`, {
        ...body,
        from: t.player.address,
      });
      assert.equal(down.status, 503, JSON.stringify(down.body));
      assert.equal(down.body.code, 5031);
      assert.ok(!down.body.message.includes(dead));
    } finally {
      t.services.xpla = saved;
    }
  },
});
