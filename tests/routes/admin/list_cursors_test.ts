/**
 * The admin lists that answered page numbers (wallets, multi-signature wallets) page by cursor like
 * every other admin list, and every list refuses a limit outside 1-200 the same way.
 */
import assert from "node:assert/strict";
import { admin, callJson, seedTenant, testEnv } from "../../harness.ts";
import { assertNotFound, walkPages } from "./fixture.ts";

function address(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(20));
  return "0x" + [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Asserts the admin validation envelope naming the field. */
// deno-lint-ignore no-explicit-any
function assertRefused(res: { status: number; body: any }, field: string, what: string) {
  assert.equal(res.status, 400, `${what}: ${JSON.stringify(res.body)}`);
  assert.equal(res.body.error.code, "VALIDATION_FAILED", what);
  assert.match(res.body.error.message, new RegExp(`^${field}`), what);
}

Deno.test("wallets: {items, nextCursor}, newest first, walked by cursor without gaps or repeats", async () => {
  const t = await seedTenant("wallet list game");
  const other = await seedTenant("other wallet game");
  const made: string[] = [];
  for (let i = 0; i < 5; i++) {
    const res = await admin("POST", "/admin/v1/wallets", { gameIndex: t.gameIndex });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    made.push(res.body.address);
  }
  await admin("POST", "/admin/v1/wallets", { gameIndex: other.gameIndex });
  const all = await walkPages(`/admin/v1/wallets?gameIndex=${t.gameIndex}`, 2);
  assert.deepEqual(all.map((w) => w.address), [...made].reverse());
  assert.ok(all.every((w) => w.keyHeld && w.gameIndex === t.gameIndex && w.xplaAddress));

  const first = await admin("GET", `/admin/v1/wallets?gameIndex=${t.gameIndex}&limit=2`);
  assert.deepEqual(Object.keys(first.body).sort(), ["items", "nextCursor"]);
  const second = await admin(
    "GET",
    `/admin/v1/wallets?gameIndex=${t.gameIndex}&limit=2&cursor=${first.body.nextCursor}`,
  );
  assert.deepEqual(second.body.items.map((w: { address: string }) => w.address), [
    made[2],
    made[1],
  ], "the cursor is honoured");
  // The old page number means nothing any more: it is not a second way to page.
  const paged = await admin("GET", `/admin/v1/wallets?gameIndex=${t.gameIndex}&limit=2&page=2`);
  assert.deepEqual(paged.body.items, first.body.items);

  for (const q of ["limit=0", "limit=201", "limit=x"]) {
    assertRefused(
      await admin("GET", `/admin/v1/wallets?gameIndex=${t.gameIndex}&${q}`),
      "limit",
      q,
    );
  }
  const forged = await admin("GET", `/admin/v1/wallets?gameIndex=${t.gameIndex}&cursor=nope!`);
  assert.equal(forged.status, 400);
  assert.equal(forged.body.error.message, "cursor is not a cursor from this listing");
  assertNotFound(await admin("GET", "/admin/v1/wallets?gameIndex=2147483000"), "GAME_NOT_FOUND");
});

Deno.test("multisig: {items, nextCursor}, newest first, by cursor, filtered by network", async () => {
  const { services } = await testEnv();
  const t = await seedTenant("multisig list game");
  const base = Date.parse("2026-02-01T00:00:00Z");
  const made: string[] = [];
  for (let i = 0; i < 5; i++) {
    const safe = address();
    made.push(safe);
    await services.db.query(
      `insert into multisig_wallets (chain_id, address, network, game_index, owners, threshold,
         salt_nonce, creator, singleton, proxy_factory, fallback_handler, created_at)
       values ($1, $2, $3, $4, $5::jsonb, 1, $6, $7, $7, $7, $7, $8)`,
      [
        i === 4 ? 47 : 31337,
        safe,
        i === 4 ? "xpla" : "polygon",
        t.gameIndex,
        JSON.stringify([address()]),
        String(i),
        address(),
        // Two wallets share a creation time: the cursor's tie-breaker keeps both.
        new Date(base + Math.min(i, 3) * 1000),
      ],
    );
  }
  const all = await walkPages(`/admin/v1/multisig?gameIndex=${t.gameIndex}`, 2);
  assert.equal(all.length, 5);
  assert.deepEqual(new Set(all.map((w) => w.address)), new Set(made));
  assert.deepEqual(all.slice(2).map((w) => w.address), [made[2], made[1], made[0]]);
  assert.ok(all.every((w) => w.state === "CREATING" && w.threshold === 1));
  const polygon = await walkPages(`/admin/v1/multisig?gameIndex=${t.gameIndex}&network=polygon`, 3);
  assert.deepEqual(polygon.map((w) => w.address), [made[3], made[2], made[1], made[0]]);
  for (const q of ["limit=0", "limit=201"]) {
    assertRefused(
      await admin("GET", `/admin/v1/multisig?gameIndex=${t.gameIndex}&${q}`),
      "limit",
      q,
    );
  }
  assertNotFound(await admin("GET", "/admin/v1/multisig?gameIndex=2147483000"), "GAME_NOT_FOUND");
});

Deno.test("chat logs: a limit outside 1-200 is refused like every other list", async () => {
  const t = await seedTenant("chat log limit game");
  const path = `/admin/v1/games/${t.gameIndex}/chat-logs`;
  for (const q of ["limit=201", "limit=500", "limit=0"]) {
    assertRefused(await admin("GET", `${path}?${q}`), "limit", q);
  }
  const apps = await admin("GET", `/admin/v1/games/${t.gameIndex}/apps?limit=201`);
  const chat = await admin("GET", `${path}?limit=201`);
  assert.deepEqual(chat.body, apps.body, "the same refusal, word for word");
  const ok = await admin("GET", `${path}?limit=200`);
  assert.equal(ok.status, 200);
  assert.deepEqual(ok.body, { items: [], nextCursor: null });
});

Deno.test("OpenAPI: wallets and multisig declare limit and cursor, not page", async () => {
  const doc = await callJson("GET", "/openapi.json");
  for (const path of ["/admin/v1/wallets", "/admin/v1/multisig"]) {
    const op = doc.body.paths[path].get as {
      parameters: { name: string }[];
      responses: Record<string, { content: Record<string, { schema: { properties: object } }> }>;
    };
    const names = op.parameters.map((p) => p.name);
    assert.ok(names.includes("cursor") && names.includes("limit"), `${path}: ${names}`);
    assert.ok(!names.includes("page"), path);
    const schema = op.responses["200"].content["application/json"].schema;
    assert.deepEqual(Object.keys(schema.properties).sort(), ["items", "nextCursor"], path);
  }
});
