import assert from "node:assert/strict";
import { admin, seedTenant, testEnv } from "../../harness.ts";
import { createApp } from "../../../routes/mod.ts";
import { createLogger } from "../../../lib/log.ts";
import { createPolygonChain } from "../../../lib/chain/polygon.ts";
import { trackPendingTransactions } from "../../../lib/chain/tracker.ts";
import type { Services } from "../../../lib/services.ts";

const KEY = "fake-provider-key-5f1c2b9e";

// A node that refuses every call and, like some providers, names its own address in the error.
function echoingNode() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.json();
    if (body.method === "eth_chainId") {
      return Response.json({ jsonrpc: "2.0", id: body.id, result: "0x7a69" });
    }
    return Response.json({
      jsonrpc: "2.0",
      id: body.id,
      error: { code: 3, message: `execution reverted: quota exceeded for ${req.url}`, data: "0x" },
    });
  });
  const url = `http://127.0.0.1:${server.addr.port}/v3/${KEY}`;
  return { url, close: () => server.shutdown() };
}

function capture(services: Services, rpcUrl: string) {
  const lines: string[] = [];
  const scoped: Services = {
    ...services,
    chain: createPolygonChain({ rpcUrl, chainId: 31337, timeoutMs: 1_000 }),
    log: createLogger("debug", (line) => lines.push(line)),
  };
  return { services: scoped, lines };
}

Deno.test({
  sanitizeResources: false,
  sanitizeOps: false,
  name: "RPC URLs (with their API key) never reach a response body or a log line",
  async fn() {
    const { services } = await testEnv();
    const tenant = await seedTenant("rpc url game");
    const contract = "0x" + "5e".repeat(20);
    const registered = await admin("POST", "/admin/v1/contracts", {
      network: "polygon",
      address: contract,
      type: "nft",
      name: "Keyed",
      owner: "0x" + "11".repeat(20),
      gameIndex: tenant.gameIndex,
    });
    assert.equal(registered.status, 201, JSON.stringify(registered.body));

    // A node error echoed into the response.
    const node = echoingNode();
    try {
      const echo = capture(services, node.url);
      const app = createApp(echo.services);
      const res = await app.request(`/service/v1/nft/${contract}/tokens/1`, {
        headers: tenant.chainHeaders,
      });
      const text = await res.text();
      assert.equal(JSON.parse(text).code, 2011, text);
      assert.ok(!text.includes(KEY), text);
      assert.ok(!echo.lines.join("\n").includes(KEY), echo.lines.join("\n"));
    } finally {
      await node.close();
    }

    // An unreachable node while tracking: viem's error text carries `URL: <rpc url>`.
    const deadUrl = `http://127.0.0.1:1/v3/${KEY}`;
    const dead = capture(services, deadUrl);
    const requestId = `rpc-url-${crypto.randomUUID()}`;
    await services.db.query(
      `insert into chain_txs (request_id, appid, game_index, network, chain_id, player_id, tx_type,
         status, from_address, contract, tx_hash, request_params, created_at, updated_at, sent_at)
       values ($1, $2, $3, 'polygon', 31337, 'p', 'MINT', 'PENDING', '0xf', $4, $5, '{}'::jsonb,
         now(), now(), now())`,
      [
        requestId,
        tenant.appid,
        tenant.gameIndex,
        contract,
        "0x" + crypto.randomUUID().replaceAll("-", "").padEnd(64, "0"),
      ],
    );
    await trackPendingTransactions(dead.services);
    const logged = dead.lines.join("\n");
    assert.match(logged, /transaction tracking paused/);
    assert.ok(!logged.includes(KEY), logged);
    assert.ok(!logged.includes("127.0.0.1:1"), logged);
    const deadApp = createApp(dead.services);
    const res = await deadApp.request(`/service/v1/nft/${contract}/tokens/1`, {
      headers: tenant.chainHeaders,
    });
    const text = await res.text();
    assert.equal(res.status, 503, text);
    assert.ok(!text.includes(KEY), text);
    assert.ok(!dead.lines.join("\n").includes(KEY));
  },
});
