/**
 * OTP send and verify latency at concurrency 1 and 20 on real Redis through the production
 * Upstash driver and the local REST bridge (in its own process), provider excluded (`log`).
 * Baseline in the same run: one bare SET with TTL at the same concurrency.
 *
 *   deno run -A bench/otp_load.ts [--n 1000]
 */
import { cliFlag } from "../dev/cli_flag.ts";
import { benchTopic, servicesOver } from "./otp_services.ts";
import { finish, spawnDeno } from "./real_tier.ts";
import type { Services } from "../lib/services.ts";
import type { Kv } from "../lib/kv/port.ts";
import { openUpstashKv } from "../lib/kv/upstash.ts";
import { sendSmsOtp } from "../lib/otp/send.ts";
import { verifyOtp } from "../lib/otp/verify.ts";

const N = Number(cliFlag("n") ?? 1000);
const topic = benchTopic(`load-${crypto.randomUUID().slice(0, 6)}`);

const base = Math.floor(Math.random() * 10_000_000);
let numbers = 0;

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

async function run(concurrency: number, s: Services, kv: Kv) {
  const send: number[] = [];
  const verify: number[] = [];
  const set: number[] = [];
  let seq = 0;
  const worker = async () => {
    while (seq < N) {
      const i = seq++;
      const to = `0103${String((base + ++numbers) % 10_000_000).padStart(7, "0")}`;
      let t = performance.now();
      const sent = await sendSmsOtp(s, topic, { to, toCountryNo: "82" });
      send.push(performance.now() - t);
      t = performance.now();
      if (!await verifyOtp(s, topic, { channel: "sms", to, toCountryNo: "82" }, sent.otp)) {
        throw new Error("verify failed");
      }
      verify.push(performance.now() - t);
      t = performance.now();
      await kv.set(`otp-load:${i}`, "x", { ttlMs: 60_000 });
      set.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  for (const [name, xs] of [["send", send], ["verify", verify], ["bare SET", set]] as const) {
    console.log(
      `| concurrency ${concurrency} | ${name} | ${pct(xs, 0.5).toFixed(2)} | ${
        pct(xs, 0.99).toFixed(2)
      } |`,
    );
  }
}

try {
  const token = crypto.randomUUID();
  const bridge = JSON.parse(await spawnDeno(["dev/upstash_bridge.ts", "--token", token]));
  const kv = openUpstashKv(bridge.url, token);
  const s = servicesOver(kv);
  await run(4, s, kv); // warm-up
  console.log(`\nreal Redis via Upstash driver, ${N} send+verify per row`);
  console.log("| run | operation | p50 ms | p99 ms |\n|---|---|---|---|");
  await run(1, s, kv);
  await run(20, s, kv);
} catch (err) {
  console.error(err);
} finally {
  await finish();
}
