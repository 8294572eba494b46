/**
 * Abuse-detection evaluation (`deno task eval:abuse`): recall on listed words per evasion class
 * and per language, false positives on clean dictionary words (per language) and clean
 * sentences, for our detector and npm `obscenity` on the same inputs. Options:
 *   --sample N         at most N abusive items per (language, class) group
 *   --sample-clean M   at most M clean items per (language, family) group (default N)
 *   --write-sample F   write the evaluated items to F (JSON) instead of evaluating
 *   --from F           evaluate the items in F (the committed CI sample)
 *   --no-obscenity     our detector only
 */
import {
  DataSet,
  englishDataset,
  englishRecommendedTransformers,
  parseRawPattern,
  RegExpMatcher,
} from "obscenity";
import { compileDetector } from "../lib/abuse/detector.ts";
import type { Language } from "../lib/abuse/languages.ts";
import {
  abusiveItems,
  dictionaryItems,
  type EvalItem,
  holdoutItems,
  listedWords,
  outsideItems,
  sentenceItems,
} from "./abuse_eval_set.ts";

/** A filter under test: true when it flags the text. */
export type Filter = (text: string, lang: Language) => boolean;

/** Our detector with the built-in lexicons only, told each text's language (or not). */
export function ourFilter(useLang = true): Filter {
  const detector = compileDetector({ forbiddenWords: [], builtin: true });
  return (text, lang) => detector.detect(text, { lang: useLang ? lang : undefined }).forbidden;
}

/** obscenity with its English preset (its own list and recommended transformers). */
export function obscenityPreset(): Filter {
  const matcher = new RegExpMatcher({
    ...englishDataset.build(),
    ...englishRecommendedTransformers,
  });
  return (text) => matcher.hasMatch(text);
}

/** obscenity given the same listed words as the evaluation (all languages). */
export function obscenitySameLists(): Filter {
  const data = new DataSet<{ word: string }>();
  for (const words of listedWords().values()) {
    for (const word of words) {
      try {
        data.addPhrase((p) =>
          p.setMetadata({ word }).addPattern(parseRawPattern(word.toLowerCase()))
        );
      } catch { /* a word obscenity's pattern syntax cannot hold */ }
    }
  }
  const matcher = new RegExpMatcher({ ...data.build(), ...englishRecommendedTransformers });
  return (text) => matcher.hasMatch(text);
}

/** Abusive kinds of the hold-out samples (rows of their own, not per-language rows). */
export const HOLDOUT_KINDS = [
  "peer_word",
  "phrase",
  "abuse_heldout",
  "abuse_heldout2",
  "abuse_heldout3",
];

/** Counts per row: flagged of total. */
export type Counts = Map<string, { hit: number; total: number }>;

/** Evaluates one filter: rows "recall <class>", "recall lang <l>", "fp dictionary <l>", ... */
export function evaluate(items: EvalItem[], filter: Filter, progress = false): Counts {
  const rows: Counts = new Map();
  const bump = (row: string, hit: boolean) => {
    const r = rows.get(row) ?? { hit: 0, total: 0 };
    r.total++;
    if (hit) r.hit++;
    rows.set(row, r);
  };
  let done = 0;
  for (const item of items) {
    if (++done % 50_000 === 0 && progress) console.error(`  ${done} / ${items.length}`);
    const hit = filter(item.text, item.lang);
    if (item.abusive) {
      bump("recall: all disguised", hit && true);
      bump(`recall: ${item.kind}`, hit);
      if (item.family) bump(`recall ${item.kind} ${item.family}: ${item.lang}`, hit);
      // Per-language rows keep to the listed words; the hold-outs have rows of their own.
      if (!HOLDOUT_KINDS.includes(item.kind)) bump(`recall lang: ${item.lang}`, hit);
    } else {
      bump(`fp ${item.kind}: ${item.lang}`, hit);
      if (item.family) bump(`fp ${item.kind} ${item.family}: ${item.lang}`, hit);
    }
  }
  // "all disguised" leaves out the undisguised texts (plain, the outside list, the hold-outs).
  const all = rows.get("recall: all disguised")!;
  const plain = rows.get("recall: plain");
  for (const undisguised of ["outside_list", ...HOLDOUT_KINDS]) {
    const r = rows.get(`recall: ${undisguised}`);
    if (all && r) {
      all.hit -= r.hit;
      all.total -= r.total;
    }
  }
  if (all && plain) {
    rows.set("recall: all disguised", { hit: all.hit - plain.hit, total: all.total - plain.total });
  }
  return rows;
}

/** The printed table: one row per measure, one column per filter (percent and counts). */
export function formatTable(results: [string, Counts][]): string {
  const rowNames = [...new Set(results.flatMap(([, c]) => [...c.keys()]))].sort((a, b) => {
    const rank = (s: string) =>
      s.startsWith("recall: all")
        ? 0
        : s.startsWith("recall:")
        ? 1
        : s.startsWith("recall lang")
        ? 2
        : 3;
    return rank(a) - rank(b) || a.localeCompare(b);
  });
  const cell = (c?: { hit: number; total: number }) =>
    c && c.total
      ? `${
        (100 * c.hit / c.total).toFixed(c.hit && c.hit * 1000 < c.total ? 2 : 1)
      } % (${c.hit}/${c.total})`
      : "-";
  const header = ["measure", ...results.map(([name]) => name)];
  const lines = rowNames.map((row) => [row, ...results.map(([, c]) => cell(c.get(row)))]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cols: string[]) => "| " + cols.map((c, i) => c.padEnd(widths[i])).join(" | ") + " |";
  return [fmt(header), fmt(widths.map((w) => "-".repeat(w))), ...lines.map(fmt)].join("\n");
}

/**
 * At most `n` abusive and `clean` clean items per (language, kind) group, spread over each
 * group, deterministic.
 */
export function sampleItems(items: EvalItem[], n: number, clean = n): EvalItem[] {
  const groups = new Map<string, EvalItem[]>();
  for (const item of items) {
    const key = `${item.abusive}:${item.lang}:${item.kind}`;
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return [...groups.values()].flatMap((group) => {
    const max = group[0].abusive ? n : clean;
    if (group.length <= max) return group;
    const step = group.length / max;
    return Array.from({ length: max }, (_, i) => group[Math.floor(i * step)]);
  });
}

if (import.meta.main) {
  const arg = (name: string) => {
    const i = Deno.args.indexOf(name);
    return i >= 0 ? Deno.args[i + 1] : undefined;
  };
  let items: EvalItem[];
  const out = arg("--write-sample");
  const from = arg("--from");
  if (from) items = [...JSON.parse(await Deno.readTextFile(from)).items, ...holdoutItems()];
  else {
    const sample = Number(arg("--sample") ?? Infinity);
    items = [
      ...abusiveItems(),
      ...outsideItems(),
      ...dictionaryItems(30_000),
      ...sentenceItems(),
    ];
    const clean = Number(arg("--sample-clean") ?? sample);
    if (Number.isFinite(sample)) items = sampleItems(items, sample, clean);
    // The hold-out samples are small and read whole (they are committed files, not sampled).
    if (!out) items.push(...holdoutItems());
  }
  if (out) {
    await Deno.writeTextFile(
      out,
      JSON.stringify({
        notice:
          "Generated by bench/abuse_eval.ts --write-sample from npm naughty-words (CC-BY-4.0), badwords-ko, chinese-conv, an-array-of-*-words, dictionary-tr, inspirational-quotes (MIT), dictionary-ru (BSD-3-Clause), dictionary-ko (MPL-1.1); see lib/abuse/LEXICON_NOTICE.md.",
        items,
      }) + "\n",
    );
    // Formatted like the rest of the repository, so `deno fmt --check` stays green.
    await new Deno.Command(Deno.execPath(), { args: ["fmt", "-q", out] }).output();
    console.log(`wrote ${items.length} items to ${out}`);
  } else {
    const filters: [string, Filter][] = [["ours (lang_code given)", ourFilter(true)], [
      "ours (language unknown)",
      ourFilter(false),
    ]];
    if (!Deno.args.includes("--no-obscenity")) {
      filters.push(["obscenity English preset", obscenityPreset()]);
      filters.push(["obscenity, same lists", obscenitySameLists()]);
    }
    const results: [string, Counts][] = [];
    for (const [name, filter] of filters) {
      const t0 = performance.now();
      results.push([name, evaluate(items, filter, true)]);
      console.error(
        `${name}: ${items.length} texts in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      );
    }
    console.log(formatTable(results));
  }
}
