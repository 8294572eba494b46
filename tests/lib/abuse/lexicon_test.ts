import assert from "node:assert/strict";
import { LEXICON } from "../../../lib/abuse/lexicon_data.ts";
import { LANGUAGES } from "../../../lib/abuse/languages.ts";
import { parseEntry } from "../../../lib/abuse/detector.ts";

Deno.test("built-in lexicons: every supported language has entries that parse", () => {
  for (const lang of LANGUAGES) {
    const list = LEXICON[lang];
    assert.ok(list.forbidden.length >= 20, `${lang}: ${list.forbidden.length} entries`);
    for (const entry of list.forbidden) {
      assert.ok(
        parseEntry(entry, true).chars.length > 0,
        `${lang}: ${entry} normalises to nothing`,
      );
    }
  }
});

Deno.test("built-in lexicons: curation applied (ordinary words out or context-only)", () => {
  const has = (lang: "en" | "fr" | "ko" | "th", w: string) => LEXICON[lang].forbidden.includes(w);
  assert.equal(has("en", "escort"), false); // removed
  assert.equal(has("en", "~sex"), true); // context-only
  assert.equal(has("en", "*fuck*"), true); // marked substring
  assert.equal(has("fr", "bitte"), false); // German "please"
  assert.equal(has("th", "กะปิ"), false); // shrimp paste
  assert.ok(LEXICON.ko.allow.includes("시발점"));
});

Deno.test("generated data modules are up to date with their npm sources and the curation", async () => {
  const run = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "dev/build_lexicon.ts", "--check"],
    cwd: new URL("../../../", import.meta.url),
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(run.success, true, new TextDecoder().decode(run.stderr));
});
