import assert from "node:assert/strict";
import { ecb } from "@noble/ciphers/aes.js";
import { decryptEcb, ecbDecryptor, encryptEcb } from "../../../lib/crypto/aes_ecb.ts";
import { fromBase64, toBase64 } from "../../../lib/crypto/hashing.ts";

const KEYS = {
  128: "0123456789abcdef",
  192: "0123456789abcdef01234567",
  256: "0123456789abcdef0123456789abcdef",
};
const TEXT = JSON.stringify({ chat_msg: "안녕 hello ばか 操", room_num: 1 });

Deno.test("round trip with 128/192/256-bit keys and both paddings", () => {
  for (const secret of Object.values(KEYS)) {
    for (const padding of ["pkcs7", "spaces"] as const) {
      const b64 = encryptEcb(TEXT, secret, { padding });
      assert.equal(fromBase64(b64).length % 16, 0);
      assert.deepEqual(decryptEcb(b64, secret), { ok: true, text: TEXT });
    }
  }
});

Deno.test("decrypts what a standard PKCS#7 encoder produced (FIPS-197 key, independent encoder)", () => {
  // Encrypt with the library's own padded mode, as a Java/PHP client would.
  const key = new TextEncoder().encode(KEYS[256]);
  const cipher = toBase64(ecb(key).encrypt(new TextEncoder().encode("exactly16bytes!!")));
  assert.equal(fromBase64(cipher).length, 32); // a full padding block follows
  assert.deepEqual(decryptEcb(cipher, KEYS[256]), { ok: true, text: "exactly16bytes!!" });
});

Deno.test("space padding: trailing spaces are padding, block-aligned text has none", () => {
  const aligned = "0123456789abcdef";
  const b64 = encryptEcb(aligned, KEYS[128], { padding: "spaces" });
  assert.equal(fromBase64(b64).length, 16);
  assert.deepEqual(decryptEcb(b64, KEYS[128]), { ok: true, text: aligned });
  const key = new TextEncoder().encode(KEYS[128]);
  const raw = ecb(key, { disablePadding: true }).encrypt(
    new TextEncoder().encode('{"a":1}' + " ".repeat(9)),
  );
  assert.deepEqual(decryptEcb(toBase64(raw), KEYS[128]), { ok: true, text: '{"a":1}' });
});

Deno.test("known answer: FIPS-197 AES-128 vector through the ECB path", () => {
  // FIPS-197 C.1: key 000102..0f, plaintext 00112233..ff -> 69c4e0d86a7b0430d8cdb78070b4c55a
  const key = Uint8Array.from({ length: 16 }, (_, i) => i);
  const plain = Uint8Array.from({ length: 16 }, (_, i) => i * 0x11);
  const out = ecb(key, { disablePadding: true }).encrypt(plain);
  assert.equal(
    [...out].map((b) => b.toString(16).padStart(2, "0")).join(""),
    "69c4e0d86a7b0430d8cdb78070b4c55a",
  );
});

Deno.test("wrong key, corrupt data and bad key sizes are values, not exceptions", () => {
  const b64 = encryptEcb(TEXT, KEYS[256]);
  const wrong = decryptEcb(b64, "ffffffffffffffffffffffffffffffff");
  assert.equal(wrong.ok, false);
  assert.deepEqual(decryptEcb("not base64!!", KEYS[256]), { ok: false, reason: "bad_base64" });
  assert.deepEqual(decryptEcb(toBase64(new Uint8Array(15)), KEYS[256]), {
    ok: false,
    reason: "bad_length",
  });
  assert.deepEqual(decryptEcb("", KEYS[256]), { ok: false, reason: "bad_length" });
  assert.deepEqual(decryptEcb(b64, "short"), { ok: false, reason: "bad_key" });
  assert.throws(() => encryptEcb("x", "short"), RangeError);
});

Deno.test("interoperates with node:crypto aes-*-ecb (an independent implementation)", async () => {
  const { createCipheriv, createDecipheriv } = await import("node:crypto");
  for (const [bits, secret] of Object.entries(KEYS)) {
    const c = createCipheriv(`aes-${bits}-ecb`, new TextEncoder().encode(secret), null);
    const theirs = Buffer.concat([c.update(TEXT, "utf8"), c.final()]).toString("base64");
    assert.deepEqual(decryptEcb(theirs, secret), { ok: true, text: TEXT });
    const d = createDecipheriv(`aes-${bits}-ecb`, new TextEncoder().encode(secret), null);
    const ours = encryptEcb(TEXT, secret);
    const plain = Buffer.concat([d.update(Buffer.from(ours, "base64")), d.final()]);
    assert.equal(plain.toString("utf8"), TEXT);
  }
});

Deno.test("ecbDecryptor reuses one key schedule and refuses bad key sizes", () => {
  const decrypt = ecbDecryptor(KEYS[192])!;
  assert.deepEqual(decrypt(encryptEcb("a", KEYS[192])), { ok: true, text: "a" });
  assert.deepEqual(decrypt(encryptEcb("b", KEYS[192], { padding: "spaces" })), {
    ok: true,
    text: "b",
  });
  assert.equal(decrypt(encryptEcb("c", KEYS[128])).ok, false);
  assert.equal(ecbDecryptor("x".repeat(20)), null);
});

Deno.test("ecb: a decryptor's once-expanded key schedule decrypts what noble's ecb encrypts", () => {
  for (const size of [16, 24, 32]) {
    const secret = "k".repeat(size - 3) + "한";
    const decrypt = ecbDecryptor(secret)!;
    for (const text of ["", "a", "exactly 16 bytes", "채팅 메시지 ".repeat(20)]) {
      const result = decrypt(encryptEcb(text, secret));
      assert.deepEqual(result, { ok: true, text }, `${size}: ${text}`);
      assert.deepEqual(decrypt(encryptEcb(text, secret, { padding: "spaces" })), {
        ok: true,
        text: text.replace(/ +$/, ""),
      });
    }
  }
});
