import assert from "node:assert/strict";
import { openMemoryKv } from "../../../lib/kv/memory.ts";
import { otpHashKey } from "../../../lib/otp/code.ts";
import { checkCode, receiverKeys, storeCode } from "../../../lib/otp/state.ts";

async function setup() {
  let now = 1_800_000_000_000;
  const kv = openMemoryKv(() => now);
  const hashKey = await otpHashKey({ kmsMasterKey: "state-test-master-key" });
  const keys = await receiverKeys(hashKey, {
    gameIndex: 7,
    topic: "login",
    channel: "sms",
    receiver: "82:1023456789",
  });
  return { kv, hashKey, keys, advance: (ms: number) => (now += ms), now: () => now };
}

Deno.test("state: Redis sees neither the code nor the receiver, only keyed hashes", async () => {
  const { kv, hashKey, keys, now } = await setup();
  await storeCode(kv, hashKey, {
    rid: keys.rid,
    code: "012345",
    nowMs: now(),
    expiresAtMs: now() + 180_000,
  });
  assert.match(keys.rid, /^[0-9a-f]{40}$/);
  const raw = (await kv.get(`otp:code:${keys.rid}`))!;
  assert.ok(!raw.includes("012345"));
  assert.ok(!raw.includes("1023456789"));
  assert.match(JSON.parse(raw).h, /^[0-9a-f]{64}$/);
  assert.equal(await kv.pttl(`otp:code:${keys.rid}`), 180_000);
});

Deno.test("state: nothing about a code survives its expiry", async () => {
  const { kv, hashKey, keys, now, advance } = await setup();
  await storeCode(kv, hashKey, {
    rid: keys.rid,
    code: "555555",
    nowMs: now(),
    expiresAtMs: now() + 60_000,
  });
  advance(10_000);
  assert.equal(await checkCode(kv, hashKey, { rid: keys.rid, otp: "111111", nowMs: now() }), false);
  const triesTtl = await kv.pttl(`otp:try:${keys.rid}`);
  assert.ok(triesTtl > 0 && triesTtl <= 50_000, `attempts expire with the code (${triesTtl})`);
  advance(50_000);
  assert.equal(await kv.pttl(`otp:code:${keys.rid}`), -2);
  assert.equal(await kv.pttl(`otp:try:${keys.rid}`), -2);
  assert.equal(await checkCode(kv, hashKey, { rid: keys.rid, otp: "555555", nowMs: now() }), false);
});

Deno.test("state: the stored expiry is checked against the clock even if the key still lives", async () => {
  const { kv, hashKey, keys, now } = await setup();
  await storeCode(kv, hashKey, {
    rid: keys.rid,
    code: "424242",
    nowMs: now(),
    expiresAtMs: now() + 60_000,
  });
  // As on real Redis when only the service clock moved.
  assert.equal(
    await checkCode(kv, hashKey, { rid: keys.rid, otp: "424242", nowMs: now() + 60_000 }),
    false,
  );
  assert.equal(await kv.get(`otp:code:${keys.rid}`), null);
});

Deno.test("state: removing a failed code leaves a newer one in place", async () => {
  const { kv, hashKey, keys, now } = await setup();
  const removeOld = await storeCode(kv, hashKey, {
    rid: keys.rid,
    code: "111111",
    nowMs: now(),
    expiresAtMs: now() + 60_000,
  });
  await storeCode(kv, hashKey, {
    rid: keys.rid,
    code: "222222",
    nowMs: now(),
    expiresAtMs: now() + 60_000,
  });
  await removeOld();
  assert.equal(await checkCode(kv, hashKey, { rid: keys.rid, otp: "222222", nowMs: now() }), true);
});

Deno.test("state: a new code starts with fresh attempts; a check without a code leaves no counter", async () => {
  const { kv, hashKey, keys, now } = await setup();
  const store = (code: string) =>
    storeCode(kv, hashKey, { rid: keys.rid, code, nowMs: now(), expiresAtMs: now() + 60_000 });
  const check = (otp: string) => checkCode(kv, hashKey, { rid: keys.rid, otp, nowMs: now() });
  assert.equal(await check("000000"), false);
  assert.equal(await kv.pttl(`otp:try:${keys.rid}`), -2);
  await store("123123");
  for (let i = 0; i < 4; i++) assert.equal(await check("999999"), false);
  // A new code resets the count: four more wrong tries, then the right one still works.
  await store("456456");
  for (let i = 0; i < 4; i++) assert.equal(await check("999999"), false);
  assert.equal(await check("456456"), true);
  assert.equal(await check("456456"), false, "single use");
  // Five wrong tries void the code.
  await store("789789");
  for (let i = 0; i < 5; i++) assert.equal(await check("999999"), false);
  assert.equal(await check("789789"), false);
  assert.equal(await kv.get(`otp:code:${keys.rid}`), null);
});
