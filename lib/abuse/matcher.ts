/**
 * Aho-Corasick over normalised code points: all patterns found in one left-to-right pass.
 * Transitions live in one open-addressing hash table keyed by (state, code point), so memory
 * stays linear in the total pattern length whatever the alphabet (Hangul jamo, CJK, Thai...).
 * Each state keeps the pattern ending exactly there and a link to the next state on its suffix
 * chain that ends a pattern, so every pattern ending at a position is reported (the detector's
 * boundary rules may refuse the longest and accept a shorter one).
 */

/** A pattern to compile: its normalised code points and whether it is allowed or forbidden. */
export interface PatternInput {
  chars: ArrayLike<number>;
  allow: boolean;
  /** Index into the caller's word list (reported with matches). */
  id: number;
}

/** A compiled automaton. */
export interface Matcher {
  /**
   * Scans `length` code points and calls `onMatch(endIndex, length, id, allow)` for every
   * pattern ending at each position, longest first.
   */
  scan(
    chars: Int32Array,
    length: number,
    onMatch: (end: number, length: number, id: number, allow: boolean) => void,
  ): void;
  /**
   * Like scan, for text holding WILD positions (mask characters inside a word, "f*ck"): a WILD
   * stands for any Latin letter. Reports only forbidden patterns read through at least one WILD,
   * starting and ending on real letters, with at least as many real letters as WILDs (at most
   * three WILDs per match).
   */
  scanWild(
    chars: Int32Array,
    length: number,
    onMatch: (end: number, length: number, id: number, allow: boolean) => void,
  ): void;
}

/** The code point that stands for a hidden letter in scanWild. */
export const WILD = -2;
// Letters a WILD may stand for (normalised Latin: l reads as i).
const WILD_LETTERS = Array.from("abcdefghijkmnopqrstuvwxyz", (c) => c.charCodeAt(0));

/** Builds the automaton. */
export function compileMatcher(patterns: PatternInput[]): Matcher {
  // 1. Trie with per-node Maps (build time only).
  const children: Map<number, number>[] = [new Map()];
  const depth: number[] = [0];
  const termForbid: number[] = [-1];
  const termAllow: number[] = [-1];
  const alphabet = new Set<number>();
  for (const p of patterns) {
    if (p.chars.length === 0) continue;
    let s = 0;
    for (let i = 0; i < p.chars.length; i++) {
      const c = p.chars[i];
      alphabet.add(c);
      let t = children[s].get(c);
      if (t === undefined) {
        t = children.length;
        children.push(new Map());
        depth.push(depth[s] + 1);
        termForbid.push(-1);
        termAllow.push(-1);
        children[s].set(c, t);
      }
      s = t;
    }
    if (p.allow) termAllow[s] = p.id;
    else termForbid[s] = p.id;
  }
  const n = children.length;

  // 2. Flatten transitions into a hash table.
  let edges = 0;
  for (const m of children) edges += m.size;
  let bits = 4;
  while ((1 << bits) < edges * 2 + 2) bits++;
  const size = 1 << bits;
  const mask = size - 1;
  const shift = 32 - bits;
  const keyState = new Int32Array(size).fill(-1);
  const keyChar = new Int32Array(size);
  const target = new Int32Array(size);
  const slot = (
    s: number,
    c: number,
  ) => (Math.imul(s ^ Math.imul(c, 0x85ebca6b), 0x9e3779b1) >>> shift);
  for (let s = 0; s < n; s++) {
    for (const [c, t] of children[s]) {
      let h = slot(s, c);
      while (keyState[h] !== -1) h = (h + 1) & mask;
      keyState[h] = s;
      keyChar[h] = c;
      target[h] = t;
    }
  }
  const go = (s: number, c: number): number => {
    let h = slot(s, c);
    for (;;) {
      const ks = keyState[h];
      if (ks === -1) return -1;
      if (ks === s && keyChar[h] === c) return target[h];
      h = (h + 1) & mask;
    }
  };

  // 3. Suffix links (BFS) and, per state, the nearest state on the suffix chain (itself
  // included) that ends a pattern.
  const fail = new Int32Array(n);
  const outLink = new Int32Array(n).fill(-1);
  const queue: number[] = [];
  for (const t of children[0].values()) queue.push(t);
  for (let q = 0; q < queue.length; q++) {
    const s = queue[q];
    const f = fail[s];
    outLink[s] = termForbid[s] >= 0 || termAllow[s] >= 0 ? s : outLink[f];
    for (const [c, t] of children[s]) {
      let g = f;
      let next = -1;
      for (;;) {
        next = go(g, c);
        if (next >= 0 || g === 0) break;
        g = fail[g];
      }
      fail[t] = next >= 0 && next !== t ? next : 0;
      queue.push(t);
    }
  }
  // Next pattern-ending state strictly further down the suffix chain.
  const nextOut = new Int32Array(n).fill(-1);
  for (let s = 1; s < n; s++) nextOut[s] = outLink[fail[s]];
  const forbidId = Int32Array.from(termForbid);
  const allowId = Int32Array.from(termAllow);
  const depthOf = Int32Array.from(depth);

  // Code points that occur in no pattern send the automaton back to the root at once.
  const inBmp = new Uint8Array(65536);
  const inAstral = new Set<number>();
  for (const c of alphabet) c < 65536 ? (inBmp[c] = 1) : inAstral.add(c);

  // Depth-first walk state of scanWild, reused.
  let stackState = new Int32Array(64);
  let stackPos = new Int32Array(64);
  let stackWild = new Int32Array(64);
  const push = (top: number, st: number, pos: number, w: number) => {
    if (top === stackState.length) {
      const grow = (a: Int32Array) => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      stackState = grow(stackState);
      stackPos = grow(stackPos);
      stackWild = grow(stackWild);
    }
    stackState[top] = st;
    stackPos[top] = pos;
    stackWild[top] = w;
  };

  return {
    scanWild(chars, length, onMatch) {
      // A bound on the walk, so a text made of masks and letters cannot make it explode.
      let budget = 400 * length + 1000;
      for (let i = 0; i < length && budget > 0; i++) {
        if (chars[i] === WILD) continue; // nor starts on one
        let top = 0;
        push(top++, 0, i, 0);
        while (top > 0 && budget-- > 0) {
          top--;
          const st = stackState[top], p = stackPos[top], w = stackWild[top];
          if (p >= length) continue;
          const c = chars[p];
          if (c === WILD) {
            if (w >= 3) continue;
            for (const x of WILD_LETTERS) {
              const t = go(st, x);
              if (t < 0) continue;
              // A match never ends on a hidden letter: the mask stands inside a word.
              push(top++, t, p + 1, w + 1);
            }
          } else {
            const t = go(st, c);
            if (t < 0) continue;
            const d = depthOf[t];
            if (w > 0 && forbidId[t] >= 0 && d - w >= w) onMatch(p, d, forbidId[t], false);
            push(top++, t, p + 1, w);
          }
        }
      }
    },
    scan(chars, length, onMatch) {
      let s = 0;
      for (let i = 0; i < length; i++) {
        const c = chars[i];
        if (c < 65536 ? inBmp[c] === 0 : !inAstral.has(c)) {
          s = 0;
          continue;
        }
        for (;;) {
          const t = go(s, c);
          if (t >= 0) {
            s = t;
            break;
          }
          if (s === 0) break;
          s = fail[s];
        }
        for (let o = outLink[s]; o > 0; o = nextOut[o]) {
          if (forbidId[o] >= 0) onMatch(i, depthOf[o], forbidId[o], false);
          if (allowId[o] >= 0) onMatch(i, depthOf[o], allowId[o], true);
        }
      }
    },
  };
}
