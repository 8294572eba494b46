import assert from "node:assert/strict";
import { parseLabelledLines, parseRows, unescapeHtml } from "../../../bench/abuse_tweets.ts";

// A made-up excerpt in the labelled set's CSV layout, cut inside a row at both ends.
const excerpt = [
  'ial row cut at the start",',
  "10,3,0,3,0,1,plain tweet with &amp; and &#128514;",
  '11,3,0,0,3,2,"quoted ""inner"" tweet',
  'over two lines"',
  "12,3,3,0,0,0,last row cut at the e",
].join("\n");

Deno.test("tweet set: excerpt rows parse, partial rows dropped, HTML unescaped", () => {
  const rows = parseRows(excerpt, false);
  assert.deepEqual(rows, [
    { index: 10, label: 1, text: "plain tweet with & and 😂" },
    { index: 11, label: 2, text: 'quoted "inner" tweet\nover two lines' },
  ]);
  const whole = parseRows(
    ",count,hate_speech,offensive_language,neither,class,tweet\n" +
      "0,3,0,0,3,2,only row\n",
    true,
  );
  assert.deepEqual(whole, [{ index: 0, label: 2, text: "only row" }]);
  assert.equal(unescapeHtml("&lt;3 &#x1F600; &quot;x&quot; &amp;amp;"), '<3 😀 "x" &amp;');
});

Deno.test("comment set: labelled lines parse; an excerpt's first line is dropped", () => {
  const text = "잘린 앞줄|1\n첫 댓글 | 파이프 포함|0\n둘째|1\n잘린 끝줄|";
  assert.deepEqual(parseLabelledLines(text, false), [
    { text: "첫 댓글 | 파이프 포함", curse: false },
    { text: "둘째", curse: true },
  ]);
  assert.equal(parseLabelledLines(text, true)[0].text, "잘린 앞줄");
});
