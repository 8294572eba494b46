/**
 * The abuse-detection evaluation on the committed sample tests/lib/abuse/eval_sample.json,
 * written by `deno task eval:abuse --sample 30 --sample-clean 2000 --write-sample <that path>`,
 * plus the hold-out samples of tests/lib/abuse/holdout/: prints the table beside obscenity's
 * English preset and holds the detector to the goals of the detection issue.
 */
import assert from "node:assert/strict";
import {
  evaluate,
  formatTable,
  HOLDOUT_KINDS,
  obscenityPreset,
  ourFilter,
} from "../../../bench/abuse_eval.ts";
import { type EvalItem, holdoutItems } from "../../../bench/abuse_eval_set.ts";

const sample: { items: EvalItem[] } = JSON.parse(
  await Deno.readTextFile(new URL("./eval_sample.json", import.meta.url)),
);
const items = [...sample.items, ...holdoutItems()];
// Lines of tests/lib/abuse/holdout/clean_en_heldout.tsv flagged: 25 when it was first measured
// after the rules it holds out, 1 after the third round's rules, which were derived from those 25
// lines, 0 after the fourth round's (BENCHMARKS.md): a ceiling, so later rules cannot add to them
// unseen.
const CLEAN_HELDOUT_MEASURED = 0;
// The third English pair (clean_en_heldout2.tsv, abusive_en_heldout2.tsv), written before the
// rules of the third round and measured once after them (29 of 382 clean lines flagged); the
// fourth round's rules were derived from those 29 lines, which leaves 5 (BENCHMARKS.md): ceilings
// and floors.
const CLEAN_HELDOUT2_MEASURED = 5;
const ABUSE_HELDOUT2_MEASURED = 43;

Deno.test("evaluation sample: recall per evasion class and false positives meet the goals", () => {
  const ours = evaluate(items, ourFilter(true));
  const preset = evaluate(items, obscenityPreset());
  console.log(
    formatTable([["ours (lang_code given)", ours], ["obscenity English preset", preset]]),
  );
  const rate = (row: string) => {
    const c = ours.get(row);
    assert.ok(c && c.total > 0, `${row} has items`);
    return c.hit / c.total;
  };
  assert.ok(rate("recall: all disguised") >= 0.9, "pooled recall on disguised words");
  // Every evasion class on listed words; the classes of the detection issue by name.
  for (
    const row of ["doubled", "mask_char", "greek", "digits_only", "keyboard_2set", "initials"]
  ) {
    assert.ok(rate(`recall: ${row}`) >= 0.9, row);
  }
  for (const [row, c] of ours) {
    // The outside list and the hold-outs measure coverage beyond the lists: reported, not goals.
    const reported = ["outside_list", ...HOLDOUT_KINDS].some((k) => row === `recall: ${k}`);
    if (row.startsWith("recall: ") && !reported && c.total >= 10) {
      assert.ok(c.hit / c.total >= 0.9, `${row}: ${c.hit}/${c.total}`);
    }
  }
  for (const lang of ["en", "es", "fr", "ko", "ru", "tr"]) {
    assert.ok(rate(`fp dictionary: ${lang}`) < 0.003, `${lang} dictionary words`);
  }
  assert.ok(rate("fp sentence: en") < 0.02, "clean English sentences");
  assert.ok(rate("fp sentence: ko") < 0.03, "clean Korean sentences");
  // The hand-written English part of the first clean sample on its own (headlines, names, chat).
  const handWritten = ["headline", "name", "chat"].map((f) => ours.get(`fp sentence ${f}: en`)!);
  assert.ok(
    handWritten.reduce((n, c) => n + c.hit, 0) <
      0.02 * handWritten.reduce((n, c) => n + c.total, 0),
    "hand-written English clean sentences",
  );
});

Deno.test("second English hold-out pair: recall kept, false positives not above the measured", () => {
  const ours = evaluate(holdoutItems(), ourFilter(true));
  const abusive = ours.get("recall: abuse_heldout")!;
  const clean = ours.get("fp clean_heldout: en")!;
  assert.equal(abusive.total, 115);
  assert.equal(clean.total, 328);
  // 106 of 115 before the context readings of names, compounds and phrase frames.
  assert.ok(abusive.hit >= 106, `abusive hold-out recall ${abusive.hit}/115`);
  // The third round's rules were derived from this sample's misses: it no longer measures them.
  assert.ok(clean.hit <= CLEAN_HELDOUT_MEASURED, `clean hold-out flagged ${clean.hit}/328`);
});

Deno.test("third English hold-out pair: false positives and recall not worse than measured", () => {
  const ours = evaluate(holdoutItems(), ourFilter(true));
  const abusive = ours.get("recall: abuse_heldout2")!;
  const clean = ours.get("fp clean_heldout2: en")!;
  assert.equal(abusive.total, 60);
  assert.equal(clean.total, 382);
  // 43 of 60 before and after the third round's rules.
  assert.ok(abusive.hit >= ABUSE_HELDOUT2_MEASURED, `abusive hold-out recall ${abusive.hit}/60`);
  // 48 of 382 before them, 29 after, 5 after the fourth round's rules, which were derived from
  // those 29 lines: this sample no longer measures them.
  assert.ok(
    clean.hit <= CLEAN_HELDOUT2_MEASURED,
    `clean hold-out flagged ${clean.hit}/382`,
  );
});

// The fourth English pair (clean_en_heldout3.tsv, abusive_en_heldout3.tsv), written at a natural
// rate of names and senses before the rules of the fourth round and measured once after them
// (BENCHMARKS.md): ceilings and floors.
const CLEAN_HELDOUT3_MEASURED = 1;
const ABUSE_HELDOUT3_MEASURED = 68;

Deno.test("fourth English hold-out pair: false positives and recall not worse than measured", () => {
  const ours = evaluate(holdoutItems(), ourFilter(true));
  const abusive = ours.get("recall: abuse_heldout3")!;
  const clean = ours.get("fp clean_heldout3: en")!;
  assert.equal(abusive.total, 80);
  assert.equal(clean.total, 500);
  // 68 of 80 before and after the fourth round's rules.
  assert.ok(abusive.hit >= ABUSE_HELDOUT3_MEASURED, `abusive hold-out recall ${abusive.hit}/80`);
  // 2 of 500 before them, 1 after: under the goal of 2 % (10).
  assert.ok(clean.hit <= CLEAN_HELDOUT3_MEASURED, `clean hold-out flagged ${clean.hit}/500`);
  assert.ok(clean.hit < 0.02 * clean.total, "clean English hold-out under 2 %");
});
