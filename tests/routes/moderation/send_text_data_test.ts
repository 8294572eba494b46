import assert from "node:assert/strict";
import { admin, call, callJson } from "../../harness.ts";
import { encryptEcb } from "../../../lib/crypto/aes_ecb.ts";
import { appWithDatabaseDown, textBody } from "./fixtures.ts";

const PATH = "/cads2/send-text-data";

async function project(masking: { enabled: boolean; char?: string } = { enabled: true }) {
  const p = await admin("POST", "/admin/v1/tads/projects", {
    name: "text words",
    forbiddenWords: ["fuck", "shit", "ass", "시발", "操你妈", "ควย", "ばか"],
    allowWords: ["classic", "assassin"],
    masking,
  });
  assert.equal(p.status, 201, JSON.stringify(p.body));
  return { key: p.body.projectKey as string, secret: p.body.secretKey as string };
}

async function post(body: unknown) {
  const res = await callJson("POST", PATH, { json: body });
  assert.equal(res.status, 200);
  return res.body.result as {
    result_code: string;
    result_text: string;
    result_array: {
      tads_result: Record<string, string>;
      text_result: { text: string; masking_text: string };
    }[];
  };
}

Deno.test("200: per-text flags and masking across language families", async () => {
  const p = await project();
  const texts = [
    "what the f.u.c.k",
    "아 시 발 진짜",
    "你这个操你妈的",
    "ไอ้ควยเอ๊ย",
    "a classic assassin",
    "visit cheapgold.com",
  ];
  const r = await post(textBody(p.key, p.secret, texts));
  assert.equal(r.result_code, "200");
  assert.equal(r.result_text, "success");
  assert.ok(Array.isArray(r.result_array));
  assert.deepEqual(r.result_array.map((x) => x.text_result.masking_text), [
    "what the *******",
    "아 * * 진짜",
    "你这个***的",
    "ไอ้***เอ๊ย",
    "a classic assassin",
    "visit cheapgold.com",
  ]);
  assert.deepEqual(r.result_array.map((x) => x.text_result.text), texts);
  assert.deepEqual(r.result_array.map((x) => x.tads_result.forbidden_yn), [
    "1",
    "1",
    "1",
    "1",
    "0",
    "0",
  ]);
  assert.deepEqual(r.result_array.map((x) => x.tads_result.spam_yn), [
    "0",
    "0",
    "0",
    "0",
    "0",
    "1",
  ]);
  for (const x of r.result_array) {
    assert.equal(x.tads_result.aug_yn, "1");
    assert.equal(x.tads_result.long_yn, "0");
  }
});

Deno.test("masking off: masking_text equals text; custom mask character", async () => {
  const off = await project({ enabled: false });
  const r = await post(textBody(off.key, off.secret, ["shit happens"]));
  assert.equal(r.result_array[0].tads_result.forbidden_yn, "1");
  assert.equal(r.result_array[0].text_result.masking_text, "shit happens");
  const hash = await project({ enabled: true, char: "#" });
  const h = await post(textBody(hash.key, hash.secret, ["shit happens"]));
  assert.equal(h.result_array[0].text_result.masking_text, "#### happens");
});

Deno.test("long text: over 5,000 characters sets long_yn and skips detection", async () => {
  const p = await project();
  const long = "fuck ".repeat(1001); // 5,005 characters
  const r = await post(textBody(p.key, p.secret, [long, "fuck"]));
  assert.equal(r.result_code, "200");
  assert.deepEqual(r.result_array[0].tads_result, {
    forbidden_yn: "0",
    spam_yn: "0",
    aug_yn: "0",
    long_yn: "1",
  });
  assert.equal(r.result_array[0].text_result.masking_text, long);
  assert.equal(r.result_array[1].text_result.masking_text, "****");
});

Deno.test("word list update takes effect on the next request", async () => {
  const p = await project();
  const before = await post(textBody(p.key, p.secret, ["you noob", "fuck"]));
  assert.deepEqual(before.result_array.map((x) => x.tads_result.forbidden_yn), ["0", "1"]);
  const put = await admin("PUT", `/admin/v1/tads/projects/${p.key}/words`, {
    forbiddenWords: ["noob"],
    builtinLexicon: false,
  });
  assert.equal(put.status, 200);
  assert.equal(put.body.forbiddenWords, 1);
  assert.equal(put.body.allowWords, 2); // kept when omitted
  assert.equal(put.body.builtinLexicon, false);
  const after = await post(textBody(p.key, p.secret, ["you noob", "fuck"]));
  assert.deepEqual(after.result_array.map((x) => x.text_result.masking_text), ["you ****", "fuck"]);
  const missing = await admin("PUT", "/admin/v1/tads/projects/nope/words", { forbiddenWords: [] });
  assert.equal(missing.status, 404);
});

Deno.test("built-in lexicons: on for a new project, lang_code selects, switchable", async () => {
  const created = await admin("POST", "/admin/v1/tads/projects", {
    name: "no words of its own",
    masking: { enabled: true },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const p = { key: created.body.projectKey as string, secret: created.body.secretKey as string };
  const texts = [
    { lang_code: "en", text: "fuсk you" }, // Cyrillic с
    { lang_code: "ko", text: "아 씨발 진짜" },
    { lang_code: "ko", text: "조직 시발점" },
    { lang_code: "en", text: "a classic therapist" },
    { lang_code: "es", text: "hijo de puta" },
    { lang_code: "en", text: "puta" }, // Spanish word, English text
  ].map((t) => ({ user_id: `u-${crypto.randomUUID()}`, ...t }));
  const r = await post(textBody(p.key, p.secret, texts));
  assert.deepEqual(r.result_array.map((x) => x.text_result.masking_text), [
    "**** you",
    "아 ** 진짜",
    "조직 시발점",
    "a classic therapist",
    "**** ** ****",
    "puta",
  ]);
  const put = await admin("PUT", `/admin/v1/tads/projects/${p.key}/words`, {
    forbiddenWords: [],
    builtinLexicon: false,
  });
  assert.equal(put.body.builtinLexicon, false);
  const off = await post(textBody(p.key, p.secret, [texts[0]]));
  assert.equal(off.result_array[0].tads_result.forbidden_yn, "0");
  const bad = await admin("POST", "/admin/v1/tads/projects", {
    name: "x",
    builtinLexicon: "yes",
    masking: { enabled: true },
  });
  assert.equal(bad.status, 400);
  assert.match(JSON.stringify(bad.body), /builtinLexicon/);
});

Deno.test("built-in languages: a project limited to its languages; bad codes refused", async () => {
  const created = await admin("POST", "/admin/v1/tads/projects", {
    name: "korean only",
    builtinLanguages: ["ko"],
    masking: { enabled: true },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const p = { key: created.body.projectKey as string, secret: created.body.secretKey as string };
  const texts = [
    { lang_code: "ko", text: "아 씨발" },
    { lang_code: "en", text: "fuck" }, // English lexicon not in the project
    { lang_code: "xx", text: "씨발 fuck" }, // unknown language: the project's languages
  ].map((t) => ({ user_id: `u-${crypto.randomUUID()}`, ...t }));
  const r = await post(textBody(p.key, p.secret, texts));
  assert.deepEqual(r.result_array.map((x) => x.text_result.masking_text), [
    "아 **",
    "fuck",
    "** fuck",
  ]);
  const all = await admin("PUT", `/admin/v1/tads/projects/${p.key}/words`, {
    forbiddenWords: [],
    builtinLanguages: null,
  });
  assert.equal(all.status, 200);
  assert.equal(all.body.builtinLanguages, null);
  const after = await post(textBody(p.key, p.secret, [texts[1]]));
  assert.equal(after.result_array[0].text_result.masking_text, "****");
  const kept = await admin("PUT", `/admin/v1/tads/projects/${p.key}/words`, {
    forbiddenWords: [],
    builtinLanguages: ["zh-Hant", "TR"],
  });
  assert.deepEqual(kept.body.builtinLanguages, ["zh-tw", "tr"]);
  const bad = await admin("POST", "/admin/v1/tads/projects", {
    name: "x",
    builtinLanguages: ["klingon"],
    masking: { enabled: true },
  });
  assert.equal(bad.status, 400);
  assert.match(JSON.stringify(bad.body), /builtinLanguages/);
});

Deno.test("spam: the same text three times from one user", async () => {
  const p = await project();
  const same = { user_id: "u-repeat", lang_code: "en", text: "anyone trading?" };
  const r = await post(textBody(p.key, p.secret, [same, same, same]));
  assert.deepEqual(r.result_array.map((x) => x.tads_result.spam_yn), ["0", "0", "1"]);
});

Deno.test("error codes 500, 501, 502, 503, 507 with the spec's texts", async () => {
  const p = await project();
  const expect = async (body: unknown, code: string, text: string) => {
    const r = await post(body);
    assert.deepEqual([r.result_code, r.result_text, r.result_array], [code, text, []]);
  };
  await expect({ text_log: { text_count: 1, text_array: [] } }, "500", "Incorrect request");
  const raw = await call("POST", PATH, {
    body: "{",
    headers: { "content-type": "application/json" },
  });
  assert.equal((await raw.json()).result.result_code, "500");
  const count = textBody(p.key, p.secret, ["a", "b"]);
  count.text_log.text_count = 1;
  await expect(count, "501", "Incorrect Data Count");
  await expect(textBody(p.key, "X".repeat(32), ["hello"]), "502", "Incorrect Secret Key");
  await expect(textBody("no-such-project", p.secret, ["hello"]), "503", "Unregistered ProjectKey");
  await expect(
    textBody(p.key, p.secret, ["ok", "가".repeat(1800)]),
    "507",
    "The size of message is too large",
  );
  const huge = textBody(p.key, p.secret, ["x"]);
  huge.text_log.text_array[0].text_info = encryptEcb("y".repeat(20000), p.secret);
  await expect(huge, "507", "The size of message is too large");
  await expect(
    textBody(p.key, p.secret, [{ lang_code: "en", text: "no user" }]),
    "500",
    "Incorrect request",
  );
});

Deno.test("506: database unavailable", async () => {
  const app = await appWithDatabaseDown();
  const res = await app.request(PATH, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(textBody("k", "S".repeat(32), ["hi"])),
  });
  assert.deepEqual((await res.json()).result, {
    result_code: "506",
    result_text: "System Error",
    result_array: [],
  });
});

Deno.test("admin: project input is validated in the admin envelope", async () => {
  const twoChars = await admin("POST", "/admin/v1/tads/projects", {
    name: "x",
    forbiddenWords: [],
    masking: { enabled: true, char: "##" },
  });
  assert.equal(twoChars.status, 400);
  assert.match(twoChars.body.error.message, /masking\.char/);
  const noWords = await admin("POST", "/admin/v1/tads/projects", { name: "x", masking: {} });
  assert.equal(noWords.status, 400);
  const noAuth = await callJson("POST", "/admin/v1/tads/projects", { json: {} });
  assert.equal(noAuth.status, 401);
});
