import assert from "node:assert/strict";
import { openMemoryKv } from "../../../lib/kv/memory.ts";
import { type OtpHashKey, otpHashKey } from "../../../lib/otp/code.ts";
import { checkCode, issueCode, receiverKeys } from "../../../lib/otp/state.ts";
import type { Kv } from "../../../lib/kv/port.ts";

async function setup() {
  let now = 1_800_000_000_000;
  const kv = openMemoryKv(() => now);
  const hashKey = await otpHashKey({ kmsMasterKey: "state-test-master-key" });
  const keys = receiverKeys(hashKey, {
    gameIndex: 7,
    topic: "login",
    channel: "sms",
    receiver: "82:1023456789",
  });
  return { kv, hashKey, keys, advance: (ms: number) => (now += ms), now: () => now };
}

/** Stores a code as an admitted send does (no cooldown, limits out of the way). */
function storeCode(
  kv: Kv,
  hashKey: OtpHashKey,
  input: { keys: { rid: string; rcv: string }; code: string; nowMs: number; expiresAtMs: number },
) {
  return issueCode(kv, hashKey, {
    ...input,
    gameIndex: 7,
    topic: "login",
    cooldownMs: 0,
    perReceiverPerDay: 1_000,
    perTopicPerMinute: 1_000,
  });
}

Deno.test("state: Redis sees neither the code nor the receiver, only keyed hashes", async () => {
  const { kv, hashKey, keys, now } = await setup();
  await storeCode(kv, hashKey, {
    keys,
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
    keys,
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
    keys,
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
  const old = await storeCode(kv, hashKey, {
    keys,
    code: "111111",
    nowMs: now(),
    expiresAtMs: now() + 60_000,
  });
  await storeCode(kv, hashKey, {
    keys,
    code: "222222",
    nowMs: now(),
    expiresAtMs: now() + 60_000,
  });
  await old.withdraw();
  assert.equal(await checkCode(kv, hashKey, { rid: keys.rid, otp: "222222", nowMs: now() }), true);
});

Deno.test("state: a new code starts with fresh attempts; a check without a code leaves no counter", async () => {
  const { kv, hashKey, keys, now } = await setup();
  const store = (code: string) =>
    storeCode(kv, hashKey, { keys, code, nowMs: now(), expiresAtMs: now() + 60_000 });
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

Deno.test("state: a send and a verify are one KV call each", async () => {
  const { kv, hashKey, keys, now } = await setup();
  const calls: string[] = [];
  const counted = new Proxy(kv, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        calls.push(String(prop));
        return value.apply(target, args);
      };
    },
  });
  const issued = await issueCode(counted, hashKey, {
    keys,
    gameIndex: 7,
    topic: "login",
    code: "135246",
    nowMs: now(),
    expiresAtMs: now() + 60_000,
    cooldownMs: 30_000,
    perReceiverPerDay: 10,
    perTopicPerMinute: 10,
  });
  assert.equal(issued.retry, false);
  assert.deepEqual(calls, ["script"]);
  calls.length = 0;
  assert.equal(
    await checkCode(counted, hashKey, { rid: keys.rid, otp: "000000", nowMs: now() }),
    false,
  );
  assert.deepEqual(calls, ["script"]);
  calls.length = 0;
  assert.equal(
    await checkCode(counted, hashKey, { rid: keys.rid, otp: "135246", nowMs: now() }),
    true,
  );
  assert.deepEqual(calls, ["script"]);
});
