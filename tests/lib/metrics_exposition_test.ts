import assert from "node:assert/strict";
import { goldenRendering } from "./metrics_golden.ts";

Deno.test("/metrics exposition: every metric, label and bucket as in the recorded golden form", async () => {
  const { text, contentType } = await goldenRendering();
  assert.equal(contentType, "text/plain; version=0.0.4; charset=utf-8");
  const golden = await Deno.readTextFile(new URL("./metrics_golden.txt", import.meta.url));
  assert.deepEqual(text.split("\n"), golden.split("\n"));
});
