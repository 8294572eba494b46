import assert from "node:assert/strict";
import { compileMatcher } from "../../../lib/abuse/matcher.ts";

function prng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** Naive reference: for each end position, every pattern ending there, longest first. */
function naive(patterns: { chars: number[]; allow: boolean }[], text: number[]) {
  const out: string[] = [];
  for (let end = 0; end < text.length; end++) {
    const found = new Set<string>();
    for (let len = end + 1; len >= 1; len--) {
      for (const allow of [false, true]) {
        const start = end - len + 1;
        const hit = patterns.some((p) =>
          p.allow === allow && p.chars.length === len &&
          p.chars.every((c, k) => text[start + k] === c)
        );
        const key = `${end}:${len}:${allow}`;
        if (hit && !found.has(key)) {
          found.add(key);
          out.push(key);
        }
      }
    }
  }
  return out;
}

Deno.test("automaton agrees with a naive search on random patterns and texts", () => {
  const rnd = prng(42);
  // A tiny alphabet (with an astral code point) forces many overlaps and suffix links.
  const alphabet = [0x61, 0x62, 0x63, 0x3131, 0x1f600];
  const pick = () => alphabet[Math.floor(rnd() * alphabet.length)];
  for (let round = 0; round < 200; round++) {
    const patterns = Array.from({ length: 1 + Math.floor(rnd() * 8) }, (_, id) => ({
      chars: Array.from({ length: 1 + Math.floor(rnd() * 4) }, pick),
      allow: rnd() < 0.3,
      id,
    }));
    const text = Array.from({ length: Math.floor(rnd() * 30) }, pick);
    const matcher = compileMatcher(patterns);
    const got: string[] = [];
    matcher.scan(Int32Array.from(text), text.length, (end, len, _id, allow) => {
      got.push(`${end}:${len}:${allow}`);
    });
    assert.deepEqual(got, naive(patterns, text), JSON.stringify({ patterns, text }));
  }
});
