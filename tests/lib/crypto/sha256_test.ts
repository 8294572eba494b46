import assert from "node:assert/strict";
import { hmacSha256, hmacSha256Hex, HmacSha256Key, sha256 } from "../../../lib/crypto/sha256.ts";
import { toHex } from "../../../lib/crypto/hashing.ts";

const enc = new TextEncoder();

async function webSha256(data: Uint8Array): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", data as BufferSource)));
}

async function webHmac(key: Uint8Array, data: Uint8Array): Promise<string> {
  const k = await crypto.subtle.importKey(
    "raw",
    key as BufferSource,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return toHex(new Uint8Array(await crypto.subtle.sign("HMAC", k, data as BufferSource)));
}

const fromHexText = (hex: string) => Uint8Array.from(hex.match(/../g)!, (b) => parseInt(b, 16));

Deno.test("SHA-256 answers the standard's examples", () => {
  assert.equal(
    toHex(sha256(enc.encode("abc"))),
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
  );
  assert.equal(
    toHex(sha256(new Uint8Array())),
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  );
  assert.equal(
    toHex(sha256(enc.encode("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))),
    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
  );
});

Deno.test("SHA-256 equals WebCrypto's for every length across the block and padding edges", async () => {
  for (let length = 0; length <= 300; length++) {
    const data = crypto.getRandomValues(new Uint8Array(length));
    assert.equal(toHex(sha256(data)), await webSha256(data), `length ${length}`);
  }
});

Deno.test("HMAC-SHA-256 answers RFC 4231's test cases", () => {
  const cases: [Uint8Array, Uint8Array, string][] = [
    [
      new Uint8Array(20).fill(0x0b),
      enc.encode("Hi There"),
      "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
    ],
    [
      enc.encode("Jefe"),
      enc.encode("what do ya want for nothing?"),
      "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
    ],
    [
      new Uint8Array(20).fill(0xaa),
      new Uint8Array(50).fill(0xdd),
      "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe",
    ],
    [
      fromHexText("0102030405060708090a0b0c0d0e0f10111213141516171819"),
      new Uint8Array(50).fill(0xcd),
      "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b",
    ],
    [
      new Uint8Array(131).fill(0xaa),
      enc.encode("Test Using Larger Than Block-Size Key - Hash Key First"),
      "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
    ],
  ];
  for (const [key, data, mac] of cases) {
    assert.equal(toHex(hmacSha256(new HmacSha256Key(key), data)), mac);
  }
});

Deno.test("HMAC-SHA-256 equals WebCrypto's for keys and texts of many lengths", async () => {
  for (const keyLength of [1, 32, 63, 64, 65, 200]) {
    const key = crypto.getRandomValues(new Uint8Array(keyLength));
    const mac = new HmacSha256Key(key);
    for (let length = 0; length <= 200; length += 7) {
      const data = crypto.getRandomValues(new Uint8Array(length));
      assert.equal(
        toHex(hmacSha256(mac, data)),
        await webHmac(key, data),
        `${keyLength}/${length}`,
      );
    }
    // Texts are hashed as UTF-8, multi-byte characters included.
    for (const text of ["", "82:1012345678", "1\nsms\n82:1012345678", "ñ€😀漢字\n".repeat(20)]) {
      assert.equal(hmacSha256Hex(mac, text), await webHmac(key, enc.encode(text)));
    }
  }
});

Deno.test("an HMAC key shows nothing of itself when printed or serialised", () => {
  const key = new HmacSha256Key(enc.encode("a secret key"));
  assert.equal(JSON.stringify({ key }), '{"key":"[HmacSha256Key]"}');
  assert.equal(Deno.inspect(key), "[HmacSha256Key]");
  assert.equal(Deno.inspect({ key }).includes("Int32Array"), false);
});
