/**
 * OTP latency of this tree against another commit's, in one run: bench/otp_load.ts (this tree's
 * copy, so both sides run the same bench) runs one round at a time in each tree, alternating which
 * goes first, each process with its own warm-up and its own bare-SET references. The other commit
 * is extracted with `git archive` into a temporary directory that shares this tree's node_modules.
 * Prints each side's medians and p99 ratios to the SET loop, and the load before and after.
 *
 *   deno run -A bench/otp_compare.ts [--base main] [--rounds 4] [--n 5000] [--kv tcp]
 */
import { cliFlag } from "../dev/cli_flag.ts";
import { median } from "./real_tier.ts";
import { p99Ratios, printRounds, type Rounds } from "./otp_load.ts";

const BASE = cliFlag("base") ?? "main";
const ROUNDS = Number(cliFlag("rounds") ?? 4);
const N = cliFlag("n") ?? "5000";
const KV = cliFlag("kv") ?? "tcp";
const here = new URL("..", import.meta.url).pathname;

async function run(cmd: string, args: string[], cwd = here): Promise<string> {
  const out = await new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "inherit" })
    .output();
  if (!out.success) throw new Error(`${cmd} ${args.join(" ")} failed`);
  return new TextDecoder().decode(out.stdout);
}

/** The base commit's files in a temporary directory, with this tree's bench and node_modules. */
async function baseTree(): Promise<{ dir: string; commit: string }> {
  const commit = (await run("git", ["rev-parse", "--short", BASE])).trim();
  const dir = await Deno.makeTempDir({ prefix: "otp-base-" });
  await run("sh", ["-c", `git archive ${commit} | tar -x -C '${dir}'`]);
  for (const file of ["bench/otp_load.ts", "bench/otp_services.ts", "bench/real_tier.ts"]) {
    await Deno.copyFile(`${here}${file}`, `${dir}/${file}`);
  }
  await Deno.symlink(`${here}node_modules`, `${dir}/node_modules`);
  return { dir, commit };
}

function load(): string {
  return Deno.loadavg().map((x) => x.toFixed(2)).join(", ");
}

const base = await baseTree();
const sides: Record<string, { dir: string; rounds: Rounds }> = {
  [`base ${base.commit}`]: { dir: base.dir, rounds: {} },
  "this tree": { dir: here, rounds: {} },
};
const names = Object.keys(sides);
const loadBefore = load();
try {
  for (let r = 0; r < ROUNDS; r++) {
    for (const name of r % 2 === 0 ? names : [...names].reverse()) {
      const side = sides[name];
      const out = await run(Deno.execPath(), [
        "run",
        "-A",
        "bench/otp_load.ts",
        "--n",
        N,
        "--kv",
        KV,
        "--rounds",
        "1",
        "--first-round",
        String(r),
        "--json",
      ], side.dir);
      const line = out.trim().split("\n").at(-1)!;
      const { rounds } = JSON.parse(line) as { rounds: Rounds };
      for (const [adapter, cases] of Object.entries(rounds)) {
        for (const [k, rows] of Object.entries(cases)) {
          ((side.rounds[adapter] ??= {})[k] ??= []).push(...rows);
        }
      }
      console.error(`round ${r + 1}/${ROUNDS}: ${name} done`);
    }
  }
  for (const [name, side] of Object.entries(sides)) {
    printRounds(side.rounds, Number(N), `${name}: `);
  }
  console.log(`\n| side | adapter | send p99 / SET loop p99 | verify p99 / SET loop p99 |`);
  console.log("|---|---|---|---|");
  for (const [name, side] of Object.entries(sides)) {
    for (const [adapter, cases] of Object.entries(side.rounds)) {
      if (!cases["SET loop"]) continue;
      const cell = (k: string) => {
        const ratios = p99Ratios(cases, k);
        return `${median(ratios).toFixed(2)} (${ratios.map((x) => x.toFixed(2)).join(" / ")})`;
      };
      console.log(`| ${name} | ${adapter} | ${cell("send")} | ${cell("verify")} |`);
    }
  }
  console.log(`\nload average before: ${loadBefore}; after: ${load()}`);
} finally {
  await Deno.remove(base.dir, { recursive: true });
}
