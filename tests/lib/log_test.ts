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
