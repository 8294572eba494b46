import assert from "node:assert/strict";
import { migrate, splitStatements } from "../../../lib/db/migrate.ts";
import { migrations } from "../../../lib/db/migrations/mod.ts";
import { testEnv } from "../../harness.ts";

Deno.test("migrations: re-running applies nothing and keeps data", async () => {
  const { services } = await testEnv();
  const before = await services.db.query<{ n: number }>("select count(*)::int as n from games");
  assert.deepEqual(await migrate(services.db), []);
  assert.deepEqual(await migrate(services.db), []);
  const names = await services.db.query<{ name: string }>(
    "select name from schema_migrations order by name",
  );
  assert.deepEqual(names.map((r) => r.name), migrations.map((m) => m.name).sort());
  const after = await services.db.query<{ n: number }>("select count(*)::int as n from games");
  assert.ok(after[0].n >= before[0].n);
});

Deno.test("migrations: concurrent runners apply a new migration exactly once", async () => {
  const { services } = await testEnv();
  const table = `mig_${crypto.randomUUID().replaceAll("-", "").slice(0, 10)}`;
  const extra = [...migrations, { name: `9999_${table}`, sql: `create table ${table} (id int);` }];
  const results = await Promise.all([migrate(services.db, extra), migrate(services.db, extra)]);
  assert.deepEqual(results.flat(), [`9999_${table}`]);
  await services.db.query(`drop table ${table}`);
  await services.db.query("delete from schema_migrations where name = $1", [`9999_${table}`]);
});

Deno.test("migrations: statements split on semicolons outside quotes and comments", () => {
  const sql = `-- a comment; with a semicolon
create table a (v text default 'x;y');
create function f() returns int as $$ select 1; $$ language sql;
insert into a values ('it''s; fine');`;
  assert.deepEqual(splitStatements(sql), [
    "create table a (v text default 'x;y')",
    "create function f() returns int as $$ select 1; $$ language sql",
    "insert into a values ('it''s; fine')",
  ]);
});
