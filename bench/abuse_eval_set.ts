/**
 * The abuse-detection evaluation set, built from openly licensed npm data (no network):
 * - listed words: the LDNOOBW lists (`naughty-words`, CC-BY-4.0) of the supported languages, the
 *   Korean list of `badwords-ko` (MIT), the Simplified list converted to Traditional Chinese
 *   (`chinese-conv`, MIT); entries the curation removed or made context-only are left out, and
 *   so are entries that are already disguised (digits, punctuation or bare jamo in them);
 * - disguises generated per evasion class (plain, separators, zero-width, full-width,
 *   look-alikes, diacritics, repeats, symbol leetspeak, case, jamo, kana, Turkish I);
 * - clean dictionary words: `an-array-of-english-words`, `an-array-of-french-words`,
 *   `an-array-of-spanish-words` (MIT), `dictionary-ru` (BSD-3-Clause), `dictionary-tr` (MIT),
 *   `dictionary-ko` (MPL-1.1 option); words equal to a listed word of their language (and, in
 *   English, words holding an unambiguous root such as "fuck") are not counted as clean;
 * - clean sentences: English quotes from `inspirational-quotes` (MIT); Korean sentences made of
 *   dictionary-ko stems in everyday templates (no openly licensed Korean chat corpus is on npm).
 */
import { createRequire } from "node:module";
import { LEXICON } from "../lib/abuse/lexicon_data.ts";
import { type Language, LANGUAGES } from "../lib/abuse/languages.ts";
import { prng } from "./abuse_corpus.ts";

const require = createRequire(import.meta.url);

/** One labelled text. */
export interface EvalItem {
  text: string;
  lang: Language;
  /** Evasion class for abusive items, or the clean family ("dictionary", "sentence"). */
  kind: string;
  abusive: boolean;
  /** Where a sentence comes from (headline, name, chat, quote, template; swear, plain...), when known. */
  family?: string;
}

// Languages with an outside list on npm (id, ms and vi have only project-written entries).
const SOURCE_LANGS = LANGUAGES.filter((l) => !["id", "ms", "vi"].includes(l));

/** Listed words per language: source entries the curation kept as definite entries. */
export function listedWords(): Map<Language, string[]> {
  const out = new Map<Language, string[]>();
  for (const lang of SOURCE_LANGS) {
    let source: string[];
    if (lang === "zh-tw") {
      const { tify } = require("chinese-conv");
      source = (require("naughty-words/zh.json") as string[]).map((w) => tify(w));
    } else source = require(`naughty-words/${lang}.json`);
    if (lang === "ko") {
      source = [...source, ...require("badwords-ko/src/badwords.ko.config.json").badWords];
    }
    // Definite word entries: not context-only, not intensifiers, not parts of phrase rules.
    const { forbidden, labels } = LEXICON[lang];
    // (A listed word that is also a name, "<category> <severity> word name", is a word too.)
    const kept = new Set(
      forbidden.filter((e, i) =>
        !e.startsWith("~") && labels[i].replace(/ word name$/, "").split(" ").length === 2 &&
        !labels[i].startsWith("intensifier")
      ).map((e) => e.replace(/^[*|]|[*|]$/g, "").toLowerCase()),
    );
    out.set(
      lang,
      [...new Set(source.map((w) => w.trim()))].filter((w) =>
        kept.has(w.toLowerCase()) && !/[\p{N}\p{P}\p{S}\u1100-\u11ff\u3131-\u318e]/u.test(w)
      ),
    );
  }
  return out;
}

const CONFUSE: Record<string, string> = {
  a: "а",
  c: "с",
  e: "е",
  o: "о",
  p: "р",
  x: "х",
  y: "у",
  i: "і",
  s: "ѕ",
  u: "υ",
  v: "ν",
  j: "ј",
  h: "һ",
  k: "κ",
  t: "τ",
};
const ACCENT: Record<string, string> = {
  a: "á",
  e: "é",
  i: "ï",
  o: "ö",
  u: "ü",
  c: "ç",
  n: "ñ",
  s: "š",
};
const LEET: Record<string, string[]> = {
  a: ["@", "4"],
  s: ["$", "5"],
  i: ["!", "1", "|"],
  o: ["0"],
  e: ["3"],
  t: ["7"],
  b: ["8"],
};
// Greek letters that look like Latin ones (the ε τ κ υ ο α and a few more).
const GREEK: Record<string, string> = {
  a: "α",
  e: "ε",
  k: "κ",
  o: "ο",
  t: "τ",
  u: "υ",
  i: "ι",
  v: "ν",
  p: "ρ",
  x: "χ",
  b: "β",
};
// Digits that read as letters, for words written in digits only ("455").
const DIGIT: Record<string, string> = {
  a: "4",
  s: "5",
  o: "0",
  i: "1",
  l: "1",
  e: "3",
  t: "7",
  b: "8",
  g: "9",
};
const SPACED = /^[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\s'’-]+$/u;
const HANGUL = /[\uac00-\ud7a3]/u;

/** Replaces letters at a deterministic choice of positions (at least one); null when none fits. */
function substitute(word: string, table: Record<string, string | string[]>, rnd: () => number) {
  const chars = [...word];
  const spots = chars.flatMap((c, i) => table[c.toLowerCase()] ? [i] : []);
  if (spots.length === 0) return null;
  const pick = spots[Math.floor(rnd() * spots.length)];
  for (const i of spots) {
    if (i !== pick && rnd() < 0.5) continue;
    const t = table[chars[i].toLowerCase()];
    chars[i] = Array.isArray(t) ? t[Math.floor(rnd() * t.length)] : t;
  }
  return chars.join("");
}

function toJamo(word: string): string {
  const LEAD = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ";
  const VOWEL = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ";
  const TAIL = " ㄱㄲㄳㄴㄵㄶㄷㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅄㅅㅆㅇㅈㅊㅋㅌㅍㅎ";
  return [...word].map((c) => {
    const s = c.charCodeAt(0) - 0xac00;
    if (s < 0 || s > 11171) return c;
    return LEAD[Math.floor(s / 588)] + VOWEL[Math.floor((s % 588) / 28)] + TAIL[s % 28].trim();
  }).join("");
}

const KEYS_LEAD = [
  "r",
  "R",
  "s",
  "e",
  "E",
  "f",
  "a",
  "q",
  "Q",
  "t",
  "T",
  "d",
  "w",
  "W",
  "c",
  "z",
  "x",
  "v",
  "g",
];
const KEYS_VOWEL = [
  "k",
  "o",
  "i",
  "O",
  "j",
  "p",
  "u",
  "P",
  "h",
  "hk",
  "ho",
  "hl",
  "y",
  "n",
  "nj",
  "np",
  "nl",
  "b",
  "m",
  "ml",
  "l",
];
const KEYS_TAIL = [
  "",
  "r",
  "R",
  "rt",
  "s",
  "sw",
  "sg",
  "e",
  "f",
  "fr",
  "fa",
  "fq",
  "ft",
  "fx",
  "fv",
  "fg",
  "a",
  "q",
  "qt",
  "t",
  "T",
  "d",
  "w",
  "c",
  "z",
  "x",
  "v",
  "g",
];

/** A Hangul word as typed with the keyboard in English mode (2-set layout): 시발 -> tlqkf. */
export function toKeys(word: string): string {
  return [...word].map((c) => {
    const s = c.charCodeAt(0) - 0xac00;
    return KEYS_LEAD[Math.floor(s / 588)] + KEYS_VOWEL[Math.floor((s % 588) / 28)] +
      KEYS_TAIL[s % 28];
  }).join("");
}

/** The initial consonants of a Hangul word: 병신 -> ㅂㅅ. */
function toInitials(word: string): string {
  return [...word].map((c) =>
    "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ"[Math.floor((c.charCodeAt(0) - 0xac00) / 588)]
  )
    .join("");
}

/** The disguises of one word, by evasion class (classes that do not apply are absent). */
export function disguises(word: string, lang: Language, rnd: () => number): Record<string, string> {
  const out: Record<string, string> = { plain: word };
  const letters = [...word];
  const spaced = SPACED.test(word) && /[a-z]/i.test(word);
  if (!word.includes(" ")) {
    out.separators = letters.join(rnd() < 0.5 ? "." : " ");
    out.zero_width = letters.join("\u200b");
  }
  if (spaced) {
    out.full_width = letters.map((c) =>
      c >= "!" && c <= "~" ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c
    ).join("");
    const conf = substitute(word.toLowerCase(), CONFUSE, rnd);
    if (conf) out.confusables = conf;
    const acc = substitute(word.toLowerCase(), ACCENT, rnd);
    if (acc) out.diacritics = acc;
    const leet = substitute(word.toLowerCase(), LEET, rnd);
    if (leet) out.leetspeak = leet;
    out.upper_case = lang === "tr" ? word.toLocaleUpperCase("tr") : word.toUpperCase();
  }
  if (spaced) {
    const spots = letters.flatMap((c, i) => /\p{L}/u.test(c) ? [i] : []);
    const at = spots[Math.floor(rnd() * spots.length)];
    out.repeats = letters.map((c, i) => i === at ? c.repeat(4) : c).join("");
  }
  if (spaced && /^[a-z]+$/i.test(word)) {
    const lower = word.toLowerCase();
    out.doubled = [...lower].map((c) => c + c).join("");
    // One inner letter hidden by the mask character, a vowel when there is one (f*ck, a*shole).
    const inner = [...lower].slice(1, -1).map((c, i) => ({ c, i: i + 1 }));
    if (inner.length > 0) {
      const vowels = inner.filter(({ c }) => "aeiou".includes(c));
      const pool = vowels.length > 0 ? vowels : inner;
      const at = pool[Math.floor(rnd() * pool.length)].i;
      out.mask_char = [...lower].map((c, i) => i === at ? "*" : c).join("");
    }
    if ([...lower].some((c) => GREEK[c])) {
      out.greek = [...lower].map((c) => GREEK[c] ?? c).join("");
    }
    if (lower.length >= 3 && [...lower].every((c) => DIGIT[c])) {
      out.digits_only = [...lower].map((c) => DIGIT[c]).join("");
    }
  }
  if (/^[\uac00-\ud7a3]+$/.test(word)) {
    out.keyboard_2set = toKeys(word);
    if (letters.length > 1) out.initials = toInitials(word);
  }
  if (HANGUL.test(word) && !word.includes(" ")) {
    out.jamo = toJamo(word);
    if (letters.length > 1) out.inserted_digit = letters[0] + "1" + letters.slice(1).join("");
  }
  if (lang === "ja" && /[\u3041-\u3096]/u.test(word)) {
    out.kana = [...word].map((c) =>
      c >= "\u3041" && c <= "\u3096" ? String.fromCharCode(c.charCodeAt(0) + 0x60) : c
    ).join("");
  }
  return out;
}

const CARRIERS: Partial<Record<Language, string>> & { default: string } = {
  default: "hey {} lol",
  ko: "야 {} 진짜",
  ja: "おまえは{}だ",
  zh: "你这个{}啊",
  "zh-tw": "你這個{}啊",
  th: "ไอ้{}เอ๊ย",
};

/**
 * English words of a list that is not a source of our lexicons (obscenity's English preset, MIT),
 * plain in the carrier: a check on coverage rather than on disguises.
 */
export function outsideItems(): EvalItem[] {
  const { englishDataset } = require("obscenity");
  const words = new Set<string>();
  for (const c of englishDataset.containers ?? []) {
    if (c.metadata?.originalWord) words.add(c.metadata.originalWord);
  }
  return [...words].map((w) => ({
    text: CARRIERS.default.replace("{}", w),
    lang: "en" as Language,
    kind: "outside_list",
    abusive: true,
  }));
}

/** Abusive items: every listed word in every applicable disguise, inside a short carrier. */
export function abusiveItems(seed = 5): EvalItem[] {
  const rnd = prng(seed);
  const items: EvalItem[] = [];
  for (const [lang, words] of listedWords()) {
    const carrier = CARRIERS[lang] ?? CARRIERS.default;
    for (const word of words) {
      for (const [kind, text] of Object.entries(disguises(word, lang, rnd))) {
        items.push({ text: carrier.replace("{}", text), lang, kind, abusive: true });
      }
    }
  }
  return items;
}

const STRONG_ROOTS =
  /fuck|shit|cunt|bitch|nigg|fagg|whore|slut|wank|jizz|asshole|bullshit|dildo|blowjob|twat|pussy|bastard|cock|dick|piss|tits|boob|cum|rape|porn|sex|nude|anal|penis|vagina|clit|orgasm|masturb|jerk|slag|fag/;

function dicWords(pkg: string): string[] {
  const text = Deno.readTextFileSync(new URL(`../node_modules/${pkg}/index.dic`, import.meta.url));
  return text.split("\n").slice(1).map((l) => l.split("/")[0].trim().normalize("NFC")).filter((w) =>
    w.length > 1 && !/\d/.test(w)
  );
}

/** Every `step`-th element, so a sample spreads over the whole alphabet. */
function spread<T>(list: T[], max: number): T[] {
  if (list.length <= max) return list;
  const step = list.length / max;
  return Array.from({ length: max }, (_, i) => list[Math.floor(i * step)]);
}

/** Clean dictionary words per language (at most `max` each, spread over the list). */
export function dictionaryItems(max = Infinity): EvalItem[] {
  const listed = listedWords();
  const sources: [Language, string[]][] = [
    ["en", require("an-array-of-english-words")],
    ["fr", require("an-array-of-french-words")],
    ["es", require("an-array-of-spanish-words")],
    ["ru", dicWords("dictionary-ru")],
    ["tr", dicWords("dictionary-tr")],
    ["ko", dicWords("dictionary-ko")],
  ];
  const items: EvalItem[] = [];
  for (const [lang, words] of sources) {
    const own = new Set((listed.get(lang) ?? []).map((w) => w.toLowerCase()));
    const clean = [...new Set(words)].filter((w) =>
      !own.has(w.toLowerCase()) && !(lang === "en" && STRONG_ROOTS.test(w))
    );
    for (const w of spread(clean, max)) {
      items.push({ text: w, lang, kind: "dictionary", abusive: false });
    }
  }
  return items;
}

const KO_TEMPLATES = [
  "오늘 {}에 대해 이야기했어요",
  "이번 주말에 {} 보러 갈래?",
  "{} 정말 좋네요",
  "혹시 {} 있으세요?",
  "어제 {}(을)를 샀어",
];

/** Clean sentences: English quotes and Korean template sentences. */
export function sentenceItems(max = Infinity): EvalItem[] {
  const quotes: { text: string }[] = require("inspirational-quotes/data/data.json");
  const en = spread([...new Set(quotes.map((q) => q.text.trim()))], max);
  const listed = new Set(listedWords().get("ko") ?? []);
  const stems = dicWords("dictionary-ko").filter((w) => HANGUL.test(w) && !listed.has(w));
  const ko = spread(stems, Math.min(max, 5000)).map((w, i) =>
    KO_TEMPLATES[i % KO_TEMPLATES.length].replace("{}", w)
  );
  return [
    ...en.map((text) => ({
      text,
      lang: "en" as Language,
      kind: "sentence",
      abusive: false,
      family: "quote",
    })),
    ...ko.map((text) => ({
      text,
      lang: "ko" as Language,
      kind: "sentence",
      abusive: false,
      family: "template",
    })),
  ];
}

const HOLDOUT = new URL("../tests/lib/abuse/holdout/", import.meta.url);

function tsvRows(file: string): string[][] {
  return Deno.readTextFileSync(new URL(file, HOLDOUT)).split("\n")
    .filter((l) => l.trim() && !l.startsWith("#")).map((l) => l.split("\t"));
}

/**
 * The hold-out samples (tests/lib/abuse/holdout/, see NOTICE.md there): the peer lists' words
 * (kind "peer_word"), the phrase sample (kind "phrase"; its clean lines kind "phrase_clean"), the
 * clean sentence sample (kind "sentence", family headline, name or chat) and the second English
 * pair, kept apart from the first: clean lines (kind "clean_heldout", family headline, name,
 * chat, game, sports or finance) and abusive lines (kind "abuse_heldout", family swear, plain,
 * evasion or threat), and the third English pair, kept apart from both: clean lines (kind
 * "clean_heldout2", family headline, name, place, brand, nature, legal, chat, game, sports or
 * finance) and abusive lines (kind "abuse_heldout2", family swear, plain, evasion, threat or
 * slur), and the fourth English pair, kept apart from the others: clean lines as players and
 * operators write them (kind "clean_heldout3", family game, trade, guild, support, item,
 * headline, sports, finance, cooking, chat, name or place) and abusive lines (kind
 * "abuse_heldout3", family swear, plain, evasion, threat or slur).
 */
export function holdoutItems(): EvalItem[] {
  const peer: { words: string[] } = JSON.parse(
    Deno.readTextFileSync(new URL("peer_words.json", HOLDOUT)),
  );
  return [
    ...peer.words.map((w) => ({
      text: CARRIERS.default.replace("{}", w),
      lang: "en" as Language,
      kind: "peer_word",
      abusive: true,
    })),
    ...tsvRows("phrases.tsv").map(([lang, label, text]) => ({
      text,
      lang: lang as Language,
      kind: label === "abusive" ? "phrase" : "phrase_clean",
      abusive: label === "abusive",
    })),
    ...tsvRows("clean_sentences.tsv").map(([lang, family, text]) => ({
      text,
      lang: lang as Language,
      kind: "sentence",
      abusive: false,
      family,
    })),
    ...tsvRows("clean_en_heldout.tsv").map(([lang, family, text]) => ({
      text,
      lang: lang as Language,
      kind: "clean_heldout",
      abusive: false,
      family,
    })),
    ...tsvRows("abusive_en_heldout.tsv").map(([lang, family, text]) => ({
      text,
      lang: lang as Language,
      kind: "abuse_heldout",
      abusive: true,
      family,
    })),
    ...tsvRows("clean_en_heldout2.tsv").map(([lang, family, text]) => ({
      text,
      lang: lang as Language,
      kind: "clean_heldout2",
      abusive: false,
      family,
    })),
    ...tsvRows("abusive_en_heldout2.tsv").map(([lang, family, text]) => ({
      text,
      lang: lang as Language,
      kind: "abuse_heldout2",
      abusive: true,
      family,
    })),
    ...tsvRows("clean_en_heldout3.tsv").map(([lang, family, text]) => ({
      text,
      lang: lang as Language,
      kind: "clean_heldout3",
      abusive: false,
      family,
    })),
    ...tsvRows("abusive_en_heldout3.tsv").map(([lang, family, text]) => ({
      text,
      lang: lang as Language,
      kind: "abuse_heldout3",
      abusive: true,
      family,
    })),
  ];
}
