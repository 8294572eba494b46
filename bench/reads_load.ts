/**
 * The cached reads against their lean reference, in one run: the service (bench/serve_reads.ts)
 * and the reference (bench/read_reference.ts, the same work with a request line, in Hono) each in
 * its own process, measured with the same wrk setup in alternating rounds (the order within a
 * pair flips every round), medians reported with each read's share of its reference. Before
 * timing, every reference answer is compared with the service's (status, Content-Type, body
 * bytes) for every path measured.
 *
 *   deno run -A bench/reads_load.ts embedded|real|real:tcp [--rounds 5] [--seconds 5]
 *     [--only name,...] [--baseline <checkout>] [--halves]
 *
 * Beside each target's req/s and latency, the CPU time its server process spent per request over
 * the run (user and system time of every thread, from /proc: what the server did, whatever else
 * ran on the machine), and the reference's CPU per request over the target's in each round. Every
 * round is printed after the table. `--halves` measures each target of a round in two runs of half
 * the time, in mirrored order (A B, then B A), so that a load which changes during the round
 * weighs on both sides alike.
 *
 * `--baseline` names another checkout of the product (an older commit, with its node_modules):
 * its bench/serve_reads.ts is started too (on the same stores, seeding its own tenants) and each
 * cached read is measured on it in the same rounds, so a change is compared with what it replaced
 * and with the reference in one run.
 *
 * Targets: the API-key item read of one polled id, the same read over 1,000 ids at random
 * (every id's answer is in the service's state cache after the warm-up; the reference holds all
 * of them), and `GET /service/v1/tx` with an access token (first page, 20 of 100 rows); bare
 * Hono `/healthz` (bench/bare_hono.ts) for scale. On the real tiers also the item read with its
 * state cache off against a bare Hono route running the read's one SELECT on the same pool, both
 * in one process of their own (bench/serve_reads.ts uncached). The random-id pair is like for like
 * only on real:tcp, where the reference keeps answers for the service's 1 s and reads a miss
 * from the database as the service does; elsewhere it holds every answer for good. Needs `wrk`.
 */
import { type Run, type Target, wrk as runWrk } from "./wrk.ts";
import { cliFlag } from "../dev/cli_flag.ts";
import { cpuTicks, pidOf } from "./proc_cpu.ts";
import { freePort, median, runScript, spawnDeno, tierArg, useTier } from "./real_tier.ts";
import type { ServedReads } from "./serve_reads.ts";
import { answer, referenceFixture } from "./read_reference.ts";

const tier = tierArg();
const rounds = Number(cliFlag("rounds") ?? 5);
const seconds = Number(cliFlag("seconds") ?? 5);
const only = cliFlag("only")?.split(",");
const baselineDir = cliFlag("baseline");
const halves = Deno.args.includes("--halves");
const IDS = 1_000;

function uptime(): string {
  return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
}

async function main() {
  await useTier(tier);
  const servedFile = await Deno.makeTempFile({ suffix: ".json" });
  await spawnDeno(["bench/serve_reads.ts", String(IDS), servedFile]);
  const s = JSON.parse(await Deno.readTextFile(servedFile)) as ServedReads;
  const key = { authorization: `Bearer ${s.apiKey}` };
  const fixture = await referenceFixture(s);
  const fixtureFile = await Deno.makeTempFile({ suffix: ".json" });
  await Deno.writeTextFile(fixtureFile, JSON.stringify(fixture));
  const refPort = freePort();
  await spawnDeno(["bench/read_reference.ts", String(refPort), fixtureFile]);
  const ref = `http://127.0.0.1:${refPort}`;
  const barePort = freePort();
  await spawnDeno(["bench/bare_hono.ts", String(barePort)]);

  let baseline: ServedReads | undefined;
  if (baselineDir) {
    const baselineFile = await Deno.makeTempFile({ suffix: ".json" });
    await spawnDeno(["bench/serve_reads.ts", String(IDS), baselineFile], baselineDir);
    baseline = JSON.parse(await Deno.readTextFile(baselineFile)) as ServedReads;
  }
  const first = s.transactionIds[0];
  const paths = s.transactionIds.map((id) => `/items/v1/requests/${id}`);
  const pairs: [Target, Target, Target?][] = ([
    ["item read, API key, polled id", `/items/v1/requests/${first}`, key, undefined],
    ["item read, API key, 1,000 ids at random", `/items/v1/requests/${first}`, key, paths],
    ["GET /service/v1/tx, JWT, 20 of 100 rows", "/service/v1/tx", s.chainHeaders, undefined],
  ] as const).map(([name, path, headers, paths], i) => [
    { name: `service: ${name}`, url: `${s.base}${path}`, headers, paths: paths as string[] },
    { name: `reference: ${name}`, url: `${ref}${path}`, headers, paths: paths as string[] },
    baseline && baselineTarget(baseline, i, `baseline (${baselineDir}): ${name}`),
  ]);
  // The uncached item read against the bare route running its query on the same pool (both in
  // a process of their own: bench/serve_reads.ts uncached), on the real tiers.
  if (tier !== "embedded") {
    const uncachedFile = await Deno.makeTempFile({ suffix: ".json" });
    await spawnDeno(["bench/serve_reads.ts", "1", uncachedFile, "uncached"]);
    const u = JSON.parse(await Deno.readTextFile(uncachedFile));
    const name = "item read, API key, state cache off, vs bare Hono + its SELECT on the same pool";
    pairs.push([
      {
        name: `service: ${name}`,
        url: `${u.base}/items/v1/requests/${u.transactionIds[0]}`,
        headers: { authorization: `Bearer ${u.apiKey}` },
      },
      { name: `reference: ${name}`, url: `${u.floor}/item/${u.transactionIds[0]}` },
    ]);
  }
  const measured = pairs.filter(([a]) => !only || only.some((o) => a.name.includes(o)));
  // Same bytes: every id, and the list page (status, Content-Type, body; a request id each).
  for (
    const [path, headers] of [
      ...paths.map((p) => [p, key] as const),
      [
        "/service/v1/tx",
        s.chainHeaders,
      ] as const,
    ]
  ) {
    const [a, b] = [
      await answer(`${s.base}${path}`, headers),
      await answer(`${ref}${path}`, headers),
    ];
    if (a.status !== b.status || a.type !== b.type || a.body !== b.body) {
      throw new Error(
        `${path}: reference answers ${JSON.stringify(b)}, service ${JSON.stringify(a)}`,
      );
    }
    if (!a.requestId || !b.requestId) throw new Error(`${path}: no X-Request-Id`);
  }
  // Warm-up (JIT, caches) of every target.
  const bare: Target = { name: "bare Hono /healthz", url: `http://127.0.0.1:${barePort}/healthz` };
  for (const t of [bare, ...measured.flat()]) if (t) await runWrk(t, 1);
  const loadBefore = uptime();
  const results = new Map<string, Measured[]>();
  const record = (t: Target, r: Measured) => {
    if (!results.has(t.name)) results.set(t.name, []);
    results.get(t.name)!.push(r);
  };
  const ratios = new Map<string, number[]>();
  const cpuRatios = new Map<string, number[]>();
  // Each target's server process, for its CPU time per request.
  const pids = new Map<Target, number>();
  for (const t of [bare, ...measured.flat()]) if (t) pids.set(t, pidOf(new URL(t.url).port));
  const measure = async (t: Target, s = seconds): Promise<Measured> => {
    const pid = pids.get(t)!;
    const before = cpuTicks(pid);
    const run = await runWrk(t, s);
    return { ...run, seconds: s, cpuUs: (cpuTicks(pid) - before) * 10_000 / (run.rps * s) };
  };
  // A round's measurement of each target of a pair (or triple): with `--halves`, two runs of half
  // the time in mirrored order (A B, then B A), so a load that rises or falls during the round
  // weighs on each alike; req/s and CPU are the two halves' together, p50 and p99 their mean.
  const measureAll = async (order: Target[]): Promise<Map<Target, Measured>> => {
    const got = new Map<Target, Measured>();
    if (!halves) {
      for (const t of order) got.set(t, await measure(t));
      return got;
    }
    const half = Math.max(1, Math.round(seconds / 2));
    const first = new Map<Target, Measured>();
    for (const t of order) first.set(t, await measure(t, half));
    for (const t of [...order].reverse()) {
      const [a, b] = [first.get(t)!, await measure(t, half)];
      const requests = a.rps * a.seconds + b.rps * b.seconds;
      got.set(t, {
        rps: requests / (a.seconds + b.seconds),
        p50: (a.p50 + b.p50) / 2,
        p99: (a.p99 + b.p99) / 2,
        non2xx: a.non2xx + b.non2xx,
        seconds: a.seconds + b.seconds,
        cpuUs: (a.cpuUs * a.rps * a.seconds + b.cpuUs * b.rps * b.seconds) / requests,
      });
    }
    return got;
  };
  for (let r = 0; r < rounds; r++) {
    record(bare, await measure(bare));
    for (const [svc, refT, base] of measured) {
      const order = base
        ? [[svc, refT, base], [refT, base, svc], [base, svc, refT]][r % 3]
        : r % 2 === 0
        ? [svc, refT]
        : [refT, svc];
      const got = await measureAll(order);
      for (const t of order) record(t, got.get(t)!);
      for (const t of base ? [svc, base] : [svc]) {
        if (!ratios.has(t.name)) ratios.set(t.name, []);
        ratios.get(t.name)!.push(got.get(t)!.rps / got.get(refT)!.rps);
        if (!cpuRatios.has(t.name)) cpuRatios.set(t.name, []);
        cpuRatios.get(t.name)!.push(got.get(refT)!.cpuUs / got.get(t)!.cpuUs);
      }
    }
  }
  const loadAfter = uptime();
  console.log(
    `\n${tier} tier, wrk -t2 -c50 -d${seconds}s${
      halves ? " (two halves in mirrored order)" : ""
    }, ${rounds} rounds alternated, medians; ` +
      `load average (1/5/15 min) before ${loadBefore}, after ${loadAfter}`,
  );
  console.log(
    "| target | req/s | p50 ms | p99 ms | share of the reference (median of rounds) | " +
      "server CPU µs/request | reference's CPU per request / this one's (median of rounds) | " +
      "non-2xx |",
  );
  console.log("|---|---|---|---|---|---|---|---|");
  const rounded = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(", ");
  const row = (t: Target, share: string, cpuShare: string) => {
    const runs = results.get(t.name)!;
    console.log(
      `| ${t.name} | ${Math.round(median(runs.map((x) => x.rps)))} | ${
        median(runs.map((x) => x.p50)).toFixed(2)
      } | ${median(runs.map((x) => x.p99)).toFixed(2)} | ${share} | ${
        median(runs.map((x) => x.cpuUs)).toFixed(1)
      } | ${cpuShare} | ${runs.reduce((a, x) => a + x.non2xx, 0)} |`,
    );
  };
  row(bare, "—", "—");
  for (const [svc, refT, base] of measured) {
    row(refT, "1.00", "1.00");
    for (const t of base ? [base, svc] : [svc]) {
      const rs = ratios.get(t.name)!;
      const cs = cpuRatios.get(t.name)!;
      row(
        t,
        `**${median(rs).toFixed(2)}** (rounds ${rounded(rs)})`,
        `${median(cs).toFixed(2)} (rounds ${rounded(cs)})`,
      );
    }
  }
  console.log("\nEvery round (req/s, p99 ms, server CPU µs/request):");
  for (const [name, runs] of results) {
    console.log(
      `- ${name}: ${
        runs.map((x) => `${Math.round(x.rps)} (${x.p99.toFixed(1)}, ${x.cpuUs.toFixed(1)})`).join(
          "; ",
        )
      }`,
    );
  }
}

/** One wrk run (of `seconds`) and the CPU time its server process spent per request (µs). */
interface Measured extends Run {
  seconds: number;
  cpuUs: number;
}

/** The baseline checkout's target for the `i`th cached read (same paths, its own tenants). */
function baselineTarget(b: ServedReads, i: number, name: string): Target {
  const key = { authorization: `Bearer ${b.apiKey}` };
  const paths = b.transactionIds.map((id) => `/items/v1/requests/${id}`);
  if (i === 2) return { name, url: `${b.base}/service/v1/tx`, headers: b.chainHeaders };
  return { name, url: `${b.base}${paths[0]}`, headers: key, paths: i === 1 ? paths : undefined };
}

await runScript(main);
