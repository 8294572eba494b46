import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { apihashHex, asciiJson } from "../../../lib/crypto/apihash.ts";

Deno.test("asciiJson escapes every non-ASCII character as \\uXXXX", () => {
  const text = asciiJson({ userMessage: "한글 아이템 🎁", n: 1 });
  assert.equal(text, '{"userMessage":"\\ud55c\\uae00 \\uc544\\uc774\\ud15c \\ud83c\\udf81","n":1}');
  assert.ok(!/[^\x20-\x7e]/.test(text));
  assert.deepEqual(JSON.parse(text), { userMessage: "한글 아이템 🎁", n: 1 });
});

Deno.test("apihash equals an independent SHA-1 of !@#word!@# + body", async () => {
  const body = asciiJson({ transactionId: "t1", userMessage: "보상 지급" });
  const expected = createHash("sha1").update(`!@#secret!@#${body}`, "utf8").digest("hex");
  assert.equal(await apihashHex("secret", body), expected);
  assert.equal(await apihashHex("secret", new TextEncoder().encode(body)), expected);
  assert.notEqual(await apihashHex("other", body), expected);
});
