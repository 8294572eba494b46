/** A game-server reply holding NUL (U+0000) is stored sanitised, so its outcome is never lost. */
import assert from "node:assert/strict";
import { testEnv } from "../../harness.ts";
import { itemFixture } from "./fixture.ts";
import { storableText } from "../../../lib/db/storable_text.ts";

Deno.test("a reply whose message holds NUL is recorded (FAILED once, not retried forever)", async () => {
  await using f = await itemFixture("http");
  // The reference game server names the unknown asset in its 50005 message, NUL included.
  const body = f.body({
    id: "nul-user",
    detail: [{ action: "send", assetCode: "no-such\u0000item", amount: 1 }],
  });
  assert.equal((await f.register(body)).status, 202);
  await (await testEnv()).services.idle();
  const s = await f.status(String(body.transactionId));
  assert.equal(s.body.status, "FAILED", JSON.stringify(s.body));
  assert.equal(s.body.lastCode, 50005);
  assert.match(s.body.lastMessage, /no-such\ufffditem/);
  assert.equal(s.body.attempts, 1);
  assert.equal(f.server.received, 1);
});

Deno.test("storableText: NUL and lone surrogates become U+FFFD; a cap never splits a pair", () => {
  assert.equal(storableText("a\u0000b"), "a\ufffdb");
  assert.equal(storableText("x\ud800y"), "x\ufffdy");
  assert.equal(storableText("ab😀", 3), "ab");
  assert.equal(storableText("ab😀", 4), "ab😀");
  assert.equal(storableText("plain"), "plain");
});
