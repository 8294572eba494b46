/**
 * Drives the local Neon and Upstash bridges (dev/) through the real production
 * drivers, against the real local PostgreSQL (127.0.0.1:5432, database `test`)
 * and Redis (127.0.0.1:6379). Every run uses its own table names and key prefix
 * and removes them afterwards.
 */
import { neon, neonConfig, NeonDbError } from "@neondatabase/serverless";
import { Redis } from "@upstash/redis";
import { startNeonBridge } from "../../dev/neon_bridge.ts";
import { startUpstashBridge } from "../../dev/upstash_bridge.ts";

// The project asserts with node:assert/strict, but a static `node:` import makes
// `deno check` (and therefore `deno test`) demand npm:@types/node, which is not
// installed under "nodeModulesDir": "manual". A computed specifier loads the
// same module without that type dependency; replace it with
// `import assert from "node:assert/strict"` once @types/node is installed.
interface StrictAssert {
  equal(actual: unknown, expected: unknown, message?: string): void;
  deepEqual(actual: unknown, expected: unknown, message?: string): void;
  ok(value: unknown, message?: string): asserts value;
  match(value: string, pattern: RegExp, message?: string): void;
  rejects(
    block: Promise<unknown> | (() => Promise<unknown>),
    expected?: RegExp | ((err: unknown) => boolean) | Record<string, unknown>,
    message?: string,
  ): Promise<void>;
}
const assert: StrictAssert = (await import(["node:assert", "strict"].join("/"))).default;

const PG_URL = "postgresql://postgres@127.0.0.1:5432/test";
const RUN_ID = crypto.randomUUID().replaceAll("-", "").slice(0, 12);

/** Starts a Neon bridge, points the (global) neonConfig at it, and undoes both afterwards. */
async function withNeonBridge(body: () => Promise<void>): Promise<void> {
  const bridge = await startNeonBridge({ port: 0 });
  const previous = neonConfig.fetchEndpoint;
  // neon() has no per-call endpoint option in 1.x; only this global is consulted.
  neonConfig.fetchEndpoint = bridge.fetchEndpoint;
  try {
    await body();
  } finally {
    neonConfig.fetchEndpoint = previous;
    await bridge.close();
  }
}

Deno.test("neon bridge: parameters and the client's own type parsing", async () => {
  await withNeonBridge(async () => {
    const sql = neon(PG_URL);
    const when = new Date("2024-02-29T12:34:56.789Z");
    const [row] = await sql.query(
      `select $1::int as n, $2::text as s, $3::int8 as big, $4::jsonb as doc,
              '{"a":[1,2]}'::json as j, $5::timestamptz as at, null::text as nothing,
              true as yes, '{1,2,3}'::int[] as list, 1.50::numeric as money`,
      [42, "héllo ✓", "9007199254740993", { k: "v", n: [1, null] }, when],
    );
    assert.equal(row.n, 42);
    assert.equal(row.s, "héllo ✓");
    // int8 is not parsed by default so that it cannot lose precision.
    assert.equal(row.big, "9007199254740993");
    assert.deepEqual(row.doc, { k: "v", n: [1, null] });
    assert.deepEqual(row.j, { a: [1, 2] });
    assert.ok(row.at instanceof Date);
    assert.equal((row.at as Date).getTime(), when.getTime());
    assert.equal(row.nothing, null);
    assert.equal(row.yes, true);
    assert.deepEqual(row.list, [1, 2, 3]);
    assert.equal(row.money, "1.50");

    // Tagged templates turn interpolations into parameters.
    const name = "x'); drop table nope; --";
    const tagged = await sql`select ${name}::text as name, ${null}::int as missing`;
    assert.deepEqual(tagged, [{ name, missing: null }]);

    const asArrays = await sql.query("select 1 as a, 'b' as b", [], { arrayMode: true });
    assert.deepEqual(asArrays, [[1, "b"]]);

    const full = await sql.query("select g from generate_series(1, 3) g", [], {
      fullResults: true,
    });
    assert.equal(full.command, "SELECT");
    assert.equal(full.rowCount, 3);
    assert.deepEqual(full.fields.map((f) => [f.name, f.dataTypeID]), [["g", 23]]);
    assert.deepEqual(full.rows, [{ g: 1 }, { g: 2 }, { g: 3 }]);
  });
});

Deno.test("neon bridge: the database comes from the connection string", async () => {
  await withNeonBridge(async () => {
    const [row] = await neon("postgresql://postgres@127.0.0.1:5432/postgres")`
      select current_database() as db`;
    assert.equal(row.db, "postgres");
    await assert.rejects(
      neon(`postgresql://postgres@127.0.0.1:5432/missing_${RUN_ID}`)`select 1`,
      (err) => err instanceof NeonDbError && err.code === "3D000",
    );
  });
});

Deno.test("neon bridge: transactions commit, or leave nothing behind", async () => {
  await withNeonBridge(async () => {
    const sql = neon(PG_URL);
    const table = `bridge_tx_${RUN_ID}`;
    await sql.query(`create table ${table} (id int primary key, label text not null)`);
    try {
      const [insert, update, select] = await sql.transaction((txn) => [
        txn.query(`insert into ${table} values ($1, $2), ($3, $4)`, [1, "one", 2, "two"]),
        txn.query(`update ${table} set label = upper(label) where id = $1 returning label`, [2]),
        txn.query(`select id, label from ${table} order by id`),
      ]);
      assert.deepEqual(insert, []);
      assert.deepEqual(update, [{ label: "TWO" }]);
      assert.deepEqual(select, [{ id: 1, label: "one" }, { id: 2, label: "TWO" }]);

      const [counted] = await sql.transaction(
        [sql.query(`insert into ${table} values (3, 'three')`)],
        { fullResults: true },
      );
      assert.equal(counted.command, "INSERT");
      assert.equal(counted.rowCount, 1);

      // The second statement succeeds inside the transaction, the third fails:
      // the whole batch must roll back, including the first two.
      await assert.rejects(
        sql.transaction([
          sql.query(`insert into ${table} values (10, 'ten')`),
          sql.query(`update ${table} set label = 'changed' where id = 1`),
          sql.query(`insert into ${table} values (1, 'duplicate')`),
        ]),
        (err) => err instanceof NeonDbError && err.code === "23505",
      );
      assert.deepEqual(await sql.query(`select id, label from ${table} order by id`), [
        { id: 1, label: "one" },
        { id: 2, label: "TWO" },
        { id: 3, label: "three" },
      ]);

      // Transaction options travel as Neon-Batch-* headers and are applied.
      const [[isolation], [readOnly]] = await sql.transaction(
        [sql`show transaction_isolation`, sql`show transaction_read_only`],
        { isolationLevel: "Serializable", readOnly: true },
      );
      assert.deepEqual(isolation, { transaction_isolation: "serializable" });
      assert.deepEqual(readOnly, { transaction_read_only: "on" });
      await assert.rejects(
        sql.transaction([sql.query(`delete from ${table}`)], { readOnly: true }),
        (err) => err instanceof NeonDbError && err.code === "25006",
      );
    } finally {
      await sql.query(`drop table if exists ${table}`);
    }
  });
});

Deno.test("neon bridge: SQL errors arrive as NeonDbError with the SQLSTATE", async () => {
  await withNeonBridge(async () => {
    const sql = neon(PG_URL);
    const table = `bridge_err_${RUN_ID}`;
    await sql.query(`create table ${table} (email text constraint ${table}_email unique)`);
    try {
      await sql.query(`insert into ${table} values ($1)`, ["a@example.com"]);
      const err = await sql.query(`insert into ${table} values ($1)`, ["a@example.com"]).then(
        () => assert.ok(false, "duplicate insert should fail"),
        (e: unknown) => e,
      );
      assert.ok(err instanceof NeonDbError);
      assert.equal(err.code, "23505");
      assert.equal(err.constraint, `${table}_email`);
      assert.equal(err.table, table);
      assert.equal(err.severity, "ERROR");
      assert.match(err.detail ?? "", /already exists/);
      assert.match(err.message, /duplicate key value violates unique constraint/);

      await assert.rejects(
        sql.query(`select * from no_such_table_${RUN_ID}`),
        (e) => e instanceof NeonDbError && e.code === "42P01" && e.position === "15",
      );
      // One statement per query, as on Neon (extended protocol).
      await assert.rejects(
        sql.query("select 1; select 2"),
        (e) => e instanceof NeonDbError && e.code === "42601",
      );
    } finally {
      await sql.query(`drop table if exists ${table}`);
    }
  });
});

const TOKEN = `token-${RUN_ID}`;

/** Starts an Upstash bridge and removes this run's keys afterwards. */
async function withUpstashBridge(
  body: (url: string, prefix: string) => Promise<void>,
): Promise<void> {
  const bridge = await startUpstashBridge({ port: 0, token: TOKEN });
  const prefix = `bridge-test:${crypto.randomUUID()}:`;
  try {
    await body(bridge.url, prefix);
  } finally {
    const redis = new Redis({ url: bridge.url, token: TOKEN, enableAutoPipelining: false });
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await bridge.close();
  }
}

Deno.test("upstash bridge: strings, NX/EX, counters and expiry", async () => {
  await withUpstashBridge(async (url, p) => {
    // Both the default auto-pipelining client (POST /pipeline) and plain POST /.
    for (const enableAutoPipelining of [true, false]) {
      const redis = new Redis({ url, token: TOKEN, enableAutoPipelining });
      const k = `${p}${enableAutoPipelining}:`;
      assert.equal(await redis.set(`${k}lock`, "a", { nx: true, ex: 10 }), "OK");
      assert.equal(await redis.set(`${k}lock`, "b", { nx: true, ex: 10 }), null);
      assert.equal(await redis.get(`${k}lock`), "a");
      const ttl = await redis.ttl(`${k}lock`);
      assert.ok(ttl > 0 && ttl <= 10, `ttl ${ttl}`);
      assert.equal(await redis.get(`${k}missing`), null);

      assert.equal(await redis.incr(`${k}n`), 1);
      assert.equal(await redis.incrby(`${k}n`, 41), 42);
      assert.equal(await redis.ttl(`${k}n`), -1);
      assert.equal(await redis.expire(`${k}n`, 100), 1);
      const ttl2 = await redis.ttl(`${k}n`);
      assert.ok(ttl2 > 90 && ttl2 <= 100, `ttl ${ttl2}`);
      assert.equal(await redis.del(`${k}n`, `${k}lock`, `${k}missing`), 2);
      assert.equal(await redis.exists(`${k}n`), 0);

      // A Redis error on a single command surfaces as an UpstashError.
      await redis.set(`${k}text`, "not a number");
      await assert.rejects(redis.incr(`${k}text`), /ERR value is not an integer/);
    }
  });
});

Deno.test("upstash bridge: concurrent requests share the connection pool", async () => {
  await withUpstashBridge(async (url, p) => {
    // More parallel requests than pooled connections (16), so some must wait for one.
    const redis = new Redis({ url, token: TOKEN, enableAutoPipelining: false });
    const results = await Promise.all(Array.from({ length: 60 }, () => redis.incr(`${p}c`)));
    assert.deepEqual(results.sort((a, b) => a - b), Array.from({ length: 60 }, (_, i) => i + 1));
    const tx = await Promise.all(
      Array.from({ length: 20 }, () => redis.multi().incr(`${p}t`).incr(`${p}t`).exec()),
    );
    // MULTI/EXEC keeps each pair of increments together.
    for (const [first, second] of tx) assert.equal(second, first + 1);
  });
});

Deno.test("upstash bridge: automatic deserialization on and off", async () => {
  await withUpstashBridge(async (url, p) => {
    const redis = new Redis({ url, token: TOKEN });
    const raw = new Redis({ url, token: TOKEN, automaticDeserialization: false });
    await redis.mset({ [`${p}zip`]: "012345", [`${p}num`]: "12345", [`${p}json`]: '{"a":[1,2]}' });
    await redis.set(`${p}obj`, { nested: { ok: true } });

    // "012345" is not valid JSON, so it stays a string even when deserializing.
    assert.equal(await redis.get(`${p}zip`), "012345");
    assert.equal(await redis.get(`${p}num`), 12345);
    assert.deepEqual(await redis.get(`${p}json`), { a: [1, 2] });
    assert.deepEqual(await redis.get(`${p}obj`), { nested: { ok: true } });

    assert.equal(await raw.get(`${p}zip`), "012345");
    assert.equal(await raw.get(`${p}num`), "12345");
    assert.equal(await raw.get(`${p}json`), '{"a":[1,2]}');
    assert.equal(await raw.get(`${p}obj`), '{"nested":{"ok":true}}');
    assert.deepEqual(await raw.mget(`${p}zip`, `${p}nope`, `${p}num`), ["012345", null, "12345"]);
  });
});

Deno.test("upstash bridge: pipeline and multi", async () => {
  await withUpstashBridge(async (url, p) => {
    const redis = new Redis({ url, token: TOKEN, automaticDeserialization: false });
    const pipeline = redis.pipeline();
    pipeline.set(`${p}a`, "1");
    pipeline.incr(`${p}a`);
    pipeline.hset(`${p}h`, { f1: "v1", "ключ": "значение" });
    pipeline.hgetall(`${p}h`);
    pipeline.rpush(`${p}l`, "x", "y", "z");
    pipeline.lrange(`${p}l`, 0, -1);
    pipeline.get(`${p}none`);
    assert.deepEqual(await pipeline.exec(), [
      "OK",
      2,
      2,
      // Without automatic deserialization HGETALL stays Redis's flat field/value list.
      ["f1", "v1", "ключ", "значение"],
      3,
      ["x", "y", "z"],
      null,
    ]);

    // Errors are per command; keepErrors exposes them instead of throwing.
    const mixed = await redis.pipeline().incr(`${p}l`).get(`${p}a`).exec({ keepErrors: true });
    assert.match(String(mixed[0].error), /WRONGTYPE/);
    assert.deepEqual(mixed[1], { error: undefined, result: "2" });
    await assert.rejects(redis.pipeline().incr(`${p}l`).exec(), /WRONGTYPE/);

    const tx = redis.multi();
    tx.set(`${p}m`, "10");
    tx.incrby(`${p}m`, 5);
    tx.get(`${p}m`);
    tx.zadd(`${p}z`, { score: 2, member: "b" }, { score: 1, member: "a" });
    tx.zrange(`${p}z`, 0, -1, { withScores: true });
    assert.deepEqual(await tx.exec(), ["OK", 15, "15", 2, ["a", "1", "b", "2"]]);

    // A runtime error inside MULTI/EXEC does not undo the other commands (Redis semantics).
    const partial = await redis.multi().incr(`${p}l`).set(`${p}after`, "yes").exec({
      keepErrors: true,
    });
    assert.match(String(partial[0].error), /WRONGTYPE/);
    assert.equal(await redis.get(`${p}after`), "yes");

    // A command Redis rejects while queueing aborts the whole transaction.
    await assert.rejects(
      redis.multi().set(`${p}never`, "1").hset(`${p}h`, {}).exec(),
      /EXECABORT/,
    );
    assert.equal(await redis.exists(`${p}never`), 0);

    // Nested arrays: SCAN answers [cursor, [keys...]]. The shared Redis holds other tests' keys,
    // so one call may not cover the keyspace: follow the cursor until it comes back to 0.
    const keys: string[] = [];
    let cursor = "0";
    do {
      const [next, batch]: [string | number, string[]] = await redis.scan(cursor, {
        match: `${p}*`,
        count: 1000,
      });
      keys.push(...batch);
      cursor = String(next);
    } while (cursor !== "0");
    assert.ok(keys.includes(`${p}a`) && keys.includes(`${p}z`), keys.join());
  });
});

Deno.test("upstash bridge: unicode values round-trip with and without base64", async () => {
  await withUpstashBridge(async (url, p) => {
    const text = "héllo wörld 👋 日本語 \u0000 \r\n end";
    for (const responseEncoding of ["base64", false] as const) {
      const redis = new Redis({ url, token: TOKEN, responseEncoding });
      const key = `${p}ключ-${responseEncoding}-✓`;
      await redis.set(key, text);
      assert.equal(await redis.get(key), text);
      assert.equal(await redis.strlen(key), new TextEncoder().encode(text).length);
      await redis.rpush(`${key}:list`, "ä", "😀");
      assert.deepEqual(await redis.lrange(`${key}:list`, 0, -1), ["ä", "😀"]);
      // Keys come back as (encoded) strings too.
      assert.deepEqual(
        (await redis.keys(`${p}ключ-${responseEncoding}-*`)).sort(),
        [
          key,
          `${key}:list`,
        ].sort(),
      );
      // "OK" is special-cased by the client's base64 decoder; make sure both forms agree.
      assert.equal(await redis.set(`${key}:ok`, "OK"), "OK");
      assert.equal(await redis.get(`${key}:ok`), "OK");
      assert.equal(await redis.type(key), "string");
      assert.equal(await redis.ping(), "PONG");
    }
  });
});

Deno.test("upstash bridge: wrong or missing token is rejected", async () => {
  await withUpstashBridge(async (url, p) => {
    const wrong = new Redis({ url, token: "not-the-token", retry: false });
    await assert.rejects(wrong.get(`${p}x`), /Unauthorized/);

    const attempts: Record<string, string>[] = [
      {},
      { Authorization: "Bearer nope" },
      { Authorization: TOKEN }, // the token without the Bearer scheme
    ];
    for (const headers of attempts) {
      const res = await fetch(url, { method: "POST", headers, body: '["PING"]' });
      assert.equal(res.status, 401);
      assert.deepEqual(await res.json(), { error: "Unauthorized" });
    }
  });
});

Deno.test("upstash bridge: raw protocol shapes", async () => {
  await withUpstashBridge(async (url, p) => {
    async function call(path: string, body: unknown, base64 = true) {
      const headers: Record<string, string> = { Authorization: `Bearer ${TOKEN}` };
      if (base64) headers["Upstash-Encoding"] = "base64";
      const res = await fetch(`${url}${path}`, {
        method: "POST",
        headers,
        body: JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    }
    const b64 = (s: string) => btoa(String.fromCharCode(...new TextEncoder().encode(s)));

    assert.deepEqual(await call("/", ["SET", `${p}k`, "wört", "EX", 60]), {
      status: 200,
      body: { result: b64("OK") },
    });
    assert.deepEqual(await call("/", ["GET", `${p}k`]), {
      status: 200,
      body: { result: b64("wört") },
    });
    assert.deepEqual(await call("/", ["GET", `${p}k`], false), {
      status: 200,
      body: { result: "wört" },
    });
    assert.deepEqual(await call("/", ["GET", `${p}nope`]), { status: 200, body: { result: null } });
    assert.deepEqual(await call("/", ["STRLEN", `${p}k`]), { status: 200, body: { result: 5 } });
    assert.deepEqual(await call("/", ["INCR", `${p}k`]), {
      status: 400,
      body: { error: "ERR value is not an integer or out of range" },
    });
    assert.deepEqual(await call("/pipeline", [["MGET", `${p}k`, `${p}nope`], ["INCR", `${p}k`]]), {
      status: 200,
      body: [{ result: [b64("wört"), null] }, {
        error: "ERR value is not an integer or out of range",
      }],
    });
    assert.deepEqual(await call("/multi-exec", [["SET", `${p}n`, "1"], ["INCRBY", `${p}n`, 2]]), {
      status: 200,
      body: [{ result: b64("OK") }, { result: 3 }],
    });
    // Binary safety: a byte that is not valid UTF-8 (0xFF, written by BITFIELD)
    // comes back as exactly that byte in base64.
    assert.deepEqual(await call("/", ["BITFIELD", `${p}bin`, "SET", "u8", "0", "255"]), {
      status: 200,
      body: { result: [0] },
    });
    assert.deepEqual(await call("/", ["GET", `${p}bin`]), {
      status: 200,
      body: { result: "/w==" },
    });
    // Commands that would corrupt a pooled connection are refused.
    const refused = await call("/", ["MULTI"]);
    assert.equal(refused.status, 400);
    assert.match(refused.body.error, /not supported/);
    // Path-style commands, as documented for the REST API.
    const res = await fetch(`${url}/get/${encodeURIComponent(`${p}k`)}?_token=${TOKEN}`);
    assert.deepEqual(await res.json(), { result: "wört" });
  });
});
