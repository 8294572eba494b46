import assert from "node:assert/strict";
import { admin, callJson, seedTenant, testEnv } from "../../harness.ts";
import { itemFixture } from "../../lib/items/fixture.ts";

Deno.test("POST /items/v1/requests: validation failures render {code:4000, message} naming the field", async () => {
  await using f = await itemFixture("http");
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ detail: undefined }, /^detail is required/],
    [{ detail: [] }, /^detail:/],
    [{ reason: "zz" }, /^reason:/],
    [{ reason: "p", subReason: "12" }, /^subReason: must be one of 1\.\.11 when reason is p/],
    [{ duration: 0 }, /^duration: must be 1\.\.9999 days or -1/],
    [{ duration: 10000 }, /^duration:/],
    [{ detail: [{ action: "send", assetCode: "gold", amount: -1 }] }, /^detail\[0\]\.amount:/],
    [{ detail: [{ action: "send", assetCode: "gold", amount: 1.5 }] }, /^detail\[0\]\.amount:/],
    [{ detail: [{ action: "send", amount: 1 }] }, /^detail\[0\]\.assetCode is required/],
    [{ serverId: "" }, /^serverId:/],
    [{ gameIndex: "1" }, /^gameIndex:/],
    [{ transactionId: "has space" }, /^transactionId:/],
  ];
  for (const [overrides, message] of cases) {
    const r = await f.register(f.body(overrides));
    assert.equal(r.status, 400, JSON.stringify(overrides));
    assert.equal(r.body.code, 4000);
    assert.match(r.body.message, message);
  }
  for (const duration of [-1, 1, 9999]) {
    assert.equal((await f.register(f.body({ duration }))).status, 202, `duration ${duration}`);
  }
  assert.equal((await f.register(f.body({ reason: "p", subReason: "11" }))).status, 202);
  const malformed = await callJson("POST", "/items/v1/requests", {
    body: "{oops",
    headers: { authorization: `Bearer ${f.apiKey}`, "content-type": "application/json" },
  });
  assert.equal(malformed.status, 400);
  assert.deepEqual(malformed.body, { code: 4000, message: "request body is not valid JSON" });
});

Deno.test("POST /items/v1/requests: auth, scope, game and endpoint checks", async () => {
  await using f = await itemFixture("http");
  const body = f.body();
  const none = await callJson("POST", "/items/v1/requests", { json: body });
  assert.equal(none.status, 401);
  assert.equal(none.body.code, 4010);
  const { apiKey: pushKey } = await f.tenant.apiKey(["push"]);
  const scope = await callJson("POST", "/items/v1/requests", {
    json: body,
    headers: { authorization: `Bearer ${pushKey}` },
  });
  assert.equal(scope.status, 403);
  assert.equal(scope.body.code, 4030);
  const other = await f.register(f.body({ gameIndex: f.tenant.gameIndex + 100000 }));
  assert.equal(other.status, 403);
  assert.match(other.body.message, /not the API key's game/);

  const bare = await seedTenant("no endpoint");
  const { apiKey } = await bare.apiKey(["items"]);
  const missing = await callJson("POST", "/items/v1/requests", {
    json: { ...body, gameIndex: bare.gameIndex },
    headers: { authorization: `Bearer ${apiKey}` },
  });
  assert.equal(missing.status, 409);
  assert.equal(missing.body.code, 4090);
  assert.match(missing.body.message, /no item endpoint/);
});

Deno.test("POST /items/v1/requests: idempotent on transactionId; a different body is 409", async () => {
  const { services } = await testEnv();
  await using f = await itemFixture("http");
  const body = f.body({ id: "idem-user" });
  const first = await f.register(body);
  await services.idle();
  const received = f.server.received;
  const second = await f.register({ ...body, detail: [...(body.detail as unknown[])] });
  assert.deepEqual(second.body, first.body);
  assert.equal(second.status, 202);
  await services.idle();
  assert.equal(f.server.received, received, "nothing new sent");
  const changed = await f.register({ ...body, serverId: "s2" });
  assert.equal(changed.status, 409);
  assert.equal(changed.body.code, 4090);
  assert.match(changed.body.message, /different body/);

  // Without transactionId one is generated.
  const { transactionId: _, ...noId } = f.body();
  const gen = await f.register(noId);
  assert.equal(gen.status, 202);
  assert.match(gen.body.transactionId, /^[0-9a-f]{32}$/);
});

Deno.test("GET /items/v1/requests/{transactionId}: state, and 404 for unknown or another game's", async () => {
  const { services } = await testEnv();
  await using f = await itemFixture("http");
  const body = f.body();
  await f.register(body);
  await services.idle();
  const s = await f.status(String(body.transactionId));
  assert.equal(s.status, 200);
  assert.deepEqual(Object.keys(s.body).sort(), [
    "attempts",
    "code",
    "deliveredAt",
    "lastCode",
    "lastMessage",
    "message",
    "status",
    "transactionId",
  ]);
  assert.equal(s.body.code, 0);
  assert.equal(s.body.status, "DELIVERED");
  const unknown = await f.status("nope");
  assert.equal(unknown.status, 404);
  assert.equal(unknown.body.code, 4040);
  await using g = await itemFixture("http");
  assert.equal((await g.status(String(body.transactionId))).status, 404);
});

Deno.test("admin item-endpoint: PUT validates, TCP port defaults to 20080, GET 404 when none", async () => {
  const t = await seedTenant();
  const path = `/admin/v1/games/${t.gameIndex}/item-endpoint`;
  const none = await admin("GET", path);
  assert.equal(none.status, 404);
  assert.equal(none.body.error.code, "ITEM_ENDPOINT_NOT_FOUND");
  const bad = await admin("PUT", path, { transport: "ftp", url: "x", vendorWord: "w" });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.code, "VALIDATION_FAILED");
  const badUrl = await admin("PUT", path, { transport: "http", url: "ftp://x", vendorWord: "w" });
  assert.equal(badUrl.status, 400);
  const noWord = await admin("PUT", path, { transport: "http", url: "http://game.example" });
  assert.equal(noWord.status, 400);
  assert.match(noWord.body.error.message, /vendorWord/);
  const tcp = await admin("PUT", path, { transport: "tcp", host: "game.example", vendorWord: "w" });
  assert.equal(tcp.status, 200);
  assert.equal(tcp.body.port, 20080);
  assert.equal(tcp.body.transport, "tcp");
  assert.equal(tcp.body.health.healthy, null);
  const missingGame = await admin("PUT", "/admin/v1/games/99999999/item-endpoint", {
    transport: "http",
    url: "http://game.example/items",
    vendorWord: "w",
  });
  assert.equal(missingGame.status, 404);
});

Deno.test("admin item-endpoint: the vendor word is stored sealed and never shown", async () => {
  const { services } = await testEnv();
  const t = await seedTenant();
  const path = `/admin/v1/games/${t.gameIndex}/item-endpoint`;
  const word = `vendor-${crypto.randomUUID()}`;
  const put = await admin("PUT", path, {
    transport: "http",
    url: "http://game.example/items",
    vendorWord: word,
  });
  assert.equal(put.status, 200);
  assert.ok(!JSON.stringify(put.body).includes(word));
  assert.ok(!JSON.stringify((await admin("GET", path)).body).includes(word));
  const [row] = await services.db.query<{ vendor_word: string }>(
    "select vendor_word from item_endpoints where game_index = $1",
    [t.gameIndex],
  );
  assert.match(row.vendor_word, /^v1:/);
  assert.ok(!row.vendor_word.includes(word));
});
