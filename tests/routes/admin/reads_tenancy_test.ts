import assert from "node:assert/strict";
import { admin, ADMIN_TOKEN, callJson, rememberSecret, seedTenant } from "../../harness.ts";
import { assertNoSecret, assertNotFound, walkPages } from "./fixture.ts";

Deno.test("games: listed newest first, paged by cursor without gaps or repeats, filtered by name", async () => {
  const tag = `paging-${crypto.randomUUID().slice(0, 8)}`;
  const made = [];
  for (let i = 0; i < 5; i++) {
    made.push((await admin("POST", "/admin/v1/games", { name: `${tag} ${i}` })).body);
  }
  const all = await walkPages(`/admin/v1/games?name=${tag}`, 2);
  assert.deepEqual(all.map((g) => g.gameIndex), made.map((g) => g.gameIndex).reverse());
  assert.equal(all[0].name, `${tag} 4`);
  assert.equal(all[0].apps, 0);
  assert.equal(all[0].activeApiKeys, 0);
  assert.match(all[0].createdAt, /^\d{4}-\d\d-\d\dT/);
});

Deno.test("games: one game with counts; unknown game 404", async () => {
  const t = await seedTenant("counts");
  await t.apiKey(["push"]);
  const res = await admin("GET", `/admin/v1/games/${t.gameIndex}`);
  assert.equal(res.status, 200);
  assert.equal(res.body.name, "counts");
  assert.equal(res.body.apps, 1);
  assert.equal(res.body.activeApiKeys, 1);
  assert.deepEqual(res.body.deliveries, { REGISTERED: 0, RETRYING: 0, DELIVERED: 0, FAILED: 0 });
  assert.deepEqual(res.body.transactions, { WAITING: 0, PENDING: 0, SUCCESS: 0, FAILED: 0 });
  assertNotFound(await admin("GET", "/admin/v1/games/2147483000"), "GAME_NOT_FOUND");
});

Deno.test("apps: listed with client id, never the secret; another game's app is 404", async () => {
  const t = await seedTenant();
  const other = await seedTenant();
  const second = await admin("POST", `/admin/v1/games/${t.gameIndex}/apps`, {
    appid: `b-${t.appid}`,
  });
  const list = await admin("GET", `/admin/v1/games/${t.gameIndex}/apps`);
  assert.equal(list.status, 200);
  assert.deepEqual(list.body.items.map((a: { appid: string }) => a.appid), [
    `b-${t.appid}`,
    t.appid,
  ]);
  assert.equal(list.body.items[1].clientId, t.clientId);
  assert.equal(list.body.nextCursor, null);
  assertNoSecret(list.body, [t.clientSecret, second.body.clientSecret]);
  const one = await admin("GET", `/admin/v1/games/${t.gameIndex}/apps/${t.appid}`);
  assert.deepEqual(Object.keys(one.body).sort(), ["appid", "clientId", "createdAt", "gameIndex"]);
  assertNotFound(
    await admin("GET", `/admin/v1/games/${other.gameIndex}/apps/${t.appid}`),
    "APP_NOT_FOUND",
  );
});

Deno.test("apps: rotate-secret shows the new secret once; the old one stops working at once", async () => {
  const t = await seedTenant();
  const other = await seedTenant();
  assertNotFound(
    await admin("POST", `/admin/v1/games/${other.gameIndex}/apps/${t.appid}/rotate-secret`),
    "APP_NOT_FOUND",
  );
  const rotated = await admin(
    "POST",
    `/admin/v1/games/${t.gameIndex}/apps/${t.appid}/rotate-secret`,
  );
  assert.equal(rotated.status, 200);
  assert.equal(rotated.body.clientId, t.clientId);
  assert.notEqual(rotated.body.clientSecret, t.clientSecret);
  const oldLogin = await callJson("POST", "/v2/auth-token", {
    json: { clientId: t.clientId, clientSecret: t.clientSecret },
  });
  assert.notEqual(oldLogin.body.code, 0);
  const newLogin = await callJson("POST", "/v2/auth-token", {
    json: { clientId: t.clientId, clientSecret: rotated.body.clientSecret },
  });
  assert.equal(newLogin.body.code, 0);
  const after = await admin("GET", `/admin/v1/games/${t.gameIndex}/apps/${t.appid}`);
  assertNoSecret(after.body, [rotated.body.clientSecret]);
});

Deno.test("api keys: id, scopes, created, last used, revoked; never the key; tenancy", async () => {
  const t = await seedTenant();
  const other = await seedTenant();
  const a = await t.apiKey(["push", "otp"]);
  const b = await t.apiKey(["items"]);
  let list = await admin("GET", `/admin/v1/games/${t.gameIndex}/api-keys`);
  assert.equal(list.status, 200);
  assert.deepEqual(list.body.items.map((k: { keyId: string }) => k.keyId), [b.keyId, a.keyId]);
  assert.deepEqual(list.body.items[1].scopes, ["push", "otp"]);
  assert.equal(list.body.items[1].lastUsedAt, null);
  assert.equal(list.body.items[1].revokedAt, null);
  assertNoSecret(list.body, [a.apiKey, b.apiKey, a.apiKey.split(".")[2]]);

  // Using the key records when it was last used.
  const used = await callJson("POST", "/push/v1/devices", {
    json: { appid: t.appid, token: "tok-lastused-1", platform: "android", country: "KR" },
    headers: { authorization: `Bearer ${a.apiKey}` },
  });
  assert.equal(used.status < 500, true, JSON.stringify(used.body));
  const one = await admin("GET", `/admin/v1/games/${t.gameIndex}/api-keys/${a.keyId}`);
  assert.equal(one.status, 200);
  assert.match(one.body.lastUsedAt, /^\d{4}-/);
  assertNoSecret(one.body, [a.apiKey]);

  assert.equal((await admin("DELETE", `/admin/v1/api-keys/${b.keyId}`)).status, 204);
  list = await admin("GET", `/admin/v1/games/${t.gameIndex}/api-keys?revoked=true`);
  assert.deepEqual(list.body.items.map((k: { keyId: string }) => k.keyId), [b.keyId]);
  assert.match(list.body.items[0].revokedAt, /^\d{4}-/);
  list = await admin("GET", `/admin/v1/games/${t.gameIndex}/api-keys?revoked=false`);
  assert.deepEqual(list.body.items.map((k: { keyId: string }) => k.keyId), [a.keyId]);

  assertNotFound(
    await admin("GET", `/admin/v1/games/${other.gameIndex}/api-keys/${a.keyId}`),
    "API_KEY_NOT_FOUND",
  );
  const otherList = await admin("GET", `/admin/v1/games/${other.gameIndex}/api-keys`);
  assert.deepEqual(otherList.body.items, []);
});

Deno.test("api keys: an optional name, trimmed, shown in the list and the read", async () => {
  const t = await seedTenant();
  const named = await admin("POST", `/admin/v1/games/${t.gameIndex}/api-keys`, {
    scopes: ["items"],
    name: "  game server eu-1 ",
  });
  assert.equal(named.status, 201, JSON.stringify(named.body));
  assert.equal(named.body.name, "game server eu-1");
  rememberSecret(named.body.apiKey);
  const plain = await admin("POST", `/admin/v1/games/${t.gameIndex}/api-keys`, {
    scopes: ["otp"],
  });
  assert.equal(plain.body.name, null);
  rememberSecret(plain.body.apiKey);
  const list = await admin("GET", `/admin/v1/games/${t.gameIndex}/api-keys`);
  assert.deepEqual(
    list.body.items.map((k: { name: string | null }) => k.name),
    [null, "game server eu-1"],
  );
  const one = await admin("GET", `/admin/v1/games/${t.gameIndex}/api-keys/${named.body.keyId}`);
  assert.equal(one.body.name, "game server eu-1");
  for (const name of ["", "   ", "x".repeat(101), 7]) {
    const bad = await admin("POST", `/admin/v1/games/${t.gameIndex}/api-keys`, {
      scopes: ["items"],
      name,
    });
    assert.equal(bad.status, 400, JSON.stringify(name));
    assert.equal(bad.body.error.code, "VALIDATION_FAILED");
    assert.match(bad.body.error.message, /^name/);
  }
});

Deno.test("paging: bad limit and a forged cursor are refused naming the field", async () => {
  const t = await seedTenant();
  for (const q of ["limit=0", "limit=201", "limit=x"]) {
    const res = await admin("GET", `/admin/v1/games/${t.gameIndex}/apps?${q}`);
    assert.equal(res.status, 400, q);
    assert.equal(res.body.error.code, "VALIDATION_FAILED");
    assert.match(res.body.error.message, /^limit/);
  }
  for (const cursor of ["nope!", "bm9wZQ", btoa(JSON.stringify(["x", "y"]))]) {
    const res = await admin("GET", `/admin/v1/games/${t.gameIndex}/apps?cursor=${cursor}`);
    assert.equal(res.status, 400, cursor);
    assert.equal(res.body.error.message, "cursor is not a cursor from this listing");
  }
});

Deno.test("reads need the admin token", async () => {
  const t = await seedTenant();
  for (const path of ["/admin/v1/games", `/admin/v1/games/${t.gameIndex}/apps`]) {
    const none = await callJson("GET", path);
    assert.equal(none.status, 401);
    const wrong = await callJson("GET", path, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}x` },
    });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error.code, "UNAUTHORIZED");
  }
});

Deno.test("every list of an unknown game is 404 GAME_NOT_FOUND, not an empty page", async () => {
  const g = 2147483001;
  for (
    const path of [
      "apps",
      "api-keys",
      "chat-keys",
      "tads/projects",
      "item-endpoint/probes",
      "item-requests",
      "cpa",
      "contracts",
      "transactions",
      "otp-topics",
      "push/campaigns",
      "push/targetings",
      "push/devices",
    ]
  ) {
    assertNotFound(await admin("GET", `/admin/v1/games/${g}/${path}`), "GAME_NOT_FOUND");
  }
});
