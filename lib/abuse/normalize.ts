/**
 * Text normalisation for abuse matching. Every output symbol remembers the UTF-16 span of the
 * original character it came from, so a match in normalised text masks the right characters.
 *
 * Rules (README "Chat log collection and text detection" lists them for operators):
 * - per character compatibility decomposition (NFKD: full-width forms, ligatures, circled and
 *   half-width letters) and lower-casing; composition is skipped so precomposed letters and
 *   letter + combining-mark input agree; ß folds to ss, katakana to hiragana;
 * - Hangul syllables are split arithmetically into jamo and every jamo form (leading, vowel,
 *   trailing, compatibility, clusters) maps to one compatibility jamo, so typed "ㅅㅣㅂㅏㄹ"
 *   matches "시발";
 * - zero-width and control characters vanish; punctuation between letters is dropped
 *   ("f.u.c.k"); whitespace is dropped when a neighbouring word is a single character
 *   ("f u c k", "시 발") or between letters of scripts without spaces ("傻 逼"), and otherwise
 *   collapses to one space, so unrelated words don't fuse;
 * - digits and @ $ next to Latin letters, and ! | between them, read as letters (leetspeak:
 *   0→o 1→i 3→e 4→a 5→s 7→t 8→b 9→g @→a $→s !→i |→i, and l folds to i so "1" and "l" agree);
 *   punctuation does not break that context ("S.h.1.T"), and a word made only of such symbols
 *   reads as letters too ("@$$"); a digit wedged between two non-Latin letters is filler and
 *   vanishes ("시1발");
 * - look-alike letters fold to the Latin letter they imitate (TR39 confusables: Cyrillic с,
 *   Greek υ, dotless ı), diacritics of Latin, Greek and Cyrillic letters are dropped (fück, İ);
 *   emoji are kept as characters (skin tones and variation selectors join the emoji's span);
 * - runs of three or more of the same letter are shortened by collapseRepeats (the detector
 *   tries one and two letters);
 * - every output position records whether a separator (space, punctuation, script change) or a
 *   joined single-letter space precedes it, for the word-boundary rules of the detector.
 */
import {
  expand,
  fillTable,
  K_DIGIT,
  K_EMOJI,
  K_LATIN,
  K_LEET,
  K_MARK,
  K_OTHER,
  K_PUNCT,
  K_SKIP,
  K_SPACE,
  LEET,
  multi,
  T_IGNORE,
  T_MULTI,
  T_UNSET,
  tabCp,
  tabKind,
} from "./char_classes.ts";
import { LEAD, TRAIL } from "./hangul.ts";

/** Normalised text: code points plus the original UTF-16 span of each. */
export interface Normalized {
  length: number;
  chars: Int32Array;
  start: Int32Array;
  end: Int32Array;
  /** Per position: F_SEP and F_JOIN bits, and the count of mask characters before it. */
  flags: Uint8Array;
  /** Positions preceded by mask characters inside a word ("f*ck"); 0 when none. */
  wild: number;
  /** What the text may hold, so readings that cannot apply are skipped (H_* bits). */
  hints: number;
}

/** Hint: a word starting with two equal Latin letters (the doubled-letter reading may apply). */
export const H_PAIR = 1;
/** Hint: three digits in a row (the digit-word reading may apply). */
export const H_DIGITS = 2;
/** Hint: a word starting with a consonant key and a vowel key (the 2-set reading may apply). */
export const H_KEYS = 4;
// Per normalised Latin letter: 1 a vowel key of the 2-set Korean layout, 2 a consonant key
// (l reads as i, also a vowel key).
const KEY_VOWEL = new Uint8Array(128);
for (const c of "yuiophjkbnm") KEY_VOWEL[c.charCodeAt(0)] = 1;
for (const c of "qwertasdfgzxcv") KEY_VOWEL[c.charCodeAt(0)] = 2;

/** Flag: a word boundary precedes this position (separator, text start or script change). */
export const F_SEP = 1;
/** Flag: whitespace between single letters was joined right before this position ("f u c k"). */
export const F_JOIN = 2;
/** Flags >> WILD_SHIFT: how many mask characters stood right before this letter ("sh*t"). */
export const WILD_SHIFT = 2;
// Characters that stand for hidden letters inside a word (f*ck, sh#t, a__hole, b-tch).
const MASK_CP = new Set([0x2a, 0x23, 0x5f, 0x25, 0x2d]);

// Scratch buffers reused across calls (normalisation is synchronous).
let cap = 0;
let itKind = new Uint8Array(0);
let itCp = new Int32Array(0);
let itStart = new Int32Array(0);
let itEnd = new Int32Array(0);
let itPrev = new Uint8Array(0);
let out: Normalized = emptyNormalized(0);
let alt: Normalized = emptyNormalized(0);

function emptyNormalized(n: number): Normalized {
  return {
    length: 0,
    wild: 0,
    hints: 0,
    chars: new Int32Array(n),
    start: new Int32Array(n),
    end: new Int32Array(n),
    flags: new Uint8Array(n),
  };
}

function ensure(n: number) {
  if (n <= cap) return;
  cap = Math.max(n, cap * 2, 256);
  itKind = new Uint8Array(cap);
  itCp = new Int32Array(cap);
  itStart = new Int32Array(cap);
  itEnd = new Int32Array(cap);
  itPrev = new Uint8Array(cap);
  out = emptyNormalized(cap);
  alt = emptyNormalized(cap);
}

/**
 * Normalises text. The result lives in shared scratch buffers and is valid until the next
 * call; copy it (copyNormalized) to keep it.
 */
export function normalizeText(text: string): Normalized {
  const n = text.length;
  // A UTF-16 unit expands to at most a few items (Hangul syllable: up to 4 jamo; NFKD of
  // a few ligatures more), so grow lazily inside the loop as well.
  ensure(n * 4 + 16);
  let m = 0;
  let leet = false;
  for (let i = 0; i < n;) {
    let cp = text.charCodeAt(i);
    let w = 1;
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < n) {
      const lo = text.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        cp = ((cp - 0xd800) << 10) + (lo - 0xdc00) + 0x10000;
        w = 2;
      }
    }
    if (m + 16 > cap) growItems(m);
    if (cp >= 0xac00 && cp <= 0xd7a3) {
      const s = cp - 0xac00;
      const t = s % 28;
      itKind[m] = K_OTHER;
      itCp[m] = LEAD[(s / 588) | 0];
      itStart[m] = i;
      itEnd[m++] = i + w;
      itKind[m] = K_OTHER;
      itCp[m] = 0x314f + (((s % 588) / 28) | 0);
      itStart[m] = i;
      itEnd[m++] = i + w;
      if (t > 0) {
        const trail = TRAIL[t - 1];
        for (let k = 0; k < trail.length; k++) {
          itKind[m] = K_OTHER;
          itCp[m] = trail[k];
          itStart[m] = i;
          itEnd[m++] = i + w;
        }
      }
    } else {
      let kind: number;
      let entry: { kinds: number[]; cps: number[] } | undefined;
      if (cp < 65536) {
        kind = tabKind[cp];
        if (kind === T_UNSET) kind = fillTable(cp);
        if (kind === T_MULTI) entry = multi.get(cp);
      } else {
        entry = multi.get(cp);
        if (!entry) {
          entry = expand(cp);
          multi.set(cp, entry);
        }
        kind = T_MULTI;
        if (entry.kinds.length === 0 && m > 0 && itEnd[m - 1] === i) itEnd[m - 1] = i + w;
      }
      if (kind === T_MULTI) {
        for (let k = 0; k < entry!.kinds.length; k++) {
          let kk = entry!.kinds[k];
          if (kk === K_DIGIT || kk === K_LEET) leet = true;
          if (kk === K_MARK) {
            if (m > 0 && itKind[m - 1] === K_LATIN) continue;
            kk = K_OTHER;
          }
          itKind[m] = kk;
          itCp[m] = entry!.cps[k];
          itStart[m] = i;
          itEnd[m++] = i + w;
        }
      } else if (kind === K_MARK && m > 0 && itKind[m - 1] === K_LATIN) {
        // A combining mark typed after a Latin letter: the diacritic is dropped, and the letter's
        // span covers it, so a mask of the letter masks the mark too.
        itEnd[m - 1] = i + w;
      } else if (kind === T_IGNORE) {
        // Variation selectors and skin tones belong to the character before them: a mask of
        // that character covers them too.
        if (m > 0 && itEnd[m - 1] === i && (cp >= 0xfe00 && cp <= 0xfe0f)) itEnd[m - 1] = i + w;
      } else {
        if (kind === K_DIGIT || kind === K_LEET) leet = true;
        itKind[m] = kind === K_MARK ? K_OTHER : kind;
        itCp[m] = tabCp[cp];
        itStart[m] = i;
        itEnd[m++] = i + w;
      }
    }
    i += w;
  }
  if (leet) resolveLeet(m);
  return emit(m);
}

function growItems(m: number) {
  const old = { itKind, itCp, itStart, itEnd };
  cap = 0;
  ensure(m * 2 + 64);
  itKind.set(old.itKind.subarray(0, m));
  itCp.set(old.itCp.subarray(0, m));
  itStart.set(old.itStart.subarray(0, m));
  itEnd.set(old.itEnd.subarray(0, m));
}

/** Decides for digits and leet symbols whether they read as letters, filler or themselves. */
function resolveLeet(m: number) {
  // Chains of symbols resolve from the letters inwards ("8!7ch", "$h!7"): repeat while a pass
  // turns something into a letter.
  let unresolved = 0;
  for (let pass = 0, changed = true; changed && pass < 4; pass++) {
    changed = false;
    unresolved = 0;
    // Forward: script of the nearest letter before each item within the word (punctuation
    // does not end the word here: "S.h.1.T").
    let last = 0;
    for (let i = 0; i < m; i++) {
      const k = itKind[i];
      itPrev[i] = last;
      if (k === K_LATIN || k === K_OTHER) last = k;
      else if (k === K_SPACE || k === K_EMOJI) last = 0;
    }
    let next = 0;
    for (let i = m - 1; i >= 0; i--) {
      const k = itKind[i];
      if (k === K_DIGIT || k === K_LEET) {
        const prev = itPrev[i];
        const cp = itCp[i];
        // ! and | end sentences and draw lines: they read as i only inside a word.
        const inside = cp === 0x21 || cp === 0x7c
          ? prev === K_LATIN && next === K_LATIN
          : prev === K_LATIN || next === K_LATIN;
        if (inside && LEET[cp] !== undefined) {
          itKind[i] = K_LATIN;
          itCp[i] = LEET[cp];
          next = K_LATIN;
          changed = true;
        } else unresolved++;
      } else if (k === K_LATIN || k === K_OTHER) next = k;
      else if (k === K_SPACE || k === K_EMOJI) next = 0;
    }
    if (unresolved === 0) break;
  }
  if (unresolved === 0) return;
  for (let i = 0; i < m; i++) {
    const k = itKind[i];
    if (k === K_LEET) itKind[i] = K_PUNCT;
    else if (k === K_DIGIT && itPrev[i] === K_OTHER && nextLetterKind(i, m) === K_OTHER) {
      itKind[i] = K_SKIP;
    }
  }
  symbolWords(m);
}

/** Kind of the nearest letter after item i within the word (0 when a space or emoji comes first). */
function nextLetterKind(i: number, m: number): number {
  for (let j = i + 1; j < m; j++) {
    const k = itKind[j];
    if (k === K_LATIN || k === K_OTHER) return k;
    if (k === K_SPACE || k === K_EMOJI) return 0;
  }
  return 0;
}

/**
 * A word made only of leet symbols and digits, with at least one @ or $ and three or more
 * items, reads as letters ("@$$"); prices and times ("$100", "12:30") keep a digit majority.
 */
function symbolWords(m: number) {
  for (let i = 0; i < m;) {
    if (itKind[i] === K_SPACE) {
      i++;
      continue;
    }
    let j = i, symbols = 0, digits = 0, other = false, strong = false;
    for (; j < m && itKind[j] !== K_SPACE; j++) {
      const k = itKind[j];
      if (k === K_PUNCT && LEET[itCp[j]] !== undefined) {
        symbols++;
        if (itCp[j] === 0x40 || itCp[j] === 0x24) strong = true;
      } else if (k === K_DIGIT) digits++;
      else if (k !== K_PUNCT && k !== K_SKIP) other = true;
    }
    if (!other && strong && symbols + digits >= 3 && digits < symbols) {
      for (let k = i; k < j; k++) {
        if (LEET[itCp[k]] !== undefined && (itKind[k] === K_PUNCT || itKind[k] === K_DIGIT)) {
          itKind[k] = K_LATIN;
          itCp[k] = LEET[itCp[k]];
        }
      }
    }
    i = j;
  }
}

/** True for letters of scripts written without spaces between words (Han, kana, Thai, Lao, Khmer). */
function isUnspaced(cp: number): boolean {
  return (cp >= 0x0e00 && cp <= 0x0eff) || (cp >= 0x1780 && cp <= 0x17ff) ||
    (cp >= 0x3040 && cp <= 0x30ff) || (cp >= 0x3400 && cp <= 0x9fff) ||
    (cp >= 0xf900 && cp <= 0xfaff) || cp >= 0x20000;
}

/** Number of original characters (1 or 2 = "more than one") of the token starting at item j. */
function tokenLengthUpTo2(j: number, m: number): number {
  let count = 0;
  let lastStart = -1;
  for (; j < m && itKind[j] !== K_SPACE; j++) {
    const k = itKind[j];
    if ((k === K_LATIN || k === K_OTHER || k === K_DIGIT) && itStart[j] !== lastStart) {
      if (++count === 2) return 2;
      lastStart = itStart[j];
    }
  }
  return count;
}

function emit(m: number): Normalized {
  const chars = out.chars, start = out.start, end = out.end, flags = out.flags;
  let len = 0;
  let tokChars = 0; // original characters of the current space-delimited token so far
  let tokLast = -1;
  let pending = F_SEP; // flags for the next output position
  let lastKind = 0;
  let wild = 0;
  let hints = 0;
  let i = 0;
  while (i < m) {
    const k = itKind[i];
    if (k === K_LATIN || k === K_OTHER || k === K_DIGIT || k === K_EMOJI) {
      const cp = itCp[i];
      if (k === K_LATIN) {
        // A doubled word starts with a pair ("ffuu..."); a word typed on the 2-set layout with a
        // consonant key and a vowel key ("tl...").
        if (len > 0 && (flags[len - 1] & F_SEP) !== 0) {
          if (chars[len - 1] === cp) hints |= H_PAIR;
          if (
            cp < 128 && KEY_VOWEL[cp] === 1 && chars[len - 1] < 128 &&
            KEY_VOWEL[chars[len - 1]] === 2
          ) {
            hints |= H_KEYS;
          }
        }
      } else if (k === K_DIGIT && len > 1 && chars[len - 1] < 0x3a && chars[len - 2] < 0x3a) {
        hints |= H_DIGITS;
      }
      chars[len] = cp;
      start[len] = itStart[i];
      end[len] = itEnd[i];
      flags[len++] = pending | (lastKind !== k && lastKind !== 0 ? F_SEP : 0);
      pending = 0;
      lastKind = k;
      if (itStart[i] !== tokLast) {
        tokChars++;
        tokLast = itStart[i];
      }
      i++;
      continue;
    }
    if (k === K_SKIP) {
      i++;
      continue;
    }
    // A run of separators (skipped filler inside it is ignored).
    let j = i;
    let hasSpace = false;
    let masks = 0;
    while (j < m) {
      const kj = itKind[j];
      if (kj === K_SPACE) hasSpace = true;
      else if (kj !== K_PUNCT && kj !== K_SKIP) break;
      else if (kj === K_PUNCT && MASK_CP.has(itCp[j])) masks++;
      j++;
    }
    pending = F_SEP;
    // Only mask characters between two Latin letters: they may stand for hidden letters.
    if (
      !hasSpace && masks === j - i && lastKind === K_LATIN && j < m && itKind[j] === K_LATIN
    ) {
      pending |= Math.min(masks, 7) << WILD_SHIFT;
      wild++;
    }
    if (hasSpace) {
      // Words of two or more characters on both sides stay apart; a single character joins,
      // and so do letters of scripts written without spaces (巨 乳, ค ว ย).
      const unspaced = len > 0 && j < m && isUnspaced(chars[len - 1]) && isUnspaced(itCp[j]);
      if (!unspaced && j < m && tokChars > 1 && tokenLengthUpTo2(j, m) > 1) {
        chars[len] = 0x20;
        start[len] = itStart[i];
        end[len] = itEnd[j - 1];
        flags[len++] = F_SEP;
        lastKind = 0;
      } else if (len > 0) pending = F_SEP | F_JOIN;
      tokChars = 0;
      tokLast = -1;
    }
    i = j;
  }
  out.length = len;
  out.wild = wild;
  out.hints = hints;
  return out;
}

/**
 * The text with every run of three or more equal letters shortened to `keep` (1 or 2) letters
 * ("fuuuuck" -> "fuck" or "fuuck"); the kept letters' spans cover the whole run so the mask
 * does too. A run is made of the same original letter typed again (so "ili", which folds to
 * "iii", is no run). Null when the text has no run. Shares scratch space with normalizeText.
 */
export function collapseRepeats(n: Normalized, keep: 1 | 2, text: string): Normalized | null {
  const same = (a: number, b: number) =>
    n.chars[a] === n.chars[b] && n.chars[a] !== 0x20 && n.start[a] !== n.start[b] &&
    (text.charCodeAt(n.start[a]) | 0x20) === (text.charCodeAt(n.start[b]) | 0x20);
  const chars = n.chars;
  let i3 = 2;
  for (; i3 < n.length; i3++) {
    if (
      chars[i3] === chars[i3 - 1] && chars[i3] === chars[i3 - 2] && same(i3, i3 - 1) &&
      same(i3, i3 - 2)
    ) break;
  }
  if (i3 >= n.length) return null;
  let len = 0;
  for (let i = 0; i < n.length;) {
    let j = i + 1;
    while (j < n.length && same(j, i)) j++;
    const run = j - i;
    const take = run >= 3 ? keep : run;
    for (let k = 0; k < take; k++) {
      const from = i + k;
      alt.chars[len] = n.chars[from];
      alt.start[len] = n.start[from];
      alt.end[len] = k === take - 1 ? n.end[j - 1] : n.end[from];
      alt.flags[len++] = n.flags[from];
    }
    i = j;
  }
  alt.length = len;
  alt.wild = 0;
  return alt;
}

/**
 * The text with every word whose letters are all typed twice or more ("ffuucckk", "aassss")
 * read with each run halved ("fuck", "ass"); spans cover the whole run. Null when no word of
 * four or more letters is doubled throughout. Shares scratch space with normalizeText.
 */
export function halveDoubled(n: Normalized, text: string): Normalized | null {
  const chars = n.chars;
  const same = (a: number, b: number) =>
    chars[a] === chars[b] && n.start[a] !== n.start[b] &&
    (text.charCodeAt(n.start[a]) | 0x20) === (text.charCodeAt(n.start[b]) | 0x20);
  // Nothing is copied until the first doubled word: most texts have none.
  let len = 0;
  let any = false;
  for (let t = 0; t < n.length;) {
    if (chars[t] === 0x20) {
      if (any) copyItem(n, t, len++);
      t++;
      continue;
    }
    // A word ends at a space or a script change ("야ffuucckk" after a joined syllable).
    let e = t + 1;
    while (
      e < n.length && chars[e] !== 0x20 &&
      ((n.flags[e] & F_SEP) === 0 ||
        ((n.flags[e] & F_JOIN) !== 0 && (chars[e] < 0x1100) === (chars[e - 1] < 0x1100)))
    ) e++;
    // Doubled throughout: every run of the same letter is two or more long, at least two runs
    // (most words fail on their first two letters).
    let doubled = e - t >= 4 && chars[t] === chars[t + 1];
    for (let i = t; i < e && doubled;) {
      let j = i + 1;
      while (j < e && same(j, i)) j++;
      if (j - i < 2) doubled = false;
      i = j;
    }
    if (!doubled) {
      if (any) { for (let i = t; i < e; i++) copyItem(n, i, len++); }
    } else {
      if (!any) { for (; len < t; len++) copyItem(n, len, len); }
      any = true;
      for (let i = t; i < e;) {
        let j = i + 1;
        while (j < e && same(j, i)) j++;
        const take = (j - i + 1) >> 1;
        for (let k = 0; k < take; k++) {
          copyItem(n, i + k, len);
          if (k === take - 1) alt.end[len] = n.end[j - 1];
          len++;
        }
        i = j;
      }
    }
    t = e;
  }
  if (!any) return null;
  alt.length = len;
  alt.wild = 0;
  return alt;
}

/**
 * The text with every word made only of digits that read as letters, three or more long, read
 * as letters ("455" -> "ass", "80085" -> "boobs"); null when there is none. Digits inside words
 * with letters are read by the leetspeak rule already. Shares scratch space with normalizeText.
 */
export function readDigitWords(n: Normalized): Normalized | null {
  const chars = n.chars;
  let any = false;
  for (let t = 0; t < n.length;) {
    let e = t;
    while (e < n.length && chars[e] !== 0x20) e++;
    let digits = e - t >= 3;
    for (let i = t; i < e && digits; i++) {
      digits = chars[i] >= 0x30 && chars[i] <= 0x39 && LEET[chars[i]] !== undefined;
    }
    if (digits) {
      if (!any) {
        for (let i = 0; i < n.length; i++) copyItem(n, i, i);
        any = true;
      }
      for (let i = t; i < e; i++) alt.chars[i] = LEET[chars[i]];
    }
    t = e + 1;
  }
  if (!any) return null;
  alt.length = n.length;
  alt.wild = 0;
  return alt;
}

/** The scratch buffer variants are written to (valid until the next normalisation call). */
export function variantBuffer(): Normalized {
  return alt;
}

function copyItem(n: Normalized, from: number, to: number) {
  alt.chars[to] = n.chars[from];
  alt.start[to] = n.start[from];
  alt.end[to] = n.end[from];
  alt.flags[to] = n.flags[from];
}

/** A private copy of a normalisation result. */
export function copyNormalized(n: Normalized): Normalized {
  return {
    length: n.length,
    wild: n.wild,
    hints: n.hints,
    chars: n.chars.slice(0, n.length),
    start: n.start.slice(0, n.length),
    end: n.end.slice(0, n.length),
    flags: n.flags.slice(0, n.length),
  };
}

/** The normalised text as a string (for tests, pattern keys and duplicate detection). */
export function normalizedString(text: string): string {
  const n = normalizeText(text);
  let s = "";
  for (let i = 0; i < n.length; i++) s += String.fromCodePoint(n.chars[i]);
  return s;
}
