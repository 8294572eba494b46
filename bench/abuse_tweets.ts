/**
 * Recall on labelled abusive texts and false positives on labelled clean ones, for our detector
 * with the built-in lexicons only (no studio words) and for the public filters on npm, on the same
 * texts. Two public labelled sets, neither shipped with this repository (pass the files, or
 * excerpts of them):
 * - English tweets: Davidson et al., "Automated Hate Speech Detection and the Problem of Offensive
 *   Language" (ICWSM 2017; MIT licence), CSV `,count,hate_speech,offensive_language,neither,
 *   class,tweet` (class 0 hate speech, 1 offensive, 2 neither). Excerpts may start and end inside
 *   a row: partial rows are dropped and rows are kept once by their index. Tweets are
 *   HTML-unescaped (`&amp;`, `&#128514;`) first, as a chat message would arrive.
 * - Korean comments (`--ko`): the Curse-detection-data set (2runo, MIT licence), one
 *   `comment|label` per line (1 curse, 0 clean). The first line of an excerpt is dropped unless
 *   the file name ends in `_0.txt` (the excerpt that starts the set); a cut last line is dropped.
 *
 *   deno run -A bench/abuse_tweets.ts <labeled_data.csv | excerpts...> [--misses]
 *   deno run -A bench/abuse_tweets.ts --ko <dataset.txt | excerpts...> [--misses]
 */
import { Filter as BadWords } from "bad-words";
import leoProfanity from "leo-profanity";
import { profanity as toadProfanity } from "@2toad/profanity";
import KoreanBadWords from "badwords-ko";
import { type Filter, obscenityPreset, ourFilter } from "./abuse_eval.ts";

/** One labelled tweet. */
export interface LabelledTweet {
  index: number;
  /** 0 hate speech, 1 offensive language, 2 neither (the annotators' majority). */
  label: 0 | 1 | 2;
  text: string;
}

const ROW_START = /^(\d+),(\d+),(\d+),(\d+),(\d+),([012]),/gm;

/** Reads the rows of a CSV file or excerpt; `whole` keeps the last row (the file is complete). */
export function parseRows(csv: string, whole: boolean): LabelledTweet[] {
  const starts = [...csv.matchAll(ROW_START)];
  const rows: LabelledTweet[] = [];
  for (let i = 0; i < starts.length; i++) {
    const m = starts[i];
    const end = i + 1 < starts.length ? starts[i + 1].index! : csv.length;
    if (i + 1 === starts.length && !whole) break;
    let field = csv.slice(m.index! + m[0].length, end).replace(/\r?\n$/, "");
    if (field.startsWith('"')) {
      if (!field.endsWith('"')) continue; // cut inside a quoted field
      field = field.slice(1, -1).replaceAll('""', '"');
    }
    rows.push({ index: Number(m[1]), label: Number(m[6]) as 0 | 1 | 2, text: unescapeHtml(field) });
  }
  return rows;
}

/** The HTML escapes the tweets were stored with. */
export function unescapeHtml(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n) => String.fromCodePoint(parseInt(n, 16)))
    .replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&quot;", '"')
    .replaceAll("&amp;", "&");
}

/** Reads `comment|label` lines; `first` keeps the first line (the excerpt starts the set). */
export function parseLabelledLines(
  text: string,
  first: boolean,
): { text: string; curse: boolean }[] {
  const lines = text.split("\n");
  if (!first) lines.shift();
  const out: { text: string; curse: boolean }[] = [];
  for (const line of lines) {
    const m = /^(.*)\|([01])\s*$/s.exec(line);
    if (m) out.push({ text: m[1], curse: m[2] === "1" });
  }
  return out;
}

function publicFilters(): [string, Filter][] {
  const badWords = new BadWords();
  return [
    ["obscenity (English preset)", obscenityPreset()],
    ["bad-words", (text) => {
      try {
        return badWords.isProfane(text);
      } catch {
        return false;
      }
    }],
    ["leo-profanity", (text) => leoProfanity.check(text)],
    ["@2toad/profanity", (text) => toadProfanity.exists(text)],
  ];
}

function printTable(filters: [string, Filter][], groups: [string, string[]][], lang: "en" | "ko") {
  const header = ["texts", ...filters.map(([name]) => name)];
  const lines = groups.map(([name, group]) => [
    `${name}, n=${group.length}`,
    ...filters.map(([, filter]) => {
      const hit = group.filter((t) => filter(t, lang)).length;
      return `${(100 * hit / Math.max(1, group.length)).toFixed(1)} % (${hit})`;
    }),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cols: string[]) => "| " + cols.map((c, i) => c.padEnd(widths[i])).join(" | ") + " |";
  console.log([fmt(header), fmt(widths.map((w) => "-".repeat(w))), ...lines.map(fmt)].join("\n"));
}

async function korean(files: string[]) {
  const seen = new Map<string, boolean>();
  for (const file of files) {
    const text = await Deno.readTextFile(file);
    for (const row of parseLabelledLines(text, /_0\.txt$/.test(file))) {
      seen.set(row.text, row.curse);
    }
  }
  const rows = [...seen].map(([text, curse]) => ({ text, curse }));
  const koBadWords = new KoreanBadWords();
  const filters: [string, Filter][] = [
    ["ours (lang_code ko)", ourFilter(true)],
    ["ours (language unknown)", ourFilter(false)],
    ["badwords-ko", (text) => koBadWords.isProfane(text)],
    ...publicFilters(),
  ];
  console.log(`${rows.length} labelled Korean comments from ${files.length} file(s)\n`);
  printTable(filters, [
    ["curse (label 1)", rows.filter((r) => r.curse).map((r) => r.text)],
    ["clean (label 0): flagged", rows.filter((r) => !r.curse).map((r) => r.text)],
  ], "ko");
  if (Deno.args.includes("--misses")) {
    const ours = ourFilter(true);
    console.log("\ncurse comments ours misses:");
    for (const r of rows) if (r.curse && !ours(r.text, "ko")) console.log(`  ${r.text}`);
    console.log("\nclean comments ours flags:");
    for (const r of rows) if (!r.curse && ours(r.text, "ko")) console.log(`  ${r.text}`);
  }
}

if (import.meta.main && Deno.args.includes("--ko")) {
  await korean(Deno.args.filter((a) => !a.startsWith("--")));
} else if (import.meta.main) {
  const files = Deno.args.filter((a) => !a.startsWith("--"));
  if (files.length === 0) {
    console.error("usage: deno run -A bench/abuse_tweets.ts <labeled_data.csv | excerpts...>");
    Deno.exit(2);
  }
  const byIndex = new Map<number, LabelledTweet>();
  for (const file of files) {
    const text = await Deno.readTextFile(file);
    const whole = text.startsWith(",count,hate_speech") && files.length === 1;
    for (const row of parseRows(text, whole)) byIndex.set(row.index, row);
  }
  const tweets = [...byIndex.values()].sort((a, b) => a.index - b.index);
  const groups: [string, LabelledTweet[]][] = [
    ["hate speech (class 0)", tweets.filter((t) => t.label === 0)],
    ["offensive (class 1)", tweets.filter((t) => t.label === 1)],
    ["abusive (0 and 1)", tweets.filter((t) => t.label !== 2)],
    ["clean (class 2): flagged", tweets.filter((t) => t.label === 2)],
  ];
  const filters: [string, Filter][] = [
    ["ours (lang_code en)", ourFilter(true)],
    ["ours (language unknown)", ourFilter(false)],
    ...publicFilters(),
  ];
  console.log(`${tweets.length} labelled tweets from ${files.length} file(s)\n`);
  printTable(filters, groups.map(([name, group]) => [name, group.map((t) => t.text)]), "en");
  if (Deno.args.includes("--misses")) {
    const ours = ourFilter(true);
    console.log("\nabusive tweets ours misses:");
    for (const t of tweets) if (t.label !== 2 && !ours(t.text, "en")) console.log(`  ${t.text}`);
    console.log("\nclean tweets ours flags:");
    for (const t of tweets) if (t.label === 2 && ours(t.text, "en")) console.log(`  ${t.text}`);
  }
}
