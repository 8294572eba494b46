/** With ALLOW_PRIVATE_OUTBOUND=false, private targets are refused when registered, not only when used. */
import assert from "node:assert/strict";
import { ADMIN_TOKEN, seedTenant, testEnv } from "../harness.ts";
import { createApp } from "../../routes/mod.ts";
import { createOutbound } from "../../lib/outbound/mod.ts";

async function strictApp() {
  const { services } = await testEnv();
  const config = { ...services.config, allowPrivateOutbound: false };
  const outbound = createOutbound({ allowPrivate: false, defaultTimeoutMs: 1_000 });
  const app = createApp({ ...services, config, outbound });
  return async (method: string, path: string, json: unknown) => {
    const res = await app.request(path, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify(json),
    });
    return { status: res.status, body: await res.json() };
  };
}

const privateUrls = [
  "http://[::ffff:0:7f00:1]:8080/items",
  "http://[64:ff9b:1::a00:1]/items",
  "http://127.0.0.1:8080/items",
  "http://localhost/items",
];

Deno.test("item endpoint: private URLs and TCP hosts are refused at registration", async () => {
  const admin = await strictApp();
  const t = await seedTenant("private endpoint game");
  const path = `/admin/v1/games/${t.gameIndex}/item-endpoint`;
  for (const url of privateUrls) {
    const r = await admin("PUT", path, { transport: "http", url, vendorWord: "vw" });
    assert.equal(r.status, 400, url);
    assert.equal(r.body.error.code, "TARGET_REFUSED");
    assert.match(r.body.error.message, /^url: private or loopback address refused/);
  }
  for (const host of ["::ffff:0:7f00:1", "10.1.2.3", "localhost"]) {
    const r = await admin("PUT", path, { transport: "tcp", host, port: 20080, vendorWord: "vw" });
    assert.equal(r.status, 400, host);
    assert.equal(r.body.error.code, "TARGET_REFUSED");
    assert.match(r.body.error.message, /^host: /);
  }
  const ok = await admin("PUT", path, {
    transport: "http",
    url: "https://game.example.com/items",
    vendorWord: "vw",
  });
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
});

Deno.test("OTP topic: a private direct-send callback is refused at registration", async () => {
  const admin = await strictApp();
  const t = await seedTenant("private otp game");
  for (const callbackUrl of privateUrls) {
    const r = await admin("POST", `/admin/v1/games/${t.gameIndex}/otp-topics`, {
      topic: "direct",
      serviceName: "svc",
      mode: "direct",
      callbackUrl,
    });
    assert.equal(r.status, 400, callbackUrl);
    assert.equal(r.body.error.code, "TARGET_REFUSED");
    assert.match(r.body.error.message, /^callbackUrl: /);
  }
});

Deno.test("transaction callbackUrl: a name that resolves to loopback is refused at request time", async () => {
  const { services } = await testEnv();
  const t = await seedTenant("private callback game");
  const resolved: string[] = [];
  const outbound = createOutbound({
    allowPrivate: false,
    defaultTimeoutMs: 1_000,
    resolve: (host) => {
      resolved.push(host);
      return Promise.resolve(host === "cb.loopback.test" ? ["127.0.0.1"] : ["93.184.215.14"]);
    },
  });
  const app = createApp({
    ...services,
    config: { ...services.config, allowPrivateOutbound: false },
    outbound,
  });
  const contract = "0x0000000000000000000000000000000000000001";
  const wallet = "0x0000000000000000000000000000000000000002";
  const shared = { playerId: "1", isSend: false, encoded: false };
  const requests: [string, Record<string, unknown>][] = [
    [`/service/v1/nft/${contract}/mint`, {
      from: wallet,
      to: wallet,
      royaltyPercentage: 1,
      mintMsg: [{ tokenId: "1", metadata: { name: "a", image: "b" } }],
    }],
    [`/service/v1/nft/contract/${contract}/lock`, {
      from: wallet,
      lockContract: contract,
      tokenId: "1",
    }],
    [`/service/v1/lock/contract/${contract}/unlock`, {
      from: wallet,
      nftContract: contract,
      tokenId: "1",
    }],
    [`/service/v1/convert/to-token`, {
      owner: wallet,
      convertPool: contract,
      gameTokenAmount: "1",
      gameCurrencyCode: "gold",
      gameCurrencyAmount: "1",
    }],
  ];
  for (const network of ["polygon", "xpla"]) {
    for (const [path, fields] of requests) {
      const res = await app.request(path, {
        method: "POST",
        headers: { ...t.chainHeaders, "x-network": network, "content-type": "application/json" },
        body: JSON.stringify({ ...shared, ...fields, callbackUrl: "https://cb.loopback.test/cb" }),
      });
      const body = await res.json();
      assert.equal(res.status, 400, `${network} ${path}: ${JSON.stringify(body)}`);
      assert.equal(body.code, 2015, `${network} ${path}`);
      assert.match(body.message, /cb\.loopback\.test resolves to a private or loopback address/);
    }
  }
  assert.ok(resolved.includes("cb.loopback.test"));
});
