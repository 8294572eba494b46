/**
 * The forbidden-word detector of a project: built-in lexicons plus the studio's own words,
 * normalised and matched in one pass, filtered by each entry's boundary rules and language,
 * matches inside allowed words dropped, and the matched characters of the original text masked.
 */
import {
  collapseRepeats,
  copyNormalized,
  F_JOIN,
  F_SEP,
  type Normalized,
  normalizeText,
} from "./normalize.ts";
import { compileMatcher, type Matcher, type PatternInput } from "./matcher.ts";
import {
  ALL_LANGUAGES,
  type Language,
  languageBit,
  languageMask,
  resolveLanguage,
} from "./languages.ts";
import { LEXICON } from "./lexicon_data.ts";

/** Word lists and masking settings of a project. */
export interface DetectorOptions {
  forbiddenWords: readonly string[];
  allowWords?: readonly string[];
  /** Replacement character for masked characters (default "*"). */
  maskChar?: string;
  /** Include the built-in lexicons of the 16 supported languages (default false). */
  builtin?: boolean;
  /** Only these languages' built-in lexicons (codes as `lang_code`; default all 16). */
  builtinLanguages?: readonly string[] | null;
}

/** Per-text options: the text's language selects the built-in lexicons applied. */
export interface DetectOptions {
  /** ISO 639-1 code ("en", "zh-TW") or chat lang_code 1..16; unknown or absent = all. */
  lang?: string | number | null;
}

/** What the detector found in one text. */
export interface Detection {
  forbidden: boolean;
  /** The text with each matched character replaced by the mask character (whitespace kept). */
  masked: string;
  /** The forbidden words (as listed) that matched, without duplicates. */
  words: string[];
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

// One compiled entry: the listed word, its languages and its rule bits.
interface Entry {
  word: string;
  langs: number;
  rule: number;
}
const R_START = 1, R_END = 2, R_CHARS = 4, R_CONTEXT = 8;

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
let builtinCache: { raw: string; rule: ParsedEntry; langs: number; allow: boolean }[] | undefined;

/** The built-in lexicon entries, parsed once per process (every project compiles them). */
function builtinEntries() {
  if (!builtinCache) {
    builtinCache = [];
    for (const [lang, list] of Object.entries(LEXICON)) {
      const langs = languageBit(lang as Language);
      for (const raw of list.forbidden) {
        builtinCache.push({ raw, rule: parseEntry(raw, true), langs, allow: false });
      }
      for (const raw of list.allow) {
        builtinCache.push({ raw, rule: parseEntry(raw, true), langs, allow: true });
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
  const add = (raw: string, langs: number, allow: boolean, builtin: boolean) =>
    addParsed(raw, parseEntry(raw, builtin), langs, allow);
  const addParsed = (raw: string, rule: ParsedEntry, langs: number, allow: boolean) => {
    if (rule.chars.length === 0) return;
    const key = `${allow ? "+" : "-"}${String.fromCodePoint(...rule.chars)}`;
    let id = keys.get(key);
    if (id === undefined) {
      id = pending.length;
      keys.set(key, id);
      pending.push([]);
      patterns.push({ chars: rule.chars, allow, id });
    }
    pending[id].push({
      word: allow ? "" : raw.trim(),
      langs,
      rule: (rule.wordStart ? R_START : 0) | (rule.wordEnd ? R_END : 0) |
        (rule.wholeChars ? R_CHARS : 0) | (rule.contextOnly ? R_CONTEXT : 0),
    });
  };
  // The studio's own entries come first: for the same normalised text their rule is tried first.
  for (const w of options.forbiddenWords) add(w, ALL_LANGUAGES, false, false);
  for (const w of options.allowWords ?? []) add(w, ALL_LANGUAGES, true, false);
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
      if (e.langs & languages) addParsed(e.raw, e.rule, e.langs, e.allow);
    }
  }
  const entries = pending.flat();
  const compiled: Compiled = {
    matcher: compileMatcher(patterns),
    groupFirst: new Int32Array(pending.length + 1),
    entryLangs: Int32Array.from(entries, (e) => e.langs),
    entryRule: Uint8Array.from(entries, (e) => e.rule),
    entryWord: entries.map((e) => e.word),
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
}

// Match buffers reused across calls (detection is synchronous). Spans are original UTF-16
// offsets, so matches from the repeat-collapsed variants of a text combine with the others.
let hitStart = new Int32Array(64);
let hitEnd = new Int32Array(64);
let hitEntry = new Int32Array(64);
let hits = 0;
let allowStart = new Int32Array(16);
let allowEnd = new Int32Array(16);
let allows = 0;
let cur: Normalized;
let curLangs = 0;
let cur_: Compiled;

function grow(a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

/** True when a word boundary lies before normalised position k. */
function boundaryBefore(k: number): boolean {
  return k === 0 || k >= cur.length || (cur.flags[k] & F_SEP) !== 0 || cur.chars[k - 1] === 0x20;
}

function record(end: number, length: number, id: number, allow: boolean) {
  const start = end - length + 1;
  const n = cur;
  const c = cur_;
  let chosen = -1;
  for (let x = c.groupFirst[id]; x < c.groupFirst[id + 1]; x++) {
    if ((c.entryLangs[x] & curLangs) === 0) continue;
    if (allow) {
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
    chosen = x;
    if ((rule & R_CONTEXT) === 0) break; // a definite entry wins over a context-only one
  }
  if (chosen >= 0) {
    if (hits === hitStart.length) {
      hitStart = grow(hitStart);
      hitEnd = grow(hitEnd);
      hitEntry = grow(hitEntry);
    }
    hitStart[hits] = n.start[start];
    hitEnd[hits] = n.end[end];
    hitEntry[hits++] = chosen;
  }
}

function detectWith(
  compiled: Compiled,
  maskChar: string,
  text: string,
  langs: number,
): Detection {
  cur_ = compiled;
  curLangs = langs;
  hits = 0;
  allows = 0;
  cur = normalizeText(text);
  compiled.matcher.scan(cur.chars, cur.length, record);
  const base = cur;
  const two = collapseRepeats(base, 2, text);
  if (two) {
    cur = two;
    compiled.matcher.scan(cur.chars, cur.length, record);
    cur = collapseRepeats(base, 1, text)!;
    compiled.matcher.scan(cur.chars, cur.length, record);
  }
  if (hits === 0) return { forbidden: false, masked: text, words: [] };

  // Keep the matches that no allowed word contains; context-only entries count only beside a
  // definite match.
  let definite = false;
  const kept: number[] = [];
  for (let h = 0; h < hits; h++) {
    const s = hitStart[h], e = hitEnd[h];
    let allowed = false;
    for (let a = 0; a < allows && !allowed; a++) {
      allowed = allowStart[a] <= s && allowEnd[a] >= e;
    }
    if (allowed) continue;
    kept.push(h);
    if ((compiled.entryRule[hitEntry[h]] & R_CONTEXT) === 0) definite = true;
  }
  if (!definite) return { forbidden: false, masked: text, words: [] };
  kept.sort((a, b) => hitStart[a] - hitStart[b] || hitEnd[b] - hitEnd[a]);
  const words = new Set<string>();
  let masked = "";
  let copied = 0;
  for (const h of kept) {
    words.add(compiled.entryWord[hitEntry[h]]);
    const from = Math.max(hitStart[h], copied);
    const to = hitEnd[h];
    if (to <= from) continue;
    masked += text.slice(copied, from) + maskSpan(text, from, to, maskChar);
    copied = to;
  }
  return { forbidden: true, masked: masked + text.slice(copied), words: [...words] };
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
