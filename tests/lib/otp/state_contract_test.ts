/**
 * The OTP send and verify steps on every KV adapter available in this tier (the Lua scripts on
 * Redis, their TypeScript form in memory): the same rules, each step one atomic call, under
 * concurrency too. Time moves by the service clock (`nowMs`), as Redis keeps its own.
 */
import assert from "node:assert/strict";
import type { Kv } from "../../../lib/kv/port.ts";
import { openMemoryKv } from "../../../lib/kv/memory.ts";
import { openUpstashKv } from "../../../lib/kv/upstash.ts";
import { openRedisKv } from "../../../lib/kv/tcp.ts";
import { otpHashKey } from "../../../lib/otp/code.ts";
import { keyedHash } from "../../../lib/otp/code.ts";
import {
  checkCode,
  issueCode,
  MAX_VERIFY_ATTEMPTS,
  receiverKeys,
  RETRY_WINDOW_MS,
} from "../../../lib/otp/state.ts";
import { DomainError } from "../../../lib/errors.ts";

const url = Deno.env.get("UPSTASH_REDIS_REST_URL");
const token = Deno.env.get("UPSTASH_REDIS_REST_TOKEN");
const redisUrl = Deno.env.get("REDIS_URL");
const adapters: [string, () => Kv, boolean][] = [
  ["memory", () => openMemoryKv(), false],
  ["upstash", () => openUpstashKv(url!, token!), !url || !token],
  ["redis", () => openRedisKv(redisUrl!), !redisUrl],
];

/** A receiver of its own (keys are hashes of it) on a topic of its own. */
async function receiver() {
  const hashKey = await otpHashKey({ kmsMasterKey: "state-contract-master-key" });
  const topic = `t-${crypto.randomUUID()}`;
  const keys = receiverKeys(hashKey, {
    gameIndex: 7,
    topic,
    channel: "sms",
    receiver: `82:10${crypto.randomUUID()}`,
  });
  return { hashKey, topic, keys };
}

const limits = { cooldownMs: 30_000, perReceiverPerDay: 1_000, perTopicPerMinute: 1_000 };

type Receiver = Awaited<ReturnType<typeof receiver>>;

/**
 * Issues a code to `r` on `kv` at `nowMs` under `limits` (each of `over` replacing its limit),
 * valid for `ttlMs` (3 minutes unless given), for `keys` (the receiver's own unless given).
 */
function issuer(kv: Kv, r: Receiver) {
  return (
    code: string,
    nowMs: number,
    over: Partial<typeof limits> & { ttlMs?: number; keys?: Receiver["keys"] } = {},
  ) => {
    const { ttlMs = 180_000, keys = r.keys, ...set } = over;
    return issueCode(kv, r.hashKey, {
      keys,
      gameIndex: 7,
      topic: r.topic,
      code,
      nowMs,
      expiresAtMs: nowMs + ttlMs,
      ...limits,
      ...set,
    });
  };
}

async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (err instanceof DomainError) return err.code;
    throw err;
  }
  return "admitted";
}

for (const [name, open, ignore] of adapters) {
  // Whole minutes and days from a fixed start, away from their edges.
  const t0 = Math.floor(Date.now() / 86_400_000) * 86_400_000 + 3_600_000 + 1_000;

  Deno.test({
    name: `otp state(${name}): a code verifies once; wrong tries count and void it`,
    ignore,
    fn: async () => {
      const kv = open();
      const r = await receiver();
      const { hashKey, keys } = r;
      const issue = (code: string, nowMs: number) => issuer(kv, r)(code, nowMs, { cooldownMs: 0 });
      const check = (otp: string, nowMs = t0) =>
        checkCode(kv, hashKey, { rid: keys.rid, otp, nowMs });
      assert.equal(await check("000000"), false, "no code");
      assert.equal(await kv.get(`otp:try:${keys.rid}`), null, "no counter left without a code");
      const first = await issue("012345", t0);
      assert.equal(first.retry, false);
      assert.equal(await check("12345"), false, "leading zeros matter");
      assert.equal(await check("012345"), true);
      assert.equal(await check("012345"), false, "single use");
      const second = await issue("654321", t0 + 1_000);
      assert.equal(second.retry, true, "a send within the retry window is a retry");
      for (let i = 1; i < MAX_VERIFY_ATTEMPTS; i++) assert.equal(await check("111111"), false);
      assert.equal(await check("111111"), false);
      assert.equal(await check("654321"), false, "void after the last wrong try");
      assert.equal(await kv.get(`otp:code:${keys.rid}`), null);
      const third = await issue("777777", t0 + 2_000 + RETRY_WINDOW_MS);
      assert.equal(third.retry, false, "outside the retry window");
      assert.equal(await check("777777", t0 + 2_000 + RETRY_WINDOW_MS + 180_000), false, "expired");
      assert.equal(await kv.get(`otp:code:${keys.rid}`), null, "an expired code is removed");
    },
  });

  Deno.test({
    name: `otp state(${name}): cooldown and limits refuse without using anything up`,
    ignore,
    fn: async () => {
      const kv = open();
      const r = await receiver();
      const { hashKey, topic, keys } = r;
      const issue = issuer(kv, r);
      await issue("111111", t0);
      assert.equal(await refusal(issue("222222", t0 + 29_000)), "DUPLICATE_OTP_EXISTS");
      assert.equal(
        await checkCode(kv, hashKey, { rid: keys.rid, otp: "111111", nowMs: t0 + 29_000 }),
        true,
        "a refused send leaves the code in place",
      );
      // The day allows 2: one used, the second admitted after the cooldown, the third refused.
      await issue("333333", t0 + 30_000, { perReceiverPerDay: 2 });
      assert.equal(
        await refusal(issue("444444", t0 + 61_000, { perReceiverPerDay: 2 })),
        "SMS_LIMIT_EXCEEDED",
      );
      // The refusal took no cooldown and no count: a higher limit admits at once.
      await issue("555555", t0 + 61_000, { perReceiverPerDay: 3 });
      assert.equal(
        await refusal(issue("666666", t0 + 92_000, { perReceiverPerDay: 3 })),
        "SMS_LIMIT_EXCEEDED",
      );
      // The topic's minute: another receiver of the same topic counts against it.
      const other = receiverKeys(hashKey, {
        gameIndex: 7,
        topic,
        channel: "sms",
        receiver: "82:other",
      });
      const minute = Math.floor((t0 + 200_000) / 60_000) * 60_000;
      const send = (k: typeof keys, nowMs: number) =>
        issue("123456", nowMs, { keys: k, perTopicPerMinute: 1 });
      await send(other, minute + 1_000);
      assert.equal(await refusal(send(keys, minute + 2_000)), "SMS_LIMIT_EXCEEDED");
      await send(keys, minute + 60_000);
    },
  });

  Deno.test({
    name: `otp state(${name}): a withdrawn code goes, a newer one stays`,
    ignore,
    fn: async () => {
      const kv = open();
      const r = await receiver();
      const { hashKey, keys } = r;
      const issue = issuer(kv, r);
      const failed = await issue("111111", t0);
      await failed.withdraw();
      assert.equal(await kv.get(`otp:code:${keys.rid}`), null);
      // The cooldown was given back.
      const old = await issue("222222", t0 + 1_000);
      await kv.del(`otp:cool:${keys.rid}`);
      await issue("333333", t0 + 2_000);
      await old.withdraw();
      assert.equal(
        await checkCode(kv, hashKey, { rid: keys.rid, otp: "333333", nowMs: t0 + 3_000 }),
        true,
      );
    },
  });

  Deno.test({
    name: `otp state(${name}): at once, one send takes the cooldown and one verify the code`,
    ignore,
    fn: async () => {
      const kv = open();
      const receiving = await receiver();
      const { hashKey, keys } = receiving;
      const issue = issuer(kv, receiving);
      const sends = await Promise.all(
        Array.from({ length: 10 }, (_, i) => refusal(issue(String(i).padStart(6, "0"), t0))),
      );
      assert.equal(sends.filter((r) => r === "admitted").length, 1);
      assert.equal(sends.filter((r) => r === "DUPLICATE_OTP_EXISTS").length, 9);
      const code = String(sends.indexOf("admitted")).padStart(6, "0");
      const checks = await Promise.all(
        Array.from(
          { length: 4 },
          () => checkCode(kv, hashKey, { rid: keys.rid, otp: code, nowMs: t0 }),
        ),
      );
      assert.deepEqual(checks.filter(Boolean).length, 1);
    },
  });

  Deno.test({
    name: `otp state(${name}): a code stored with a nonce by an earlier version still verifies`,
    ignore,
    fn: async () => {
      const kv = open();
      const { hashKey, keys } = await receiver();
      const store = async (code: string) => {
        const n = "nonce123";
        const h = keyedHash(hashKey, `${keys.rid}\n${n}\n${code}`);
        await kv.set(`otp:code:${keys.rid}`, JSON.stringify({ h, n, e: t0 + 60_000 }), {
          ttlMs: 60_000,
        });
        await kv.set(`otp:try:${keys.rid}`, "0", { ttlMs: 60_000 });
      };
      const check = (otp: string) => checkCode(kv, hashKey, { rid: keys.rid, otp, nowMs: t0 });
      await store("246810");
      assert.equal(await check("000000"), false);
      assert.equal(await check("246810"), true);
      assert.equal(await check("246810"), false);
      await store("135790");
      for (let i = 0; i < MAX_VERIFY_ATTEMPTS; i++) assert.equal(await check("000000"), false);
      assert.equal(await check("135790"), false);
    },
  });

  Deno.test({
    name:
      `otp state(${name}): a send writes no attempts counter; wrong tries create it, expiring with the code`,
    ignore,
    fn: async () => {
      const kv = open();
      const r = await receiver();
      const { hashKey, topic, keys } = r;
      const day = Math.floor(t0 / 86_400_000);
      const minute = Math.floor(t0 / 60_000);
      const issue = (code: string, nowMs: number) =>
        issuer(kv, r)(code, nowMs, { ttlMs: 120_000, cooldownMs: 0 });
      const check = (otp: string, nowMs: number) =>
        checkCode(kv, hashKey, { rid: keys.rid, otp, nowMs });
      const tries = `otp:try:${keys.rid}`;
      await issue("121212", t0);
      // Both counters are created with their expiry; a code value is the JSON it always was.
      const dayTtl = await kv.pttl(`otp:day:${keys.rcv}:${day}`);
      assert.ok(dayTtl > 0 && dayTtl <= 86_400_000, `day counter ttl ${dayTtl}`);
      const topicMinute = `otp:tpm:7:${encodeURIComponent(topic)}:${minute}`;
      const minuteTtl = await kv.pttl(topicMinute);
      assert.ok(minuteTtl > 0 && minuteTtl <= 60_000, `minute counter ttl ${minuteTtl}`);
      assert.equal(await kv.get(`otp:day:${keys.rcv}:${day}`), "1");
      const raw = (await kv.get(`otp:code:${keys.rid}`))!;
      const value = JSON.parse(raw);
      assert.deepEqual(Object.keys(value), ["h", "n", "e", "u"]);
      assert.equal(JSON.stringify(value), raw);
      assert.equal(value.e, t0 + 120_000);
      assert.match(value.u, /^[A-Za-z0-9_-]{12}$/);
      assert.equal(await kv.pttl(tries), -2, "no attempts counter before a wrong try");
      assert.equal(await check("000000", t0 + 20_000), false);
      assert.equal(await kv.get(tries), "1");
      const ttl = await kv.pttl(tries);
      assert.ok(ttl > 0 && ttl <= 100_000, `attempts expire with the code (${ttl})`);
      assert.equal(await check("000000", t0 + 30_000), false);
      assert.equal(await kv.get(tries), "2");
      assert.ok((await kv.pttl(tries)) <= ttl, "a later try keeps the counter's expiry");
      // A new code removes the old attempts; the day counter counts on with its expiry.
      await issue("343434", t0 + 40_000);
      assert.equal(await kv.pttl(tries), -2);
      assert.equal(await kv.get(`otp:day:${keys.rcv}:${day}`), "2");
      assert.ok((await kv.pttl(`otp:day:${keys.rcv}:${day}`)) <= dayTtl);
      for (let i = 1; i < MAX_VERIFY_ATTEMPTS; i++) {
        assert.equal(await check("000000", t0 + 41_000), false);
      }
      assert.equal(await kv.get(tries), String(MAX_VERIFY_ATTEMPTS - 1));
      assert.equal(await check("343434", t0 + 42_000), true, "the last try may be the right one");
      assert.equal(await kv.get(tries), null);
      assert.equal(await kv.get(`otp:code:${keys.rid}`), null);
    },
  });

  Deno.test({
    name:
      `otp state(${name}): codes and counters stored by the previous version's send still verify`,
    ignore,
    fn: async () => {
      const kv = open();
      const { hashKey, keys } = await receiver();
      const tries = `otp:try:${keys.rid}`;
      // What the previous send stored: the code value, and an attempts counter of "0" beside it.
      const store = async (code: string) => {
        const h = keyedHash(hashKey, `${keys.rid}\n\n${code}`);
        await kv.set(
          `otp:code:${keys.rid}`,
          JSON.stringify({ h, n: "", e: t0 + 60_000, u: "AAAAAAAAAAAA" }),
          { ttlMs: 60_000 },
        );
        await kv.set(tries, "0", { ttlMs: 60_000 });
      };
      const check = (otp: string, nowMs = t0) =>
        checkCode(kv, hashKey, { rid: keys.rid, otp, nowMs });
      await store("112233");
      assert.equal(await check("000000"), false);
      assert.equal(await kv.get(tries), "1");
      assert.equal(await check("112233"), true);
      assert.equal(await check("112233"), false, "single use");
      await store("445566");
      for (let i = 0; i < MAX_VERIFY_ATTEMPTS; i++) assert.equal(await check("000000"), false);
      assert.equal(await check("445566"), false, "void after the last wrong try");
      assert.equal(await kv.get(tries), null);
      await store("778899");
      assert.equal(await check("778899", t0 + 60_000), false, "expired");
      assert.equal(await kv.get(`otp:code:${keys.rid}`), null);
      assert.equal(await kv.get(tries), null);
      // A counter left without a code (its code withdrawn) goes at the next check.
      await kv.set(tries, "3", { ttlMs: 60_000 });
      assert.equal(await check("778899"), false);
      assert.equal(await kv.get(tries), null);
    },
  });
}
