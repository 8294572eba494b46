import assert from "node:assert/strict";
import { batchedLines, createLogger, writeAll } from "../../lib/log.ts";

Deno.test("log: secret-looking fields are redacted at any depth; errors keep their causes", () => {
  const lines: string[] = [];
  const log = createLogger("info", (l) => lines.push(l));
  log.debug("not shown at info");
  log.info("call", {
    clientSecret: "s3cret-1",
    headers: { Authorization: "Bearer tok-2", accept: "json" },
    list: [{ apiKey: "key-3" }, { otp: "123456" }],
    keep: "visible",
    err: new Error("outer", { cause: new Error("inner") }),
  });
  assert.equal(lines.length, 1);
  const text = lines[0];
  for (const secret of ["s3cret-1", "tok-2", "key-3", "123456"]) {
    assert.ok(!text.includes(secret), `${secret} leaked: ${text}`);
  }
  const entry = JSON.parse(text);
  assert.equal(entry.level, "info");
  assert.equal(entry.msg, "call");
  assert.equal(entry.keep, "visible");
  assert.equal(entry.headers.accept, "json");
  assert.equal(entry.headers.Authorization, "[redacted]");
  assert.deepEqual(entry.err, {
    name: "Error",
    message: "outer",
    cause: { name: "Error", message: "inner" },
  });
});

Deno.test("log: silent writes nothing", () => {
  const lines: string[] = [];
  createLogger("silent", (l) => lines.push(l)).error("x", { a: 1 });
  assert.equal(lines.length, 0);
});

Deno.test("log: batched lines are written together once per turn, in order, and on flush", async () => {
  const chunks: string[] = [];
  const out = batchedLines((chunk) => chunks.push(new TextDecoder().decode(chunk)));
  const log = createLogger("info", out.sink);
  log.info("one", { n: 1 });
  log.info("two", { n: 2 });
  assert.equal(chunks.length, 0);
  await new Promise((r) => setTimeout(r, 5));
  assert.equal(chunks.length, 1);
  const lines = chunks[0].trimEnd().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((l) => [l.msg, l.n]), [["one", 1], ["two", 2]]);
  assert.ok(chunks[0].endsWith("\n"));
  log.warn("three");
  out.flush();
  assert.equal(chunks.length, 2);
  assert.equal(JSON.parse(chunks[1]).msg, "three");
  // A large backlog is written at once rather than waiting for the turn to end.
  for (let i = 0; i < 400; i++) log.info("filler", { text: "x".repeat(200) });
  assert.ok(chunks.length >= 3, `chunks ${chunks.length}`);
  out.flush();
  const all = chunks.join("").trimEnd().split("\n");
  assert.equal(all.length, 403);
});

Deno.test("log: a failing writer does not throw into the caller; writeAll finishes partial writes", () => {
  const out = batchedLines(() => {
    throw new Error("broken pipe");
  });
  out.sink("line");
  out.flush();
  const got: number[] = [];
  writeAll((b) => {
    const n = Math.min(3, b.length);
    got.push(...b.subarray(0, n));
    return n;
  }, new Uint8Array([1, 2, 3, 4, 5, 6, 7]));
  assert.deepEqual(got, [1, 2, 3, 4, 5, 6, 7]);
});

Deno.test("log: undefined fields are left out and a field named like a secret is redacted", () => {
  const lines: string[] = [];
  createLogger("info", (l) => lines.push(l)).info("x", { a: undefined, accessToken: "t0k", b: 0 });
  const entry = JSON.parse(lines[0]);
  assert.equal("a" in entry, false);
  assert.equal(entry.accessToken, "[redacted]");
  assert.equal(entry.b, 0);
  assert.match(entry.t, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
});
