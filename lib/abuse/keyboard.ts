/**
 * Korean typed with the keyboard left in English mode: on the standard 2-set (Dubeolsik) layout
 * each Latin key is a jamo, so "tlqkf" is 시발 and "qudtls" 병신. A word made only of ASCII
 * letters whose keys compose into complete Hangul syllables (initial consonant, vowel, at most a
 * valid final) is read as those syllables; words that do not compose (most English words start
 * with a vowel key, or run two vowels or three consonants together) are left alone.
 */
import { F_SEP, type Normalized, variantBuffer } from "./normalize.ts";

// Key -> compatibility jamo; shifted keys give the tense consonants and ㅒ ㅖ.
const KEY = new Int32Array(128);
for (
  const [keys, jamo] of [["rsefaqtdwczxvg", "ㄱㄴㄷㄹㅁㅂㅅㅇㅈㅊㅋㅌㅍㅎ"], [
    "koijpuhynbml",
    "ㅏㅐㅑㅓㅔㅕㅗㅛㅜㅠㅡㅣ",
  ]]
) {
  for (let i = 0; i < keys.length; i++) {
    KEY[keys.charCodeAt(i)] = jamo.charCodeAt(i);
    KEY[keys.toUpperCase().charCodeAt(i)] = jamo.charCodeAt(i);
  }
}
for (let i = 0; i < 7; i++) KEY["REQTWOP".charCodeAt(i)] = "ㄲㄸㅃㅆㅉㅒㅖ".charCodeAt(i);

const isVowel = (j: number) => j >= 0x314f && j <= 0x3163;
// Vowel pairs typed as two keys that form one vowel (ㅗ + ㅏ = ㅘ ...).
const COMPOUND = new Map<number, number>();
for (const [a, b, c] of ["ㅗㅏㅘ", "ㅗㅐㅙ", "ㅗㅣㅚ", "ㅜㅓㅝ", "ㅜㅔㅞ", "ㅜㅣㅟ", "ㅡㅣㅢ"]) {
  COMPOUND.set(a.charCodeAt(0) * 65536 + b.charCodeAt(0), c.charCodeAt(0));
}
// Consonants that may end a syllable, alone or as the first of a valid pair.
const FINAL = new Set([..."ㄱㄲㄴㄷㄹㅁㅂㅅㅆㅇㅈㅊㅋㅌㅍㅎ"].map((c) => c.charCodeAt(0)));
const CLUSTER = new Set(
  ["ㄱㅅ", "ㄴㅈ", "ㄴㅎ", "ㄹㄱ", "ㄹㅁ", "ㄹㅂ", "ㄹㅅ", "ㄹㅌ", "ㄹㅍ", "ㄹㅎ", "ㅂㅅ"].map((
    p,
  ) => p.charCodeAt(0) * 65536 + p.charCodeAt(1)),
);

// Units of the word being read (a key, or two vowel keys merged), reused across calls.
let unitJamo = new Int32Array(64);
let unitStart = new Int32Array(64);
let unitEnd = new Int32Array(64);

function isAsciiLetter(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

/** True when positions [t, e) each come from one ASCII letter of the text (not "ｆ", "ı"). */
function asciiSpan(n: Normalized, text: string, t: number, e: number): boolean {
  for (let p = t; p < e; p++) {
    if (n.end[p] - n.start[p] !== 1 || !isAsciiLetter(text.charCodeAt(n.start[p]))) return false;
  }
  return true;
}

/**
 * The words of the text typed on the 2-set layout, read as Hangul jamo (each jamo's span is its
 * whole syllable, so the syllable-boundary rule of Hangul entries holds); words are separated by
 * spaces. Null when no word composes. Written to the shared variant buffer.
 */
export function keyboardHangul(n: Normalized, text: string): Normalized | null {
  const out = variantBuffer();
  let len = 0;
  for (let t = 0; t < n.length;) {
    // A word: consecutive positions made from single ASCII letters of the text (normalised to
    // a-z; l reads as i).
    const c = n.chars[t];
    if (c < 0x61 || c > 0x7a) {
      t++;
      continue;
    }
    let e = t + 1;
    while (
      e < n.length && n.chars[e] >= 0x61 && n.chars[e] <= 0x7a && (n.flags[e] & F_SEP) === 0
    ) e++;
    const starts = t === 0 || n.chars[t - 1] === 0x20 || (n.flags[t] & F_SEP) !== 0;
    const ends = e === n.length || n.chars[e] === 0x20 || (n.flags[e] & F_SEP) !== 0;
    // Most English words fail at once: a syllable starts with a consonant key and a vowel key.
    if (
      e - t >= 2 && starts && ends && !isVowel(KEY[text.charCodeAt(n.start[t])]) &&
      isVowel(KEY[text.charCodeAt(n.start[t + 1])]) && asciiSpan(n, text, t, e)
    ) {
      const start = len;
      const next = compose(n, text, t, e, out, len + (len > 0 ? 1 : 0));
      if (next >= 0) {
        if (len > 0) {
          out.chars[len] = 0x20;
          out.start[len] = n.start[t];
          out.end[len] = n.start[t];
          out.flags[len] = F_SEP;
        }
        len = next;
      } else len = start;
    }
    t = e;
  }
  if (len === 0) return null;
  out.length = len;
  out.wild = 0;
  return out;
}

/** Composes the keys of positions [t, e) into syllables written at `at`; -1 when they do not. */
function compose(n: Normalized, text: string, t: number, e: number, out: Normalized, at: number) {
  if (unitJamo.length < e - t) {
    unitJamo = new Int32Array(e - t);
    unitStart = new Int32Array(e - t);
    unitEnd = new Int32Array(e - t);
  }
  let u = 0;
  for (let p = t; p < e; p++) {
    const j = KEY[text.charCodeAt(n.start[p])];
    if (u > 0 && isVowel(j) && isVowel(unitJamo[u - 1])) {
      const merged = COMPOUND.get(unitJamo[u - 1] * 65536 + j);
      if (merged === undefined) return -1; // two vowels that form no vowel
      unitJamo[u - 1] = merged;
      unitEnd[u - 1] = n.end[p];
      continue;
    }
    unitJamo[u] = j;
    unitStart[u] = n.start[p];
    unitEnd[u++] = n.end[p];
  }
  let len = at;
  for (let i = 0; i < u;) {
    // Initial consonant and vowel.
    if (i + 1 >= u || isVowel(unitJamo[i]) || !isVowel(unitJamo[i + 1])) return -1;
    const k = i + 2;
    let c = 0;
    while (k + c < u && !isVowel(unitJamo[k + c])) c++;
    const finals = k + c < u ? c - 1 : c;
    if (finals > 2) return -1;
    if (finals >= 1 && !FINAL.has(unitJamo[k])) return -1;
    if (finals === 2 && !CLUSTER.has(unitJamo[k] * 65536 + unitJamo[k + 1])) return -1;
    const last = k + finals - 1;
    for (let x = i; x <= last; x++) {
      out.chars[len] = unitJamo[x];
      out.start[len] = unitStart[i];
      out.end[len] = unitEnd[last];
      out.flags[len++] = x === 0 ? F_SEP : 0;
    }
    i = last + 1;
  }
  return len;
}
