import assert from "node:assert/strict";
import { admin, callJson, seedTenant } from "./../harness.ts";

const OWNER = "0x00000000000000000000000000000000000000aA";

function address(i: number) {
  return `0x${i.toString(16).padStart(40, "0")}`;
}

Deno.test("contract list: owner match ignores case, filters type and network, pages with meta", async () => {
  const t = await seedTenant();
  const other = await seedTenant();
  const register = (i: number, type: string, gameIndex = t.gameIndex, network = "polygon") =>
    admin("POST", "/admin/v1/contracts", {
      network,
      address: address(i + (gameIndex === t.gameIndex ? 0 : 1000)),
      type,
      name: `c${i}`,
      owner: OWNER,
      gameIndex,
    });
  for (let i = 1; i <= 3; i++) assert.equal((await register(i, "nft")).status, 201);
  assert.equal((await register(4, "token")).status, 201);
  assert.equal((await register(5, "nft", other.gameIndex)).status, 201);
  const path = `/service/v1/contract/owner/${OWNER.toLowerCase()}`;
  const all = await callJson("GET", `${path}?limit=2`, { headers: t.chainHeaders });
  assert.equal(all.body.code, 0);
  assert.equal(all.body.data.contracts.length, 2);
  assert.deepEqual(all.body.data.meta, {
    totalItems: 4,
    itemCount: 2,
    itemsPerPage: 2,
    totalPages: 2,
    currentPage: 1,
  });
  const first = all.body.data.contracts[0];
  assert.deepEqual(Object.keys(first).sort(), [
    "address",
    "gameIndex",
    "gameName",
    "name",
    "network",
    "owner",
    "type",
  ]);
  assert.equal(first.gameIndex, t.gameIndex, "another game's contracts are not listed");
  const nfts = await callJson("GET", `${path}?contractType=nft`, { headers: t.chainHeaders });
  assert.equal(nfts.body.data.contracts.length, 3);
  const past = await callJson("GET", `${path}?page=9&limit=2`, { headers: t.chainHeaders });
  assert.equal(past.body.data.contracts.length, 0);
  assert.equal(past.body.data.meta.totalItems, 4, "a page past the end still counts the total");
  assert.equal(past.body.data.meta.totalPages, 2);
  const xpla = await callJson("GET", path, { headers: { ...t.chainHeaders, "x-network": "xpla" } });
  assert.equal(xpla.body.data.contracts.length, 0, "polygon contracts are not xpla contracts");
  const bad = await callJson("GET", `${path}?limit=101`, { headers: t.chainHeaders });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.code, 1000);
});
