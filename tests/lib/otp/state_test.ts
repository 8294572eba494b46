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
  const n = JSON.parse((await kv.get(`otp:code:${keys.rid}`))!).n;
  advance(10_000);
  assert.equal(await checkCode(kv, hashKey, { rid: keys.rid, otp: "111111", nowMs: now() }), false);
  assert.ok((await kv.pttl(`otp:try:${keys.rid}:${n}`)) <= 50_000, "attempts expire with the code");
  advance(50_000);
  assert.equal(await kv.pttl(`otp:code:${keys.rid}`), -2);
  assert.equal(await kv.pttl(`otp:try:${keys.rid}:${n}`), -2);
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
