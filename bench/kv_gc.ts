/**
 * Runs a Deno script under `--v8-flags=--trace-gc` and sums its young-generation pauses: how many
 * scavenges, their total and the longest (ms), beside the script's last line of output (its
 * result, when it prints one as JSON on stderr). `--cwd DIR` runs it in another checkout.
 *
 *   deno run -A bench/kv_gc.ts [--cwd DIR] -- bench/otp_load.ts --n 5000 --rounds 1 --kv tcp
 */
import { cliFlag } from "../dev/cli_flag.ts";

const split = Deno.args.indexOf("--");
if (split < 0) throw new Error("usage: kv_gc.ts [--cwd DIR] -- script.ts [args...]");
const cwd = cliFlag("cwd") ?? new URL("..", import.meta.url).pathname;
const script = Deno.args.slice(split + 1);

const out = await new Deno.Command(Deno.execPath(), {
  args: ["run", "-A", "--v8-flags=--trace-gc", ...script],
  cwd,
  stdout: "piped",
  stderr: "piped",
}).output();
const errLines = new TextDecoder().decode(out.stderr).split("\n");
if (!out.success) throw new Error(`${script.join(" ")} failed:\n${errLines.join("\n")}`);
const lines = new TextDecoder().decode(out.stdout).split("\n");
// V8: "... ms: Scavenge 10.1 (12.0) -> 9.7 (13.0) MB, pooled: 0 MB, 1.23 / 0.00 ms ..."
const pauses: number[] = [];
const marks: number[] = [];
for (const line of lines) {
  const m =
    /ms: (?:Incremental )?(Scavenge|Mark-Compact)\b.*?MB, (?:pooled: [\d.]+ MB, )?([\d.]+) \/ [\d.]+ ms/
      .exec(line);
  if (!m) continue;
  (m[1] === "Scavenge" ? pauses : marks).push(Number(m[2]));
}
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
console.log(JSON.stringify({
  scavenges: pauses.length,
  scavengeTotalMs: +sum(pauses).toFixed(1),
  scavengeMaxMs: +Math.max(0, ...pauses).toFixed(2),
  markCompacts: marks.length,
  markCompactTotalMs: +sum(marks).toFixed(1),
  // The script's result: its last line of JSON on stderr (V8's trace shares stdout).
  result: JSON.parse(errLines.findLast((l) => l.startsWith("{")) ?? "null"),
}));
