import assert from "node:assert/strict";
import { callJson, seedTenant, testEnv } from "../../harness.ts";
import { chainTestOptions, nftTenant } from "../../lib/chain/anvil.ts";
import { runScheduled } from "../../../lib/scheduled.ts";

// Records are seeded directly (their creation dates matter); the list is read through HTTP.
async function seedRecords(appid: string, gameIndex: number, rows: [string, string, string][]) {
  const { services } = await testEnv();
  await services.db.query(
    `insert into chain_txs (request_id, appid, game_index, network, chain_id, player_id, tx_type,
       status, from_address, contract, request_params, created_at, updated_at)
     select x.id, $1, $2, 'polygon', 31337, x.player, 'MINT', 'WAITING', '0xf', '0xc', '{}'::jsonb,
            x.at, x.at
       from jsonb_to_recordset($3::jsonb) as x(id text, player text, at timestamptz)`,
    [appid, gameIndex, rows.map(([id, player, at]) => ({ id: `${appid}-${id}`, player, at }))],
  );
}

Deno.test("transaction list: inclusive dates, player filter, paging defaults and limits, own app only", async () => {
  const a = await seedTenant("list game");
  const b = await seedTenant("other list game");
  await seedRecords(a.appid, a.gameIndex, [
    ["1", "7", "2026-03-01T00:00:00Z"],
    ["2", "7", "2026-03-02T23:59:59Z"],
    ["3", "8", "2026-03-03T00:00:00Z"],
    ["4", "7", "2026-02-28T23:59:59Z"],
  ]);
  await seedRecords(b.appid, b.gameIndex, [["1", "7", "2026-03-02T12:00:00Z"]]);
  const list = (q: string, t = a) =>
    callJson("GET", `/service/v1/tx${q}`, { headers: t.chainHeaders });

  const range = await list("?startDate=2026-03-01&endDate=2026-03-02");
  assert.equal(range.body.code, 0);
  assert.deepEqual(
    range.body.data.transactions.map((x: { requestId: string }) => x.requestId),
    [`${a.appid}-2`, `${a.appid}-1`],
  );
  const all = await list("");
  assert.deepEqual(all.body.data.meta, {
    totalItems: 4,
    itemCount: 4,
    itemsPerPage: 20,
    totalPages: 1,
    currentPage: 1,
    totalCapped: false,
    nextCursor: null,
  });
  const player = await list("?playerId=8");
  assert.equal(player.body.data.transactions.length, 1);
  assert.equal(player.body.data.transactions[0].playerId, 8);
  const paged = await list("?page=2&limit=3");
  assert.equal(paged.body.data.transactions.length, 1);
  assert.deepEqual(paged.body.data.meta, {
    totalItems: 4,
    itemCount: 1,
    itemsPerPage: 3,
    totalPages: 2,
    currentPage: 2,
    totalCapped: false,
    nextCursor: null,
  });
  const past = await list("?page=9&limit=3");
  assert.equal(past.body.data.meta.totalItems, 4);
  assert.equal(past.body.data.meta.itemCount, 0);

  // Paging by key: each page's nextCursor continues where it ended, the last page has none.
  const firstThree = await list("?limit=3");
  const cursor = firstThree.body.data.meta.nextCursor;
  assert.equal(typeof cursor, "string");
  const rest = await list(`?limit=3&cursor=${cursor}`);
  assert.deepEqual(
    [...firstThree.body.data.transactions, ...rest.body.data.transactions].map(
      (x: { requestId: string }) => x.requestId,
    ),
    [`${a.appid}-3`, `${a.appid}-2`, `${a.appid}-1`, `${a.appid}-4`],
  );
  assert.equal(rest.body.data.meta.nextCursor, null);
  const bad = await list("?cursor=not-a-cursor");
  assert.equal(bad.status, 400);
  assert.equal(bad.body.message, "cursor is not a cursor this list gave");

  const other = await list("", b);
  assert.equal(other.body.data.transactions.length, 1);
  assert.equal(other.body.data.transactions[0].appid, b.appid);

  for (
    const bad of ["?limit=101", "?limit=0", "?page=0", "?startDate=2026-3-1", "?endDate=2026-02-30"]
  ) {
    const res = await list(bad);
    assert.equal(res.status, 400, bad);
    assert.equal(res.body.code, 1000, bad);
  }
});

Deno.test({
  ...chainTestOptions,
  name: "xpla, refused callback URLs, and a registered hash of another transaction",
  async fn() {
    const t = await nftTenant("edge game");
    const { tenant, minter, nft } = t;
    const body = {
      playerId: "1",
      from: minter.address,
      to: minter.address,
      isSend: false,
      encoded: false,
      callbackUrl: "http://127.0.0.1:9/cb",
      royaltyPercentage: 1,
      mintMsg: [{ tokenId: "1", metadata: { name: "a", image: "b" } }],
    };
    const mint = (json: unknown, headers = tenant.chainHeaders) =>
      callJson("POST", `/service/v1/nft/${nft}/mint`, { json, headers });

    // Without XPLA_LCD_URL, xpla answers "not configured" as polygon does without its RPC URL.
    const savedXpla = t.services.xpla;
    t.services.xpla = undefined;
    const xpla = await mint(body, { ...tenant.chainHeaders, "x-network": "xpla" });
    t.services.xpla = savedXpla;
    assert.equal(xpla.status, 503);
    assert.equal(xpla.body.code, 5031);
    const ftp = await mint({ ...body, callbackUrl: "ftp://example.com/cb" });
    assert.equal(ftp.status, 400);
    assert.equal(ftp.body.code, 2015);

    // Registering the hash of an unrelated transaction (another sender) does not count as done.
    const waiting = await mint(body);
    const unrelated = await minter.wallet.sendTransaction({
      account: minter.wallet.account!,
      chain: minter.wallet.chain,
      to: minter.address,
      value: 1n,
    });
    await t.client.waitForTransactionReceipt({ hash: unrelated });
    const patched = await callJson("PATCH", "/service/v1/tx/hash", {
      headers: tenant.chainHeaders,
      json: { requestId: waiting.body.data.requestId, txHash: unrelated },
    });
    assert.equal(patched.body.code, 0);
    await t.services.idle();
    await runScheduled(t.services);
    const list = await callJson("GET", "/service/v1/tx", { headers: tenant.chainHeaders });
    assert.equal(list.body.data.transactions[0].txStatus, "FAILED");
    const badHash = await callJson("PATCH", "/service/v1/tx/hash", {
      headers: tenant.chainHeaders,
      json: { requestId: waiting.body.data.requestId, txHash: "0x1234" },
    });
    assert.equal(badHash.body.code, 1000);
  },
});

Deno.test("transaction list: only records of the request's x-network are listed", async () => {
  const tenant = await seedTenant("network list game");
  await seedRecords(tenant.appid, tenant.gameIndex, [["p1", "9", "2026-03-01T00:00:00Z"]]);
  const on = (network: string) =>
    callJson("GET", "/service/v1/tx?playerId=9", {
      headers: { ...tenant.chainHeaders, "x-network": network },
    });
  const polygon = await on("polygon");
  assert.deepEqual(
    polygon.body.data.transactions.map((x: { requestId: string }) => x.requestId),
    [`${tenant.appid}-p1`],
  );
  const xpla = await on("xpla");
  assert.equal(xpla.body.code, 0, JSON.stringify(xpla.body));
  assert.deepEqual(xpla.body.data.transactions, []);
  assert.equal(xpla.body.data.meta.totalItems, 0);
  // A page past the end counts separately: that count is per network too.
  const paged = await callJson("GET", "/service/v1/tx?playerId=9&page=2", {
    headers: { ...tenant.chainHeaders, "x-network": "xpla" },
  });
  assert.equal(paged.body.data.meta.totalItems, 0);
});
