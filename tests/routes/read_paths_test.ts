/**
 * The hot reads (`GET /items/v1/requests/{id}`, `GET /service/v1/tx`): parameters checked in the
 * handler with the documented failures, and answers rendered once per state or page with the
 * same bytes as a fresh rendering.
 */
import assert from "node:assert/strict";
import { appWith, call, callJson, seedTenant, testEnv } from "../harness.ts";
import { registerSampleItem, seedChainTxs } from "../seed_rows.ts";
import { getItemRequest } from "../../lib/items/register.ts";
import {
  cachedItemRequest,
  forgetItemStates,
  readItemRequest,
} from "../../lib/items/state_cache.ts";
import type { Context } from "hono";
import type { AppEnv } from "../../routes/env.ts";
import {
  createApiKey,
  revokeApiKey,
  verifiedApiKey,
  verifyApiKey,
} from "../../lib/auth/api_keys.ts";
import { verifiedAppToken } from "../../lib/auth/tokens.ts";
import { parseAuthorization, requireApiKey } from "../../routes/auth.ts";
import { requireAppToken } from "../../routes/blockchain/auth.ts";
import { idempotency } from "../../routes/blockchain/idempotency.ts";
import { cachedTransactionsJson, listTransactions } from "../../lib/chain/tx_records.ts";
import { txRecordsChanged } from "../../lib/chain/tx_list_cache.ts";
import { itemStateAnswer } from "../../routes/items/get_request.ts";
import { chainOkJsonText } from "../../routes/blockchain/envelope.ts";
import { families, familyByPrefix, familyOf } from "../../routes/mod.ts";
import type { Sql } from "../../lib/db/port.ts";

Deno.test("hot reads: the item read and the transaction list run no validator middleware", async () => {
  const app = await appWith();
  const at = (path: string) => app.routes.filter((r) => r.method === "GET" && r.path === path);
  // One handler at the route's own path: no parameter validator in front of it.
  assert.equal(at("/items/v1/requests/:transactionId").length, 1);
  assert.equal(at("/service/v1/tx").length, 1);
  // Still documented with their parameters.
  const doc = app.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "t", version: "1" } });
  const item = doc.paths?.["/items/v1/requests/{transactionId}"]?.get;
  assert.deepEqual(item?.parameters?.map((p) => "name" in p && p.name), ["transactionId"]);
  const list = doc.paths?.["/service/v1/tx"]?.get;
  assert.deepEqual(
    list?.parameters?.map((p) => "name" in p && p.name),
    ["playerId", "startDate", "endDate", "cursor", "page", "limit"],
  );
});

Deno.test("item read: a bad id gets VALIDATION_FAILED (4000) naming the field; ids are decoded", async () => {
  const t = await seedTenant("read params");
  const { apiKey } = await t.apiKey(["items"]);
  const headers = { authorization: `Bearer ${apiKey}` };
  const long = await callJson("GET", `/items/v1/requests/${"x".repeat(129)}`, { headers });
  assert.equal(long.status, 400);
  assert.deepEqual(long.body, {
    code: 4000,
    message: "transactionId: Too big: expected string to have <=128 characters",
  });
  assert.ok(long.headers.get("x-request-id"));
  const encoded = await callJson("GET", "/items/v1/requests/a%2Fb", { headers });
  assert.deepEqual(encoded.body, { code: 4040, message: "transactionId a/b not found" });
  const edge = await callJson("GET", `/items/v1/requests/${"x".repeat(128)}`, { headers });
  assert.equal(edge.status, 404);
});

Deno.test("transaction list: bad queries get VALIDATION_FAILED (1000) with every field named", async () => {
  const t = await seedTenant("list params");
  const cases: [string, string][] = [
    ["limit=0", "limit: Too small: expected number to be >=1"],
    ["page=x", "page: Invalid input: expected number, received NaN"],
    ["startDate=2024-02-30", "startDate: must be a real date"],
    ["endDate=2024-2-1", "endDate: must be yyyy-mm-dd; endDate: must be a real date"],
    [
      "limit=101&page=0",
      "page: Too small: expected number to be >=1; limit: Too big: expected number to be <=100",
    ],
    ["playerId=", "playerId: Too small: expected string to have >=1 characters"],
    ["cursor=", "cursor: Too small: expected string to have >=1 characters"],
    // A key given twice is a list, as the validator middleware read it.
    ["page=1&page=2", "page: Invalid input: expected number, received NaN"],
  ];
  for (const [query, message] of cases) {
    const res = await callJson("GET", `/service/v1/tx?${query}`, { headers: t.chainHeaders });
    assert.equal(res.status, 400, query);
    assert.deepEqual(res.body, { code: 1000, message }, query);
  }
  const paged = await callJson("GET", "/service/v1/tx?page=2&limit=5&unknown=1", {
    headers: t.chainHeaders,
  });
  assert.equal(paged.status, 200);
  assert.equal(paged.body.data.meta.itemsPerPage, 5);
  assert.equal(paged.body.data.meta.currentPage, 2);
  const none = await callJson("GET", "/service/v1/tx?", { headers: t.chainHeaders });
  assert.equal(none.body.data.meta.itemsPerPage, 20);
  assert.equal(none.body.data.meta.currentPage, 1);
});

Deno.test("item read: the answer is rendered once per state, equal to a fresh rendering, new when the state changes", async () => {
  const { services } = await testEnv();
  const t = await seedTenant("rendered once");
  const { apiKey } = await t.apiKey(["items"]);
  const key = await registerSampleItem(services.db, {
    gameIndex: t.gameIndex,
    nowMs: services.clock.now(),
  });
  const read = async () => {
    const res = await call("GET", `/items/v1/requests/${key.transactionId}`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/json");
    return await res.text();
  };
  const fresh = async () =>
    JSON.stringify({ code: 0, message: "success", ...await getItemRequest(services.db, key) });
  const first = await read();
  assert.equal(first, await fresh());
  assert.equal(await read(), first);
  // The same state object answers the same rendered text; another state its own.
  const view = await readItemRequest(services.db, key, { ttlMs: 60_000 });
  assert.equal(itemStateAnswer(view), itemStateAnswer(view));
  assert.equal(itemStateAnswer(view).text, first);
  assert.equal(itemStateAnswer(view).size, new TextEncoder().encode(first).byteLength);
  await services.db.query(
    `update item_requests set status = 'FAILED', attempts = 3, last_code = 9,
       last_message = 'gone 도'
      where game_index = $1 and transaction_id = $2`,
    [key.gameIndex, key.transactionId],
  );
  forgetItemStates(services.db, [key]);
  const changed = await read();
  assert.notEqual(changed, first);
  assert.equal(changed, await fresh());
  assert.match(changed, /"status":"FAILED","attempts":3,"lastCode":9,"lastMessage":"gone 도"/);
});

Deno.test("transaction list: the cached answer equals a fresh rendering and changes with a write", async () => {
  const { services } = await testEnv();
  const t = await seedTenant("list rendered once");
  await seedChainTxs(services.db, { appid: t.appid, gameIndex: t.gameIndex, rows: 3 });
  const read = async () => {
    const res = await call("GET", "/service/v1/tx", { headers: t.chainHeaders });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/json");
    return await res.text();
  };
  const q = { appid: t.appid, network: "polygon" as const, page: 1, limit: 20 };
  const fresh = async () => chainOkJsonText(JSON.stringify(await listTransactions(services.db, q)));
  const first = await read();
  assert.equal(first, await fresh());
  assert.equal(await read(), first);
  await seedChainTxs(services.db, { appid: t.appid, gameIndex: t.gameIndex, rows: 5 });
  txRecordsChanged(services.db, t.appid);
  const changed = await read();
  assert.notEqual(changed, first);
  assert.equal(changed, await fresh());
  assert.equal(JSON.parse(changed).data.meta.totalItems, 8);
});

/** A context for calling one middleware directly: request headers, variables, the services. */
async function contextWith(headers: Record<string, string>, method = "GET") {
  const { services } = await testEnv();
  const vars = new Map<string, unknown>([["services", services]]);
  return {
    vars,
    c: {
      req: { header: (name: string) => headers[name.toLowerCase()], method },
      get: (k: string) => vars.get(k),
      set: (k: string, v: unknown) => vars.set(k, v),
    } as unknown as Context<AppEnv>,
  };
}

Deno.test("cached API keys and access tokens are admitted without an async step", async () => {
  const { services } = await testEnv();
  const t = await seedTenant("sync admission");
  const { apiKey } = await t.apiKey(["items"]);
  const fresh = await createApiKey(services.db, services.signingKey, {
    gameIndex: t.gameIndex,
    scopes: ["items"],
    nowMs: Date.now(),
  });
  // Not yet verified in this isolate: nothing cached, the async path reads it.
  assert.equal(verifiedApiKey(services.db, services.signingKey, fresh.apiKey, "items"), undefined);
  const principal = await verifyApiKey(services.db, services.signingKey, fresh.apiKey, "items");
  assert.deepEqual(
    verifiedApiKey(services.db, services.signingKey, fresh.apiKey, "items"),
    principal,
  );
  assert.throws(
    () => verifiedApiKey(services.db, services.signingKey, fresh.apiKey, "push"),
    /lacks the push scope/,
  );
  await revokeApiKey(services.db, fresh.keyId);
  assert.equal(verifiedApiKey(services.db, services.signingKey, fresh.apiKey, "items"), undefined);

  // The middleware hands on the route's own promise: no step of its own in between.
  await callJson("GET", "/items/v1/requests/warm", {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  const { c, vars } = await contextWith({ authorization: `Bearer ${apiKey}` });
  const answered = Promise.resolve();
  assert.equal(requireApiKey("items")(c, () => answered), answered);
  assert.equal((vars.get("apiKey") as { gameIndex: number }).gameIndex, t.gameIndex);

  const now = services.clock.now();
  assert.equal(
    verifiedAppToken(services.signingKey, t.accessToken, "access", now + 1e9),
    undefined,
  );
  await callJson("GET", "/service/v1/tx", { headers: t.chainHeaders });
  const claims = verifiedAppToken(services.signingKey, t.accessToken, "access", now);
  assert.equal(claims?.appid, t.appid);
  assert.equal(verifiedAppToken(services.signingKey, t.accessToken, "refresh", now), undefined);
  const chain = await contextWith(t.chainHeaders);
  assert.equal(requireAppToken({ appid: true })(chain.c, () => answered), answered);
  assert.deepEqual(chain.vars.get("app"), {
    appid: t.appid,
    gameIndex: t.gameIndex,
    clientId: t.clientId,
  });
  assert.equal(chain.vars.get("network"), "polygon");
  // A read with an Idempotency-Key is not the middleware's business either.
  const keyed = await contextWith({ "idempotency-key": "k1" });
  assert.equal(idempotency(keyed.c, () => answered), answered);
});

Deno.test("item read: a cached state is answered from the cache as readItemRequest answers it", async () => {
  const { services } = await testEnv();
  const t = await seedTenant("cached state");
  const key = await registerSampleItem(services.db, {
    gameIndex: t.gameIndex,
    nowMs: services.clock.now(),
  });
  assert.equal(cachedItemRequest(services.db, key, Date.now()), undefined);
  const view = await readItemRequest(services.db, key, { ttlMs: 1_000 });
  assert.equal(cachedItemRequest(services.db, key, Date.now()), view);
  assert.equal(cachedItemRequest(services.db, key, Date.now() + 5_000), undefined);
  forgetItemStates(services.db, [key]);
  assert.equal(cachedItemRequest(services.db, key, Date.now()), undefined);
});

Deno.test("authorization header: the usual `Bearer <token>` form parses as the general pattern does", () => {
  // The general pattern (scheme case-insensitive, one token, whitespace around ignored).
  const general = (header: string | undefined) => {
    if (!header || !header.trim()) return null;
    const m = /^\s*(\S+)(?:\s+(\S+))?\s*$/.exec(header);
    if (!m) return { scheme: "", token: "" };
    return { scheme: m[1].toLowerCase(), token: m[2] ?? "" };
  };
  const headers = [
    undefined,
    "",
    " ",
    "Bearer",
    "Bearer ",
    "Bearer abc.def-ghi_jkl",
    "Bearer  abc",
    "Bearer abc ",
    "Bearer abc def",
    "Bearer abc\tdef",
    "Bearer abc\u00a0",
    "Bearer \u00a0abc",
    "bearer abc",
    "BEARER abc",
    " Bearer abc",
    "Basic dXNlcjpwYXNz",
    "Bearerabc",
  ];
  for (const header of headers) {
    assert.deepEqual(parseAuthorization(header), general(header), JSON.stringify(header));
  }
});

Deno.test("cached API key: one principal per cached row, read-only", async () => {
  const { services } = await testEnv();
  const t = await seedTenant("one principal");
  const { apiKey } = await t.apiKey(["items", "otp"]);
  const first = await verifyApiKey(services.db, services.signingKey, apiKey, "items");
  const again = verifiedApiKey(services.db, services.signingKey, apiKey, "otp");
  assert.equal(again, first, "the same object for every request and scope");
  assert.ok(Object.isFrozen(first));
  assert.equal(first.gameIndex, t.gameIndex);
  assert.deepEqual([...first.scopes].sort(), ["items", "otp"]);
});

Deno.test("transaction list: a cached page is answered from the cache with its size counted once", async () => {
  const { services } = await testEnv();
  const t = await seedTenant("list size once");
  await seedChainTxs(services.db, { appid: t.appid, gameIndex: t.gameIndex, rows: 3 });
  const q = { appid: t.appid, network: "polygon", page: 1, limit: 20 };
  assert.equal(cachedTransactionsJson(services.db, q, Date.now()), undefined);
  const read = async () => {
    const res = await call("GET", "/service/v1/tx", { headers: t.chainHeaders });
    assert.equal(res.status, 200);
    return await res.text();
  };
  const first = await read();
  const page = cachedTransactionsJson(services.db, q, Date.now());
  assert.equal(page?.json, first, "the page held is the answer");
  assert.equal(await read(), first, "answered from the cache");
  assert.equal(page?.size, new TextEncoder().encode(first).byteLength, "its size noted once");
  assert.equal(cachedTransactionsJson(services.db, { ...q, limit: 10 }, Date.now()), undefined);
  txRecordsChanged(services.db, t.appid);
  assert.equal(cachedTransactionsJson(services.db, q, Date.now()), undefined);
});

Deno.test("hot reads: one middleware layer between the app's own and the route", async () => {
  const app = await appWith();
  // What runs for a request, in order, up to its route (later entries never run once it answers).
  const layers = (method: string, path: string) => {
    const [handlers] = app.router.match(method, path) as unknown as [
      [[unknown, { method: string; path: string }]][],
    ];
    const routes = handlers.map(([[, r]]) => `${r.method} ${r.path}`);
    return routes.slice(0, routes.findIndex((r) => !r.startsWith("ALL ")) + 1);
  };
  assert.deepEqual(layers("GET", "/service/v1/tx"), [
    "ALL /*",
    "ALL /service/v1/*",
    "GET /service/v1/tx",
  ]);
  assert.deepEqual(layers("GET", "/items/v1/requests/x"), [
    "ALL /*",
    "ALL /items/v1/*",
    "GET /items/v1/requests/:transactionId",
  ]);
  // Writes under /service/v1 and /core/v1 still go through the Idempotency-Key middleware, in the
  // same layer as the token check (tests/routes/blockchain/idempotency_test.ts).
  assert.deepEqual(layers("POST", "/service/v1/nft/0xabc/mint").slice(0, 2), [
    "ALL /*",
    "ALL /service/v1/*",
  ]);
});

Deno.test("cached keys and tokens: a Bearer header is looked up as it is, anything else parsed in full", async () => {
  const t = await seedTenant("header forms");
  const { apiKey } = await t.apiKey(["items"]);
  const item = (authorization: string) =>
    callJson("GET", "/items/v1/requests/absent", { headers: { authorization } });
  assert.equal((await item(`Bearer ${apiKey}`)).status, 404, "admitted (cached from now on)");
  // Forms the parser reads as the same key are admitted; the others refused as before.
  for (const form of [`Bearer  ${apiKey}`, `Bearer ${apiKey} `, `bearer ${apiKey}`]) {
    assert.equal((await item(form)).status, 404, form.replace(apiKey, "<key>"));
  }
  const refused = await item(`Bearer ${apiKey} more`);
  assert.equal(refused.status, 403);
  assert.equal((refused.body as { code: number }).code, 4030);
  assert.equal((await item(`Bearer ${apiKey}x`)).status, 401);

  const tx = (authorization: string) =>
    call("GET", "/service/v1/tx", { headers: { ...t.chainHeaders, authorization } });
  const token = t.chainHeaders.authorization.slice(7);
  assert.equal((await tx(`Bearer ${token}`)).status, 200);
  assert.equal((await tx(`Bearer  ${token} `)).status, 200);
  assert.equal((await tx(`Bearer ${token} more`)).status, 401);
  assert.equal((await tx(`Bearer ${token}x`)).status, 401);
});

/** An app over a database handle of its own (so caches of its own) that counts the item reads. */
async function countingItemApp(config: { ITEM_STATE_CACHE_MS?: number } = {}) {
  const { services } = await testEnv();
  const counted = { reads: 0 };
  const db: Sql = {
    ...services.db,
    async query(text, params) {
      if (/from item_requests\s+where game_index = \$1 and transaction_id = \$2/.test(text)) {
        counted.reads++;
        // Long enough for every concurrent request to arrive while the read is in flight.
        await new Promise((r) => setTimeout(r, 20));
      }
      return await services.db.query(text, params);
    },
  };
  return { app: await appWith({ db, config }), counted };
}

Deno.test("item read: concurrent misses of one request share one query, then the cache answers", async () => {
  const { services } = await testEnv();
  const t = await seedTenant("route misses");
  const { apiKey } = await t.apiKey(["items"]);
  const headers = { authorization: `Bearer ${apiKey}` };
  const key = await registerSampleItem(services.db, {
    gameIndex: t.gameIndex,
    nowMs: services.clock.now(),
  });
  const path = `/items/v1/requests/${key.transactionId}`;
  const { app, counted } = await countingItemApp();
  const answers = await Promise.all(
    Array.from({ length: 8 }, async () => {
      const res = await app.request(path, { headers });
      return [res.status, res.headers.get("x-request-id"), await res.text()] as const;
    }),
  );
  assert.equal(counted.reads, 1, "one query for eight concurrent misses");
  const expected = JSON.stringify({
    code: 0,
    message: "success",
    ...await getItemRequest(services.db, key),
  });
  for (const [status, requestId, body] of answers) {
    assert.equal(status, 200);
    assert.ok(requestId);
    assert.equal(body, expected);
  }
  assert.equal(await (await app.request(path, { headers })).text(), expected);
  assert.equal(counted.reads, 1, "answered from the cache");
  // An unknown request is read every time and answered 4040.
  for (let i = 0; i < 2; i++) {
    const res = await app.request("/items/v1/requests/never-registered", { headers });
    assert.equal(res.status, 404);
    assert.equal(JSON.parse(await res.text()).code, 4040);
  }
  assert.equal(counted.reads, 3);
  // With the cache off every read is a query.
  const off = await countingItemApp({ ITEM_STATE_CACHE_MS: 0 });
  for (let i = 0; i < 2; i++) {
    assert.equal(await (await off.app.request(path, { headers })).text(), expected);
  }
  assert.equal(off.counted.reads, 2);
});

Deno.test("item read: the rendered answer kept on a state changes nothing the state shows", async () => {
  const { services } = await testEnv();
  const t = await seedTenant("answer slot");
  const key = await registerSampleItem(services.db, {
    gameIndex: t.gameIndex,
    nowMs: services.clock.now(),
  });
  const view = await getItemRequest(services.db, key);
  const [keys, json] = [Object.keys(view), JSON.stringify(view)];
  const answer = itemStateAnswer(view);
  assert.equal(itemStateAnswer(view), answer);
  assert.deepEqual(Object.keys(view), keys);
  assert.equal(JSON.stringify(view), json);
  assert.equal(answer.text, JSON.stringify({ code: 0, message: "success", ...view }));
  // Another object with the same state gets its own (equal) answer.
  const again = await getItemRequest(services.db, key);
  assert.notEqual(itemStateAnswer(again), answer);
  assert.equal(itemStateAnswer(again).text, answer.text);
});

Deno.test("families: a path's family by its first character is the family of the first matching prefix", () => {
  const paths = [
    "",
    "/",
    "/x",
    "/items/v1/requests/a",
    "/items",
    "/itemsx/",
    "/service/v1/tx",
    "/service/v2/tx",
    "/core/v1/a",
    "/v2/a",
    "/chat/x",
    "/cads2/x",
    "/api/cpa",
    "/api/cpax/1",
    "/api/other",
    "/console",
    "/consolex/y",
    "/push/devices/a/b",
    "/otp/v1/x",
    "/admin/games",
    "/healthz",
    "/metrics",
    "//items/",
    "/ítems/",
  ];
  for (const family of families) {
    for (const prefix of family.prefixes) {
      paths.push(prefix, `${prefix}more/path`, prefix.slice(0, -1));
    }
  }
  for (const path of paths) assert.equal(familyOf(path), familyByPrefix(path), path);
});
