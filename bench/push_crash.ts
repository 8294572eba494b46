/**
 * A push campaign of N devices (70 % Android through FCM, 30 % iOS through APNs over HTTP/2) sent
 * by a server process (`server.ts`, real PostgreSQL through the Neon bridge) to the local provider
 * fakes, once without a crash and once SIGKILLed at a share of the campaign and started again at
 * once. Reports devices reached, devices that got two copies (and that each pair had one collapse
 * id), messages counted as resent, and the time the crash cost (the crashed run's time from the
 * first message to the campaign's completion, minus the clean run's). Modes alternate by round.
 *
 *   deno run -A bench/push_crash.ts [--devices 100000] [--kill-at 0.3] [--rounds 1]
 */
import pg from "pg";
import { cliFlag } from "../dev/cli_flag.ts";
import { median, runScript, spawnDeno, useTier } from "./real_tier.ts";
import { startCluster } from "../tests/multi/cluster.ts";
import { dueCampaign, seedGame, seedPushDevices } from "../tests/multi/seed.ts";
import type { Duplicates } from "../tests/routes/push/fakes.ts";

const DEVICES = Number(cliFlag("devices") ?? 100_000);
const KILL_AT = Number(cliFlag("kill-at") ?? 0.3);
const ROUNDS = Number(cliFlag("rounds") ?? 1);
const LEASE_MS = 2_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function round(mode: "clean" | "crash", db: pg.Client, fakesUrl: string) {
  const cluster = await startCluster(1, {
    FCM_ENDPOINT: Deno.env.get("FCM_ENDPOINT")!,
    APNS_ENDPOINT: Deno.env.get("APNS_ENDPOINT")!,
    DENO_CERT: Deno.env.get("PUSH_FAKES_CA")!,
    PUSH_LEASE_MS: String(LEASE_MS),
    // Info, as a server runs: the port is read from the `listening` line; both modes write the
    // same outbound lines.
    LOG_LEVEL: "info",
    SCHEDULER_INTERVAL_MS: "250",
  });
  try {
    const g = await seedGame(cluster, "bench", ["push"]);
    const s = await seedPushDevices(cluster, db, g, { fakesUrl, devices: DEVICES });
    const headers = { authorization: `Bearer ${g.apiKey}` };
    const { id } = await dueCampaign(cluster, db, g);
    const tally = async (q: string): Promise<Duplicates> =>
      await (await fetch(`${fakesUrl}/_fake/duplicates?${q}`)).json();
    const accepted = async () =>
      (await tally(`project=${s.projectId}`)).messages +
      (await tally(`topic=${s.bundleId}`)).messages;
    while ((await accepted()) === 0) await sleep(20);
    const t0 = performance.now();
    // Messages accepted by the fakes every 5 s: the rate before and after the crash.
    const timeline: number[] = [];
    const sampler = setInterval(async () => timeline.push(await accepted()), 5_000);
    let killedAt = 0;
    let restartMs = 0;
    if (mode === "crash") {
      while ((await accepted()) < KILL_AT * DEVICES) await sleep(50);
      killedAt = await accepted();
      await cluster.kill(0);
      const r0 = performance.now();
      await cluster.restart(0);
      restartMs = performance.now() - r0;
    }
    let report;
    for (;;) {
      report = (await cluster.call(0, "GET", `/push/campaigns/${id}`, { headers })).body;
      if (report.status === 3) break;
      await sleep(100);
    }
    const ms = performance.now() - t0;
    clearInterval(sampler);
    const fcm = await tally(`project=${s.projectId}`);
    const apns = await tally(`topic=${s.bundleId}`);
    const twice = [...fcm.duplicates, ...apns.duplicates];
    const pairsOneId = twice.every((d) => new Set(d.collapseIds).size === 1);
    return {
      ms,
      killedAt,
      restartMs,
      reached: fcm.tokens + apns.tokens,
      messages: fcm.messages + apns.messages,
      twice: twice.length,
      maxCopies: Math.max(1, ...twice.map((d) => d.copies)),
      pairsOneId,
      resent: report.counts.resent as number,
      timeline,
    };
  } finally {
    await cluster.stop();
  }
}

async function main() {
  const printed = await spawnDeno(["dev/push_fakes.ts", "--count-only", "--json"]);
  const fakes = JSON.parse(printed.split("\n")[0]);
  for (const [k, v] of Object.entries(fakes)) Deno.env.set(k, v as string);
  await useTier("real");
  const db = new pg.Client({ connectionString: Deno.env.get("DATABASE_URL") });
  await db.connect();
  const load = () => Deno.loadavg().map((l) => l.toFixed(2)).join(" ");
  console.log(`push campaign of ${DEVICES} devices, SIGKILL at ${KILL_AT * 100} %; load ${load()}`);
  const times: Record<string, number[]> = { clean: [], crash: [] };
  try {
    for (let r = 0; r < ROUNDS; r++) {
      for (const mode of r % 2 === 0 ? ["clean", "crash"] as const : ["crash", "clean"] as const) {
        const x = await round(mode, db, fakes.PUSH_FAKES_URL);
        times[mode].push(x.ms);
        console.log(
          `round ${r + 1} ${mode}: ${(x.ms / 1000).toFixed(1)} s from the first message to ` +
            `completion` +
            (mode === "crash"
              ? ` (killed at ${x.killedAt} accepted, restarted in ${Math.round(x.restartMs)} ms)`
              : "") +
            `; devices reached ${x.reached} of ${DEVICES}, messages accepted ${x.messages}, ` +
            `devices with two copies ${x.twice} (at most ${x.maxCopies} copies; ` +
            `${x.pairsOneId ? "each pair with one collapse id" : "SOME PAIRS WITH TWO IDS"}), ` +
            `resent ${x.resent}; load ${load()}`,
        );
        console.log(`  accepted every 5 s: ${x.timeline.join(" ")}`);
      }
    }
    const lost = median(times.crash) - median(times.clean);
    console.log(
      `median clean ${(median(times.clean) / 1000).toFixed(1)} s, crash ` +
        `${(median(times.crash) / 1000).toFixed(1)} s: the crash cost ${
          (lost / 1000).toFixed(1)
        } s`,
    );
  } finally {
    await db.end();
  }
}

await runScript(main);
