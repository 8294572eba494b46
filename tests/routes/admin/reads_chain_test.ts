import assert from "node:assert/strict";
import { generatePrivateKey } from "viem/accounts";
import { admin, seedTenant, testEnv } from "../../harness.ts";
import { assertNoSecret, assertNotFound, walkPages } from "./fixture.ts";

function address(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(20));
  return "0x" + [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function insertTx(gameIndex: number, appid: string, status: string, atMs: number) {
  const { services } = await testEnv();
  const requestId = crypto.randomUUID();
  await services.db.query(
    `insert into chain_txs (request_id, appid, game_index, network, chain_id, player_id, tx_type,
       status, from_address, contract, request_params, callback_url, created_at, updated_at)
     values ($1, $2, $3, 'polygon', 80002, '42', 'MINT', $4, $5, $6, '{"tokenId":"7"}'::jsonb,
       'https://game.example/cb', $7, $7)`,
    [requestId, appid, gameIndex, status, address(), address(), new Date(atMs)],
  );
  return requestId;
}

Deno.test("contracts: listed per game, filtered by network and type; wallet keys never shown", async () => {
  const t = await seedTenant();
  const other = await seedTenant();
  // A fresh key: a wallet address is registered once across games, and other tests share the database.
  const privateKey = generatePrivateKey();
  const wallet = await admin("POST", "/admin/v1/wallets", { gameIndex: t.gameIndex, privateKey });
  assert.equal(wallet.status, 201, JSON.stringify(wallet.body));
  const made = [];
  for (const type of ["nft", "token", "nft"]) {
    const res = await admin("POST", "/admin/v1/contracts", {
      network: "polygon",
      address: address(),
      type,
      name: `${type} contract`,
      owner: wallet.body.address,
      gameIndex: t.gameIndex,
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    made.push(res.body.address);
  }
  const all = await walkPages(`/admin/v1/games/${t.gameIndex}/contracts`, 2);
  assert.deepEqual(all.map((c) => c.address), [...made].reverse());
  assert.equal(all[0].owner, wallet.body.address);
  const nfts = await admin("GET", `/admin/v1/games/${t.gameIndex}/contracts?type=nft`);
  assert.equal(nfts.body.items.length, 2);
  const xpla = await admin("GET", `/admin/v1/games/${t.gameIndex}/contracts?network=xpla`);
  assert.deepEqual(xpla.body.items, []);
  const bad = await admin("GET", `/admin/v1/games/${t.gameIndex}/contracts?network=eth`);
  assert.equal(bad.status, 400);
  assert.match(bad.body.error.message, /^network/);
  assertNoSecret(all, [privateKey.slice(2)]);
  const otherList = await admin("GET", `/admin/v1/games/${other.gameIndex}/contracts`);
  assert.deepEqual(otherList.body.items, []);
});

Deno.test("transactions: every app of the game, newest first, filtered; tenancy", async () => {
  const t = await seedTenant();
  const other = await seedTenant();
  const second = `b-${t.appid}`;
  assert.equal(
    (await admin("POST", `/admin/v1/games/${t.gameIndex}/apps`, { appid: second })).status,
    201,
  );
  const base = Date.parse("2026-01-01T00:00:00Z");
  const a = await insertTx(t.gameIndex, t.appid, "SUCCESS", base);
  const b = await insertTx(t.gameIndex, second, "PENDING", base + 1000);
  const c = await insertTx(t.gameIndex, t.appid, "FAILED", base + 2000);
  const foreign = await insertTx(other.gameIndex, other.appid, "PENDING", base + 3000);

  const all = await walkPages(`/admin/v1/games/${t.gameIndex}/transactions`, 2);
  assert.deepEqual(all.map((x) => x.requestId), [c, b, a]);
  assert.equal(all[1].appid, second);
  assert.deepEqual(all[0].requestParams, { tokenId: "7" });
  assert.deepEqual(all[0].callback, { state: "none", attempts: 0 });
  const pending = await admin("GET", `/admin/v1/games/${t.gameIndex}/transactions?status=PENDING`);
  assert.deepEqual(pending.body.items.map((x: { requestId: string }) => x.requestId), [b]);
  const byApp = await admin("GET", `/admin/v1/games/${t.gameIndex}/transactions?appid=${second}`);
  assert.deepEqual(byApp.body.items.map((x: { requestId: string }) => x.requestId), [b]);

  const game = await admin("GET", `/admin/v1/games/${t.gameIndex}`);
  assert.deepEqual(game.body.transactions, { WAITING: 0, PENDING: 1, SUCCESS: 1, FAILED: 1 });
  const one = await admin("GET", `/admin/v1/games/${t.gameIndex}/transactions/${a}`);
  assert.equal(one.status, 200);
  assert.equal(one.body.status, "SUCCESS");
  assertNotFound(
    await admin("GET", `/admin/v1/games/${t.gameIndex}/transactions/${foreign}`),
    "REQUEST_NOT_FOUND",
  );
});
