/**
 * OTP state in Redis (through the KV port). Keys carry only keyed hashes of receivers; a code is
 * kept only as a keyed hash with its expiry, inside a key whose TTL is that expiry, and its
 * attempt counter dies with it. Times stored in values are checked against the service clock
 * as well, so behaviour follows the injectable clock even where Redis keeps real time.
 *
 *   otp:code:{rid}          {h: hash of code, n: nonce, e: expiry ms}     TTL = validity
 *   otp:try:{rid}           verify attempts of the current code            TTL = validity (reset by each new code)
 *   otp:cool:{rid}          time of the last send attempt                  TTL = cooldown
 *   otp:last:{rid}          time of the last send                          TTL = retry window
 *   otp:day:{rcv}:{day}     sends to the receiver that UTC day (all topics of the game)
 *   otp:tpm:{game}:{topic}:{minute}   sends of the topic that minute
 */
import type { Kv, KvCommand } from "../kv/port.ts";
import { DomainError } from "../errors.ts";
import { equalFixed, randomToken } from "../crypto/hashing.ts";
import { keyedHash } from "./code.ts";

/** Wrong or right, a code can be tried this many times; then it is void. */
export const MAX_VERIFY_ATTEMPTS = 5;
/** A send within this window of the previous one to the receiver is a retry. */
export const RETRY_WINDOW_MS = 5 * 60_000;
const DAY_MS = 86_400_000;
/** The longest validity a topic can give a code (expirySeconds is at most 86,400). */
const MAX_CODE_VALIDITY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** Where one receiver's state lives. */
export interface ReceiverKeys {
  /** Receiver within a game, all topics (daily limit). */
  rcv: string;
  /** Receiver within a game and topic (code, attempts, cooldown, retry detection). */
  rid: string;
}

function triesKey(rid: string): string {
  return `otp:try:${rid}`;
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

/** What admitting a send decided. */
export interface AdmittedSend {
  /** A send to the same receiver and topic happened within RETRY_WINDOW_MS. */
  retry: boolean;
  /** Gives the cooldown back (for a send that ends up failing). */
  release(): Promise<void>;
}

/**
 * Admits a send, in one round trip when it is allowed: takes the receiver's send cooldown
 * (DUPLICATE_OTP_EXISTS while the previous send is younger than `cooldownMs`), counts the send
 * against the receiver's daily limit and the topic's per-minute limit (SMS_LIMIT_EXCEEDED when
 * either is over) and reads whether this is a retry. A refused send uses up neither budget and
 * leaves no cooldown behind.
 */
export async function admitSend(
  kv: Kv,
  input: {
    keys: ReceiverKeys;
    gameIndex: number;
    topic: string;
    nowMs: number;
    cooldownMs: number;
    perReceiverPerDay: number;
    perTopicPerMinute: number;
  },
): Promise<AdmittedSend> {
  const { nowMs, cooldownMs } = input;
  const day = Math.floor(nowMs / DAY_MS);
  const minute = Math.floor(nowMs / MINUTE_MS);
  const coolKey = `otp:cool:${input.keys.rid}`;
  const dayKey = `otp:day:${input.keys.rcv}:${day}`;
  const minuteKey = `otp:tpm:${input.gameIndex}:${encodeURIComponent(input.topic)}:${minute}`;
  const cooling = cooldownMs > 0;
  const commands: KvCommand[] = [
    { op: "incr", key: dayKey, ttlMs: DAY_MS },
    { op: "incr", key: minuteKey, ttlMs: MINUTE_MS },
    { op: "get", key: `otp:last:${input.keys.rid}` },
  ];
  if (cooling) {
    commands.push(
      { op: "get", key: coolKey },
      { op: "set", key: coolKey, value: String(nowMs), nx: true, ttlMs: cooldownMs },
    );
  }
  const [today, thisMinute, last, previousCool, tookCool] = await kv.batch(commands) as [
    number,
    number,
    string | null,
    string | null,
    boolean,
  ];
  const giveBack = (alsoCooldown: boolean) =>
    kv.batch([
      { op: "incr", key: dayKey, by: -1 },
      { op: "incr", key: minuteKey, by: -1 },
      ...(alsoCooldown ? [{ op: "del" as const, keys: [coolKey] }] : []),
    ]);
  if (cooling && !tookCool) {
    const previous = Number(previousCool);
    if (Number.isFinite(previous) && previous > 0 && nowMs - previous < cooldownMs) {
      await giveBack(false);
      const wait = Math.ceil((cooldownMs - (nowMs - previous)) / 1000);
      throw new DomainError(
        "conflict",
        "DUPLICATE_OTP_EXISTS",
        `an OTP was sent to this receiver moments ago; try again in ${wait} s`,
      );
    }
    // The key outlived its time by the service clock: take it over.
    await kv.set(coolKey, String(nowMs), { ttlMs: cooldownMs });
  }
  if (today > input.perReceiverPerDay || thisMinute > input.perTopicPerMinute) {
    await giveBack(cooling);
  }
  if (today > input.perReceiverPerDay) {
    throw new DomainError(
      "rate_limited",
      "SMS_LIMIT_EXCEEDED",
      `this receiver reached its limit of ${input.perReceiverPerDay} OTPs per day`,
      { details: { retryAfterS: Math.ceil(((day + 1) * DAY_MS - nowMs) / 1000) } },
    );
  }
  if (thisMinute > input.perTopicPerMinute) {
    throw new DomainError(
      "rate_limited",
      "SMS_LIMIT_EXCEEDED",
      `topic ${input.topic} reached its limit of ${input.perTopicPerMinute} OTPs per minute`,
      { details: { retryAfterS: Math.ceil(((minute + 1) * MINUTE_MS - nowMs) / 1000) } },
    );
  }
  return {
    retry: last !== null && nowMs - Number(last) < RETRY_WINDOW_MS,
    release: cooling ? async () => void await kv.del(coolKey) : () => Promise.resolve(),
  };
}

interface StoredCode {
  h: string;
  n: string;
  e: number;
}

/**
 * Stores a code (replacing any previous one) with a fresh attempt counter that expires with it,
 * and records the send for retry detection, in one round trip. Returns a function that removes
 * the code again (for a delivery that failed); the send still counts as a retry.
 */
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
  const ttlMs = input.expiresAtMs - input.nowMs;
  await kv.batch([
    { op: "set", key, value: raw, ttlMs },
    { op: "set", key: triesKey(input.rid), value: "0", ttlMs },
    { op: "set", key: `otp:last:${input.rid}`, value: String(input.nowMs), ttlMs: RETRY_WINDOW_MS },
  ]);
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
 * MAX_VERIFY_ATTEMPTS tries the code is void; an expired code is false and removed. The code is
 * read and the try counted in one round trip; a right code takes one more to claim it.
 */
export async function checkCode(
  kv: Kv,
  hashKey: CryptoKey,
  input: { rid: string; otp: string; nowMs: number },
): Promise<boolean> {
  const key = `otp:code:${input.rid}`;
  const tries = triesKey(input.rid);
  // The counter is created with the code (same expiry); one created here, with no code behind
  // it, is removed below, and is bounded by the longest validity in any case.
  const [raw, count] = await kv.batch([
    { op: "get", key },
    { op: "incr", key: tries, ttlMs: MAX_CODE_VALIDITY_MS },
  ]) as [string | null, number];
  if (raw === null) {
    await kv.del(tries);
    return false;
  }
  const stored = JSON.parse(raw) as StoredCode;
  if (stored.e <= input.nowMs || count > MAX_VERIFY_ATTEMPTS) {
    await kv.del(key, tries);
    return false;
  }
  const presented = await keyedHash(hashKey, `${input.rid}\n${stored.n}\n${input.otp}`);
  if (!equalFixed(presented, stored.h)) {
    if (count >= MAX_VERIFY_ATTEMPTS) await kv.del(key, tries);
    return false;
  }
  // Single use: only the request that removes this exact code wins.
  const taken = await kv.getdel(key);
  // The attempt counter is left to expire with the code's validity: one round trip less.
  if (taken === raw) return true;
  if (taken !== null) await restore(kv, key, taken, input.nowMs);
  return false;
}
