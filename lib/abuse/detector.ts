/**
 * The forbidden-word detector of a project: built-in lexicons and phrase rules plus the studio's
 * own words, normalised and matched in one pass (and in a few alternative readings of the text:
 * letter runs shortened, doubled letters halved, digit words read as letters, mask characters
 * read as hidden letters, Latin keys read as Korean), filtered by each entry's boundary rules,
 * language, category and severity, matches inside allowed words dropped, and the matched
 * characters of the original text masked.
 */
import {
  collapseRepeats,
  copyNormalized,
  F_JOIN,
  F_SEP,
  H_DIGITS,
  H_KEYS,
  H_PAIR,
  halveDoubled,
  type Normalized,
  normalizedString,
  normalizeText,
  readDigitWords,
  variantBuffer,
  WILD_SHIFT,
} from "./normalize.ts";
import { compileMatcher, type Matcher, type PatternInput, WILD } from "./matcher.ts";
import { keyboardHangul } from "./keyboard.ts";
import {
  ALL_LANGUAGES,
  type Language,
  languageBit,
  languageMask,
  resolveLanguage,
} from "./languages.ts";
import { LEXICON } from "./lexicon_data.ts";

/** Kinds of abuse a match is labelled with (`custom`: the studio's own words). */
export const CATEGORIES = [
  "profanity",
  "insult",
  "slur",
  "sexual",
  "threat",
  "self-harm",
  "intensifier",
  "custom",
] as const;

/** A category of abuse. */
export type Category = typeof CATEGORIES[number];

/** Severities: 1 mild, 2 moderate, 3 strong, 4 severe (the studio's own words are 4). */
export const SEVERITIES = [1, 2, 3, 4] as const;

/** Word lists and settings of a project. */
export interface DetectorOptions {
  forbiddenWords: readonly string[];
  allowWords?: readonly string[];
  /** Replacement character for masked characters (default "*"). */
  maskChar?: string;
  /** Include the built-in lexicons and phrase rules of the 16 supported languages (default false). */
  builtin?: boolean;
  /** Only these languages' built-in lexicons (codes as `lang_code`; default all 16). */
  builtinLanguages?: readonly string[] | null;
  /** The lowest severity that counts as forbidden (1..4, default 1: every match counts). */
  minSeverity?: number;
  /** Whether intensifiers (`존나 좋아`, `fucking great`) count as forbidden (default false). */
  countIntensifiers?: boolean;
}

/** Per-text options: the text's language selects the built-in lexicons applied. */
export interface DetectOptions {
  /** ISO 639-1 code ("en", "zh-TW") or chat lang_code 1..16; unknown or absent = all. */
  lang?: string | number | null;
}

/** One counted match: the entry as listed, its category and severity. */
export interface MatchInfo {
  word: string;
  category: Category;
  severity: number;
}

/** What the detector found in one text. */
export interface Detection {
  forbidden: boolean;
  /** The text with each matched character replaced by the mask character (whitespace kept). */
  masked: string;
  /** The forbidden words (as listed) that matched, without duplicates. */
  words: string[];
  /** Category and severity of each word in `words`, in the same order. */
  matches: MatchInfo[];
}

/** A compiled word list. */
export interface Detector {
  detect(text: string, options?: DetectOptions): Detection;
}

/** How one entry may match (parsed from its markers and its script). */
export interface EntryRule {
  /** The entry without markers. */
  body: string;
  /** Must start at a word boundary. */
  wordStart: boolean;
  /** Must end at a word boundary. */
  wordEnd: boolean;
  /**
   * Must not start or end inside an original character: a Hangul entry matches on syllable
   * boundaries, and one written in jamo matches typed jamo, never the inside of a syllable.
   */
  wholeChars: boolean;
  /** Counts only when the same text has another, definite match. */
  contextOnly: boolean;
}

/**
 * What a built-in entry is for (from its label in the lexicon data):
 * - word: counts by itself;
 * - frame: the start of a phrase rule ("you are a", "what a"), never counted itself; a target
 *   after it, with at most `gap` words between, counts;
 * - after: a frame that follows its target (Korean "같은 놈": "벌레 같은 놈");
 * - target: an insult noun or adjective that counts only with a frame ("idiot", "벌레");
 * - suffix: counts at the end of a longer word (Korean -충, -놈들: 급식충), unless an allowed
 *   dictionary word holds it (곤충);
 * - intensifies: a word that is an intensifier when another word follows it ("fucking great").
 */
const KINDS = ["word", "frame", "after", "target", "suffix", "intensifies"] as const;
const K_WORD = 0, K_FRAME = 1, K_AFTER = 2, K_TARGET = 3, K_SUFFIX = 4, K_INTENSIFIES = 5;
const CAT_INTENSIFIER = CATEGORIES.indexOf("intensifier");
const CAT_CUSTOM = CATEGORIES.indexOf("custom");
const CAT_SEXUAL = CATEGORIES.indexOf("sexual");

/**
 * A parsed entry label: "category severity [kind[:gap]] [variant|name]"; `variant` marks entries
 * the lexicon build generated from another (spelling variants, initials), which are not reported
 * as words where a listed entry covers the same letters; `name` marks words that are also given
 * names or surnames (`Dick`), read as names inside a capitalised name.
 */
export function parseLabel(label: string): EntryLabel {
  const [category, severity, kindSpec = "word", origin] = label.split(" ");
  const [kind, gap = "0"] = kindSpec.split(":");
  const c = CATEGORIES.indexOf(category as Category);
  const k = KINDS.indexOf(kind as typeof KINDS[number]);
  const s = Number(severity);
  if (
    c < 0 || k < 0 || !(s >= 1 && s <= 4) ||
    (origin !== undefined && origin !== "variant" && origin !== "name")
  ) throw new Error(`bad lexicon label: ${label}`);
  return {
    category: c,
    severity: s,
    kind: k,
    gap: Number(gap),
    variant: origin === "variant",
    name: origin === "name",
  };
}

/** A parsed entry label (indexes into CATEGORIES and the kinds above). */
export interface EntryLabel {
  category: number;
  severity: number;
  kind: number;
  gap: number;
  variant: boolean;
  name: boolean;
}

// One compiled entry: the listed word, its languages, rule bits and label.
interface Entry extends EntryLabel {
  word: string;
  langs: number;
  rule: number;
}
const R_START = 1, R_END = 2, R_CHARS = 4, R_CONTEXT = 8, R_VARIANT = 16, R_NAME = 32;

/** True for code points of scripts written with spaces between words (Latin, Greek, Cyrillic). */
function isAlphabetic(cp: number): boolean {
  return cp < 0x0530 || (cp >= 0x1d00 && cp < 0x2000);
}

/**
 * Parses an entry's markers and decides its rule. Markers: a leading or trailing `*` lets that
 * end fall inside a word, `|` demands a word boundary there, a leading `~` makes the entry
 * context-only. Without markers: entries in Latin, Greek or Cyrillic shorter than 5 letters
 * (`builtin`: all of them) match whole words only; Chinese, Japanese, Thai and Hangul entries
 * match inside words (Hangul on syllable boundaries; jamo entries on typed jamo); any entry that
 * normalises to fewer than three characters needs a whole word, except a two-character entry in
 * a script without spaces.
 */
export function parseEntry(raw: string, builtin = false): EntryRule & { chars: Int32Array } {
  let body = raw.trim();
  const contextOnly = body.startsWith("~") && body.length > 1;
  if (contextOnly) body = body.slice(1);
  let start: boolean | undefined, end: boolean | undefined;
  if (body.length > 1 && (body[0] === "*" || body[0] === "|")) {
    start = body[0] === "|";
    body = body.slice(1);
  }
  const last = body[body.length - 1];
  if (body.length > 1 && (last === "*" || last === "|")) {
    end = last === "|";
    body = body.slice(0, -1);
  }
  const norm = normalizeText(body);
  const chars = copyNormalized(collapseRepeats(norm, 2, body) ?? norm).chars;
  let alphabetic = 0, emoji = 0;
  for (const c of chars) {
    if (c === 0x20) continue;
    if (isAlphabetic(c)) alphabetic++;
    else if (c >= 0x1f000 || (c >= 0x2600 && c < 0x2800)) emoji++;
  }
  const letters = chars.filter((c) => c !== 0x20).length;
  const spaced = alphabetic > 0 && alphabetic + emoji === letters;
  let whole = spaced && (builtin || letters < 5);
  if (letters < 3 && emoji < letters && (spaced || letters < 2)) whole = true;
  return {
    body,
    chars,
    wordStart: start ?? whole,
    wordEnd: end ?? whole,
    wholeChars: true,
    contextOnly,
  };
}

type ParsedEntry = ReturnType<typeof parseEntry>;
type BuiltinEntry = {
  raw: string;
  rule: ParsedEntry;
  langs: number;
  allow: boolean;
  label: EntryLabel;
};
let builtinCache: BuiltinEntry[] | undefined;
const STUDIO_LABEL = {
  category: CAT_CUSTOM,
  severity: 4,
  kind: K_WORD,
  gap: 0,
  variant: false,
  name: false,
};

/** The built-in lexicon entries, parsed once per process (every project compiles them). */
function builtinEntries(): BuiltinEntry[] {
  if (!builtinCache) {
    builtinCache = [];
    for (const [lang, list] of Object.entries(LEXICON)) {
      const langs = languageBit(lang as Language);
      list.forbidden.forEach((raw, i) => {
        const label = parseLabel(list.labels[i]);
        builtinCache!.push({ raw, rule: parseEntry(raw, true), langs, allow: false, label });
      });
      for (const raw of list.allow) {
        builtinCache.push({
          raw,
          rule: parseEntry(raw, true),
          langs,
          allow: true,
          label: STUDIO_LABEL,
        });
      }
    }
  }
  return builtinCache;
}

/** Compiles a word list; words that normalise to nothing are ignored. */
export function compileDetector(options: DetectorOptions): Detector {
  const patterns: PatternInput[] = [];
  const keys = new Map<string, number>();
  const pending: Entry[][] = [];
  let hangul = false;
  const addParsed = (
    raw: string,
    rule: ParsedEntry,
    langs: number,
    allow: boolean,
    label: EntryLabel,
    place = false,
  ) => {
    if (rule.chars.length === 0) return;
    const key = `${allow ? "+" : "-"}${String.fromCodePoint(...rule.chars)}`;
    let id = keys.get(key);
    if (id === undefined) {
      id = pending.length;
      keys.set(key, id);
      pending.push([]);
      patterns.push({ chars: rule.chars, allow, id });
      if (!allow && rule.chars.some((c) => c >= 0x3131 && c <= 0x318e)) hangul = true;
    }
    pending[id].push({
      word: allow ? (place ? raw : "") : raw.trim(),
      langs,
      // A suffix ends a longer word, so it never starts one. An allowed word is anchored only
      // where its entry says so ("|식충": at a word's start).
      rule: allow
        ? (place ? R_NAME : raw.trim().startsWith("|") ? R_START : 0)
        : (rule.wordStart && label.kind !== K_SUFFIX ? R_START : 0) |
          (rule.wordEnd ? R_END : 0) | (rule.wholeChars ? R_CHARS : 0) |
          (rule.contextOnly ? R_CONTEXT : 0) | (label.variant ? R_VARIANT : 0) |
          (label.name ? R_NAME : 0),
      ...label,
    });
  };
  // The studio's own entries come first: for the same normalised text their rule is tried first.
  for (const w of options.forbiddenWords) {
    addParsed(w, parseEntry(w, false), ALL_LANGUAGES, false, STUDIO_LABEL);
  }
  for (const w of options.allowWords ?? []) {
    addParsed(w, parseEntry(w, false), ALL_LANGUAGES, true, STUDIO_LABEL);
  }
  const fillers = new Set<string>();
  const senses = new Map<string, Sense[]>();
  if (options.builtin) {
    let languages = ALL_LANGUAGES;
    if (options.builtinLanguages) {
      languages = 0;
      for (const code of options.builtinLanguages) {
        const language = resolveLanguage(code);
        if (language) languages |= languageBit(language);
      }
    }
    for (const e of builtinEntries()) {
      if (e.langs & languages) addParsed(e.raw, e.rule, e.langs, e.allow, e.label);
    }
    for (const [lang, list] of Object.entries(LEXICON)) {
      if (!(languageBit(lang as Language) & languages)) continue;
      for (const w of list.fillers ?? []) fillers.add(normalizedString(w));
      for (const [w, patterns] of Object.entries(list.senses ?? {})) {
        senses.set(w, [...(senses.get(w) ?? []), ...patterns.map(parseSense)]);
      }
      const langs = languageBit(lang as Language);
      for (const name of list.places ?? []) {
        addParsed(name, parseEntry(name, true), langs, true, STUDIO_LABEL, true);
      }
    }
  }
  const entries = pending.flat();
  const compiled: Compiled = {
    matcher: compileMatcher(patterns),
    groupFirst: new Int32Array(pending.length + 1),
    entryLangs: Int32Array.from(entries, (e) => e.langs),
    entryRule: Uint8Array.from(entries, (e) => e.rule),
    entryWord: entries.map((e) => e.word),
    entryCategory: Uint8Array.from(entries, (e) => e.category),
    entrySeverity: Uint8Array.from(entries, (e) => e.severity),
    entryKind: Uint8Array.from(entries, (e) => e.kind),
    entryGap: Uint8Array.from(entries, (e) => e.gap),
    hangul,
    minSeverity: Math.min(4, Math.max(1, Math.trunc(options.minSeverity ?? 1))),
    countIntensifiers: options.countIntensifiers ?? false,
    fillers,
    // Only built-in entries have other senses (the studio's words mean what they list).
    entrySenses: entries.map((e) =>
      e.category === CAT_CUSTOM ? undefined : senses.get(e.word.replace(/^~?[*|]?|[*|]$/g, ""))
    ),
  };
  pending.forEach((list, i) => compiled.groupFirst[i + 1] = compiled.groupFirst[i] + list.length);
  const maskChar = options.maskChar || "*";
  return {
    detect: (text, opts) => detectWith(compiled, maskChar, text, languageMask(opts?.lang)),
  };
}

// A compiled list: pattern id -> entries groupFirst[id] .. groupFirst[id + 1] - 1.
interface Compiled {
  matcher: Matcher;
  groupFirst: Int32Array;
  entryLangs: Int32Array;
  entryRule: Uint8Array;
  entryWord: string[];
  entryCategory: Uint8Array;
  entrySeverity: Uint8Array;
  entryKind: Uint8Array;
  entryGap: Uint8Array;
  /** Some forbidden entry is written in Hangul (the 2-set keyboard reading can match). */
  hangul: boolean;
  minSeverity: number;
  countIntensifiers: boolean;
  /** Normalised words that may stand between a phrase frame and its target. */
  fillers: Set<string>;
  /** Per entry: the word patterns that tell another sense of it (lexicon `senses`). */
  entrySenses: (Sense[] | undefined)[];
}

/**
 * A pattern of another sense of an entry: the words right before and after it ("blue _",
 * "_ for tat"), or one word anywhere near it (`near`).
 */
interface Sense {
  before: string[];
  after: string[];
  near: string | null;
  /** `near` may stand anywhere in the entry's sentence (pattern written "~word"). */
  far: boolean;
}

function parseSense(pattern: string): Sense {
  const far = pattern.startsWith("~");
  const words = pattern.slice(far ? 1 : 0).toLowerCase().split(/\s+/u).filter(Boolean);
  const at = words.indexOf("_");
  if (at < 0) return { before: [], after: [], near: words.join(" "), far };
  return { before: words.slice(0, at), after: words.slice(at + 1), near: null, far: false };
}

// Match buffers reused across calls (detection is synchronous). Spans are original UTF-16
// offsets, so matches from the alternative readings of a text combine with the others.
let hitStart = new Int32Array(64);
let hitEnd = new Int32Array(64);
let hitEntry = new Int32Array(64);
let hits = 0;
let allowStart = new Int32Array(16);
let allowEnd = new Int32Array(16);
let allows = 0;
let placeStart = new Int32Array(8);
let placeEnd = new Int32Array(8);
let placeEntry = new Int32Array(8);
let places = 0;
let cur: Normalized;
let curLangs = 0;
let cur_: Compiled;
let curText = "";

function grow(a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

/** True when a word boundary lies before normalised position k. */
function boundaryBefore(k: number): boolean {
  return k === 0 || k >= cur.length || (cur.flags[k] & F_SEP) !== 0 || cur.chars[k - 1] === 0x20;
}

function isJamo(c: number): boolean {
  return c >= 0x3131 && c <= 0x318e;
}

// Syllables that may follow a Korean suffix entry inside the word (plural, particles, 같은...).
const AFTER_SUFFIX = new Set([..."들이아야은는을의새놈년같도만"].map((c) => c.charCodeAt(0)));

/** A suffix entry (급식충) needs a syllable right before it and the word's end (or a particle) after. */
function suffixHolds(start: number, end: number): boolean {
  const n = cur;
  if (start === 0 || !isJamo(n.chars[start - 1])) return false;
  if ((n.flags[start] & F_SEP) !== 0 && (n.flags[start] & F_JOIN) === 0) return false;
  if (boundaryBefore(end + 1)) return true;
  return AFTER_SUFFIX.has(curText.charCodeAt(n.start[end + 1]));
}

function pushHit(start: number, end: number, entry: number) {
  if (hits === hitStart.length) {
    hitStart = grow(hitStart);
    hitEnd = grow(hitEnd);
    hitEntry = grow(hitEntry);
  }
  hitStart[hits] = start;
  hitEnd[hits] = end;
  hitEntry[hits++] = entry;
}

function record(end: number, length: number, id: number, allow: boolean) {
  const start = end - length + 1;
  const n = cur;
  const c = cur_;
  let chosen = -1;
  for (let x = c.groupFirst[id]; x < c.groupFirst[id + 1]; x++) {
    if ((c.entryLangs[x] & curLangs) === 0) continue;
    if (allow && (c.entryRule[x] & R_NAME) !== 0) {
      // A place or brand name: checked against the text's capitals in decide().
      if (places === placeStart.length) {
        placeStart = grow(placeStart);
        placeEnd = grow(placeEnd);
        placeEntry = grow(placeEntry);
      }
      placeStart[places] = n.start[start];
      placeEnd[places] = n.end[end];
      placeEntry[places++] = x;
      continue;
    }
    if (allow) {
      if (
        (c.entryRule[x] & R_START) !== 0 &&
        (!boundaryBefore(start) || (n.flags[start] & F_JOIN) !== 0)
      ) continue;
      if (allows === allowStart.length) {
        allowStart = grow(allowStart);
        allowEnd = grow(allowEnd);
      }
      allowStart[allows] = n.start[start];
      allowEnd[allows++] = n.end[end];
      return;
    }
    const rule = c.entryRule[x];
    if (rule & R_CHARS) {
      if (start > 0 && n.start[start] === n.start[start - 1]) continue;
      if (end + 1 < n.length && n.start[end + 1] === n.start[end]) continue;
    }
    let needStart = (rule & R_START) !== 0, needEnd = (rule & R_END) !== 0;
    // An alphabetic match across joined single letters ("f u c k") must cover whole words: no
    // spill into the neighbouring word ("ok f i k lol").
    if (isAlphabetic(n.chars[start]) && isAlphabetic(n.chars[end])) {
      for (let k = start + 1; k <= end && !(needStart && needEnd); k++) {
        if (n.flags[k] & F_JOIN) needStart = needEnd = true;
      }
    }
    if (needStart && !boundaryBefore(start)) continue;
    if (needEnd && !boundaryBefore(end + 1)) continue;
    const kind = c.entryKind[x];
    if (kind === K_SUFFIX && !suffixHolds(start, end)) continue;
    if (kind === K_SUFFIX) {
      // The whole word is the insult (급식충): its match starts where the word does.
      let k = start;
      while (
        k > 0 && n.chars[k - 1] !== 0x20 && ((n.flags[k] & F_SEP) === 0 || (n.flags[k] & F_JOIN))
      ) k--;
      pushHit(n.start[k], n.end[end], x);
      continue;
    }
    if (kind === K_FRAME || kind === K_AFTER || kind === K_TARGET) {
      // Parts of phrase rules are kept beside the word match of the same text.
      pushHit(n.start[start], n.end[end], x);
      continue;
    }
    chosen = x;
    if ((rule & R_CONTEXT) === 0) break; // a definite entry wins over a context-only one
  }
  if (chosen >= 0) pushHit(n.start[start], n.end[end], chosen);
}

/** The text with WILD code points where mask characters stood inside a word ("sh*t"). */
function wildReading(n: Normalized): Normalized {
  const out = variantBuffer();
  let len = 0;
  for (let k = 0; k < n.length; k++) {
    const w = n.flags[k] >> WILD_SHIFT;
    if (w > 0) {
      // The mask characters are the w single-unit characters right before this letter.
      for (let q = w; q > 0; q--) {
        out.chars[len] = WILD;
        out.start[len] = n.start[k] - q;
        out.end[len] = n.start[k] - q + 1;
        out.flags[len++] = 0;
      }
    }
    out.chars[len] = n.chars[k];
    out.start[len] = n.start[k];
    out.end[len] = n.end[k];
    // The letter after hidden ones continues the word: no boundary before it.
    out.flags[len++] = w > 0 ? 0 : n.flags[k] & (F_SEP | F_JOIN);
  }
  out.length = len;
  out.wild = 0;
  return out;
}

function scan(n: Normalized) {
  cur = n;
  cur_.matcher.scan(n.chars, n.length, record);
}

function detectWith(
  compiled: Compiled,
  maskChar: string,
  text: string,
  langs: number,
): Detection {
  cur_ = compiled;
  curLangs = langs;
  curText = text;
  hits = 0;
  allows = 0;
  places = 0;
  const base = normalizeText(text);
  scan(base);
  const two = collapseRepeats(base, 2, text);
  if (two) {
    scan(two);
    scan(collapseRepeats(base, 1, text)!);
  }
  const halved = base.hints & H_PAIR ? halveDoubled(base, text) : null;
  if (halved) scan(halved);
  const digits = base.hints & H_DIGITS ? readDigitWords(base) : null;
  if (digits) scan(digits);
  if (compiled.hangul && (langs & KOREAN) !== 0 && (base.hints & H_KEYS) !== 0) {
    const typed = keyboardHangul(base, text);
    if (typed) scan(typed);
  }
  if (base.wild > 0) {
    cur = wildReading(base);
    compiled.matcher.scanWild(cur.chars, cur.length, record);
  }
  if (hits === 0) return { forbidden: false, masked: text, words: [], matches: [] };
  return decide(compiled, maskChar, text);
}

const KOREAN = languageBit("ko");
// Words after which "fucking" is not an intensifier of what follows ("fucking you", "fucking off").
const NOT_INTENSIFIED = new Set(["you", "u", "ya", "off", "up", "him", "her", "them", "it", "me"]);
const WORD_AT = /[\p{L}\p{N}']+/uy;
// Endings an inside-word match of a Latin entry takes with it when they end the word
// ("assholes", "fuckers"), so the mask does not leave them.
const ENDINGS = new Set(["s", "es", "ed", "er", "ers", "ing", "ings", "in", "y", "ies", "z", "a"]);
const LETTER_AT = /\p{L}+/uy;
const STOP = /[.!?\n]/;

/** The number of words between two offsets, or -1 when a sentence ends between them. */
function wordsBetween(text: string, from: number, to: number): number {
  if (to < from) return -1;
  const gap = text.slice(from, to);
  if (STOP.test(gap)) return -1;
  const words = gap.trim();
  return words === "" ? 0 : words.split(/\s+/u).length;
}

// What each hit became in decide(): its category and severity (0 = not counted), and whether it
// counts only beside a definite match (a context-only entry, or a word read as part of a name or
// of a hyphenated compound).
let hitCategory = new Int32Array(64);
let hitSeverity = new Int32Array(64);
let hitContext = new Uint8Array(64);

function decide(c: Compiled, maskChar: string, text: string): Detection {
  if (hitCategory.length < hits) {
    hitCategory = new Int32Array(hitStart.length);
    hitSeverity = new Int32Array(hitStart.length);
    hitContext = new Uint8Array(hitStart.length);
  }
  // 1. Matches inside an allowed word are dropped; parts of phrase rules resolved.
  for (let h = 0; h < hits; h++) {
    const x = hitEntry[h];
    hitSeverity[h] = 0;
    hitCategory[h] = c.entryCategory[x];
    let allowed = false;
    for (let a = 0; a < allows && !allowed; a++) {
      allowed = allowStart[a] <= hitStart[h] && allowEnd[a] >= hitEnd[h];
    }
    const kind = c.entryKind[x];
    // A target counts only inside its frame, which no allowed word explains away (기생충).
    if (allowed && kind !== K_TARGET) continue;
    if (kind === K_FRAME || kind === K_AFTER) continue;
    if (kind === K_TARGET && !framed(c, h, text)) continue;
    hitSeverity[h] = c.entrySeverity[x];
    hitContext[h] = (c.entryRule[x] & R_CONTEXT) !== 0 ? 1 : 0;
    if (kind === K_INTENSIFIES && intensifies(h, text)) {
      hitCategory[h] = CAT_INTENSIFIER;
      hitSeverity[h] = 1;
    }
    if (
      kind === K_WORD && hitContext[h] === 0 && c.entryCategory[x] !== CAT_CUSTOM &&
      (inCompound(text, h, c.entryRule[x]) || inName(c, h, text) || inPlace(c, h, text) ||
        otherSense(c.entrySenses[x], text, hitStart[h], hitEnd[h]))
    ) hitContext[h] = 1;
  }
  // Words inside an intensifier ("fucking" in "fucking great" is also "*fuck*") go with it.
  for (let h = 0; h < hits; h++) {
    if (hitCategory[h] !== CAT_INTENSIFIER || hitSeverity[h] === 0) continue;
    for (let g = 0; g < hits; g++) {
      if (g !== h && hitStart[g] >= hitStart[h] && hitEnd[g] <= hitEnd[h] && hitSeverity[g] > 0) {
        hitCategory[g] = CAT_INTENSIFIER;
        hitSeverity[g] = 1;
      }
    }
  }
  // 2. The project's threshold and its intensifier choice.
  let definite = false;
  for (let h = 0; h < hits; h++) {
    if (hitSeverity[h] === 0) continue;
    if (
      hitSeverity[h] < c.minSeverity ||
      (hitCategory[h] === CAT_INTENSIFIER && !c.countIntensifiers)
    ) {
      hitSeverity[h] = 0;
      continue;
    }
    if (hitContext[h] === 0) definite = true;
  }
  if (!definite) return { forbidden: false, masked: text, words: [], matches: [] };
  // 3. Context-only matches count beside a definite one, but not where a definite match
  // already explains the same letters ("a b o o b s": boobs, not abo).
  // Characters inside counted definite matches, as prefix counts (only when needed).
  let inDefinite: Int32Array | null = null;
  for (let h = 0; h < hits && !inDefinite; h++) {
    if (hitSeverity[h] > 0 && hitContext[h] !== 0) {
      inDefinite = new Int32Array(text.length + 1);
    }
  }
  if (inDefinite) {
    const mark = new Int32Array(text.length + 1);
    for (let g = 0; g < hits; g++) {
      if (hitSeverity[g] > 0 && hitContext[g] === 0) {
        mark[hitStart[g]]++;
        mark[hitEnd[g]]--;
      }
    }
    let depth = 0;
    for (let i = 0; i < text.length; i++) {
      depth += mark[i];
      inDefinite[i + 1] = inDefinite[i] + (depth > 0 ? 1 : 0);
    }
  }
  const kept: number[] = [];
  for (let h = 0; h < hits; h++) {
    if (hitSeverity[h] === 0) continue;
    if (
      inDefinite && hitContext[h] !== 0 &&
      inDefinite[hitEnd[h]] > inDefinite[hitStart[h]]
    ) continue;
    kept.push(h);
  }
  // By start, longer first, listed entries before generated ones of the same span: a sweep then
  // knows whether a listed match covers each generated one.
  const variantOf = (h: number) => (c.entryRule[hitEntry[h]] & R_VARIANT) !== 0 ? 1 : 0;
  kept.sort((a, b) =>
    hitStart[a] - hitStart[b] || hitEnd[b] - hitEnd[a] || variantOf(a) - variantOf(b)
  );
  const words = new Map<string, MatchInfo>();
  let masked = "";
  let copied = 0;
  let listedEnd = -1;
  for (const h of kept) {
    const x = hitEntry[h];
    const word = c.entryWord[x];
    const seen = words.get(word);
    // A generated variant is reported only where no listed entry covers its letters.
    const covered = variantOf(h) === 1 && listedEnd >= hitEnd[h];
    if (variantOf(h) === 0) listedEnd = Math.max(listedEnd, hitEnd[h]);
    if (!covered && (!seen || seen.severity < hitSeverity[h])) {
      words.set(word, {
        word,
        category: CATEGORIES[hitCategory[h]],
        severity: hitSeverity[h],
      });
    }
    const from = Math.max(hitStart[h], copied);
    const to = withEnding(text, hitEnd[h]);
    if (to <= from) continue;
    masked += text.slice(copied, from) + maskSpan(text, from, to, maskChar);
    copied = to;
  }
  return {
    forbidden: true,
    masked: masked + text.slice(copied),
    words: [...words.keys()],
    matches: [...words.values()],
  };
}

/**
 * A target counts when a frame of the same text leads to it (or follows it) closely enough, and
 * every word between qualifies the insult ("you are a [complete] idiot", not "you [get] monkeys"),
 * or when it is said to someone: set off by a comma at the end of its sentence ("get lost, loser").
 */
function framed(c: Compiled, h: number, text: string): boolean {
  if (notANoun(c, h, text)) return false;
  if (vocative(h, text)) return true;
  for (let f = 0; f < hits; f++) {
    // A frame far from the target cannot be within a few words of it (no text is read then).
    if (hitEnd[f] < hitStart[h] - 64 || hitStart[f] > hitEnd[h] + 64) continue;
    const kind = c.entryKind[hitEntry[f]];
    if (kind === K_FRAME && hitEnd[f] <= hitStart[h]) {
      const gap = wordsBetween(text, hitEnd[f], hitStart[h]);
      if (
        gap >= 0 && gap <= c.entryGap[hitEntry[f]] &&
        (gap === 0 || qualifiers(c, text, hitEnd[f], hitStart[h]))
      ) return true;
    } else if (kind === K_AFTER && hitStart[f] >= hitEnd[h]) {
      const gap = wordsBetween(text, hitEnd[h], hitStart[f]);
      if (
        gap >= 0 && gap <= c.entryGap[hitEntry[f]] &&
        (gap === 0 || qualifiers(c, text, hitEnd[h], hitStart[f]))
      ) return true;
    }
  }
  return false;
}

// Object pronouns: a dehumanising target right before one is a verb ("you dog it", "they rat
// him out").
const OBJECTS = new Set(["it", "them", "him", "her", "me", "us"]);
// Agent nouns ("lovers", "farmer", "collector", "activist"): a dehumanising target right before
// one qualifies it ("animal lovers", "pig farmer"), unless it names a person the insult is
// about ("trash player").
const AGENT = /^\p{L}{3,}(?:er|ers|or|ors|ist|ists)$/u;
const PERSON_HEADS = new Set(
  ("player players gamer gamers streamer streamers member members user users teenager " +
    "teenagers supporter supporters leader leaders driver drivers worker workers brother " +
    "brothers sister sisters mother mothers father fathers daughter daughters partner partners " +
    "teacher teachers officer officers voter voters")
    .split(" "),
);

/**
 * A target that is no insult noun where it stands: a verb before an object pronoun ("you dog
 * it"), or a dehumanising noun qualifying an agent noun right after it ("animals lovers").
 */
function notANoun(c: Compiled, h: number, text: string): boolean {
  let k = hitEnd[h];
  if (text[k] !== " ") return false;
  while (text[k] === " ") k++;
  let b = k;
  while (b < text.length && inWord(text, b)) b++;
  if (b === k) return false;
  const next = text.slice(k, b).toLowerCase();
  // Only the dehumanising nouns (animals, vermin) are also verbs and modifiers.
  if (c.entrySeverity[hitEntry[h]] < 3) return false;
  return OBJECTS.has(next) || (AGENT.test(next) && !PERSON_HEADS.has(next) && unmatched(k, b));
}

const WORD_RUN = /\S+/gu;
const HAS_LETTER = /[\p{L}\p{N}]/u;

/** A target after a comma that ends its sentence: "nice try, idiot", "go away, loser!". */
function vocative(h: number, text: string): boolean {
  let i = hitStart[h] - 1;
  while (i >= 0 && text[i] === " ") i--;
  if (text[i] !== ",") return false;
  for (let k = withEnding(text, hitEnd[h]); k < text.length; k++) {
    if (STOP.test(text[k])) return true;
    if (HAS_LETTER.test(text[k])) return false;
  }
  return true;
}

/**
 * True when every word of text[from, to) may stand inside a phrase rule: a filler of the
 * lexicon ("complete", "little", "such") or itself a match ("fucking", "stupid").
 */
function qualifiers(c: Compiled, text: string, from: number, to: number): boolean {
  const gap = text.slice(from, to);
  WORD_RUN.lastIndex = 0;
  for (let m = WORD_RUN.exec(gap); m; m = WORD_RUN.exec(gap)) {
    const start = from + m.index, end = start + m[0].length;
    // Punctuation is no word ("you, idiot").
    if (!HAS_LETTER.test(m[0])) continue;
    // (decide() no longer reads the normalised text, so the scratch buffers may be reused.)
    if (c.fillers.has(normalizedString(m[0]))) continue;
    let matched = false;
    for (let g = 0; g < hits && !matched; g++) matched = hitStart[g] < end && hitEnd[g] > start;
    if (!matched) return false;
  }
  return true;
}

const HYPHENS = new Set(["-", "\u2010", "\u2011"]);
const LETTER_OR_MARK = /[\p{L}\p{M}]/u;

function isLetterAt(text: string, i: number): boolean {
  return i >= 0 && i < text.length && LETTER_OR_MARK.test(text[i]);
}

/**
 * A whole-word entry that a hyphen joins to another word part, on a side where the entry needs a
 * word boundary, is part of a compound of its own (`Cum-ex`, `tit-for-tat`): it counts
 * only beside a definite match. A compound that is itself an entry (`dick-head`, `dumb-ass`)
 * matches as that entry.
 */
function inCompound(text: string, h: number, rule: number): boolean {
  const s = hitStart[h], e = hitEnd[h];
  if ((rule & R_END) !== 0 && HYPHENS.has(text[e]) && isLetterAt(text, e + 1)) return true;
  return (rule & R_START) !== 0 && HYPHENS.has(text[s - 1]) && isLetterAt(text, s - 2);
}

// Words that are not names beside a name-like entry or a capitalised word holding an entry:
// function words, interjections, insult adjectives and the second parts of insults ("Suck My
// Dick", "Hey Dick", "Big Dick", "Dick Head").
const NOT_NAMES = new Set([
  ..."a an the i you your yours youre you're ur u ya yo ye my me mine his him her he she it its"
    .split(" "),
  ..."we us our they them their this that these those what such so and or but not no yes".split(
    " ",
  ),
  ..."of in on at to for with by from as is are was be".split(" "),
  ..."hey hi hello oh ok okay lol lmao wow dear please thanks".split(" "),
  ..."suck sucks eat kiss lick blow big little small tiny fat huge dumb stupid ugly nice".split(
    " ",
  ),
  ..."head heads face hole wad bag bags sucker suckers licker breath brain cheese weed".split(" "),
]);
// Words before a capitalised word that make it a noun said of someone rather than a name, even
// when a capitalised word follows ("you Twatface", "a Shithead", "Suck My Dick", "Big Dick Energy").
const ADDRESS = new Set([
  ..."a an you your ur u ya yo ye youre you're my his her our their such what".split(" "),
  ..."big little small tiny fat huge dumb stupid ugly nice suck sucks eat kiss lick blow".split(
    " ",
  ),
]);
const EN = languageBit("en");
const APOSTROPHES = new Set(["'", "\u2019"]);
// Characters skipped between a word and its neighbour within a sentence: spaces, commas, quotes
// and brackets (`Richard "Dick" Roe`, `Dick, Jane and Tom`).
const BETWEEN = new Set([..." \t,\"'()[]\u201c\u201d\u2018\u2019"]);

/** True when text[i] belongs to a word: a letter or mark, or an apostrophe between letters. */
function inWord(text: string, i: number): boolean {
  if (isLetterAt(text, i)) return true;
  return APOSTROPHES.has(text[i]) && isLetterAt(text, i - 1) && isLetterAt(text, i + 1);
}

function isUpper(ch: string): boolean {
  return ch !== ch.toLowerCase() && ch === ch.toUpperCase();
}

/** Capitalised, not written in capitals throughout ("Dick", "McCain"; not "DICK"). */
function capitalised(text: string, start: number, end: number): boolean {
  if (!isUpper(text[start])) return false;
  for (let i = start + 1; i < end; i++) {
    if (text[i] !== text[i].toUpperCase()) return true;
  }
  return end - start === 1;
}

/**
 * The word before position i in the same sentence: [start, end, 1 when it is an initial or a
 * short abbreviation with its full stop ("K.", "Mr.")], or null at the sentence's start.
 */
function wordBefore(text: string, i: number): [number, number, number] | null {
  let k = i - 1;
  while (k >= 0 && BETWEEN.has(text[k])) k--;
  let stop = 0;
  if (text[k] === ".") {
    stop = 1;
    k--;
  }
  if (!isLetterAt(text, k)) return null;
  let a = k;
  while (a > 0 && inWord(text, a - 1)) a--;
  // A full stop ends the sentence unless it closes an initial or a title ("J. Dick", "Dr. Roe").
  if (stop && !(k === a ? isUpper(text[a]) : TITLES.has(text.slice(a, k + 1).toLowerCase()))) {
    return null;
  }
  return [a, k + 1, stop];
}
// Kinship words and titles written before a given name in lower case or without a full stop
// ("my uncle Dick", "Grandpa Dick", "Sir Dick").
const KIN = new Set(
  ("uncle aunt auntie cousin grandpa grandad granddad grandma granny gran grandfather " +
    "grandmother father brother sister mother son daughter nephew niece husband wife dad daddy " +
    "mum mom papa mama sir dame lord lady saint mr mrs ms miss mx dr doctor prof professor rev " +
    "reverend pastor bishop coach captain sergeant officer inspector detective judge senator " +
    "president governor mayor")
    .split(" "),
);
// Titles written with a full stop before a name.
const TITLES = new Set("mr mrs ms dr st prof rev sen gen col capt lt sgt jr sr hon".split(" "));

/** The word after position i in the same sentence ([start, end]), or null. */
function wordAfter(text: string, i: number): [number, number] | null {
  let k = i;
  while (k < text.length && BETWEEN.has(text[k])) k++;
  if (!isLetterAt(text, k)) return null;
  let b = k;
  while (b < text.length && inWord(text, b)) b++;
  return [k, b];
}

/** True when no hit overlaps text[start, end). */
function unmatched(start: number, end: number): boolean {
  for (let g = 0; g < hits; g++) if (hitStart[g] < end && hitEnd[g] > start) return false;
  return true;
}

/** A capitalised word that is a name: an initial, or not a function word, insult word or match. */
function nameWord(text: string, w: [number, number, number?] | null): boolean {
  if (!w || !capitalised(text, w[0], w[1])) return false;
  if (w[2] && w[1] - w[0] === 1) return true;
  return !NOT_NAMES.has(text.slice(w[0], w[1]).toLowerCase()) && unmatched(w[0], w[1]);
}

/**
 * An English entry read as (part of) a name counts only beside a definite match:
 * - a name-like entry (`Dick`, `Hooker`) or a mild sexual word (`Pussy`) written with a capital,
 *   beside a capitalised name word of the same sentence (`Dick Cheney`, `Philip J. Dick`,
 *   `Pussy Riot`), after a kinship word or title (`my uncle Dick`) or paired with a name by
 *   "and" (`Dick and Dom`);
 * - an entry inside a longer capitalised word that no entry matches whole (`Danny Shittu`,
 *   `Sharon Fagge`, `fans of Slutsky`), beside a capitalised name word or in mid-sentence,
 *   unless the word before addresses someone ("you Twatface", "a Shithead").
 */
function inName(c: Compiled, h: number, text: string): boolean {
  const x = hitEntry[h];
  if ((c.entryLangs[x] & EN) === 0) return false;
  // Most matches start a word in lower case: nothing to read then.
  if (!isUpper(text[hitStart[h]]) && !inWord(text, hitStart[h] - 1)) return false;
  let ws = hitStart[h], we = hitEnd[h];
  while (ws > 0 && inWord(text, ws - 1)) ws--;
  while (we < text.length && inWord(text, we)) we++;
  if (!capitalised(text, ws, we)) return false;
  const before = wordBefore(text, ws), after = wordAfter(text, we);
  const beforeWord = before === null ? "" : text.slice(before[0], before[1]).toLowerCase();
  const address = ADDRESS.has(beforeWord);
  // A surname particle in lower case before the word (`Quinton de Kock`, `van Dyke`).
  if (
    before !== null && PARTICLES.has(text.slice(before[0], before[1])) &&
    (wordBefore(text, before[0]) === null || nameWord(text, wordBefore(text, before[0])))
  ) return true;
  const named = !address &&
    (nameWord(text, before) || nameWord(text, after) || KIN.has(beforeWord) ||
      pairedName(text, ws, we) || ofName(text, we));
  // Inside a longer word: letters before the match, or after it beyond an inflection.
  const rest = text.slice(hitEnd[h], we).toLowerCase().replace(/^['\u2019]/, "");
  if (ws === hitStart[h] && (rest === "" || ENDINGS.has(rest))) {
    // A mild entry written with a capital after "the" names a team, band or place ("The Cocks",
    // "the Wank mountain").
    if (
      beforeWord === "the" && c.entrySeverity[x] <= 2 &&
      ((c.entryRule[x] & R_NAME) !== 0 || c.entryCategory[x] === CAT_SEXUAL)
    ) return true;
    // A surname after a given name, though its ending reads as an inflection
    // (`Federico Faggin`; not "Lazy Bitches", where the ending is a plural).
    if (rest !== "" && NAME_ENDINGS.has(rest) && !address && nameWord(text, before)) return true;
  }
  if ((c.entryRule[x] & R_NAME) !== 0 && ws === hitStart[h]) return named;
  // A mild sexual word that is the whole capitalised word reads as part of a name beside a
  // capitalised name word too: band, brand and place names (`Pussy Riot`, `Dildo, Newfoundland`).
  if (
    ws === hitStart[h] && (rest === "" || ENDINGS.has(rest)) &&
    c.entryCategory[x] === CAT_SEXUAL && c.entrySeverity[x] <= 2
  ) return named;
  if (ws === hitStart[h] && (rest === "" || ENDINGS.has(rest))) return false;
  // An entry matching the whole word (`Motherfucker`, `Fuckface`) is no name.
  for (let g = 0; g < hits; g++) {
    const kind = c.entryKind[hitEntry[g]];
    if (g !== h && hitStart[g] <= ws && hitEnd[g] >= we && kind !== K_FRAME) return false;
  }
  if (named) return true;
  // At a sentence's start a capital says nothing, but an ending that is no inflection,
  // derivation or insult word reads as a surname or a place (`Shittu`, `Slutsky's`;
  // not "Shitty", "Shithead", "Fuckwit").
  if (before === null) return ws === hitStart[h] && nameEnding(text, h, we);
  return !address && unmatched(before[0], before[1]);
}

/** The letters after a match inside its word read as the ending of a name, not of a word. */
function nameEnding(text: string, h: number, we: number): boolean {
  let rest = text.slice(hitEnd[h], we).toLowerCase().replace(/['\u2019]s$/, "");
  // A doubled last letter before an ending ("shit|ty", "twat|ty").
  if (rest[0] === text[hitEnd[h] - 1].toLowerCase()) rest = rest.slice(1);
  // A doubled last letter alone is a spelling of the entry ("Shitt").
  if (rest === "") return false;
  if (ENDINGS.has(rest) || DERIVATIONS.has(rest) || !/^\p{Script=Latin}+$/u.test(rest)) {
    return false;
  }
  for (const part of INSULT_PARTS) if (rest.startsWith(part)) return false;
  // Another entry inside the ending ("Shitcunt").
  return unmatched(hitEnd[h], we);
}
// Lower-case particles of surnames.
const PARTICLES = new Set("de da di du del della der den des van von ter ten le la".split(" "));
// Endings of surnames that also read as inflections (Faggin, Dicka); not plurals or verbs.
const NAME_ENDINGS = new Set(["in", "a", "z", "y"]);
// Endings that derive words from an entry ("shitty", "bitchiness", "cuntish").
const DERIVATIONS = new Set(
  ("e ey ie ies ier iest iness ly ish ness ty tie ter ters ting ted ery eries ise ize ised " +
    "ized less ful fest o")
    .split(" "),
);
// Second parts of insult compounds ("Shitbag", "Fuckwit", "Twatwaffle").
const INSULT_PARTS = (
  "head face hole wad bag wit tard boy girl ass stain nugget brain breath suck lick lord load " +
  "show post bird rag stick pot box burger waffle nut bucket munch lover hat weed cake pipe " +
  "monger fest heap fuck shit cunt dick cock twat tit wank piss crap sack lips job eater hound " +
  "goblin muppet weasel skank slut whore bitch toy"
).split(" ");

/** A name followed by "of" ("of the") and a capitalised name ("Cock of the North"). */
function ofName(text: string, we: number): boolean {
  const of = wordAfter(text, we);
  if (!of || text.slice(of[0], of[1]) !== "of") return false;
  let next = wordAfter(text, of[1]);
  if (next && text.slice(next[0], next[1]) === "the") next = wordAfter(text, next[1]);
  return nameWord(text, next);
}

/** A name paired with a capitalised name by "and" or "&" ("Dick and Dom", "Tom & Dick"). */
function pairedName(text: string, ws: number, we: number): boolean {
  let k = we;
  while (text[k] === " ") k++;
  const next = text[k] === "&"
    ? k + 1
    : text.slice(k, k + 3).toLowerCase() === "and" && !inWord(text, k + 3)
    ? k + 3
    : -1;
  if (next >= 0 && nameWord(text, wordAfter(text, next))) return true;
  k = ws - 1;
  while (k >= 0 && text[k] === " ") k--;
  const prev = text[k] === "&"
    ? k
    : k >= 2 && text.slice(k - 2, k + 1).toLowerCase() === "and" && !inWord(text, k - 3)
    ? k - 2
    : -1;
  return prev >= 0 && nameWord(text, wordBefore(text, prev));
}

/**
 * A place, brand or band name of the lexicon holds the match, written with its capitals as
 * whole words ("Residents of Dildo", "Pussy Riot"), not after a word that addresses someone.
 */
function inPlace(c: Compiled, h: number, text: string): boolean {
  for (let p = 0; p < places; p++) {
    const ps = placeStart[p], pe = placeEnd[p];
    if (ps > hitStart[h] || pe < hitEnd[h]) continue;
    if (text.slice(ps, pe) !== c.entryWord[placeEntry[p]]) continue;
    if (inWord(text, ps - 1) || inWord(text, pe)) continue;
    const before = wordBefore(text, ps);
    if (before && ADDRESS.has(text.slice(before[0], before[1]).toLowerCase())) continue;
    return true;
  }
  return false;
}

const SENSE_WORDS = 4;
const WORDS = /[\p{L}\p{N}]+/gu;

/**
 * True when the words around text[s, e) in its sentence tell another sense of the entry: a
 * pattern's words stand right before and after it, a near word within four words, or a far word
 * ("~word") anywhere in the sentence (up to 80 characters either side).
 */
function otherSense(senses: Sense[] | undefined, text: string, s: number, e: number): boolean {
  if (!senses) return false;
  let a = s, b = e;
  while (a > 0 && s - a < 80 && !STOP.test(text[a - 1])) a--;
  while (b < text.length && b - e < 80 && !STOP.test(text[b])) b++;
  const sentenceBefore: string[] = text.slice(a, s).toLowerCase().match(WORDS) ?? [];
  const sentenceAfter: string[] = text.slice(e, b).toLowerCase().match(WORDS) ?? [];
  const before = sentenceBefore.slice(-SENSE_WORDS);
  const after = sentenceAfter.slice(0, SENSE_WORDS);
  for (const p of senses) {
    if (p.near !== null) {
      if (p.far) {
        if (sentenceBefore.includes(p.near) || sentenceAfter.includes(p.near)) return true;
      } else if (before.includes(p.near) || after.includes(p.near)) return true;
      continue;
    }
    if (p.before.length > before.length || p.after.length > after.length) continue;
    let holds = true;
    const from = before.length - p.before.length;
    for (let i = 0; i < p.before.length && holds; i++) holds = before[from + i] === p.before[i];
    for (let i = 0; i < p.after.length && holds; i++) holds = after[i] === p.after[i];
    if (holds) return true;
  }
  return false;
}

/** "fucking" followed by another word that is not its object, nor an insult, intensifies it. */
function intensifies(h: number, text: string): boolean {
  let i = hitEnd[h];
  while (i < text.length && (text[i] === " " || text[i] === "\t")) i++;
  if (i === hitEnd[h]) return false;
  WORD_AT.lastIndex = i;
  const next = WORD_AT.exec(text);
  if (!next || NOT_INTENSIFIED.has(next[0].toLowerCase())) return false;
  for (let g = 0; g < hits; g++) {
    if (g !== h && hitStart[g] >= i && hitStart[g] < i + next[0].length) return false;
  }
  return true;
}

/** The end of a match, moved past an inflection that ends the word ("asshole|s"). */
function withEnding(text: string, end: number): number {
  if (end >= text.length || end === 0) return end;
  LETTER_AT.lastIndex = end;
  const rest = LETTER_AT.exec(text);
  if (!rest || rest[0].length > 4 || !/\p{Script=Latin}/u.test(text[end - 1])) return end;
  return ENDINGS.has(rest[0].toLowerCase()) ? end + rest[0].length : end;
}

/** Replaces each code point of text[from, to) except whitespace with the mask character. */
function maskSpan(text: string, from: number, to: number, maskChar: string): string {
  let s = "";
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d || c === 0x3000) s += text[i];
    else if (c >= 0xdc00 && c <= 0xdfff && i > from) continue; // low surrogate: one mask per code point
    else s += maskChar;
  }
  return s;
}
