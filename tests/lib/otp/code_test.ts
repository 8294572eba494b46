import assert from "node:assert/strict";
import { generateCode, keyedHash, otpHashKey } from "../../../lib/otp/code.ts";

Deno.test("codes have the asked length and only digits, leading zeros included", () => {
  for (const length of [4, 6, 8, 10]) {
    for (let i = 0; i < 200; i++) {
      assert.match(generateCode(length), new RegExp(`^\\d{${length}}$`));
    }
  }
  const firsts = new Set(Array.from({ length: 400 }, () => generateCode(6)[0]));
  assert.equal(firsts.size, 10, "every digit appears in the first position, 0 included");
});

Deno.test("digits are close to uniform", () => {
  const counts = new Array(10).fill(0);
  for (let i = 0; i < 5000; i++) for (const ch of generateCode(10)) counts[Number(ch)]++;
  // 50,000 digits: each near 5,000; bias toward 0-5 from a plain modulo would show as ~+2%.
  for (const c of counts) assert.ok(c > 4600 && c < 5400, `counts ${counts}`);
});

Deno.test("the hashing key is derived from the master key and is stable per secrets", async () => {
  const a = { kmsMasterKey: "master-a" };
  const b = { kmsMasterKey: "master-b" };
  const ha = await keyedHash(await otpHashKey(a), "123456");
  assert.equal(ha, await keyedHash(await otpHashKey(a), "123456"));
  assert.notEqual(ha, await keyedHash(await otpHashKey(b), "123456"));
  assert.match(ha, /^[0-9a-f]{64}$/);
});
