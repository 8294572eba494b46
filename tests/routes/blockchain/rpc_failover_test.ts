/**
 * RPC endpoint lists: with one of two endpoints answering 503 or never answering, no request
 * fails; and a node that refuses a send's fees at once gets it again, re-priced.
 */
import assert from "node:assert/strict";
import { parseGwei } from "viem";
import { admin, appWith } from "../../harness.ts";
import { chainTestOptions, nftTenant } from "../../lib/chain/anvil.ts";
import { createPolygonChain } from "../../../lib/chain/polygon.ts";
import { trackTransaction } from "../../../lib/chain/tracker.ts";

type Mode = "503" | "hang" | "pass";

/** A small HTTP proxy in front of the node that fails in the chosen way. */
function proxy(upstream: string, mode: Mode, edit?: (method: string, result: unknown) => unknown) {
  let calls = 0;
  const hanging = new Set<() => void>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    calls++;
    if (mode === "503") return new Response("upstream down", { status: 503 });
    if (mode === "hang") {
      await new Promise<void>((resolve) => hanging.add(resolve));
      return new Response("late", { status: 504 });
    }
    const body = await req.text();
    const res = await fetch(upstream, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    const json = await res.json();
    if (edit && "result" in json) json.result = edit(JSON.parse(body).method, json.result);
    return Response.json(json);
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/rpc`,
    calls: () => calls,
    async close() {
      for (const release of hanging) release();
      await server.shutdown();
    },
  };
}

type Env = Awaited<ReturnType<typeof nftTenant>>;

/** A one-token mint sent by the service through `app` (an app over another chain client). */
function mintVia(app: Awaited<ReturnType<typeof appWith>>, t: Env, id: string) {
  return app.request(`/service/v1/nft/${t.nft}/mint`, {
    method: "POST",
    headers: { ...t.tenant.chainHeaders, "content-type": "application/json" },
    body: JSON.stringify({
      playerId: "1",
      from: t.minter.address,
      to: t.player.address,
      isSend: true,
      encoded: false,
      callbackUrl: "http://127.0.0.1:9/cb",
      royaltyPercentage: 1,
      mintMsg: [{ tokenId: id, metadata: { name: id, image: id } }],
    }),
  });
}

async function mintThrough(mode: Mode) {
  const t = await nftTenant(`failover ${mode} game`);
  const bad = proxy(t.anvil.url, mode);
  try {
    const chain = createPolygonChain({
      rpcUrls: [bad.url, t.anvil.url],
      chainId: 31337,
      timeoutMs: 300,
    });
    const app = await appWith({ chain });
    const services = { ...t.services, chain };
    for (const id of ["1", "2"]) {
      const res = await mintVia(app, t, id);
      const body = await res.json();
      assert.equal(body.code, 0, JSON.stringify(body));
      await t.client.waitForTransactionReceipt({ hash: body.data.txhash });
      await trackTransaction(services, body.data.requestId);
      const view = await admin(
        "GET",
        `/admin/v1/games/${t.tenant.gameIndex}/transactions/${body.data.requestId}`,
      );
      assert.equal(view.body.status, "SUCCESS");
    }
    assert.ok(bad.calls() > 0, "the failing endpoint was tried first");
  } finally {
    await bad.close();
  }
}

Deno.test({
  ...chainTestOptions,
  name: "the first of two RPC URLs answering 503 fails no request",
  fn: () => mintThrough("503"),
});

Deno.test({
  ...chainTestOptions,
  name: "the first of two RPC URLs never answering fails no request",
  fn: () => mintThrough("hang"),
});

Deno.test({
  ...chainTestOptions,
  name: "a send refused at once as underpriced is re-priced and sent, not failed",
  async fn() {
    const t = await nftTenant("reprice game");
    // The base fee jumps; the node the service asks for its fee estimate still shows the old one
    // once (as a lagging endpoint would), so the first signed send offers too little.
    await t.anvil.rpc("anvil_setNextBlockBaseFeePerGas", [`0x${parseGwei("200").toString(16)}`]);
    await t.anvil.mine();
    let stale = true;
    const lagging = proxy(t.anvil.url, "pass", (method, result) => {
      if (method !== "eth_getBlockByNumber" || !stale || !result) return result;
      stale = false;
      return { ...(result as Record<string, unknown>), baseFeePerGas: "0x1" };
    });
    try {
      const chain = createPolygonChain({ rpcUrl: lagging.url, chainId: 31337 });
      const app = await appWith({ chain });
      const res = await mintVia(app, t, "1");
      const body = await res.json();
      assert.equal(body.code, 0, JSON.stringify(body));
      assert.equal(stale, false, "the stale estimate was used");
      const receipt = await t.client.waitForTransactionReceipt({ hash: body.data.txhash });
      assert.equal(receipt.status, "success");
      const view = await admin(
        "GET",
        `/admin/v1/games/${t.tenant.gameIndex}/transactions/${body.data.requestId}`,
      );
      assert.deepEqual(view.body.attempts.map((a: { kind: string }) => a.kind), [
        "send",
        "reprice",
      ]);
      assert.ok(BigInt(view.body.attempts[1].maxFeePerGas) > parseGwei("200"));
      assert.equal(view.body.txHash, body.data.txhash);
    } finally {
      await lagging.close();
      await t.anvil.rpc("anvil_setNextBlockBaseFeePerGas", ["0x1"]);
      await t.anvil.mine();
    }
  },
});
