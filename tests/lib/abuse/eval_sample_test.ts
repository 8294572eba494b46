/**
 * The abuse-detection evaluation on the committed sample tests/lib/abuse/eval_sample.json,
 * written by `deno task eval:abuse --sample 8 --sample-clean 400 --write-sample <that path>`:
 * prints the table beside obscenity's English preset and holds the detector to the goals.
 */
import assert from "node:assert/strict";
import { evaluate, formatTable, obscenityPreset, ourFilter } from "../../../bench/abuse_eval.ts";
import type { EvalItem } from "../../../bench/abuse_eval_set.ts";

const sample: { items: EvalItem[] } = JSON.parse(
  await Deno.readTextFile(new URL("./eval_sample.json", import.meta.url)),
);

Deno.test("evaluation sample: recall per evasion class and false positives meet the goals", () => {
  const ours = evaluate(sample.items, ourFilter(true));
  const preset = evaluate(sample.items, obscenityPreset());
  console.log(
    formatTable([["ours (lang_code given)", ours], ["obscenity English preset", preset]]),
  );
  const rate = (row: string) => {
    const c = ours.get(row);
    assert.ok(c && c.total > 0, `${row} has items`);
    return c.hit / c.total;
  };
  assert.ok(rate("recall: all disguised") >= 0.9, "pooled recall on disguised words");
  for (const [row, c] of ours) {
    // The outside list measures coverage of a list we did not build from: reported, not a goal.
    if (row.startsWith("recall: ") && row !== "recall: outside_list" && c.total >= 20) {
      assert.ok(c.hit / c.total >= 0.8, `${row}: ${c.hit}/${c.total}`);
    }
  }
  assert.ok(rate("fp dictionary: en") < 0.005, "English dictionary words");
  assert.ok(rate("fp sentence: en") < 0.03, "clean English sentences");
  assert.ok(rate("fp sentence: ko") < 0.03, "clean Korean sentences");
});
