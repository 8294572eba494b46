/**
 * The SQL port contract on every adapter available in this tier: PGlite always; with
 * DATABASE_URL (both real tiers) postgres.js over TCP straight to PostgreSQL, and the Neon HTTP
 * driver where NEON_FETCH_ENDPOINT names the local Neon bridge (the bridged real tier).
 */
import assert from "node:assert/strict";
import { DbError, type Sql } from "../../../lib/db/port.ts";
import { openPglite } from "../../../lib/db/pglite.ts";
import { openNeon } from "../../../lib/db/neon.ts";
import { openTcp } from "../../../lib/db/tcp.ts";
import { testEnv } from "../../harness.ts";

const dbUrl = Deno.env.get("DATABASE_URL");
const neonEndpoint = Deno.env.get("NEON_FETCH_ENDPOINT");
const adapters: [string, () => Promise<Sql>, boolean][] = [
  // The harness's PGlite is reused: creating one costs seconds.
  ["pglite", async () => dbUrl ? await openPglite() : (await testEnv()).services.db, false],
  [
    "neon",
    () => Promise.resolve(openNeon(dbUrl!, { fetchEndpoint: neonEndpoint })),
    !dbUrl || !neonEndpoint,
  ],
  ["tcp", () => Promise.resolve(openTcp(dbUrl!)), !dbUrl],
];

for (const [name, open, ignore] of adapters) {
  const table = `contract_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;

  Deno.test({
    name: `sql(${name}): value types agree across adapters`,
    ignore,
    fn: async () => {
      const db = await open();
      const [row] = await db.query<Record<string, unknown>>(
        `select 1::int4 as i, 9007199254740993::int8 as big, 1.50::numeric as num, true as b,
              'x'::text as t, null::text as n, '{"a":[1,2]}'::jsonb as j,
              '2026-01-02T03:04:05Z'::timestamptz as ts, $1::text as p, $2::jsonb as pj`,
        ["012", { k: "한" }],
      );
      assert.equal(row.i, 1);
      assert.equal(row.big, "9007199254740993");
      assert.equal(row.num, "1.50");
      assert.equal(row.b, true);
      assert.equal(row.t, "x");
      assert.equal(row.n, null);
      assert.deepEqual(row.j, { a: [1, 2] });
      assert.ok(row.ts instanceof Date);
      assert.equal((row.ts as Date).toISOString(), "2026-01-02T03:04:05.000Z");
      assert.equal(row.p, "012");
      assert.deepEqual(row.pj, { k: "한" });
      if (name !== "pglite" || dbUrl) await db.close();
    },
  });

  Deno.test({
    name: `sql(${name}): transaction is all or nothing`,
    ignore,
    fn: async () => {
      const db = await open();
      await db.query(`create table ${table} (id int primary key, v text)`);
      const [ins, sel, big] = await db.transaction([
        { text: `insert into ${table} values (1, 'a'), (2, 'b') returning id` },
        { text: `select count(*)::int as n from ${table}` },
        { text: "select 9007199254740993::int8 as big, 2.50::numeric as num" },
      ]);
      assert.deepEqual(big, [{ big: "9007199254740993", num: "2.50" }]);
      assert.equal(ins.length, 2);
      assert.equal(sel[0].n, 2);
      await assert.rejects(
        db.transaction([
          { text: `insert into ${table} values (3, 'c')` },
          { text: `insert into ${table} values (1, 'duplicate')` },
        ]),
        (err) => err instanceof DbError && err.code === "23505" && err.uniqueViolation,
      );
      const [{ n }] = await db.query<{ n: number }>(`select count(*)::int as n from ${table}`);
      assert.equal(n, 2, "the failed batch left nothing behind");
      await db.query(`drop table ${table}`);
      if (name !== "pglite" || dbUrl) await db.close();
    },
  });

  Deno.test({
    name: `sql(${name}): a lone surrogate is stored as U+FFFD; NUL is refused as unstorable text`,
    ignore,
    fn: async () => {
      const db = await open();
      const [row] = await db.query<{ j: unknown }>("select $1::jsonb as j", [
        { lone: "a\ud800b", pair: "😀", slash: "\\ud800" },
      ]);
      assert.deepEqual(row.j, { lone: "a\ufffdb", pair: "😀", slash: "\\ud800" });
      for (
        const [sql, param] of [["select $1::text", "a\u0000"], ["select $1::jsonb", {
          a: "\u0000",
        }]]
      ) {
        await assert.rejects(
          db.query(sql as string, [param]),
          (err) => err instanceof DbError && err.unstorableText && !err.unavailable,
        );
      }
      if (name !== "pglite" || dbUrl) await db.close();
    },
  });

  Deno.test({
    name: `sql(${name}): errors carry SQLSTATE`,
    ignore,
    fn: async () => {
      const db = await open();
      await assert.rejects(
        db.query("select * from no_such_table_here"),
        (err) => err instanceof DbError && err.code === "42P01" && !err.unavailable,
      );
      if (name !== "pglite" || dbUrl) await db.close();
    },
  });
}

Deno.test({
  name: "sql(neon): an unreachable endpoint is reported as unavailable",
  fn: async () => {
    const db = openNeon("postgres://u:p@127.0.0.1:1/none", {
      fetchEndpoint: "http://127.0.0.1:1/sql",
    });
    await assert.rejects(db.query("select 1"), (err) => err instanceof DbError && err.unavailable);
    // Put the real tier's endpoint back for everyone else in this process.
    const real = Deno.env.get("NEON_FETCH_ENDPOINT");
    if (real) openNeon(dbUrl!, { fetchEndpoint: real });
  },
});
