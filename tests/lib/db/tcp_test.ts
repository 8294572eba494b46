/**
 * The TCP adapter (postgres.js) against the tier's real PostgreSQL: batches are real
 * transactions on one connection, connections the server ends leave the pool working, and a
 * role over its connection limit (53300) counts as unavailable. Runs when DATABASE_URL is set.
 */
import assert from "node:assert/strict";
import { DbError } from "../../../lib/db/port.ts";
import { openTcp } from "../../../lib/db/tcp.ts";
import { startTcpProxy } from "../tcp_proxy.ts";

const dbUrl = Deno.env.get("DATABASE_URL");
const ignore = !dbUrl;

Deno.test({
  name: "sql(tcp): a batch is one transaction on one connection",
  ignore,
  fn: async () => {
    const db = openTcp(dbUrl!, { max: 4 });
    try {
      const statement = {
        text: "select pg_backend_pid() as pid, txid_current()::text as tx, $1::int as n",
        params: [1],
      };
      // Concurrent batches keep the pool busy, so a batch spread over connections would show.
      const batches = await Promise.all(
        Array.from({ length: 6 }, () => db.transaction([statement, statement, statement])),
      );
      for (const results of batches) {
        const rows = results.map((r) => r[0]);
        assert.equal(new Set(rows.map((r) => r.pid)).size, 1, "one connection");
        assert.equal(new Set(rows.map((r) => r.tx)).size, 1, "one transaction");
      }
      assert.equal(new Set(batches.map((b) => b[0][0].tx)).size, 6, "each batch its own");
      // Outside a batch every statement is its own transaction.
      const [a] = await db.query<{ tx: string }>("select txid_current()::text as tx");
      const [b] = await db.query<{ tx: string }>("select txid_current()::text as tx");
      assert.notEqual(a.tx, b.tx);
    } finally {
      await db.close();
    }
  },
});

/** The backends of this database that run `marker` in their current query. */
async function backendsRunning(admin: ReturnType<typeof openTcp>, marker: string) {
  return await admin.query<{ pid: number }>(
    `select pid from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and query like $1`,
    [`%${marker}%`],
  );
}

/**
 * Runs rounds of 20 concurrent queries until one round succeeds whole; every failure on the way
 * must be an unavailable DbError (a 503), never a hang. Answers the backends of the last round.
 */
async function untilServed(db: ReturnType<typeof openTcp>, rounds = 40): Promise<number[]> {
  for (let round = 0; round < rounds; round++) {
    const results = await Promise.allSettled(
      Array.from(
        { length: 20 },
        (_, i) =>
          db.query<{ n: number; pid: number }>("select $1::int as n, pg_backend_pid() as pid", [i]),
      ),
    );
    for (const r of results) {
      if (r.status === "rejected") {
        assert.ok(r.reason instanceof DbError && r.reason.unavailable, String(r.reason));
      }
    }
    if (results.every((r) => r.status === "fulfilled")) {
      const rows = results.map((r) =>
        (r as PromiseFulfilledResult<{ n: number; pid: number }[]>).value[0]
      );
      assert.deepEqual(rows.map((r) => r.n), Array.from({ length: 20 }, (_, i) => i));
      return [...new Set(rows.map((r) => r.pid))];
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the pool never answered again");
}

Deno.test({
  name: "sql(tcp): connections the server ends do not wedge the pool",
  ignore,
  fn: async () => {
    const db = openTcp(dbUrl!, { max: 3 });
    const admin = openTcp(dbUrl!, { max: 1 });
    const marker = `wedge_${crypto.randomUUID().slice(0, 8)}`;
    try {
      // A statement in flight when its backend is terminated fails as unavailable (57P01).
      // Its failure is caught at once: it may come while the terminating call is still awaited.
      const slow = db.query(`select pg_sleep(30) as ${marker}`).then(() => null, (err) => err);
      let pids: { pid: number }[] = [];
      for (let i = 0; i < 100 && pids.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 20));
        pids = await backendsRunning(admin, `pg_sleep(30) as ${marker}`);
      }
      assert.equal(pids.length, 1, "the slow statement is running");
      await admin.query("select pg_terminate_backend($1)", [pids[0].pid]);
      const failure = await slow;
      assert.ok(failure instanceof DbError && failure.unavailable, String(failure));
      const before = await untilServed(db);
      assert.ok(!before.includes(pids[0].pid));

      // Every connection of the pool terminated at once (a server restart): the pool opens new
      // ones, and meanwhile answers unavailable rather than holding callers.
      await admin.query("select pg_terminate_backend(pid) from unnest($1::int[]) as pid", [
        `{${before.join(",")}}`,
      ]);
      const after = await untilServed(db);
      assert.ok(after.every((pid) => !before.includes(pid)), "new connections answer");
    } finally {
      await Promise.all([db.close(), admin.close()]);
    }
  },
});

Deno.test({
  name: "sql(tcp): connections cut without a word from the server do not wedge the pool",
  ignore,
  fn: async () => {
    const target = new URL(dbUrl!);
    const proxy = startTcpProxy({ hostname: target.hostname, port: Number(target.port || 5432) });
    const url = new URL(dbUrl!);
    url.hostname = "127.0.0.1";
    url.port = String(proxy.port);
    const db = openTcp(url.toString(), { max: 3 });
    try {
      await untilServed(db);
      const before = proxy.opened();
      assert.ok(before >= 1);
      // A statement in flight when its link is cut fails as unavailable.
      const slow = db.query("select pg_sleep(2)").then(() => null, (err) => err);
      await new Promise((r) => setTimeout(r, 100));
      proxy.cutAll();
      const failure = await slow;
      assert.ok(failure instanceof DbError && failure.unavailable, String(failure));
      await untilServed(db);
      assert.ok(proxy.opened() > before, "over new connections");
    } finally {
      await db.close();
      await proxy.close();
    }
  },
});

Deno.test({
  name: "sql(tcp): a role over its connection limit (53300) is unavailable",
  ignore,
  fn: async () => {
    const admin = openTcp(dbUrl!, { max: 1 });
    const role = `gp_limited_${crypto.randomUUID().replaceAll("-", "").slice(0, 10)}`;
    await admin.query(`create role ${role} login connection limit 0`);
    const url = new URL(dbUrl!);
    url.username = role;
    url.password = "";
    const limited = openTcp(url.toString(), { max: 1 });
    try {
      for (
        const run of [
          () => limited.query("select 1"),
          () => limited.transaction([{ text: "select 1" }]),
        ]
      ) {
        await assert.rejects(run(), (err) => {
          assert.ok(err instanceof DbError, String(err));
          assert.equal(err.code, "53300");
          assert.equal(err.unavailable, true);
          return true;
        });
      }
    } finally {
      await limited.close();
      await admin.query(`drop role ${role}`);
      await admin.close();
    }
  },
});

Deno.test("sql(tcp): an address nothing listens on is unavailable", async () => {
  const db = openTcp("postgres://postgres@127.0.0.1:1/none", { connectTimeoutS: 2 });
  try {
    await assert.rejects(db.query("select 1"), (err) => err instanceof DbError && err.unavailable);
  } finally {
    await db.close();
  }
});
