/**
 * OTP state in Redis (through the KV port). Keys carry only keyed hashes of receivers; a code is
 * kept only as a keyed hash with its expiry, inside a key whose TTL is that expiry, and its
 * attempt counter dies with it. Times stored in values are checked against the service clock
 * as well, so behaviour follows the injectable clock even where Redis keeps real time.
 *
 *   otp:code:{rid}          {h: hash of code, n: nonce, e: expiry ms}     TTL = validity
 *   otp:try:{rid}:{n}       verify attempts of that code                   TTL = rest of validity
 *   otp:cool:{rid}          time of the last send attempt                  TTL = cooldown
 *   otp:last:{rid}          time of the last send                          TTL = retry window
 *   otp:day:{rcv}:{day}     sends to the receiver that UTC day (all topics of the game)
 *   otp:tpm:{game}:{topic}:{minute}   sends of the topic that minute
 */
import type { Kv } from "../kv/port.ts";
import { DomainError } from "../errors.ts";
import { equalFixed, randomToken } from "../crypto/hashing.ts";
import { keyedHash } from "./code.ts";

/** Wrong or right, a code can be tried this many times; then it is void. */
export const MAX_VERIFY_ATTEMPTS = 5;
/** A send within this window of the previous one to the receiver is a retry. */
export const RETRY_WINDOW_MS = 5 * 60_000;
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** Where one receiver's state lives. */
export interface ReceiverKeys {
  /** Receiver within a game, all topics (daily limit). */
  rcv: string;
  /** Receiver within a game and topic (code, attempts, cooldown, retry detection). */
  rid: string;
}

/** Derives the receiver's key names from its identity; nothing readable reaches Redis. */
export async function receiverKeys(
  hashKey: CryptoKey,
  input: { gameIndex: number; topic: string; channel: "sms" | "email"; receiver: string },
): Promise<ReceiverKeys> {
  const rcv = await keyedHash(hashKey, `${input.gameIndex}\n${input.channel}\n${input.receiver}`);
  const rid = await keyedHash(hashKey, `${rcv}\n${input.topic}`);
  return { rcv: rcv.slice(0, 40), rid: rid.slice(0, 40) };
}

/**
 * Takes the send cooldown of the receiver; throws DUPLICATE_OTP_EXISTS while the previous send
 * is younger than `cooldownMs`. Returns a release function for sends that end up failing.
 */
export async function acquireCooldown(
  kv: Kv,
  rid: string,
  nowMs: number,
  cooldownMs: number,
): Promise<() => Promise<void>> {
  const key = `otp:cool:${rid}`;
  const release = async () => void await kv.del(key);
  if (cooldownMs <= 0) return () => Promise.resolve();
  if (await kv.set(key, String(nowMs), { nx: true, ttlMs: cooldownMs })) return release;
  const previous = Number(await kv.get(key));
  if (Number.isFinite(previous) && previous > 0 && nowMs - previous < cooldownMs) {
    const wait = Math.ceil((cooldownMs - (nowMs - previous)) / 1000);
    throw new DomainError(
      "conflict",
      "DUPLICATE_OTP_EXISTS",
      `an OTP was sent to this receiver moments ago; try again in ${wait} s`,
    );
  }
  await kv.set(key, String(nowMs), { ttlMs: cooldownMs });
  return release;
}

/**
 * Counts the send against the receiver's daily limit and the topic's per-minute limit and
 * throws SMS_LIMIT_EXCEEDED when either is over; also answers whether this is a retry.
 */
export async function countSend(
  kv: Kv,
  input: {
    keys: ReceiverKeys;
    gameIndex: number;
    topic: string;
    nowMs: number;
    perReceiverPerDay: number;
    perTopicPerMinute: number;
  },
): Promise<{ retry: boolean }> {
  const day = Math.floor(input.nowMs / DAY_MS);
  const minute = Math.floor(input.nowMs / MINUTE_MS);
  const dayKey = `otp:day:${input.keys.rcv}:${day}`;
  const minuteKey = `otp:tpm:${input.gameIndex}:${encodeURIComponent(input.topic)}:${minute}`;
  const [today, thisMinute, last] = await Promise.all([
    kv.incr(dayKey, { ttlMs: DAY_MS }),
    kv.incr(minuteKey, { ttlMs: MINUTE_MS }),
    kv.get(`otp:last:${input.keys.rid}`),
  ]);
  if (today > input.perReceiverPerDay || thisMinute > input.perTopicPerMinute) {
    // A refused send uses up neither budget.
    await Promise.all([kv.incr(dayKey, { by: -1 }), kv.incr(minuteKey, { by: -1 })]);
  }
  if (today > input.perReceiverPerDay) {
    throw new DomainError(
      "rate_limited",
      "SMS_LIMIT_EXCEEDED",
      `this receiver reached its limit of ${input.perReceiverPerDay} OTPs per day`,
      { details: { retryAfterS: Math.ceil(((day + 1) * DAY_MS - input.nowMs) / 1000) } },
    );
  }
  if (thisMinute > input.perTopicPerMinute) {
    throw new DomainError(
      "rate_limited",
      "SMS_LIMIT_EXCEEDED",
      `topic ${input.topic} reached its limit of ${input.perTopicPerMinute} OTPs per minute`,
      {
        details: {
          retryAfterS: Math.ceil(((minute + 1) * MINUTE_MS - input.nowMs) / 1000),
        },
      },
    );
  }
  const lastMs = Number(last);
  return { retry: last !== null && input.nowMs - lastMs < RETRY_WINDOW_MS };
}

/** Records a send, for retry detection. */
export async function markSent(kv: Kv, rid: string, nowMs: number): Promise<void> {
  await kv.set(`otp:last:${rid}`, String(nowMs), { ttlMs: RETRY_WINDOW_MS });
}

interface StoredCode {
  h: string;
  n: string;
  e: number;
}

/** Stores a code (replacing any previous one); returns a function that removes it again. */
export async function storeCode(
  kv: Kv,
  hashKey: CryptoKey,
  input: { rid: string; code: string; nowMs: number; expiresAtMs: number },
): Promise<() => Promise<void>> {
  const n = randomToken(9);
  const value: StoredCode = {
    h: await keyedHash(hashKey, `${input.rid}\n${n}\n${input.code}`),
    n,
    e: input.expiresAtMs,
  };
  const key = `otp:code:${input.rid}`;
  const raw = JSON.stringify(value);
  await kv.set(key, raw, { ttlMs: input.expiresAtMs - input.nowMs });
  return async () => {
    // Remove only this code: a newer send may already have replaced it.
    const current = await kv.getdel(key);
    if (current !== null && current !== raw) await restore(kv, key, current, input.nowMs);
  };
}

async function restore(kv: Kv, key: string, raw: string, nowMs: number) {
  const e = (JSON.parse(raw) as StoredCode).e;
  if (e > nowMs) await kv.set(key, raw, { nx: true, ttlMs: e - nowMs });
}

/**
 * Checks a presented code. True at most once per code; every try counts, and after
 * MAX_VERIFY_ATTEMPTS tries the code is void; an expired code is false and removed.
 */
export async function checkCode(
  kv: Kv,
  hashKey: CryptoKey,
  input: { rid: string; otp: string; nowMs: number },
): Promise<boolean> {
  const key = `otp:code:${input.rid}`;
  const raw = await kv.get(key);
  if (raw === null) return false;
  const stored = JSON.parse(raw) as StoredCode;
  const triesKey = `otp:try:${input.rid}:${stored.n}`;
  if (stored.e <= input.nowMs) {
    await kv.del(key, triesKey);
    return false;
  }
  const tries = await kv.incr(triesKey, { ttlMs: stored.e - input.nowMs });
  if (tries > MAX_VERIFY_ATTEMPTS) {
    await kv.del(key, triesKey);
    return false;
  }
  const presented = await keyedHash(hashKey, `${input.rid}\n${stored.n}\n${input.otp}`);
  if (!equalFixed(presented, stored.h)) {
    if (tries >= MAX_VERIFY_ATTEMPTS) await kv.del(key, triesKey);
    return false;
  }
  // Single use: only the request that removes this exact code wins.
  const taken = await kv.getdel(key);
  // The attempt counter is left to expire with the code's validity: one round trip less.
  if (taken === raw) return true;
  if (taken !== null) await restore(kv, key, taken, input.nowMs);
  return false;
}
