/**
 * "Cannot serve now" from PostgreSQL (starting up or shutting down, too many connections,
 * conflicts that outlive retries) is DbError.unavailable on the TCP and the Neon adapter alike:
 * a stand-in server refuses connections with the SQLSTATE, reached directly over TCP and through
 * the Neon bridge (the tier's, or one started here), which relays the code as Neon's proxy does.
 */
import assert from "node:assert/strict";
import { DbError, retryConflicts, toDbError } from "../../../lib/db/port.ts";
import { openTcp } from "../../../lib/db/tcp.ts";
import { openNeon } from "../../../lib/db/neon.ts";
import { startNeonBridge } from "../../../dev/neon_bridge.ts";
import { startRefusingPostgres } from "./refusing_postgres.ts";

const REFUSALS: [string, string][] = [
  ["57P03", "the database system is starting up"],
  ["57P03", "the database system is shutting down"],
  ["53300", "sorry, too many clients already"],
];

for (const [code, message] of REFUSALS) {
  Deno.test(`sql(tcp, neon): "${message}" (${code}) is unavailable`, async () => {
    const server = startRefusingPostgres(code, message);
    // neonConfig.fetchEndpoint is process-wide: reuse the tier's bridge when there is one.
    const tierEndpoint = Deno.env.get("NEON_FETCH_ENDPOINT");
    const bridge = tierEndpoint ? undefined : await startNeonBridge({});
    const tcp = openTcp(server.url, { max: 2 });
    const neon = openNeon(server.url, { fetchEndpoint: tierEndpoint ?? bridge!.fetchEndpoint });
    try {
      for (const [name, db] of [["tcp", tcp], ["neon", neon]] as const) {
        for (
          const run of [() => db.query("select 1"), () => db.transaction([{ text: "select 1" }])]
        ) {
          await assert.rejects(run(), (err) => {
            assert.ok(err instanceof DbError, `${name}: ${err}`);
            assert.equal(err.code, code, `${name}: ${err.message}`);
            assert.equal(err.unavailable, true, name);
            return true;
          });
        }
      }
      assert.ok(server.refused() >= 4, `refused ${server.refused()} connections`);
    } finally {
      await tcp.close();
      await bridge?.close();
      await server.close();
    }
  });
}

Deno.test("DbError.unavailable: the cannot-serve-now codes and nothing else", () => {
  const unavailable = [
    undefined,
    "08000",
    "08001",
    "08003",
    "08006",
    "08P01",
    "57P01",
    "57P02",
    "57P03",
    "53300",
    "40001",
    "40P01",
  ];
  for (const code of unavailable) assert.equal(new DbError("x", code).unavailable, true, code);
  for (const code of ["23505", "42P01", "22021", "22P05", "23503", "57014", "42601", "P0001"]) {
    assert.equal(new DbError("x", code).unavailable, false, code);
  }
});

Deno.test("toDbError: SQLSTATEs are kept; socket error codes of the same shape mean unreachable", () => {
  for (const code of ["57P03", "53300", "23505", "P0001", "XX000", "F0000", "HV000", "08006"]) {
    assert.equal(toDbError(Object.assign(new Error("x"), { code })).code, code);
  }
  for (const code of ["EPIPE", "EPERM", "EBUSY", "ECONNRESET", "CONNECTION_CLOSED", 57]) {
    const err = toDbError(Object.assign(new Error("socket"), { code }));
    assert.equal(err.code, undefined, String(code));
    assert.equal(err.unavailable, true, String(code));
  }
});

Deno.test("retryConflicts: a serialization failure or deadlock runs again, then gives up", async () => {
  for (const code of ["40001", "40P01"]) {
    let runs = 0;
    const value = await retryConflicts(() => {
      runs++;
      return runs < 3 ? Promise.reject(new DbError("conflict", code)) : Promise.resolve("done");
    });
    assert.equal(value, "done");
    assert.equal(runs, 3);
    runs = 0;
    await assert.rejects(
      retryConflicts(() => {
        runs++;
        return Promise.reject(new DbError("conflict", code));
      }),
      (err) => err instanceof DbError && err.code === code && err.unavailable,
    );
    assert.equal(runs, 3, "three runs in all");
  }
  // Anything else fails at once: a refused statement is not run twice.
  let runs = 0;
  await assert.rejects(retryConflicts(() => {
    runs++;
    return Promise.reject(new DbError("duplicate", "23505"));
  }));
  assert.equal(runs, 1);
});

Deno.test({
  name: "sql(tcp): a real serialization failure is retried until the batch commits",
  ignore: !Deno.env.get("DATABASE_URL"),
  fn: async () => {
    const db = openTcp(Deno.env.get("DATABASE_URL")!, { max: 6 });
    const table = `ser_${crypto.randomUUID().replaceAll("-", "").slice(0, 10)}`;
    try {
      await db.query(`create table ${table} (id int primary key, n int not null)`);
      await db.query(`insert into ${table} values (1, 0)`);
      // Concurrent read-modify-write batches at SERIALIZABLE conflict (40001); each is run
      // again until it commits, so no increment is lost.
      const bump = [
        { text: "set transaction isolation level serializable" },
        { text: `select n from ${table} where id = 1` },
        { text: `update ${table} set n = n + 1 where id = 1` },
      ];
      const results = await Promise.allSettled(
        Array.from({ length: 6 }, () => db.transaction(bump)),
      );
      const done = results.filter((r) => r.status === "fulfilled").length;
      for (const r of results) {
        if (r.status === "rejected") {
          assert.ok(r.reason instanceof DbError && r.reason.code === "40001", String(r.reason));
        }
      }
      const [{ n }] = await db.query<{ n: number }>(`select n from ${table} where id = 1`);
      assert.equal(n, done, "every committed batch counted once");
      // Without the retries one or two of six commit; with them five or six.
      assert.ok(done >= 3, `the retried batches commit (${done} of 6)`);
    } finally {
      await db.query(`drop table if exists ${table}`);
      await db.close();
    }
  },
});
