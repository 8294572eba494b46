import assert from "node:assert/strict";
import { compileDetector } from "../../../lib/abuse/detector.ts";
import { normalizedString } from "../../../lib/abuse/normalize.ts";

const detector = compileDetector({
  forbiddenWords: [
    "fuck",
    "shit",
    "ass",
    "시발",
    "병신",
    "操你妈",
    "ควย",
    "ばか",
    "son of a bitch",
  ],
  allowWords: ["classic", "assassin", "grass"],
});

function masked(text: string) {
  return detector.detect(text).masked;
}

Deno.test("normalisation: case, full-width, separators, leetspeak, jamo, kana", () => {
  assert.equal(normalizedString("ＦＵＣＫ"), "fuck");
  assert.equal(normalizedString("F.U.C.K you"), "fuck you");
  assert.equal(normalizedString("f u c k"), "fuck");
  assert.equal(normalizedString("this hit"), "this hit"); // words of 2+ letters stay apart
  assert.equal(normalizedString("sh1t"), "shit");
  assert.equal(normalizedString("$h!t"), "shit");
  assert.equal(normalizedString("시발"), "ㅅㅣㅂㅏㄹ");
  assert.equal(normalizedString("ㅅㅣㅂㅏㄹ"), "ㅅㅣㅂㅏㄹ"); // typed compatibility jamo
  assert.equal(normalizedString("\u1109\u1175\u1107\u1161\u11af"), "ㅅㅣㅂㅏㄹ"); // conjoining jamo
  assert.equal(normalizedString("시1발"), "ㅅㅣㅂㅏㄹ");
  assert.equal(normalizedString("시 발"), "ㅅㅣㅂㅏㄹ");
  assert.equal(normalizedString("ﾊﾞｶ"), normalizedString("ばか"));
  assert.equal(normalizedString("バカ"), normalizedString("ばか"));
  assert.equal(normalizedString("e\u0301"), normalizedString("é"));
  assert.equal(normalizedString("fu\u200bck"), "fuck");
  assert.equal(normalizedString("2024년"), "2024ㄴㅕㄴ"); // digits next to Hangul stay digits
});

Deno.test("Latin with leetspeak and separators is masked on the original characters", () => {
  assert.equal(masked("what the FUCK man"), "what the **** man");
  assert.equal(masked("F.U.C.K you"), "******* you");
  assert.equal(masked("f u c k off"), "* * * * off"); // whitespace inside a match is kept
  assert.equal(masked("this sh1t is $h!t"), "this **** is ****");
  assert.equal(masked("ＦＵＣＫ"), "****");
  assert.equal(masked("you son of a bitch!"), "you *** ** * *****!");
});

Deno.test("Hangul: syllables, inserted spaces and digits, typed jamo, decomposed evasions", () => {
  assert.equal(masked("아 시발 진짜"), "아 ** 진짜");
  assert.equal(masked("시 발 뭐야"), "* * 뭐야");
  assert.equal(masked("야 시1발"), "야 ***");
  assert.equal(masked("ㅅㅣㅂㅏㄹ"), "*****");
  assert.equal(masked("병시나"), "병시나"); // across syllables: not a match (조직 is not 좆)
});

Deno.test("CJK and Thai match without word boundaries", () => {
  assert.equal(masked("你这个操你妈的"), "你这个***的");
  assert.equal(masked("操 你 妈"), "* * *");
  assert.equal(masked("おまえはバカだ"), "おまえは**だ");
  assert.equal(masked("ﾊﾞｶ"), "***");
  assert.equal(masked("ไอ้ควยเอ๊ย"), "ไอ้***เอ๊ย");
});

Deno.test("allowlist: allowed words containing a forbidden one are not flagged", () => {
  const clean = detector.detect("a classic assassin in the grass");
  assert.equal(clean.forbidden, false);
  assert.equal(clean.masked, "a classic assassin in the grass");
  const mixed = detector.detect("classic ass");
  assert.equal(mixed.forbidden, true);
  assert.equal(mixed.masked, "classic ***");
  assert.deepEqual(mixed.words, ["ass"]);
});

Deno.test("masking keeps everything else byte-identical (emoji, surrogates, custom char)", () => {
  assert.equal(masked("😀fuck😀 👍"), "😀****😀 👍");
  const plus = compileDetector({ forbiddenWords: ["𠀀x"], maskChar: "#" });
  assert.equal(plus.detect("a𠀀x b").masked, "a## b"); // one mask per code point
  const clean = "nothing to see here, 안녕하세요";
  assert.equal(detector.detect(clean).masked, clean);
  assert.equal(detector.detect(clean).forbidden, false);
});

Deno.test("overlapping matches merge; words are reported once", () => {
  const d = compileDetector({ forbiddenWords: ["*abc*", "*bcd*", "*cd*"] });
  const r = d.detect("xabcdx abc");
  assert.equal(r.masked, "x****x ***");
  assert.deepEqual(r.words.sort(), ["*abc*", "*bcd*", "*cd*"]);
});

Deno.test("an empty list detects nothing", () => {
  const d = compileDetector({ forbiddenWords: [] });
  assert.deepEqual(d.detect("fuck"), { forbidden: false, masked: "fuck", words: [], matches: [] });
});
