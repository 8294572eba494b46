/**
 * OTP send and verify latency at concurrency 20 (and 1) on real Redis, provider excluded (`log`),
 * through Redis over TCP (lib/kv/resp.ts, REDIS_URL) and through the production Upstash driver and the
 * local REST bridge (in its own process). References in the same run, on the same adapter: a bare
 * SET with TTL after each send and verify in the same workers; a loop of bare SETs alone at
 * the same concurrency (3N of them, as many KV calls); and, with --scripts, the Redis work of each
 * send and verify alone: the service's own two scripts with keys and arguments of the same shape
 * made beforehand, each followed by a bare SET, N of each at the same concurrency. The parts
 * alternate in --slices slices so all meet the same moments of the machine's load. Rounds
 * alternate the adapters' order and which part goes first; medians of the rounds are printed,
 * with each round's ratio of the send and verify p99 to the SET loop's p99 (and to the scripts'
 * own p99) at concurrency 20. With --floor, also a floor under any implementation of the two
 * calls: for a send, one MULTI/EXEC of the four writes every admitted send makes (the code, the
 * two counters, the last send; no check, no cooldown, so less than a send must do), for a verify
 * one MULTI/EXEC reading the code and counting the try; N of each, each followed by a bare SET,
 * in the same slices (a floor over TCP; through the Upstash driver a MULTI/EXEC is a request to
 * another endpoint, slower than a script's, so there it is not one). With --json, the per-round
 * rows are printed as one JSON line instead (for bench/otp_compare.ts). After each adapter's part
 * of a round, the keys it left in Redis (the receivers' day counters live 24 h) are deleted, so runs
 * do not pile up keys whose expiry would stall later ones.
 *
 *   deno run -A bench/otp_load.ts [--n 5000] [--rounds 3] [--kv tcp,upstash] [--slices 10]
 *     [--scripts] [--floor] [--json] [--first-round 0]
 */
import { cliFlag } from "../dev/cli_flag.ts";
import { benchTopic, servicesOver } from "./otp_services.ts";
import { finish, median, spawnDeno } from "./real_tier.ts";
import type { Services } from "../lib/services.ts";
import type { Kv } from "../lib/kv/port.ts";
import { openUpstashKv } from "../lib/kv/upstash.ts";
import { openRedisKv } from "../lib/kv/tcp.ts";
import { sendSmsOtp } from "../lib/otp/send.ts";
import { verifyOtp } from "../lib/otp/verify.ts";
import { OTP_SCRIPTS } from "../lib/otp/state.ts";
import { topicReceiverKeys } from "../lib/otp/send.ts";
import { phoneReceiverId } from "../lib/otp/phone.ts";
import { otpHashKey } from "../lib/otp/code.ts";

const N = Number(cliFlag("n") ?? 5000);
const ROUNDS = Number(cliFlag("rounds") ?? 3);
const KVS = (cliFlag("kv") ?? "tcp,upstash").split(",");
const JSON_OUT = Deno.args.includes("--json");
const SCRIPTS = Deno.args.includes("--scripts");
const FLOOR = Deno.args.includes("--floor");
/** The first round's number (its parity picks the order), for runs of one round each. */
const FIRST_ROUND = Number(cliFlag("first-round") ?? 0);
/** Slices the OTP run and the SET loop alternate in, within each round. */
const SLICES = Number(cliFlag("slices") ?? 10);
const REDIS_URL = Deno.env.get("REDIS_URL") ?? "redis://127.0.0.1:6379";
const topic = benchTopic(`load-${crypto.randomUUID().slice(0, 6)}`);
const prefix = `otp-load:${crypto.randomUUID().slice(0, 8)}`;

const base = Math.floor(Math.random() * 10_000_000);
let numbers = 0;
/** The numbers sent to since the last clean-up, and other keys left behind without a short TTL. */
const sentTo: string[] = [];
const left: string[] = [];

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

type Row = { p50: number; p99: number };
type Result = Record<string, Row>;
/** adapter and concurrency -> case -> one row per round. */
export type Rounds = Record<string, Record<string, Row[]>>;

/** Each round's ratio of a case's p99 to a reference's p99 (the SET loop's) in the same round. */
export function p99Ratios(
  cases: Record<string, Row[]>,
  name: string,
  reference = "SET loop",
): number[] {
  return (cases[name] ?? []).map((row, i) => row.p99 / cases[reference][i].p99);
}

/** Prints the medians of the rounds, and the p99 ratios to the SET loop at concurrency 20. */
export function printRounds(rounds: Rounds, n: number, title = ""): void {
  const count = Object.values(Object.values(rounds)[0] ?? {})[0]?.length ?? 0;
  console.log(
    `\n${title}OTP on real Redis, ${n} send+verify per run, ${count} rounds, medians (ms)`,
  );
  console.log("| adapter, concurrency | case | p50 | p99 | p99 per round |\n|---|---|---|---|---|");
  for (const [name, cases] of Object.entries(rounds)) {
    for (const [k, rows] of Object.entries(cases)) {
      const p50 = median(rows.map((x) => x.p50));
      const p99 = median(rows.map((x) => x.p99));
      const each = rows.map((x) => x.p99.toFixed(2)).join(" / ");
      console.log(`| ${name} | ${k} | ${p50.toFixed(2)} | ${p99.toFixed(2)} | ${each} |`);
    }
  }
  // The SET loop alone, and the SET the OTP workers make between their calls (under the same
  // load: the reference of the first OTP runs).
  for (const reference of ["SET loop", "SET between"]) {
    console.log(`\n| adapter | p99 / ${reference} p99 | median | per round |\n|---|---|---|---|`);
    for (const [name, cases] of Object.entries(rounds)) {
      if (!cases[reference] || !cases.send || !name.endsWith("c20")) continue;
      const floors = ["send floor", "verify floor"].filter((k) => cases[k]);
      for (const k of ["send", "verify", ...floors]) {
        const ratios = p99Ratios(cases, k, reference);
        const each = ratios.map((x) => x.toFixed(2)).join(" / ");
        console.log(`| ${name} | ${k} | ${median(ratios).toFixed(2)} | ${each} |`);
      }
    }
  }
  if (!Object.values(rounds).some((cases) => cases["send script"])) return;
  console.log(
    "\n| adapter | p99 / its script's p99 alone | median | per round |\n|---|---|---|---|",
  );
  for (const [name, cases] of Object.entries(rounds)) {
    if (!cases["send script"]) continue;
    for (const k of ["send", "verify"]) {
      const ratios = (cases[k] ?? []).map((row, i) => row.p99 / cases[`${k} script`][i].p99);
      const each = ratios.map((x) => x.toFixed(2)).join(" / ");
      console.log(`| ${name} | ${k} | ${median(ratios).toFixed(2)} | ${each} |`);
    }
  }
}

type Samples = Record<string, number[]>;
const row = (xs: number[]): Row => ({ p50: pct(xs, 0.5), p99: pct(xs, 0.99) });
const rows = (samples: Samples): Result =>
  Object.fromEntries(Object.entries(samples).map(([k, xs]) => [k, row(xs)]));

/** `count` sends, each followed by its verify and a bare SET, `concurrency` at a time. */
async function otpRun(
  concurrency: number,
  s: Services,
  kv: Kv,
  count = N,
  into: Samples = {},
): Promise<Samples> {
  const send = into.send ??= [];
  const verify = into.verify ??= [];
  const set = into["SET between"] ??= [];
  let seq = 0;
  const worker = async () => {
    while (seq < count) {
      const i = seq++;
      const to = `0103${String((base + ++numbers) % 10_000_000).padStart(7, "0")}`;
      let t = performance.now();
      const sent = await sendSmsOtp(s, topic, { to, toCountryNo: "82" });
      send.push(performance.now() - t);
      sentTo.push(to);
      t = performance.now();
      if (!await verifyOtp(s, topic, { channel: "sms", to, toCountryNo: "82" }, sent.otp)) {
        throw new Error("verify failed");
      }
      verify.push(performance.now() - t);
      t = performance.now();
      await kv.set(`${prefix}:${i}`, "x", { ttlMs: 60_000 });
      set.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return into;
}

/** `count` bare SETs with TTL alone, `concurrency` at a time. */
async function setLoop(concurrency: number, kv: Kv, count: number, into: Samples) {
  const set = into["SET loop"] ??= [];
  let seq = 0;
  const worker = async () => {
    while (seq < count) {
      const i = seq++;
      const t = performance.now();
      await kv.set(`${prefix}:loop:${i}`, "x", { ttlMs: 60_000 });
      set.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** Forty hex digits, as a receiver's key part is (made before timing). */
const hexId = () => crypto.randomUUID().replaceAll("-", "").padEnd(40, "0");

/**
 * The Redis work of `count` sends and verifies alone: the service's send script, its verify
 * script with the right code's hash, and a bare SET, `concurrency` at a time, with keys and
 * arguments shaped as the service's (made before the run, so only the calls are timed).
 */
async function scriptRun(concurrency: number, kv: Kv, count: number, into: Samples) {
  const send = into["send script"] ??= [];
  const verify = into["verify script"] ??= [];
  const calls = Array.from({ length: count }, () => {
    const rid = hexId();
    const hash = `${hexId()}${hexId()}`.slice(0, 64);
    return { rid, rcv: hexId(), hash, unique: crypto.randomUUID().slice(0, 22) };
  });
  let seq = 0;
  const worker = async () => {
    while (seq < count) {
      const i = seq++;
      const { rid, rcv, hash, unique } = calls[i];
      const now = Date.now();
      const code = `otp:code:${rid}`;
      const tries = `otp:try:${rid}`;
      const keys = [
        `otp:cool:${rid}`,
        `otp:day:${rcv}:${Math.floor(now / 86_400_000)}`,
        `otp:tpm:1:${encodeURIComponent(topic.topic)}:${Math.floor(now / 60_000)}`,
        `otp:last:${rid}`,
        code,
        tries,
      ];
      const value = `{"h":"${hash}","n":"","e":${now + 180_000},"u":"${unique}"}`;
      left.push(keys[0], keys[1], keys[3]);
      let t = performance.now();
      const sent = await kv.script(OTP_SCRIPTS.send, keys, [
        now,
        60_000,
        1_000_000,
        1_000_000_000,
        86_400_000,
        60_000,
        value,
        180_000,
        300_000,
      ]);
      send.push(performance.now() - t);
      t = performance.now();
      const checked = await kv.script(OTP_SCRIPTS.verify, [code, tries], [
        Date.now(),
        hash,
        5,
        86_400_000,
      ]);
      verify.push(performance.now() - t);
      if ((sent as string[])[0] !== "ok" || (checked as string[])[0] !== "ok") {
        throw new Error(`the scripts alone answered ${sent} and ${checked}`);
      }
      await kv.set(`${prefix}:script:${i}`, "x", { ttlMs: 60_000 });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/**
 * Less Redis work than any send and verify: for a send, the four writes an admitted send makes
 * (its code, the receiver's day counter, the topic's minute counter, the last send) in one
 * MULTI/EXEC, with no check and no cooldown; for a verify, the code read and the try counted in
 * one MULTI/EXEC; each pair followed by a bare SET, `concurrency` at a time (keys made before).
 */
async function floorRun(concurrency: number, kv: Kv, count: number, into: Samples) {
  const send = into["send floor"] ??= [];
  const verify = into["verify floor"] ??= [];
  const ids = Array.from({ length: count }, hexId);
  const made = new Set<string>();
  let seq = 0;
  const worker = async () => {
    while (seq < count) {
      const i = seq++;
      const rid = ids[i];
      const now = Date.now();
      const value = `{"h":"${rid}${rid.slice(0, 24)}","n":"","e":${now + 180_000},"u":"${
        rid.slice(0, 22)
      }"}`;
      const day = `${prefix}:floor:day:${rid}:${Math.floor(now / 86_400_000)}`;
      const minute = `${prefix}:floor:tpm:${Math.floor(now / 60_000)}`;
      made.add(day).add(minute).add(`${prefix}:floor:try:${rid}`)
        .add(`${prefix}:floor:code:${rid}`).add(`${prefix}:floor:last:${rid}`);
      let t = performance.now();
      await kv.batch([
        { op: "set", key: `${prefix}:floor:code:${rid}`, value, ttlMs: 180_000 },
        { op: "incr", key: day },
        { op: "incr", key: minute },
        { op: "set", key: `${prefix}:floor:last:${rid}`, value: String(now), ttlMs: 300_000 },
      ]);
      send.push(performance.now() - t);
      t = performance.now();
      const [code] = await kv.batch([
        { op: "get", key: `${prefix}:floor:code:${rid}` },
        { op: "incr", key: `${prefix}:floor:try:${rid}` },
      ]);
      verify.push(performance.now() - t);
      if (code !== value) throw new Error("the floor's code did not read back");
      await kv.set(`${prefix}:floor:${i}`, "x", { ttlMs: 60_000 });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  // The counters were made without expiry: removed (with the rest), so nothing outlives the run.
  left.push(...made);
}

/**
 * Deletes what the OTP calls, the scripts alone and the floor left in Redis since the last call:
 * for each number sent to, the receiver's day counter (today's and yesterday's, in case the run
 * crossed midnight), its last send and its cooldown.
 */
async function forget(s: Services, kv: Kv): Promise<void> {
  const hashKey = await otpHashKey(s.secrets);
  const dayNow = Math.floor(Date.now() / 86_400_000);
  for (const to of sentTo.splice(0)) {
    const { rcv, rid } = topicReceiverKeys(hashKey, topic, "sms", phoneReceiverId("82", to));
    left.push(`otp:day:${rcv}:${dayNow}`, `otp:day:${rcv}:${dayNow - 1}`);
    left.push(`otp:last:${rid}`, `otp:cool:${rid}`);
  }
  const keys = left.splice(0);
  for (let i = 0; i < keys.length; i += 500) await kv.del(...keys.slice(i, i + 500));
}

/**
 * N send+verify and 3N bare SETs (as many KV calls) at concurrency 20, in SLICES alternating
 * slices, so both meet the same moments of the machine's load; `setFirst` picks which starts.
 */
async function interleaved(s: Services, kv: Kv, setFirst: boolean): Promise<Result> {
  const samples: Samples = {};
  for (let slice = 0; slice < SLICES; slice++) {
    const otp = () => otpRun(20, s, kv, N / SLICES, samples);
    const sets = () => setLoop(20, kv, (3 * N) / SLICES, samples);
    const parts = (slice % 2 === 0) === setFirst ? [sets, otp] : [otp, sets];
    // The scripts alone go first, between or last, in turn.
    if (SCRIPTS) parts.splice(slice % 3, 0, () => scriptRun(20, kv, N / SLICES, samples));
    if (FLOOR) {
      parts.splice(slice % (parts.length + 1), 0, () => floorRun(20, kv, N / SLICES, samples));
    }
    for (const part of parts) await part();
  }
  return rows(samples);
}

if (import.meta.main) {
  try {
    const adapters: Record<string, Kv> = {};
    for (const name of KVS) {
      if (name === "tcp") adapters.tcp = openRedisKv(REDIS_URL);
      else if (name === "upstash") {
        const token = crypto.randomUUID();
        const bridge = JSON.parse(await spawnDeno(["dev/upstash_bridge.ts", "--token", token]));
        adapters.upstash = openUpstashKv(bridge.url, token);
      } else throw new Error(`unknown --kv ${name}`);
    }
    const services = Object.fromEntries(
      Object.entries(adapters).map(([name, kv]) => [name, servicesOver(kv)]),
    );
    for (const [name, kv] of Object.entries(adapters)) {
      await otpRun(4, services[name], kv); // warm-up
      await forget(services[name], kv);
    }
    const rounds: Rounds = {};
    const keep = (name: string, result: Result) => {
      for (const [k, row] of Object.entries(result)) {
        ((rounds[name] ??= {})[k] ??= []).push(row);
      }
    };
    const names = Object.keys(adapters);
    for (let r = FIRST_ROUND; r < FIRST_ROUND + ROUNDS; r++) {
      const order = r % 2 === 0 ? names : [...names].reverse();
      for (const name of order) {
        const kv = adapters[name];
        // Alternate which of the OTP run and the SET loop goes first.
        keep(`${name} c20`, await interleaved(services[name], kv, r % 2 === 1));
        keep(`${name} c1`, rows(await otpRun(1, services[name], kv)));
        await forget(services[name], kv);
      }
      console.error(`round ${r - FIRST_ROUND + 1}/${ROUNDS} done`);
    }
    if (JSON_OUT) console.log(JSON.stringify({ n: N, rounds }));
    else printRounds(rounds, N);
    for (const kv of Object.values(adapters)) await kv.close();
  } catch (err) {
    console.error(err);
  } finally {
    await finish();
  }
}
