/**
 * OTP send and verify latency with the provider excluded (the `log` provider), on the embedded
 * in-memory KV and on real Redis through the production Upstash driver (local REST bridge).
 * Baseline measured in the same run: the bare KV floor of each operation (one SET with TTL for
 * a send, one GETDEL for a verify) on the same adapter.
 *
 *   deno bench -A bench/otp_bench.ts                 Deno.bench, in-memory KV
 *   deno run -A bench/otp_bench.ts --report [--n N]  p50/p99 table: memory KV, real Redis, and
 *                                                    end-to-end HTTP (embedded app, PGlite)
 *
 * Deno-only tooling (not shipped to Workers).
 */
import type { Services } from "../lib/services.ts";
import type { Kv } from "../lib/kv/port.ts";
import { openMemoryKv } from "../lib/kv/memory.ts";
import { openUpstashKv } from "../lib/kv/upstash.ts";
import { sendSmsOtp } from "../lib/otp/send.ts";
import { verifyOtp } from "../lib/otp/verify.ts";
import { startUpstashBridge } from "../dev/upstash_bridge.ts";
import { benchTopic, servicesOver } from "./otp_services.ts";

const topic = benchTopic("bench");

let seq = 0;
function nextNumber(): string {
  seq++;
  return `0102${String((Date.now() * 7 + seq) % 10_000_000).padStart(7, "0")}`;
}

async function sendThenVerify(s: Services) {
  const to = nextNumber();
  const sent = await sendSmsOtp(s, topic, { to, toCountryNo: "82" });
  const ok = await verifyOtp(s, topic, { channel: "sms", to, toCountryNo: "82" }, sent.otp);
  if (!ok) throw new Error("verify failed");
}

// ---- Deno.bench (memory KV) ----
const memory = servicesOver(openMemoryKv());
if (!Deno.args.includes("--report")) {
  Deno.bench("otp send (memory KV, log provider)", { group: "send", baseline: false }, async () => {
    await sendSmsOtp(memory, topic, { to: nextNumber(), toCountryNo: "82" });
  });
  Deno.bench("baseline: bare KV SET with TTL", { group: "send", baseline: true }, async () => {
    await memory.kv.set(`bench:${++seq}`, "x", { ttlMs: 180_000 });
  });
  Deno.bench("otp send + verify (memory KV)", { group: "round" }, async () => {
    await sendThenVerify(memory);
  });
}

// ---- --report: percentiles ----
function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function row(name: string, samples: number[]): string {
  const s = [...samples].sort((a, b) => a - b);
  const f = (v: number) => v.toFixed(3).padStart(8);
  return `| ${name.padEnd(44)} | ${f(pct(s, 50))} | ${f(pct(s, 99))} | ${f(s.at(-1)!)} |`;
}

async function timeIt(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

async function measureTier(label: string, kv: Kv, n: number): Promise<string[]> {
  const s = servicesOver(kv);
  const send: number[] = [];
  const verify: number[] = [];
  const bareSet: number[] = [];
  const bareGetdel: number[] = [];
  for (let i = 0; i < Math.min(50, n); i++) await sendThenVerify(s); // warm-up
  for (let i = 0; i < n; i++) {
    const to = nextNumber();
    let otp = "";
    send.push(
      await timeIt(async () => {
        otp = (await sendSmsOtp(s, topic, { to, toCountryNo: "82" })).otp;
      }),
    );
    verify.push(
      await timeIt(async () => {
        if (!await verifyOtp(s, topic, { channel: "sms", to, toCountryNo: "82" }, otp)) {
          throw new Error("verify failed");
        }
      }),
    );
    const key = `bench:bare:${i}:${seq}`;
    bareSet.push(await timeIt(() => kv.set(key, "x", { ttlMs: 180_000 })));
    bareGetdel.push(await timeIt(() => kv.getdel(key)));
  }
  return [
    row(`${label}: send (log provider)`, send),
    row(`${label}: verify`, verify),
    row(`${label}: baseline bare SET with TTL`, bareSet),
    row(`${label}: baseline bare GETDEL`, bareGetdel),
  ];
}

async function measureHttp(n: number): Promise<string[]> {
  // The harness reads its configuration from the environment: lift the topic limit for the run.
  Deno.env.set("OTP_TOPIC_PER_MINUTE", "1000000000");
  const { admin, callJson, seedTenant } = await import("../tests/harness.ts");
  const t = await seedTenant("bench");
  const key = await t.apiKey(["otp"]);
  await admin("POST", `/admin/v1/games/${t.gameIndex}/otp-topics`, {
    topic: "bench",
    serviceName: "Bench",
    mode: "provider",
  });
  const headers = { authorization: `bearer ${key.apiKey}`, topic: "bench" };
  const send: number[] = [];
  const verify: number[] = [];
  const health: number[] = [];
  for (let i = 0; i < n + 20; i++) {
    const to = nextNumber();
    let otp = "";
    const a = await timeIt(async () => {
      const r = await callJson("POST", "/otp/sms", { json: { to, toCountryNo: "82" }, headers });
      if (r.status !== 200) throw new Error(JSON.stringify(r.body));
      otp = r.body.otp;
    });
    const b = await timeIt(async () => {
      const r = await callJson("POST", "/otp/verify", {
        json: { to, toCountryNo: "82", otp },
        headers,
      });
      if (r.body?.result !== true) throw new Error(JSON.stringify(r.body));
    });
    const c = await timeIt(() => callJson("GET", "/healthz"));
    if (i >= 20) {
      send.push(a);
      verify.push(b);
      health.push(c);
    }
  }
  return [
    row("HTTP embedded: POST /otp/sms", send),
    row("HTTP embedded: POST /otp/verify", verify),
    row("HTTP embedded: baseline GET /healthz", health),
  ];
}

if (Deno.args.includes("--report")) {
  const nArg = Deno.args.indexOf("--n");
  const n = nArg >= 0 ? Number(Deno.args[nArg + 1]) : 2000;
  const lines = [
    "| case | p50 ms | p99 ms | max ms |",
    "| --- | ---: | ---: | ---: |",
    ...await measureTier("memory KV", openMemoryKv(), n),
  ];
  const token = crypto.randomUUID();
  const bridge = await startUpstashBridge({ port: 0, token });
  try {
    lines.push(
      ...await measureTier("real Redis (Upstash driver)", openUpstashKv(bridge.url, token), n),
    );
  } finally {
    await bridge.close();
  }
  lines.push(...await measureHttp(Math.min(n, 1000)));
  console.log(`n = ${n} per case, sequential\n`);
  console.log(lines.join("\n"));
  Deno.exit(0);
}
