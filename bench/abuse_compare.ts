/**
 * The detector of this checkout beside a previous one, in one process and in alternating rounds
 * (the machine is shared: each round times both on the same texts back to back, and medians are
 * compared). The previous detector is checked out from git at run time (`--rev`, default the
 * merge base with main) into a temporary folder, so no copy of it lives in the repository.
 * Also measures the spelling-variant hold-out (tests/lib/abuse/holdout/peer_words.json) with
 * both detectors, which shows what the generated variants add.
 *
 *   deno run -A bench/abuse_compare.ts [--rev <commit>] [--rounds 300]
 */
import { compileDetector as compileCurrent } from "../lib/abuse/detector.ts";
import { chatTexts, forbiddenWords } from "./abuse_corpus.ts";

type Detect = (text: string, options?: { lang?: string }) => { forbidden: boolean };
type Compile = (options: {
  forbiddenWords: string[];
  allowWords?: string[];
  builtin?: boolean;
}) => { detect: Detect };

const arg = (name: string, fallback: string) => {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Deno.args[i + 1] : fallback;
};
const root = new URL("../", import.meta.url).pathname;

async function git(args: string[]): Promise<Uint8Array> {
  const out = await new Deno.Command("git", { args, cwd: root, stdout: "piped" }).output();
  if (!out.success) throw new Error(`git ${args.join(" ")} failed`);
  return out.stdout;
}

/** The previous detector's compile function, from lib/abuse at `rev`. */
async function previousCompile(rev: string): Promise<Compile> {
  const dir = await Deno.makeTempDir({ prefix: "abuse-previous-" });
  const tar = await git(["archive", "--format=tar", rev, "lib/abuse"]);
  const untar = new Deno.Command("tar", { args: ["-x", "-C", dir], stdin: "piped" }).spawn();
  const writer = untar.stdin.getWriter();
  await writer.write(tar);
  await writer.close();
  if (!(await untar.status).success) throw new Error("tar failed");
  const mod = await import(`file://${dir}/lib/abuse/detector.ts`);
  return mod.compileDetector as Compile;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const rev = arg(
  "--rev",
  new TextDecoder().decode(await git(["merge-base", "HEAD", "main"])).trim(),
);
const rounds = Number(arg("--rounds", "300"));
const compilePrevious = await previousCompile(rev);
const texts = chatTexts(200, 100);
const words = forbiddenWords(10_000);
const settings = { forbiddenWords: words, allowWords: ["classic", "assassin"], builtin: true };
const contenders: [string, { detect: Detect }][] = [
  ["previous", compilePrevious(settings)],
  ["current", compileCurrent(settings)],
];
const langs: [string, string | undefined][] = [["lang unset (every lexicon)", undefined], [
  "lang en",
  "en",
], ["lang ko", "ko"]];

const load = () => Deno.loadavg().map((l) => l.toFixed(2)).join(" ");
console.log(`previous = lib/abuse at ${rev.slice(0, 12)}; ${rounds} rounds; load before ${load()}`);
// Every round times each language with both detectors, the order alternating, so a burst of
// load on the machine falls on all of them alike.
const times = new Map<string, number[]>();
for (let r = 0; r < rounds + 20; r++) {
  for (const [label, lang] of langs) {
    const order = r % 2 === 0 ? contenders : [...contenders].reverse();
    for (const [name, d] of order) {
      const t0 = performance.now();
      for (const t of texts) d.detect(t, { lang });
      const ms = performance.now() - t0;
      const key = `${label}, 10,000 words + built-in lexicons, ${name}`;
      if (r >= 20) times.set(key, [...(times.get(key) ?? []), ms]);
    }
  }
}
for (const [key, ms] of times) {
  const med = median(ms);
  const best = Math.min(...ms);
  console.log(
    `${key}: median ${med.toFixed(3)} ms / 200 texts = ${
      Math.round(200_000 / med).toLocaleString("en")
    } texts/s; fastest ${Math.round(200_000 / best).toLocaleString("en")} texts/s`,
  );
}
console.log(`load after ${load()}`);

// The variant generator's hold-out: peer lists' words in a carrier, built-in lexicons only.
const peer: { words: string[] } = JSON.parse(
  await Deno.readTextFile(new URL("../tests/lib/abuse/holdout/peer_words.json", import.meta.url)),
);
for (
  const [name, compile] of [["previous", compilePrevious], ["current", compileCurrent]] as const
) {
  const d = (compile as Compile)({ forbiddenWords: [], builtin: true });
  const hit = peer.words.filter((w) => d.detect(`hey ${w} lol`, { lang: "en" }).forbidden).length;
  console.log(
    `peer-list hold-out (${peer.words.length} words), ${name}: ${hit} flagged (${
      (100 * hit / peer.words.length).toFixed(1)
    } %)`,
  );
}
