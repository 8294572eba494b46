/**
 * Per-code-point folding for abuse matching: what one character becomes (NFKD, lower case, ß,
 * katakana, final sigma, jamo, confusable look-alikes, diacritics, l read as i) and its kind,
 * computed once per code point and kept in lookup tables. The sequence rules (leetspeak in
 * context, separators, repeats) live in normalize.ts.
 */
import { jamoOf } from "./hangul.ts";
import { CONFUSABLES } from "./confusables_data.ts";

/** Item kind: filler dropped by the leet rule ("시1발"). */
export const K_SKIP = 0;
/** Item kind: a letter of an alphabet written with spaces (Latin, Greek, Cyrillic). */
export const K_LATIN = 1;
/** Item kind: a letter of any other script. */
export const K_OTHER = 2;
/** Item kind: a decimal digit (may read as a letter). */
export const K_DIGIT = 3;
/** Item kind: a leet symbol such as @ or $ (may read as a letter). */
export const K_LEET = 4;
/** Item kind: whitespace. */
export const K_SPACE = 5;
/** Item kind: punctuation and symbols. */
export const K_PUNCT = 6;
/** Item kind: a combining mark standing alone (dropped after K_LATIN, else a letter). */
export const K_MARK = 9;
/** Item kind: an emoji (matched as written, like a letter of its own script). */
export const K_EMOJI = 10;
/** Table entry: not computed yet. */
export const T_UNSET = 0;
/** Table entry: the code point expands to several items (see `multi`). */
export const T_MULTI = 7;
/** Table entry: the code point vanishes. */
export const T_IGNORE = 8;

/** Per BMP code point: its kind (T_MULTI when it expands, T_UNSET until computed). */
export const tabKind = new Uint8Array(65536);
/** Per BMP code point: its single output code point. */
export const tabCp = new Int32Array(65536);
/** Outputs of code points that expand to several items, and of astral code points. */
export const multi = new Map<number, { kinds: number[]; cps: number[] }>();

/** The letter a digit or leet symbol reads as next to Latin letters. */
export const LEET: Record<number, number> = {};
for (
  const [from, to] of Object.entries({
    "0": "o",
    "1": "i",
    "3": "e",
    "4": "a",
    "5": "s",
    "7": "t",
    "8": "b",
    "9": "g",
    "@": "a",
    "$": "s",
    "!": "i",
    "|": "i",
  })
) LEET[from.charCodeAt(0)] = to.charCodeAt(0);

const RE_IGNORE = /^[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]$/u;
const RE_SPACE = /^\s$/u;
const RE_LETTER = /^[\p{L}\p{M}]$/u;
const RE_LATIN = /^[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}]$/u;
const RE_MARK = /^\p{M}$/u;
const RE_EMOJI = /^\p{Extended_Pictographic}$/u;

/** Latin letter a look-alike folds to (TR39 confusables, lower case), by code point. */
const FOLD = new Map<number, number>();
for (let i = 0; i < CONFUSABLES.length; i += 2) {
  FOLD.set(CONFUSABLES.codePointAt(i)!, CONFUSABLES.charCodeAt(i + 1));
}
// Greek letters written in Latin words for the Latin letter they resemble, beyond TR39 (which
// has no skeleton or a non-Latin one for them): "hοε", "cοcκsυcκεr".
for (const [greek, latin] of ["εe", "βb", "μu", "ωw", "χx", "δd", "πn"]) {
  FOLD.set(greek.codePointAt(0)!, latin.charCodeAt(0));
}
const RE_DIGIT = /^\p{Nd}$/u;

/** Computes the outputs of one code point (slow path, cached by the callers). */
export function expand(cp: number): { kinds: number[]; cps: number[] } {
  const kinds: number[] = [];
  const cps: number[] = [];
  // Emoji skin-tone modifiers vanish so "🖕🏽" matches "🖕".
  if (cp >= 0x1f3fb && cp <= 0x1f3ff) return { kinds, cps };
  const folded = String.fromCodePoint(cp).normalize("NFKD").toLowerCase();
  for (const ch of folded) {
    let c = ch.codePointAt(0)!;
    if (c === 0xdf) { // ß
      kinds.push(K_LATIN, K_LATIN);
      cps.push(0x73, 0x73);
      continue;
    }
    const jamo = jamoOf(c);
    if (jamo) {
      for (const j of jamo) {
        kinds.push(K_OTHER);
        cps.push(j);
      }
      continue;
    }
    if (c >= 0x30a1 && c <= 0x30f6) c -= 0x60; // katakana -> hiragana
    if (c === 0x3c2) c = 0x3c3; // final sigma
    c = FOLD.get(c) ?? c; // Cyrillic с, Greek υ, dotless ı... -> c, u, i
    const s = String.fromCodePoint(c);
    if (LEET[c] !== undefined && !(c >= 0x30 && c <= 0x39)) {
      kinds.push(K_LEET);
    } else if (RE_SPACE.test(s)) kinds.push(K_SPACE);
    else if (RE_IGNORE.test(s)) continue;
    else if (RE_DIGIT.test(s)) kinds.push(K_DIGIT);
    else if (RE_MARK.test(s)) {
      // Diacritics of alphabets are dropped (fück, shït); marks of other scripts (Thai vowels,
      // kana voicing) are part of the letter.
      if (kinds.length === 0) kinds.push(K_MARK);
      else if (kinds[kinds.length - 1] === K_LATIN) continue;
      else kinds.push(K_OTHER);
    } else if (RE_LETTER.test(s)) {
      if (c === 0x6c) c = 0x69; // l reads as i, like 1 and |
      kinds.push(RE_LATIN.test(s) ? K_LATIN : K_OTHER);
    } else if (RE_EMOJI.test(s)) kinds.push(K_EMOJI);
    else kinds.push(K_PUNCT);
    cps.push(c);
  }
  return { kinds, cps };
}

/** Computes and stores the table entry of a BMP code point; returns its kind. */
export function fillTable(cp: number): number {
  const { kinds, cps } = expand(cp);
  if (kinds.length === 0) tabKind[cp] = T_IGNORE;
  else if (kinds.length === 1) {
    tabKind[cp] = kinds[0] === K_SKIP ? T_IGNORE : kinds[0];
    tabCp[cp] = cps[0];
  } else {
    multi.set(cp, { kinds, cps });
    tabKind[cp] = T_MULTI;
  }
  return tabKind[cp];
}

for (let cp = 0; cp < 128; cp++) fillTable(cp);
