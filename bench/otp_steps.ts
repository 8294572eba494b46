/**
 * Where an OTP send and verify spend the service's own time, with the KV and the provider out of
 * the way: a KV whose scripts answer "ok" at once (a resolved promise, no I/O) and the `log`
 * provider. Prints µs per whole send and verify, per step, and how many setImmediate ticks pass
 * while one call runs (0 when it never yields to the event loop). Runs the same on older trees (steps that
 * were asynchronous there are awaited).
 *
 * With --redis, instead: Redis's own time per script call (INFO commandstats, EVALSHA µs per
 * call) for --n sequential sends through the TCP adapter (REDIS_URL), then as many verifies of
 * the codes sent; run it with nothing else using Redis.
 *
 *   deno run -A bench/otp_steps.ts [--n 20000] [--redis]
 */
import { setImmediate } from "node:timers";
import { cliFlag } from "../dev/cli_flag.ts";
import { benchTopic, servicesOver } from "./otp_services.ts";
import type { Kv, KvScript } from "../lib/kv/port.ts";
import { sendSmsOtp } from "../lib/otp/send.ts";
import { verifyOtp } from "../lib/otp/verify.ts";
import { generateCode, keyedHash, otpHashKey } from "../lib/otp/code.ts";
import { receiverKeys } from "../lib/otp/state.ts";
import { formatZonedExpiry } from "../lib/otp/expiry.ts";
import { e164, phoneReceiverId } from "../lib/otp/phone.ts";
import { otpMessage } from "../lib/otp/messages.ts";
import { randomToken } from "../lib/crypto/hashing.ts";

const N = Number(cliFlag("n") ?? 20000);

/** EVALSHA calls and µs so far, from Redis's INFO commandstats. */
async function evalshaStats(): Promise<{ calls: number; usec: number }> {
  const out = await new Deno.Command("redis-cli", {
    args: ["-u", Deno.env.get("REDIS_URL") ?? "redis://127.0.0.1:6379", "info", "commandstats"],
    stdout: "piped",
  }).output();
  const m = /cmdstat_evalsha:calls=(\d+),usec=(\d+)/.exec(new TextDecoder().decode(out.stdout));
  return m ? { calls: Number(m[1]), usec: Number(m[2]) } : { calls: 0, usec: 0 };
}

if (Deno.args.includes("--redis")) {
  const { openRedisKv } = await import("../lib/kv/tcp.ts");
  const kv = openRedisKv(Deno.env.get("REDIS_URL") ?? "redis://127.0.0.1:6379");
  const rs = servicesOver(kv);
  const t = benchTopic(`redis-time-${crypto.randomUUID().slice(0, 6)}`);
  const base = Math.floor(Math.random() * 1_000_000);
  const number = (i: number) => `0105${String((base + i) % 10_000_000).padStart(7, "0")}`;
  const sent: string[] = [];
  // Warm-up: the scripts loaded, the connection open.
  for (let i = 0; i < 50; i++) {
    const to = `0109${String(i).padStart(7, "0")}`;
    const { otp } = await sendSmsOtp(rs, t, { to, toCountryNo: "82" });
    await verifyOtp(rs, t, { channel: "sms", to, toCountryNo: "82" }, otp);
  }
  const per = (a: { calls: number; usec: number }, b: { calls: number; usec: number }) =>
    `${((b.usec - a.usec) / (b.calls - a.calls)).toFixed(2)} µs per call (${
      b.calls - a.calls
    } calls)`;
  const s0 = await evalshaStats();
  for (let i = 0; i < N; i++) {
    sent.push((await sendSmsOtp(rs, t, { to: number(i), toCountryNo: "82" })).otp);
  }
  const s1 = await evalshaStats();
  for (let i = 0; i < N; i++) {
    const to = number(i);
    if (!await verifyOtp(rs, t, { channel: "sms", to, toCountryNo: "82" }, sent[i])) {
      throw new Error("verify failed");
    }
  }
  const s2 = await evalshaStats();
  console.log(`\nRedis time per EVALSHA (commandstats), ${N} sequential calls each`);
  console.log(`| send script | ${per(s0, s1)} |`);
  console.log(`| verify script (right code) | ${per(s1, s2)} |`);
  console.log(`| both | ${per(s0, s2)} |`);
  await kv.close();
  Deno.exit(0);
}

/** A KV that admits every send and accepts every code, answering at once. */
const okKv = {
  kind: "memory",
  script: (script: KvScript) => Promise.resolve(script.name === "otp-send" ? ["ok", ""] : ["ok"]),
} as unknown as Kv;
const s = servicesOver(okKv);
const topic = benchTopic("steps");
let serial = 0;
const nextNumber = () => `0103${String(serial++ % 10_000_000).padStart(7, "0")}`;

async function time(name: string, step: () => unknown): Promise<void> {
  for (let i = 0; i < 2000; i++) await step();
  const samples: number[] = [];
  for (let round = 0; round < 5; round++) {
    const t = performance.now();
    for (let i = 0; i < N; i++) await step();
    samples.push(((performance.now() - t) * 1000) / N);
  }
  samples.sort((a, b) => a - b);
  console.log(`| ${name} | ${samples[2].toFixed(2)} |`);
}

/** Event-loop turns (setImmediate ticks) that pass while one call runs. */
async function turns(call: () => Promise<unknown>): Promise<number> {
  let ticks = 0;
  let running = true;
  const tick = () => {
    if (!running) return;
    ticks++;
    setImmediate(tick);
  };
  setImmediate(tick);
  await call();
  running = false;
  return ticks;
}

const key = await otpHashKey(s.secrets);
const sendOne = () => sendSmsOtp(s, topic, { to: nextNumber(), toCountryNo: "82" });
const verifyOne = () =>
  verifyOtp(s, topic, { channel: "sms", to: nextNumber(), toCountryNo: "82" }, "123456");

console.log(`\nOTP service time per call, KV answering at once, median of 5 x ${N} (µs)`);
console.log("| step | µs |\n|---|---|");
await time("send (whole, log provider)", sendOne);
await time("verify (whole)", verifyOne);
await time("keyed hash (one HMAC)", () => keyedHash(key, `1\nsms\n82:${nextNumber()}`));
await time(
  "receiver keys (two HMACs)",
  () => receiverKeys(key, { gameIndex: 1, topic: "t", channel: "sms", receiver: nextNumber() }),
);
await time("generate code", () => generateCode(6));
await time("zoned expiry", () => formatZonedExpiry(Date.now() + 180_000, "Asia/Seoul"));
await time("receiver id (phone)", () => phoneReceiverId("82", nextNumber()));
await time("E.164 (libphonenumber)", () => e164("82", nextNumber()));
await time("message text", () => otpMessage("en", topic, "123456"));
await time("unique token", () => randomToken(9));
await time("metrics counter", () => s.metrics.otpSends.inc({ channel: "sms", outcome: "sent" }));

const sendTurns: number[] = [];
const verifyTurns: number[] = [];
for (let i = 0; i < 50; i++) {
  sendTurns.push(await turns(sendOne));
  verifyTurns.push(await turns(verifyOne));
}
const mid = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(
  `\nsetImmediate ticks while one call runs, KV answering at once (median of 50; 0 = the call ` +
    `never yields to the event loop): send ${mid(sendTurns)}, verify ${mid(verifyTurns)}`,
);
