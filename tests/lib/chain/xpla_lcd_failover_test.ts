/**
 * XPLA LCD lists (`XPLA_LCD_URLS`): one endpoint answering 503, 429 or hanging fails no call; it
 * rests with a backoff while the others serve; a gateway error is an answer, not a failover; and
 * every attempt is an outbound line and a `gp_outbound_calls_total` sample (purpose `xpla-lcd`,
 * host only). Through HTTP, a mint with one of two LCDs hanging is answered and settled.
 */
import assert from "node:assert/strict";
import { DomainError } from "../../../lib/errors.ts";
import {
  broadcast,
  createXplaChain,
  getAccount,
  latestHeight,
  type XplaChain,
} from "../../../lib/chain/xpla/lcd.ts";
import { ADMIN_TOKEN, call, callJson, capturedLogs, rememberSecret } from "../../harness.ts";
import {
  settleXpla,
  signSendWithXplaJs,
  XPLA,
  xplaEnv,
  xplaNftTenant,
  xplaTestOptions,
  xplaWallet,
} from "./xpla_env.ts";

type Mode = "pass" | "503" | "429" | "hang";

/** A proxy in front of the local LCD whose answers the test chooses. */
function flakyLcd(target: string) {
  let mode: Mode = "pass";
  const hits: string[] = [];
  const hanging = Promise.withResolvers<void>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    hits.push(url.pathname);
    if (mode === "503") return new Response("upstream unavailable", { status: 503 });
    if (mode === "429") {
      return new Response("rate limited", { status: 429, headers: { "retry-after": "2" } });
    }
    if (mode === "hang") {
      await hanging.promise;
      return new Response("late", { status: 504 });
    }
    const body = req.method === "POST" ? await req.text() : undefined;
    return await fetch(`${target}${url.pathname}${url.search}`, { method: req.method, body });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    host: `127.0.0.1:${server.addr.port}`,
    hits,
    set(next: Mode) {
      mode = next;
    },
    async close() {
      hanging.resolve();
      await server.shutdown();
    },
  };
}

// deno-lint-ignore no-explicit-any
type Line = Record<string, any>;

function outboundLines(host: string): Line[] {
  return capturedLogs().map((l) => JSON.parse(l) as Line)
    .filter((l) => l.msg === "outbound" && l.purpose === "xpla-lcd" && l.host === host);
}

async function outboundCount(host: string, outcome: string): Promise<number> {
  const res = await call("GET", "/metrics", {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  const text = await res.text();
  const line = text.split("\n").find((l) =>
    l.startsWith("gp_outbound_calls_total{") && l.includes('purpose="xpla-lcd"') &&
    l.includes(`host="${host}"`) && l.includes(`outcome="${outcome}"`)
  );
  return line ? Number(line.split(" ").pop()) : 0;
}

Deno.test({
  ...xplaTestOptions,
  name:
    "xpla LCD list: a 503 or hanging endpoint fails no call, rests, and every attempt is observed",
  async fn() {
    const { lcd, services } = await xplaEnv();
    const proxy = flakyLcd(lcd.url);
    const lcdHost = new URL(lcd.url).host;
    const frozen = Date.now();
    const chainOf = (urls: string[], timeoutMs = 300): XplaChain =>
      createXplaChain({
        lcdUrls: urls,
        chainId: lcd.chainId,
        timeoutMs,
        observer: { log: services.log, metrics: services.metrics },
        sleep: () => Promise.resolve(),
        // Time stands still for the rests: an endpoint that failed stays resting in this test.
        now: () => frozen,
      });
    try {
      // A funded account (key held by the test only) and a bank send it signed, not yet broadcast.
      const sender = await xplaWallet(0, { kms: false, fund: 10n * XPLA });
      const address = sender.address;
      const bytes = await signSendWithXplaJs(sender, address, 1n);
      rememberSecret(address);

      // 503: the call goes on to the next endpoint; the first rests, so the next call skips it.
      proxy.set("503");
      let chain = chainOf([proxy.url, lcd.url]);
      const okBefore = await outboundCount(lcdHost, "ok");
      assert.equal((await getAccount(chain, address))?.address, address);
      assert.equal(proxy.hits.length, 1);
      assert.ok(chain.endpoints[0].restUntil > frozen);
      assert.ok(Number(await latestHeight(chain)) >= 1);
      assert.equal(proxy.hits.length, 1, "a resting endpoint is tried after the others");
      const sent = await broadcast(chain, bytes);
      assert.equal(sent.code, 0, sent.raw_log);
      const failed = outboundLines(proxy.host);
      assert.equal(failed.length, 1);
      assert.equal(failed[0].outcome, "http_503");
      assert.equal(failed[0].level, "warn");
      assert.ok(!JSON.stringify(failed).includes(address), "the path is not logged");
      assert.equal(await outboundCount(proxy.host, "http_503"), 1);
      assert.equal(await outboundCount(lcdHost, "ok") - okBefore, 3);

      // Hanging: the per-request timeout ends the attempt and the other endpoint answers.
      proxy.set("hang");
      chain = chainOf([proxy.url, lcd.url]);
      assert.equal((await getAccount(chain, address))?.address, address);
      assert.equal(outboundLines(proxy.host).at(-1)!.outcome, "timeout");
      assert.equal(await outboundCount(proxy.host, "timeout"), 1);

      // 429 with Retry-After: the endpoint rests at least that long.
      proxy.set("429");
      chain = chainOf([proxy.url, lcd.url]);
      await getAccount(chain, address);
      assert.ok(chain.endpoints[0].restUntil - frozen >= 2_000);
      assert.equal(await outboundCount(proxy.host, "http_429"), 1);

      // A gateway error (unknown account: 404 with a gRPC code) is the node's answer.
      proxy.set("pass");
      chain = chainOf([proxy.url, lcd.url]);
      const hits = proxy.hits.length;
      assert.equal(await getAccount(chain, "xpla1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqw5cp2g"), null);
      assert.equal(proxy.hits.length, hits + 1);
      assert.equal(chain.endpoints[0].restUntil, 0);

      // Every endpoint down: one clear error after two rounds.
      proxy.set("503");
      chain = chainOf([proxy.url, proxy.url]);
      const down = await getAccount(chain, address).catch((e) => e);
      assert.ok(down instanceof DomainError);
      assert.equal(down.code, "CHAIN_UNAVAILABLE");
      assert.equal(down.message, "every xpla LCD endpoint answered 503");
      assert.ok(!down.message.includes("127.0.0.1"));
    } finally {
      await proxy.close();
    }
  },
});

Deno.test({
  ...xplaTestOptions,
  name: "xpla through HTTP with two LCD URLs, one hanging: a mint is answered PENDING and settles",
  async fn() {
    const t = await xplaNftTenant("xpla failover game");
    const proxy = flakyLcd(t.lcd.url);
    const saved = t.services.xpla!;
    proxy.set("hang");
    t.services.xpla = createXplaChain({
      lcdUrls: [proxy.url, t.lcd.url],
      chainId: t.lcd.chainId,
      timeoutMs: 300,
      observer: { log: t.services.log, metrics: t.services.metrics },
    });
    try {
      const minted = await t.call("POST", `/service/v1/nft/${t.nft}/mint`, {
        playerId: "5",
        from: t.minter.address,
        to: t.player.address,
        isSend: true,
        encoded: false,
        callbackUrl: "http://127.0.0.1:9/cb",
        mintMsg: [{ tokenId: "f1", royaltyPercentage: 0, metadata: { name: "f", image: "f" } }],
      });
      assert.equal(minted.status, 200, JSON.stringify(minted.body));
      assert.equal(minted.body.data.status, "PENDING");
      await settleXpla(t.tenant.appid);
      const list = await callJson("GET", "/service/v1/tx?playerId=5", { headers: t.headers });
      assert.equal(list.body.data.transactions[0].txStatus, "SUCCESS");
      assert.ok(proxy.hits.length >= 1);
      assert.ok(outboundLines(proxy.host).every((l) => l.outcome === "timeout"));
    } finally {
      t.services.xpla = saved;
      await proxy.close();
    }
  },
});
