/**
 * CPU profiles of the cached item read under wrk, the service (bench/serve_reads.ts) and its lean
 * reference (bench/read_reference.ts) each in its own process with `--cpu-prof`, loaded one after
 * the other with the same wrk setup as bench/reads_load.ts; then each profile's self time per
 * function over its load window only (seeding and start-up left out), in µs per request, the
 * service beside the reference.
 *
 *   deno run -A bench/profile_reads.ts embedded|real|real:tcp polled|random [--seconds 8]
 *     [--ids 1000] [--top 40] [--dir <profiles>]
 *
 * `random` takes one of the `--ids` ids at random per request (the random-id read of
 * reads_load.ts: on real:tcp both sides read each id again from PostgreSQL once a second).
 */
import { cliFlag } from "../dev/cli_flag.ts";
import { cpuTicks, machineTicks, pidOf } from "./proc_cpu.ts";
import { atFinish, freePort, runScript, spawnDeno, tierArg, useTier } from "./real_tier.ts";
import type { ServedReads } from "./serve_reads.ts";
import { referenceFixture } from "./read_reference.ts";
import { type Target, wrk } from "./wrk.ts";

const tier = tierArg();
const mode = Deno.args[1] === "random" ? "random" : "polled";
const seconds = Number(cliFlag("seconds") ?? 8);
const ids = Number(cliFlag("ids") ?? 1_000);
const top = Number(cliFlag("top") ?? 40);
const profiling = !Deno.args.includes("--no-prof");
const dir = cliFlag("dir") ?? await Deno.makeTempDir({ prefix: "reads_prof_" });

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Self time (µs) per function in the window [from, to] (µs since the profile's start). */
function selfTimes(p: Profile, from: number, to: number): Map<string, number> {
  const names = new Map<number, string>();
  for (const n of p.nodes) {
    const f = n.callFrame;
    const file = f.url.replace(/^.*\/(node_modules\/\.deno\/|work\/wt\/[^/]+\/)/, "");
    names.set(n.id, `${f.functionName || "(anonymous)"} ${file}:${f.lineNumber + 1}`);
  }
  const out = new Map<string, number>();
  let t = 0;
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i];
    const dt = p.timeDeltas[i + 1] ?? 0;
    if (t < from || t > to) continue;
    const name = names.get(p.samples[i])!;
    out.set(name, (out.get(name) ?? 0) + dt);
  }
  return out;
}

async function main() {
  await useTier(tier);
  const servedFile = await Deno.makeTempFile({ suffix: ".json" });
  const prof = (sub: string) => profiling ? ["--cpu-prof", `--cpu-prof-dir=${dir}/${sub}`] : [];
  const service = spawnDeno([...prof("service"), "bench/serve_reads.ts", String(ids), servedFile]);
  await service;
  const s = JSON.parse(await Deno.readTextFile(servedFile)) as ServedReads;
  const fixtureFile = await Deno.makeTempFile({ suffix: ".json" });
  await Deno.writeTextFile(fixtureFile, JSON.stringify(await referenceFixture(s)));
  const refPort = freePort();
  await spawnDeno([...prof("reference"), "bench/read_reference.ts", String(refPort), fixtureFile]);
  const headers = { authorization: `Bearer ${s.apiKey}` };
  const path = `/items/v1/requests/${s.transactionIds[0]}`;
  const paths = mode === "random"
    ? s.transactionIds.map((id) => `/items/v1/requests/${id}`)
    : undefined;
  const targets: Target[] = [
    { name: "service", url: `${s.base}${path}`, headers, paths },
    { name: "reference", url: `http://127.0.0.1:${refPort}${path}`, headers, paths },
  ];
  for (const t of targets) {
    const res = await fetch(t.url, { headers });
    await res.body?.cancel();
    console.log(
      `${t.name} answers with`,
      [...res.headers].map(([k, v]) => `${k}: ${v}`).join("; "),
    );
    await wrk(t, 1);
  }
  const pids: Record<string, number> = {
    service: pidOf(new URL(s.base).port),
    reference: pidOf(String(refPort)),
  };
  // The window of each: measured from the end of the run, since both processes stop together.
  const marks: Record<string, { start: number; end: number; requests: number }> = {};
  for (const t of targets) {
    const start = performance.now();
    const [cpu0, machine0] = [cpuTicks(pids[t.name]), machineTicks()];
    const run = await wrk(t, seconds);
    const [cpu1, machine1] = [cpuTicks(pids[t.name]), machineTicks()];
    marks[t.name] = { start, end: performance.now(), requests: run.rps * seconds };
    const requests = run.rps * seconds;
    console.log(
      `${t.name}: ${Math.round(run.rps)} req/s, p99 ${run.p99} ms; process CPU ${
        ((cpu1 - cpu0) * 10_000 / requests).toFixed(1)
      } µs/request; machine busy ${
        (100 * (1 - (machine1.idle - machine0.idle) / (machine1.total - machine0.total))).toFixed(0)
      } % (${
        ((machine1.total - machine1.idle - machine0.total + machine0.idle) * 10_000 / requests)
          .toFixed(1)
      } µs/request)`,
    );
  }
  return { marks, stopped: performance.now() };
}

/** Prints the self time per function of both profiles over their load windows. */
async function analyse(result: Awaited<ReturnType<typeof main>>) {
  const rows = new Map<string, [number, number]>();
  const totals: Record<string, number> = {};
  for (const [i, name] of ["service", "reference"].entries()) {
    const p = await profileOf(name);
    const m = result.marks[name];
    const endUs = p.endTime - p.startTime;
    // Both processes were stopped at `stopped` (the parent's clock), when their profiles end.
    const from = endUs - (result.stopped - m.start) * 1000 + 300_000;
    const to = endUs - (result.stopped - m.end) * 1000 - 300_000;
    const share = (to - from) / ((m.end - m.start) * 1000);
    let total = 0;
    for (const [fn, us] of selfTimes(p, from, to)) {
      const perRequest = us / (m.requests * share);
      if (!fn.startsWith("(idle)")) total += perRequest;
      const row = rows.get(fn) ?? [0, 0];
      row[i] = perRequest;
      rows.set(fn, row);
    }
    totals[name] = total;
  }
  console.log(
    `${mode}: µs of CPU per request (self time in the load window), service / reference; ` +
      `totals ${totals.service.toFixed(1)} / ${totals.reference.toFixed(1)}`,
  );
  const sorted = [...rows].sort((a, b) =>
    Math.abs(b[1][0] - b[1][1]) - Math.abs(a[1][0] - a[1][1])
  );
  for (const [fn, [a, b]] of sorted.slice(0, top)) {
    console.log(
      `${(a - b).toFixed(2).padStart(7)}  ${a.toFixed(2).padStart(6)} ${
        b.toFixed(2).padStart(6)
      }  ${fn}`,
    );
  }
}

/** The profile a process wrote in `dir/sub` as it exited (waited for). */
async function profileOf(sub: string): Promise<Profile> {
  for (let tries = 0; tries < 100; tries++) {
    try {
      for (const e of Deno.readDirSync(`${dir}/${sub}`)) {
        if (e.name.endsWith(".cpuprofile")) {
          return JSON.parse(await Deno.readTextFile(`${dir}/${sub}/${e.name}`));
        }
      }
    } catch { /* not there or not complete yet */ }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no profile in ${dir}/${sub}`);
}

const state = { result: undefined as Awaited<ReturnType<typeof main>> | undefined };
// Registered first, so it runs last: after the processes are stopped and the database dropped.
atFinish(async () => {
  if (state.result && profiling) await analyse(state.result);
});
await runScript(async () => {
  state.result = await main();
});
