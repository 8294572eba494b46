import assert from "node:assert/strict";
import { createItemReceiver, ItemRejection } from "../../../lib/items/receiver.ts";
import { apihashHex, asciiJson } from "../../../lib/crypto/apihash.ts";
import { GameStore } from "../../../dev/game_server.ts";
import {
  decodeRequestPacket,
  encodeRequestPacket,
  encodeResponsePacket,
  PacketAccumulator,
  PacketError,
} from "../../../lib/items/tcp_frame.ts";

const enc = new TextEncoder();
const WORD = "kit-word";

function validRecord(overrides: Record<string, unknown> = {}) {
  return {
    transactionId: "t-1",
    idCategory: "vid",
    id: "u1",
    detail: [{ action: "send", assetCode: "gold", amount: 3, method: "" }],
    reason: "e",
    serverId: "s1",
    gameIndex: 7,
    ...overrides,
  };
}

async function signed(value: unknown, word = WORD) {
  const body = typeof value === "string" ? value : asciiJson(value);
  return { bytes: enc.encode(body), hash: await apihashHex(word, body) };
}

function kit(verifyHash = true) {
  const store = new GameStore();
  const receiver = createItemReceiver({
    vendorWord: WORD,
    verifyHash,
    apply: (req) => Promise.resolve(store.apply(req)),
  });
  return { store, receiver };
}

Deno.test("receiver: valid request is applied once; the repeat answers 20001", async () => {
  const { store, receiver } = kit();
  const { bytes, hash } = await signed(validRecord());
  assert.deepEqual(await receiver.handle(bytes, hash), { code: 20000, message: "success" });
  assert.equal((await receiver.handle(bytes, hash)).code, 20001);
  assert.deepEqual(store.itemsOf("vid", "u1"), { gold: 3 });
});

Deno.test("receiver: concurrent duplicates are applied once", async () => {
  const { store, receiver } = kit();
  const { bytes, hash } = await signed(validRecord({ transactionId: "t-c" }));
  const codes = (await Promise.all([1, 2, 3].map(() => receiver.handle(bytes, hash))))
    .map((r) => r.code).sort();
  assert.deepEqual(codes, [20000, 20001, 20001]);
  assert.equal(store.applied.length, 1);
});

Deno.test("receiver: hash mismatch 40002 on raw bytes; the check can be disabled", async () => {
  const { receiver } = kit();
  const { bytes } = await signed(validRecord());
  const wrong = await apihashHex("other", new TextDecoder().decode(bytes));
  assert.equal((await receiver.handle(bytes, wrong)).code, 40002);
  assert.equal((await receiver.handle(bytes, null)).code, 40002);
  // Re-serialising the same JSON differently changes the bytes, so the hash no longer matches.
  const { hash } = await signed(validRecord());
  const spaced = enc.encode(JSON.stringify(validRecord(), null, 1));
  assert.equal((await receiver.handle(spaced, hash)).code, 40002);
  assert.equal((await kit(false).receiver.handle(bytes, null)).code, 20000);
});

Deno.test("receiver: 40001 for unparseable JSON", async () => {
  const { receiver } = kit();
  const { bytes, hash } = await signed("{not json");
  assert.equal((await receiver.handle(bytes, hash)).code, 40001);
});

Deno.test("receiver: 40003-40006 for omitted, mistyped, null and wrong values", async () => {
  const { receiver, store } = kit();
  const cases: [Record<string, unknown>, number, RegExp][] = [
    [{ serverId: undefined }, 40003, /serverId is omitted/],
    [{ detail: [{ action: "send", amount: 1 }] }, 40003, /detail\[0\]\.assetCode is omitted/],
    [{ gameIndex: "seven" }, 40004, /gameIndex must be an integer/],
    [{ detail: "gold" }, 40004, /detail must be an array/],
    [{ id: null }, 40005, /id is null/],
    [{ transactionId: "" }, 40005, /transactionId is empty/],
    [{ detail: [] }, 40005, /detail is empty/],
    [
      { detail: [{ action: "send", assetCode: "gold", amount: -2 }] },
      40006,
      /amount must be positive/,
    ],
    [{ duration: 0 }, 40006, /duration/],
    [{ reason: "zz" }, 40006, /reason zz/],
  ];
  for (const [overrides, code, message] of cases) {
    const record = validRecord({ transactionId: `t-${code}-${Math.random()}`, ...overrides });
    const { bytes, hash } = await signed(record);
    const reply = await receiver.handle(bytes, hash);
    assert.equal(reply.code, code, JSON.stringify(overrides));
    assert.match(reply.message, message);
  }
  assert.equal(store.applied.length, 0);
});

Deno.test("receiver: a handler rejection returns its code and applies nothing; errors are 50004", async () => {
  const { receiver, store } = kit();
  const { bytes, hash } = await signed(validRecord({
    transactionId: "t-roll",
    detail: [
      { action: "send", assetCode: "gold", amount: 1 },
      { action: "send", assetCode: "gem", amount: 1 },
      { action: "send", assetCode: "unknown", amount: 1 },
    ],
  }));
  const reply = await receiver.handle(bytes, hash);
  assert.equal(reply.code, 50005);
  assert.deepEqual(store.itemsOf("vid", "u1"), {});
  const invalidUser = await signed(validRecord({ transactionId: "t-u", id: "invalid-9" }));
  assert.equal((await receiver.handle(invalidUser.bytes, invalidUser.hash)).code, 50001);

  const failing = createItemReceiver({
    vendorWord: WORD,
    apply: () => Promise.reject(new Error("disk full")),
  });
  assert.deepEqual(await failing.handle(bytes, hash), {
    code: 50004,
    message: "database registration error",
  });
  const refusing = createItemReceiver({
    vendorWord: WORD,
    apply: () => Promise.reject(new ItemRejection(50001, "no such user")),
  });
  assert.deepEqual(await refusing.handle(bytes, hash), { code: 50001, message: "no such user" });
});

Deno.test("receiver: fetch handler reads the raw body and the Apihash header", async () => {
  const { receiver } = kit();
  const { bytes, hash } = await signed(validRecord({ transactionId: "t-f", userMessage: "선물" }));
  const res = await receiver.fetch(
    new Request("http://game/items", { method: "POST", body: bytes, headers: { Apihash: hash } }),
  );
  assert.deepEqual(await res.json(), { code: 20000, message: "success" });
});

Deno.test("tcp framing: request and response packets round-trip across any split", () => {
  const body = enc.encode(asciiJson({ a: "한" }));
  const packet = encodeRequestPacket("abc", body);
  const view = new DataView(packet.buffer);
  assert.equal(view.getUint32(0), packet.length, "total length includes its own 4 bytes");
  assert.equal(view.getUint32(4), enc.encode('{"Apihash":"abc"}').length);
  for (const split of [1, 3, 5, 17]) {
    const acc = new PacketAccumulator(1024, 12);
    let got: Uint8Array | null = null;
    for (let i = 0; i < packet.length && !got; i += split) {
      got = acc.push(packet.subarray(i, i + split));
    }
    const decoded = decodeRequestPacket(got!);
    assert.equal(decoded.apihash, "abc");
    assert.deepEqual(decoded.body, body);
  }
  const response = encodeResponsePacket(enc.encode('{"code":20000,"message":"ok"}'));
  assert.equal(new DataView(response.buffer).getUint32(0), response.length);
  assert.throws(
    () => new PacketAccumulator(10).push(response),
    (e) => e instanceof PacketError && e.reason === "too_large",
  );
  assert.throws(
    () => new PacketAccumulator(100).push(new Uint8Array([0, 0, 0, 2])),
    (e) => e instanceof PacketError && e.reason === "bad_packet",
  );
});
