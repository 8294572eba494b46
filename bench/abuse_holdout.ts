/**
 * Builds the hold-out word sample of the spelling-variant generator (dev/lexicon_variants.ts):
 * the English words of three public filters' lists (`bad-words` 4.1.5, `leo-profanity` 1.9.0,
 * `@2toad/profanity` 3.3.0; MIT, notices in tests/lib/abuse/holdout/NOTICE.md) that are not an
 * entry of the LDNOOBW source lists (any language) and not an English dictionary word
 * (`an-array-of-english-words`); letters only (entries with digits, symbols or spaces are
 * disguises, measured by the evasion classes). Neither the generator nor the curation reads
 * these lists: the sample was written once, before the generator existed, and is committed
 * (tests/lib/abuse/holdout/peer_words.json). Prints counts only.
 *
 *   deno run -A bench/abuse_holdout.ts
 */
import { createRequire } from "node:module";
import { Filter as BadWords } from "bad-words";
import leoProfanity from "leo-profanity";

const require = createRequire(import.meta.url);

/** The peer lists' English words that our sources lack (see the module comment). */
export function peerHoldoutWords(): string[] {
  const toadWords: string[] = require("@2toad/profanity/dist/data/profane-words.js")
    .profaneWords.get("en");
  const peers = [
    ...new BadWords().list,
    ...leoProfanity.list(),
    ...toadWords,
  ].map((w) => w.trim().toLowerCase());
  const sources = new Set<string>();
  for (
    const lang of ["en", "de", "es", "fr", "it", "pt", "ru", "tr", "nl", "ja", "ko", "zh", "th"]
  ) {
    try {
      for (const w of require(`naughty-words/${lang}.json`) as string[]) {
        sources.add(w.trim().toLowerCase());
      }
    } catch { /* a language the package lacks */ }
  }
  const dictionary = new Set(require("an-array-of-english-words") as string[]);
  return [...new Set(peers)].filter((w) =>
    /^[a-z]{3,}$/.test(w) && !sources.has(w) && !dictionary.has(w)
  ).sort();
}

if (import.meta.main) {
  const words = peerHoldoutWords();
  const out = new URL("../tests/lib/abuse/holdout/peer_words.json", import.meta.url);
  await Deno.writeTextFile(
    out,
    JSON.stringify({
      notice:
        "Hold-out sample of the spelling-variant generator, written by bench/abuse_holdout.ts from npm bad-words, leo-profanity and @2toad/profanity (MIT; see NOTICE.md beside this file). Not read by the generator or the curation.",
      words,
    }) + "\n",
  );
  await new Deno.Command(Deno.execPath(), { args: ["fmt", "-q", out.pathname] }).output();
  console.log(`wrote ${words.length} words`);
}
