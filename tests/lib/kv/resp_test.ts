/**
 * The product's Redis client (lib/kv/resp.ts): URL reading, the reply parser on hand-written bytes
 * split at every position, the command encoding, and against the real Redis (REDIS_URL, the
 * real:tcp tier) pipelining, exact values, AUTH with an ACL user, SELECT, errors, MULTI/EXEC,
 * reconnects and close. Timeouts and the handshake run against small local servers on port 0.
 */
import assert from "node:assert/strict";
import {
  CommandWriter,
  INCOMPLETE,
  parseRedisUrl,
  ReplyParser,
  RespClient,
  RespError,
  type RespReply,
  RespUnavailable,
} from "../../../lib/kv/resp.ts";

const redisUrl = Deno.env.get("REDIS_URL");
const real = { ignore: !redisUrl };
const enc = new TextEncoder();
const dec = new TextDecoder();

/** Errors as plain objects, so that replies compare with deepEqual. */
function plain(reply: RespReply): unknown {
  if (reply instanceof RespError) return { error: reply.message };
  if (Array.isArray(reply)) return reply.map(plain);
  return reply;
}

function drain(parser: ReplyParser, out: unknown[]): void {
  for (;;) {
    const reply = parser.next();
    if (reply === INCOMPLETE) return;
    out.push(plain(reply));
  }
}

// ---------------------------------------------------------------------------------------------
// URLs

Deno.test("resp: URLs give host, port, TLS, percent-decoded credentials and db", () => {
  assert.deepEqual(parseRedisUrl("redis://127.0.0.1"), {
    hostname: "127.0.0.1",
    port: 6379,
    tls: false,
  });
  assert.deepEqual(parseRedisUrl("rediss://u%40x:p%3A%2Fw%25@cache.example:6380/3"), {
    hostname: "cache.example",
    port: 6380,
    tls: true,
    username: "u@x",
    password: "p:/w%",
    db: 3,
  });
  assert.deepEqual(parseRedisUrl("redis://:only-pass@[::1]:7000/"), {
    hostname: "::1",
    port: 7000,
    tls: false,
    password: "only-pass",
  });
});

Deno.test("resp: other schemes and bad databases are refused, never echoing the password", () => {
  for (const url of ["http://h:1", "memcached://user:s3cret-pw@h", "redis://:s3cret-pw@h/x"]) {
    assert.throws(
      () => parseRedisUrl(url),
      (err: Error) => /Redis URL/.test(err.message) && !err.message.includes("s3cret-pw"),
    );
  }
  assert.throws(() => new RespClient("https://:s3cret-pw@h"), /scheme https: is not redis/);
});

// ---------------------------------------------------------------------------------------------
// Parser

const WIRE = "+OK\r\n" +
  "-NOSCRIPT No matching script. Please use EVAL.\r\n" +
  ":0\r\n:-42\r\n:9007199254740991\r\n" +
  "$5\r\nhello\r\n$0\r\n\r\n$-1\r\n" +
  "$13\r\n한국어 ✓\r\n" + // 9 + 1 + 3 bytes
  "$4\r\na\r\nb\r\n" +
  "*-1\r\n*0\r\n" +
  "*3\r\n:1\r\n$-1\r\n*2\r\n+QUEUED\r\n-WRONGTYPE Operation against a key\r\n" +
  "+QUEUES\r\n";
const EXPECTED = [
  "OK",
  { error: "NOSCRIPT No matching script. Please use EVAL." },
  0,
  -42,
  9007199254740991,
  "hello",
  "",
  null,
  "한국어 ✓",
  "a\r\nb",
  null,
  [],
  [1, null, ["QUEUED", { error: "WRONGTYPE Operation against a key" }]],
  "QUEUES",
];

Deno.test("resp: the parser reads every reply type from one read", () => {
  assert.equal(enc.encode("한국어 ✓").length, 13);
  const parser = new ReplyParser();
  parser.push(enc.encode(WIRE));
  const out: unknown[] = [];
  drain(parser, out);
  assert.deepEqual(out, EXPECTED);
  assert.equal(parser.buffered, 0);
});

Deno.test("resp: the parser reads replies split at every byte position", () => {
  const bytes = enc.encode(WIRE);
  for (let at = 0; at <= bytes.length; at++) {
    // A small buffer, so that the split also exercises moving and growing it.
    const parser = new ReplyParser(16);
    const out: unknown[] = [];
    parser.push(bytes.subarray(0, at));
    drain(parser, out);
    parser.push(bytes.subarray(at));
    drain(parser, out);
    assert.deepEqual(out, EXPECTED, `split at ${at}`);
  }
});

Deno.test("resp: the parser reads replies arriving one byte at a time", () => {
  const bytes = enc.encode(WIRE);
  const parser = new ReplyParser(8);
  const out: unknown[] = [];
  for (let i = 0; i < bytes.length; i++) {
    parser.push(bytes.subarray(i, i + 1));
    drain(parser, out);
  }
  assert.deepEqual(out, EXPECTED);
});

Deno.test("resp: the parser rejects bytes that are not RESP", () => {
  const parser = new ReplyParser();
  parser.push(enc.encode("?what\r\n"));
  assert.throws(() => parser.next(), /unknown type byte/);
});

// ---------------------------------------------------------------------------------------------
// Encoding

Deno.test("resp: commands are arrays of bulk strings with UTF-8 byte lengths", () => {
  const w = new CommandWriter(4);
  w.command(["SET", "k", "é😀", 12, -1.5, ""]);
  w.command(["lone", "\ud800x"]);
  assert.equal(
    dec.decode(w.buf.subarray(0, w.pos)),
    "*6\r\n$3\r\nSET\r\n$1\r\nk\r\n$6\r\né😀\r\n$2\r\n12\r\n$4\r\n-1.5\r\n$0\r\n\r\n" +
      // A lone surrogate is sent as U+FFFD (3 bytes), as TextEncoder writes it.
      "*2\r\n$4\r\nlone\r\n$4\r\n\ufffdx\r\n",
  );
});

// ---------------------------------------------------------------------------------------------
// Local servers

interface FakeServer {
  url: string;
  port: number;
  /** Connections accepted so far. */
  accepted(): number;
  /** Commands received, as arrays of strings. */
  commands: string[][];
  close(): Promise<void>;
}

/**
 * A loopback server that speaks just enough RESP: `answer` gets each command and answers the
 * reply bytes to send (or null to stay silent), or "close" to drop the connection.
 */
function fakeServer(
  answer: (command: string[]) => string | null | "close",
  credentials = "",
): FakeServer {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns = new Set<Deno.Conn>();
  const commands: string[][] = [];
  let accepted = 0;
  const serve = async (conn: Deno.Conn) => {
    conns.add(conn);
    const parser = new ReplyParser();
    try {
      for (;;) {
        const n = await conn.read(parser.space());
        if (n === null) break;
        parser.commit(n);
        for (let c = parser.next(); c !== INCOMPLETE; c = parser.next()) {
          const command = (c as string[]).map(String);
          commands.push(command);
          const reply = answer(command);
          if (reply === "close") {
            conn.close();
            return;
          }
          if (reply !== null) await conn.write(enc.encode(reply));
        }
      }
    } catch {
      /* closed */
    } finally {
      conns.delete(conn);
      try {
        conn.close();
      } catch { /* closed */ }
    }
  };
  const accepting = (async () => {
    try {
      for await (const conn of listener) {
        accepted++;
        serve(conn);
      }
    } catch { /* closed */ }
  })();
  const port = (listener.addr as Deno.NetAddr).port;
  return {
    url: `redis://${credentials}127.0.0.1:${port}`,
    port,
    accepted: () => accepted,
    commands,
    async close() {
      listener.close();
      for (const conn of conns) {
        try {
          conn.close();
        } catch { /* closed */ }
      }
      await accepting;
    },
  };
}

Deno.test("resp: AUTH with the password alone, and SELECT, come first on every connection", async () => {
  const server = fakeServer((c) => c[0] === "GET" ? "$2\r\nv1\r\n" : "+OK\r\n", ":p%40ss%3Aw@");
  const client = new RespClient(`${server.url}/4`);
  try {
    assert.equal(await client.call(["GET", "k"]), "v1");
    assert.deepEqual(server.commands, [["AUTH", "p@ss:w"], ["SELECT", "4"], ["GET", "k"]]);
  } finally {
    await client.close();
    await server.close();
  }
});

Deno.test("resp: a refused AUTH fails commands as Redis said, without the password", async () => {
  const server = fakeServer((c) =>
    c[0] === "AUTH" ? "-WRONGPASS invalid username-password pair\r\n" : "+OK\r\n"
  );
  const client = new RespClient(`redis://app:hunter2-secret@127.0.0.1:${server.port}`, {
    timeoutMs: 2_000,
  });
  try {
    await assert.rejects(
      client.call(["GET", "k"]),
      (err: Error) => /^WRONGPASS/.test(err.message) && !err.message.includes("hunter2"),
    );
    assert.deepEqual(server.commands[0], ["AUTH", "app", "hunter2-secret"]);
  } finally {
    await client.close();
    await server.close();
  }
});

Deno.test("resp: a server that never answers fails commands after the timeout", async () => {
  const server = fakeServer(() => null);
  const client = new RespClient(server.url, { timeoutMs: 300 });
  try {
    const results = await Promise.allSettled([client.call(["PING"]), client.exec([["GET", "a"]])]);
    for (const r of results) {
      assert.equal(r.status, "rejected");
      assert.ok(r.reason instanceof RespUnavailable, String(r.reason));
      assert.match(r.reason.message, /timed out/);
    }
  } finally {
    await client.close();
    await server.close();
  }
});

Deno.test("resp: a connection that leaves a command unanswered is replaced", async () => {
  // The first connection swallows every command (a half-open socket); later ones answer.
  const server: FakeServer = fakeServer(() => server.accepted() === 1 ? null : "+PONG\r\n");
  const client = new RespClient(server.url, { timeoutMs: 300 });
  try {
    await assert.rejects(client.call(["PING"]), /timed out/);
    assert.equal(await client.call(["PING"]), "PONG");
    assert.equal(server.accepted(), 2);
  } finally {
    await client.close();
    await server.close();
  }
});

Deno.test("resp: a handshake that never completes is a connect timeout", async () => {
  const server = fakeServer(() => null, ":top-secret-pw@");
  const client = new RespClient(server.url, { timeoutMs: 300 });
  try {
    await assert.rejects(
      client.call(["PING"]),
      (err: Error) => err instanceof RespUnavailable && !err.message.includes("top-secret"),
    );
  } finally {
    await client.close();
    await server.close();
  }
});

Deno.test("resp: a command whose connection drops is tried once more, then fails", async () => {
  const server = fakeServer((c) => c[0] === "GET" ? "close" : "+OK\r\n");
  const client = new RespClient(server.url, { timeoutMs: 5_000 });
  try {
    await assert.rejects(
      client.call(["GET", "k"]),
      (err: Error) => err instanceof RespUnavailable && /lost/.test(err.message),
    );
    assert.deepEqual(server.commands, [["GET", "k"], ["GET", "k"]]);
    assert.equal(server.accepted(), 2);
  } finally {
    await client.close();
    await server.close();
  }
});

Deno.test("resp: an address nothing listens on fails fast as unavailable", async () => {
  const client = new RespClient("redis://127.0.0.1:1", { timeoutMs: 5_000 });
  try {
    await assert.rejects(
      client.call(["PING"]),
      (err: Error) => err instanceof RespUnavailable && /unreachable/.test(err.message),
    );
  } finally {
    await client.close();
  }
});

Deno.test("resp: close answers what is on the way, then refuses; nothing reconnects", async () => {
  const server = fakeServer(() => ":1\r\n");
  const client = new RespClient(server.url);
  const pending = Array.from({ length: 50 }, () => client.call(["INCR", "n"]));
  await client.close();
  assert.deepEqual(await Promise.all(pending), Array(50).fill(1));
  assert.equal(server.commands.at(-1)?.[0], "QUIT");
  await assert.rejects(client.call(["PING"]), RespUnavailable);
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(server.accepted(), 1);
  await server.close();
});

Deno.test("resp: close while the server is silent fails what waits and returns", async () => {
  const server = fakeServer(() => null);
  const client = new RespClient(server.url, { timeoutMs: 300 });
  const pending = assert.rejects(client.call(["PING"]), RespUnavailable);
  await new Promise((r) => setTimeout(r, 50));
  await client.close();
  await pending;
  await server.close();
});

Deno.test("resp: a process that closes its client exits by itself", async () => {
  const server = fakeServer((c) => c[0] === "GET" ? "$1\r\nv\r\n" : "+OK\r\n");
  const script = `
    import { RespClient } from ${
    JSON.stringify(new URL("../../../lib/kv/resp.ts", import.meta.url).href)
  };
    const client = new RespClient(${JSON.stringify(server.url)}, { timeoutMs: 60000 });
    await Promise.all([client.call(["GET", "k"]), client.call(["SET", "k", "v"])]);
    await client.close();
    console.log("closed");
  `;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", script],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  // A guard against a hang: the child has a minute of timers open if close() leaked them.
  const guard = setTimeout(() => child.kill("SIGKILL"), 20_000);
  try {
    const out = await child.output();
    assert.equal(out.code, 0, dec.decode(out.stderr));
    assert.equal(dec.decode(out.stdout).trim(), "closed");
  } finally {
    clearTimeout(guard);
    await server.close();
  }
});

// ---------------------------------------------------------------------------------------------
// The real Redis

const key = (s: string) => `resptest:${crypto.randomUUID()}:${s}`;

Deno.test("resp: commands issued in one turn share one write, replies in order", real, async () => {
  const client = new RespClient(redisUrl!);
  const k = key("pipe");
  try {
    await client.call(["PING"]);
    const before = client.stats.writes;
    const replies = await Promise.all(
      Array.from({ length: 200 }, (_, i) => client.call(["RPUSH", k, i])),
    );
    assert.equal(client.stats.writes - before, 1);
    assert.deepEqual(replies, Array.from({ length: 200 }, (_, i) => i + 1));
    const list = await client.call(["LRANGE", k, 0, -1]);
    assert.deepEqual(list, Array.from({ length: 200 }, (_, i) => String(i)));
  } finally {
    await client.call(["DEL", k]);
    await client.close();
  }
});

Deno.test("resp: Unicode and binary-ish values round trip exactly", real, async () => {
  const client = new RespClient(redisUrl!);
  const k = key("v");
  const values = [
    "",
    "012345",
    "한국어 ✓",
    "emoji 😀👍🏽 and 𝄞",
    "\r\n$3\r\n*1\r\n",
    "nul\0byte\x01\x7f",
    "é".repeat(100_000), // 200 KB: arrives over several reads
    "x".repeat(1 << 20),
  ];
  try {
    for (const v of values) {
      assert.equal(await client.call(["SET", k, v]), "OK");
      assert.equal(await client.call(["STRLEN", k]), enc.encode(v).length);
      assert.equal(await client.call(["GET", k]), v);
    }
    // Many at once, each answer matched to its own command.
    const many = Array.from({ length: 300 }, (_, i) => `${i}:${"ü".repeat(i)}`);
    await Promise.all(many.map((v, i) => client.call(["SET", `${k}:${i}`, v])));
    assert.deepEqual(
      await Promise.all(many.map((_, i) => client.call(["GET", `${k}:${i}`]))),
      many,
    );
    await client.call(["DEL", ...many.map((_, i) => `${k}:${i}`)]);
  } finally {
    await client.call(["DEL", k]);
    await client.close();
  }
});

Deno.test("resp: AUTH as an ACL user with a password", real, async () => {
  const admin = new RespClient(redisUrl!);
  const user = `resptest-${crypto.randomUUID().slice(0, 8)}`;
  const password = `pw:@/${crypto.randomUUID()}`;
  const url = new URL(redisUrl!);
  url.username = encodeURIComponent(user);
  url.password = encodeURIComponent(password);
  const k = key("acl");
  try {
    await admin.call(["ACL", "SETUSER", user, "on", `>${password}`, "~resptest:*", "+@all"]);
    const client = new RespClient(url.toString());
    try {
      assert.equal(await client.call(["ACL", "WHOAMI"]), user);
      assert.equal(await client.call(["SET", k, "1"]), "OK");
    } finally {
      await client.close();
    }
    url.password = "wrong-password-xyz";
    const wrong = new RespClient(url.toString(), { timeoutMs: 1_000 });
    try {
      await assert.rejects(
        wrong.call(["PING"]),
        (err: Error) => /WRONGPASS/.test(err.message) && !err.message.includes("wrong-password"),
      );
    } finally {
      await wrong.close();
    }
  } finally {
    await admin.call(["ACL", "DELUSER", user]);
    await admin.call(["DEL", k]);
    await admin.close();
  }
});

Deno.test("resp: the URL's database is selected", real, async () => {
  const db0 = new RespClient(redisUrl!);
  const url = new URL(redisUrl!);
  url.pathname = "/7";
  const db7 = new RespClient(url.toString());
  const k = key("db");
  try {
    await db7.call(["SET", k, "in seven"]);
    assert.equal(await db0.call(["GET", k]), null);
    assert.equal(await db7.call(["GET", k]), "in seven");
    await db0.call(["SELECT", 7]);
    assert.equal(await db0.call(["GET", k]), "in seven");
  } finally {
    await db7.call(["DEL", k]);
    await db0.close();
    await db7.close();
  }
});

Deno.test(
  "resp: error replies reject with Redis's text; EXEC answers per command",
  real,
  async () => {
    const client = new RespClient(redisUrl!);
    const k = key("err");
    try {
      await client.call(["SET", k, "text"]);
      await assert.rejects(
        client.call(["LPUSH", k, "x"]),
        (err: Error) => err instanceof RespError && /^WRONGTYPE/.test(err.message),
      );
      await assert.rejects(
        client.call(["EVALSHA", "0".repeat(40), 0]),
        (err: Error) => err instanceof RespError && err.message.startsWith("NOSCRIPT"),
      );
      // A runtime error inside the transaction is an error in its place; the rest ran.
      const results = await client.exec([["INCR", k], ["SET", k, "2"], ["INCR", k]]);
      assert.deepEqual(plain(results), [
        { error: "ERR value is not an integer or out of range" },
        "OK",
        3,
      ]);
      // A command refused while queuing discards the whole transaction.
      await assert.rejects(
        client.exec([["INCR", k], ["NOSUCHCOMMAND"]]),
        (err: Error) => err instanceof RespError && /^EXECABORT/.test(err.message),
      );
      assert.equal(await client.call(["GET", k]), "3");
      // The connection still answers in order afterwards.
      assert.deepEqual(await Promise.all([client.call(["PING"]), client.call(["ECHO", "é"])]), [
        "PONG",
        "é",
      ]);
    } finally {
      await client.call(["DEL", k]);
      await client.close();
    }
  },
);

Deno.test(
  "resp: a killed connection is replaced and what was in flight is sent again",
  real,
  async () => {
    const client = new RespClient(redisUrl!);
    const admin = new RespClient(redisUrl!);
    const k = key("list");
    try {
      const id = await client.call(["CLIENT", "ID"]);
      assert.equal(client.stats.connects, 1);
      // Blocks on the server until the list has an item: in flight when the connection is killed.
      const popped = client.call(["BLPOP", k, 2]);
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(await admin.call(["CLIENT", "KILL", "ID", id as number]), 1);
      // Sent again over the new connection, where it waits for the push.
      for (let i = 0; i < 40 && client.stats.connects < 2; i++) {
        await new Promise((r) => setTimeout(r, 25));
      }
      await new Promise((r) => setTimeout(r, 50));
      await admin.call(["RPUSH", k, "item"]);
      assert.deepEqual(await popped, [k, "item"]);
      assert.equal(client.stats.connects, 2);
      assert.notEqual(await client.call(["CLIENT", "ID"]), id);
    } finally {
      await admin.call(["DEL", k]);
      await client.close();
      await admin.close();
    }
  },
);
