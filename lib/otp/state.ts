/**
 * OTP state in Redis (through the KV port). Keys carry only keyed hashes of receivers; a code is
 * kept only as a keyed hash with its expiry, inside a key whose TTL is that expiry, and its
 * attempt counter dies with it. Times stored in values are checked against the service clock
 * as well, so behaviour follows the injectable clock even where Redis keeps real time. A send and
 * a verify are each one script (one round trip, atomic); the in-memory KV runs the same steps in
 * TypeScript.
 *
 *   otp:code:{rid}          {h: hash of code, n: "", e: expiry ms, u: unique}   TTL = validity
 *   otp:try:{rid}           wrong tries of the current code (absent: none)  TTL = the code's (removed by each new code)
 *   otp:cool:{rid}          time of the last send attempt                  TTL = cooldown
 *   otp:last:{rid}          time of the last send                          TTL = retry window
 *   otp:day:{rcv}:{day}     sends to the receiver that UTC day (all topics of the game)
 *   otp:tpm:{game}:{topic}:{minute}   sends of the topic that minute
 */
import type { Kv, KvLocalStore, KvScript } from "../kv/port.ts";
import { DomainError } from "../errors.ts";
import { equalFixed } from "../crypto/hashing.ts";
import { keyedHash, type OtpHashKey, uniqueToken } from "./code.ts";

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
export function receiverKeys(
  hashKey: OtpHashKey,
  input: { gameIndex: number; topic: string; channel: "sms" | "email"; receiver: string },
): ReceiverKeys {
  const rcv = keyedHash(hashKey, `${input.gameIndex}\n${input.channel}\n${input.receiver}`);
  const rid = keyedHash(hashKey, `${rcv}\n${input.topic}`);
  return { rcv: rcv.slice(0, 40), rid: rid.slice(0, 40) };
}

/** What a send was refused for, or that it was admitted (and whether the previous call was recent). */
type SendOutcome = ["ok", string] | ["cooldown", string] | ["day"] | ["minute"];

/**
 * KEYS: cooldown, day counter, minute counter, last send, code, attempts.
 * ARGV: now, cooldown ms, per-day limit, per-minute limit, day ms, minute ms, code value,
 * validity ms, retry window ms. One MGET reads everything the decision needs; a counter is
 * created with its expiry (SET PX) and only incremented afterwards. The attempts of the code
 * being replaced are removed; the new code's counter starts absent (zero) and is created, with
 * the code's remaining validity, by its first wrong try.
 */
const SEND: KvScript = {
  name: "otp-send",
  lua: `
local now = tonumber(ARGV[1])
local cooldown = tonumber(ARGV[2])
local v = redis.call('mget', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[6])
if cooldown > 0 then
  local at = tonumber(v[1])
  if at and at > 0 and now - at < cooldown then return {'cooldown', v[1]} end
end
if tonumber(v[2] or '0') >= tonumber(ARGV[3]) then return {'day'} end
if tonumber(v[3] or '0') >= tonumber(ARGV[4]) then return {'minute'} end
if v[2] then redis.call('incr', KEYS[2]) else redis.call('set', KEYS[2], '1', 'PX', ARGV[5]) end
if v[3] then redis.call('incr', KEYS[3]) else redis.call('set', KEYS[3], '1', 'PX', ARGV[6]) end
if cooldown > 0 then redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) end
redis.call('set', KEYS[5], ARGV[7], 'PX', ARGV[8])
if v[5] then redis.call('del', KEYS[6]) end
redis.call('set', KEYS[4], ARGV[1], 'PX', ARGV[9])
return {'ok', v[4] or ''}
`,
  local(kv: KvLocalStore, [cool, day, minute, last, code, tries], args) {
    const [now, cooldown, perDay, perMinute, dayMs, minuteMs, value, validMs, retryMs] = args;
    if (Number(cooldown) > 0) {
      const previous = kv.get(cool);
      const at = Number(previous);
      if (previous !== null && at > 0 && Number(now) - at < Number(cooldown)) {
        return ["cooldown", previous];
      }
    }
    if (Number(kv.get(day) ?? 0) >= Number(perDay)) return ["day"];
    if (Number(kv.get(minute) ?? 0) >= Number(perMinute)) return ["minute"];
    kv.incr(day, { ttlMs: Number(dayMs) });
    kv.incr(minute, { ttlMs: Number(minuteMs) });
    if (Number(cooldown) > 0) kv.set(cool, now, { ttlMs: Number(cooldown) });
    const previousSend = kv.get(last);
    kv.set(code, value, { ttlMs: Number(validMs) });
    kv.del([tries]);
    kv.set(last, now, { ttlMs: Number(retryMs) });
    return ["ok", previousSend ?? ""];
  },
};

/** KEYS: code, cooldown. ARGV: the code value to remove, "1" to give the cooldown back. */
const UNSEND: KvScript = {
  name: "otp-unsend",
  lua: `
if redis.call('get', KEYS[1]) == ARGV[1] then redis.call('del', KEYS[1]) end
if ARGV[2] == '1' then redis.call('del', KEYS[2]) end
return {}
`,
  local(kv, [code, cool], [value, cooling]) {
    if (kv.get(code) === value) kv.del([code]);
    if (cooling === "1") kv.del([cool]);
    return [];
  },
};

/** What a verify found. */
type VerifyOutcome = ["ok"] | ["none"] | ["void"] | ["wrong"] | ["legacy", string, number];

/**
 * A code value: its hash, an empty nonce (the hash is over the receiver and the code alone, so a
 * script can compare it), the expiry, then a token that makes each stored code unique.
 */
const CODE_VALUE = /^\{"h":"([0-9a-f]+)","n":"([^"]*)","e":(\d+)/;

/**
 * KEYS: code, attempts. ARGV: now, the presented code's hash, attempts allowed, the longest
 * validity. Counts the try, then judges the code: none, void (expired or out of tries, removed),
 * wrong (removed at the last try), ok (removed: single use). A value stored with a nonce (by an
 * earlier version of the service) comes back as legacy, for the caller to judge. One MGET reads
 * the code and its attempts (an absent counter is zero); the counter is written only where it
 * outlives the call: a wrong try short of the last creates or increments it, expiring with the
 * code (a counter made by an earlier version's send already has that expiry).
 */
const VERIFY: KvScript = {
  name: "otp-verify",
  lua: `
local v = redis.call('mget', KEYS[1], KEYS[2])
local raw = v[1]
if not raw then
  if v[2] then redis.call('del', KEYS[2]) end
  return {'none'}
end
local count = (tonumber(v[2]) or 0) + 1
local h, n, e = string.match(raw, '^{"h":"([0-9a-f]+)","n":"([^"]*)","e":(%d+)')
if not h or n ~= '' then
  redis.call('incr', KEYS[2])
  redis.call('pexpire', KEYS[2], ARGV[4], 'NX')
  return {'legacy', raw, count}
end
local max = tonumber(ARGV[3])
local left = tonumber(e) - tonumber(ARGV[1])
if left <= 0 or count > max then
  redis.call('del', KEYS[1], KEYS[2])
  return {'void'}
end
if h ~= ARGV[2] then
  if count >= max then
    redis.call('del', KEYS[1], KEYS[2])
  else
    redis.call('incr', KEYS[2])
    redis.call('pexpire', KEYS[2], left, 'NX')
  end
  return {'wrong'}
end
redis.call('del', KEYS[1], KEYS[2])
return {'ok'}
`,
  local(kv, [code, tries], [now, presented, maxTries, maxValidMs]) {
    const raw = kv.get(code);
    if (raw === null) {
      kv.del([tries]);
      return ["none"];
    }
    const count = Number(kv.get(tries) ?? 0) + 1;
    const m = CODE_VALUE.exec(raw);
    if (!m || m[2] !== "") {
      kv.incr(tries, { ttlMs: Number(maxValidMs) });
      return ["legacy", raw, count];
    }
    const left = Number(m[3]) - Number(now);
    if (left <= 0 || count > Number(maxTries)) {
      kv.del([code, tries]);
      return ["void"];
    }
    if (m[1] !== presented) {
      if (count >= Number(maxTries)) kv.del([code, tries]);
      else kv.incr(tries, { ttlMs: left });
      return ["wrong"];
    }
    kv.del([code, tries]);
    return ["ok"];
  },
};

/** The send and verify scripts, for benchmarks that run the same Redis work alone. */
export const OTP_SCRIPTS = { send: SEND, verify: VERIFY } as const;

/** A duration as Redis takes it: whole milliseconds, at least one. */
const ms = (v: number) => Math.max(1, Math.ceil(v));

/** What an admitted send stored. */
export interface IssuedCode {
  /** A send to the same receiver and topic happened within RETRY_WINDOW_MS before this one. */
  retry: boolean;
  /**
   * Removes this code (a newer one stays) and gives the cooldown back, for a delivery that
   * failed; the send still counts against the limits and for retry detection.
   */
  withdraw(): Promise<void>;
}

/**
 * Admits a send and stores its code in one atomic round trip. Admitting: the receiver's send
 * cooldown (DUPLICATE_OTP_EXISTS while the previous send is younger than `cooldownMs`), the
 * receiver's daily limit and the topic's per-minute limit (SMS_LIMIT_EXCEEDED when either would
 * be exceeded, the daily one named first). A refused send uses up neither budget, takes no
 * cooldown and leaves the current code in place. An admitted one counts against both limits,
 * takes the cooldown, replaces the code (with a fresh attempt counter that expires with it) and
 * records the send for retry detection, reading whether the previous one was recent.
 */
export async function issueCode(
  kv: Kv,
  hashKey: OtpHashKey,
  input: {
    keys: ReceiverKeys;
    gameIndex: number;
    topic: string;
    code: string;
    nowMs: number;
    expiresAtMs: number;
    cooldownMs: number;
    perReceiverPerDay: number;
    perTopicPerMinute: number;
  },
): Promise<IssuedCode> {
  const { nowMs, cooldownMs, keys } = input;
  const day = Math.floor(nowMs / DAY_MS);
  const minute = Math.floor(nowMs / MINUTE_MS);
  const coolKey = `otp:cool:${keys.rid}`;
  const codeKey = `otp:code:${keys.rid}`;
  // The JSON of {h, n, e, u} written out (hex, an integer and base64url need no escaping).
  const value = `{"h":"${
    codeHash(hashKey, keys.rid, input.code)
  }","n":"","e":${input.expiresAtMs},"u":"${uniqueToken()}"}`;
  const cooling = cooldownMs > 0;
  const outcome = await kv.script(SEND, [
    coolKey,
    `otp:day:${keys.rcv}:${day}`,
    `otp:tpm:${input.gameIndex}:${encodeURIComponent(input.topic)}:${minute}`,
    `otp:last:${keys.rid}`,
    codeKey,
    triesKey(keys.rid),
  ], [
    nowMs,
    cooling ? ms(cooldownMs) : 0,
    input.perReceiverPerDay,
    input.perTopicPerMinute,
    DAY_MS,
    MINUTE_MS,
    value,
    ms(input.expiresAtMs - nowMs),
    RETRY_WINDOW_MS,
  ]) as SendOutcome;
  switch (outcome[0]) {
    case "cooldown": {
      const wait = Math.ceil((cooldownMs - (nowMs - Number(outcome[1]))) / 1000);
      throw new DomainError(
        "conflict",
        "DUPLICATE_OTP_EXISTS",
        `an OTP was sent to this receiver moments ago; try again in ${wait} s`,
      );
    }
    case "day":
      throw new DomainError(
        "rate_limited",
        "SMS_LIMIT_EXCEEDED",
        `this receiver reached its limit of ${input.perReceiverPerDay} OTPs per day`,
        { details: { retryAfterS: Math.ceil(((day + 1) * DAY_MS - nowMs) / 1000) } },
      );
    case "minute":
      throw new DomainError(
        "rate_limited",
        "SMS_LIMIT_EXCEEDED",
        `topic ${input.topic} reached its limit of ${input.perTopicPerMinute} OTPs per minute`,
        { details: { retryAfterS: Math.ceil(((minute + 1) * MINUTE_MS - nowMs) / 1000) } },
      );
  }
  const last = outcome[1];
  return {
    retry: last !== "" && nowMs - Number(last) < RETRY_WINDOW_MS,
    withdraw: async () =>
      void await kv.script(UNSEND, [codeKey, coolKey], [value, cooling ? "1" : "0"]),
  };
}

/** The stored hash of a code: keyed, over the receiver and the code. */
function codeHash(hashKey: OtpHashKey, rid: string, code: string): string {
  // The empty line is where an earlier value format put a per-code nonce.
  return keyedHash(hashKey, `${rid}\n\n${code}`);
}

/**
 * Checks a presented code in one atomic round trip. True at most once per code; every try
 * counts, and after MAX_VERIFY_ATTEMPTS tries the code is void; an expired code is false and
 * removed.
 */
export async function checkCode(
  kv: Kv,
  hashKey: OtpHashKey,
  input: { rid: string; otp: string; nowMs: number },
): Promise<boolean> {
  const key = `otp:code:${input.rid}`;
  const tries = triesKey(input.rid);
  // The counter is created with the code (same expiry); one created here, with no code behind
  // it, is removed at once, and is bounded by the longest validity in any case.
  const outcome = await kv.script(VERIFY, [key, tries], [
    input.nowMs,
    codeHash(hashKey, input.rid, input.otp),
    MAX_VERIFY_ATTEMPTS,
    MAX_CODE_VALIDITY_MS,
  ]) as VerifyOutcome;
  if (outcome[0] !== "legacy") return outcome[0] === "ok";
  return await checkNonceCode(kv, hashKey, { ...input, raw: outcome[1], count: outcome[2] });
}

interface NonceCode {
  h: string;
  n: string;
  e: number;
}

/**
 * The rest of a check of a code stored with a per-code nonce (by an earlier version of the
 * service; such codes live at most MAX_CODE_VALIDITY_MS), after the script read it and counted
 * the try: the hash needs the nonce, so a right code takes one more round trip to claim it.
 */
async function checkNonceCode(
  kv: Kv,
  hashKey: OtpHashKey,
  input: { rid: string; otp: string; nowMs: number; raw: string; count: number },
): Promise<boolean> {
  const { raw, count } = input;
  const key = `otp:code:${input.rid}`;
  const tries = triesKey(input.rid);
  const stored = JSON.parse(raw) as NonceCode;
  if (stored.e <= input.nowMs || count > MAX_VERIFY_ATTEMPTS) {
    await kv.del(key, tries);
    return false;
  }
  const presented = keyedHash(hashKey, `${input.rid}\n${stored.n}\n${input.otp}`);
  if (!equalFixed(presented, stored.h)) {
    if (count >= MAX_VERIFY_ATTEMPTS) await kv.del(key, tries);
    return false;
  }
  // Single use: only the request that removes this exact code wins.
  const taken = await kv.getdel(key);
  if (taken === raw) return true;
  if (taken !== null) {
    const e = (JSON.parse(taken) as { e: number }).e;
    if (e > input.nowMs) await kv.set(key, taken, { nx: true, ttlMs: e - input.nowMs });
  }
  return false;
}
