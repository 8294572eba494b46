import assert from "node:assert/strict";
import {
  derivedOtpHashKey,
  generateCode,
  keyedHash,
  otpHashKey,
  uniqueToken,
} from "../../../lib/otp/code.ts";
import { receiverKeys } from "../../../lib/otp/state.ts";
import { toHex } from "../../../lib/crypto/hashing.ts";

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
  const ha = keyedHash(await otpHashKey(a), "123456");
  assert.equal(ha, keyedHash(await otpHashKey(a), "123456"));
  assert.notEqual(ha, keyedHash(await otpHashKey(b), "123456"));
  assert.match(ha, /^[0-9a-f]{64}$/);
});

/** The keyed hash as WebCrypto computes it, from the master key down (the stored format). */
async function webKeyedHash(masterKey: string, text: string): Promise<string> {
  const enc = new TextEncoder();
  const hmac = async (key: Uint8Array, data: string) => {
    const k = await crypto.subtle.importKey(
      "raw",
      key as BufferSource,
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    return new Uint8Array(await crypto.subtle.sign("HMAC", k, enc.encode(data)));
  };
  const derived = await hmac(enc.encode(masterKey), "otp-hash-key/v1");
  return toHex(await hmac(derived, text));
}

Deno.test("keyed hashes and receiver keys are those WebCrypto gives, so stored state still matches", async () => {
  const secrets = { kmsMasterKey: `master-${crypto.randomUUID()}` };
  const key = await otpHashKey(secrets);
  for (const text of ["123456", "7\nsms\n82:1012345678", "1\nemail\nÜser@例え.jp", ""]) {
    assert.equal(keyedHash(key, text), await webKeyedHash(secrets.kmsMasterKey, text));
  }
  const keys = receiverKeys(key, {
    gameIndex: 7,
    topic: "login",
    channel: "sms",
    receiver: "82:1012345678",
  });
  const rcv = await webKeyedHash(secrets.kmsMasterKey, "7\nsms\n82:1012345678");
  const rid = await webKeyedHash(secrets.kmsMasterKey, `${rcv}\nlogin`);
  assert.deepEqual(keys, { rcv: rcv.slice(0, 40), rid: rid.slice(0, 40) });
});

Deno.test("the hashing key prints as nothing", async () => {
  const key = await otpHashKey({ kmsMasterKey: "printed-master" });
  assert.equal(Deno.inspect(key), "[HmacSha256Key]");
  assert.equal(JSON.stringify(key), '"[HmacSha256Key]"');
});

Deno.test("the derived key is at hand without waiting once derived, per secrets object", async () => {
  const secrets = { kmsMasterKey: "master-c" };
  assert.equal(derivedOtpHashKey(secrets), undefined);
  const key = await otpHashKey(secrets);
  assert.equal(derivedOtpHashKey(secrets), key);
  assert.equal(derivedOtpHashKey({ kmsMasterKey: "master-c" }), undefined);
});

Deno.test("value tokens are 12 base64url characters, all different", () => {
  const tokens = new Set(Array.from({ length: 5000 }, () => uniqueToken()));
  assert.equal(tokens.size, 5000);
  for (const t of tokens) assert.match(t, /^[A-Za-z0-9_-]{12}$/);
  // Every character of the alphabet shows up in some position.
  assert.equal(new Set([...tokens].join("")).size, 64);
});
