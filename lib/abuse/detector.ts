/**
 * The forbidden-word detector of one word list: normalise, match every pattern in one pass,
 * drop matches inside allowed words, and mask the matched characters of the original text.
 */
import { copyNormalized, normalizeText } from "./normalize.ts";
import { compileMatcher, type Matcher, type PatternInput } from "./matcher.ts";

/** Word lists and masking settings of a project. */
export interface DetectorOptions {
  forbiddenWords: readonly string[];
  allowWords?: readonly string[];
  /** Replacement character for masked characters (default "*"). */
  maskChar?: string;
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
  detect(text: string): Detection;
}

/** Compiles a word list; words that normalise to nothing are ignored. */
export function compileDetector(options: DetectorOptions): Detector {
  const patterns: PatternInput[] = [];
  const add = (words: readonly string[], allow: boolean) =>
    words.forEach((word, id) => {
      const n = copyNormalized(normalizeText(word));
      if (n.length > 0) patterns.push({ chars: n.chars, allow, id });
    });
  const forbidden = options.forbiddenWords;
  add(forbidden, false);
  add(options.allowWords ?? [], true);
  const matcher = compileMatcher(patterns);
  const maskChar = options.maskChar || "*";
  return { detect: (text) => detectWith(matcher, forbidden, maskChar, text) };
}

// Match buffers reused across calls (detection is synchronous).
let hitStart = new Int32Array(64);
let hitEnd = new Int32Array(64);
let hitId = new Int32Array(64);
let hits = 0;
let allowStart = new Int32Array(16);
let allowEnd = new Int32Array(16);
let allows = 0;
// Per normalised position: 1 when a kept forbidden match covers it.
let flags = new Uint8Array(256);

function record(end: number, length: number, id: number, allow: boolean) {
  const start = end - length + 1;
  if (allow) {
    if (allows === allowStart.length) {
      allowStart = grow(allowStart);
      allowEnd = grow(allowEnd);
    }
    allowStart[allows] = start;
    allowEnd[allows++] = end;
    return;
  }
  if (hits === hitStart.length) {
    hitStart = grow(hitStart);
    hitEnd = grow(hitEnd);
    hitId = grow(hitId);
  }
  hitStart[hits] = start;
  hitEnd[hits] = end;
  hitId[hits++] = id;
}

function grow(a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

function detectWith(
  matcher: Matcher,
  words: readonly string[],
  maskChar: string,
  text: string,
): Detection {
  const norm = normalizeText(text);
  hits = 0;
  allows = 0;
  matcher.scan(norm.chars, norm.length, record);
  if (hits === 0) return { forbidden: false, masked: text, words: [] };

  // Keep the forbidden matches that no allowed word contains; flag their normalised positions
  // (hits may overlap and arrive by end position, so flags merge them without sorting).
  if (flags.length < norm.length) flags = new Uint8Array(Math.max(norm.length, flags.length * 2));
  flags.fill(0, 0, norm.length);
  const found = new Set<number>();
  for (let h = 0; h < hits; h++) {
    const s = hitStart[h], e = hitEnd[h];
    let allowed = false;
    for (let a = 0; a < allows; a++) {
      if (allowStart[a] <= s && allowEnd[a] >= e) {
        allowed = true;
        break;
      }
    }
    if (allowed) continue;
    found.add(hitId[h]);
    flags.fill(1, s, e + 1);
  }
  if (found.size === 0) return { forbidden: false, masked: text, words: [] };
  return {
    forbidden: true,
    masked: maskFlagged(text, norm.start, norm.end, norm.length, maskChar),
    words: [...found].map((id) => words[id]),
  };
}

/** Masks the original characters behind flagged normalised positions; the rest is copied. */
function maskFlagged(
  text: string,
  start: Int32Array,
  end: Int32Array,
  length: number,
  maskChar: string,
): string {
  let masked = "";
  let copied = 0;
  for (let k = 0; k < length;) {
    if (flags[k] === 0) {
      k++;
      continue;
    }
    let j = k;
    while (j + 1 < length && flags[j + 1] === 1) j++;
    const from = Math.max(start[k], copied);
    const to = end[j];
    if (to > from) {
      masked += text.slice(copied, from) + maskSpan(text, from, to, maskChar);
      copied = to;
    }
    k = j + 1;
  }
  return masked + text.slice(copied);
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
