/**
 * A project's lowest counted severity and intensifier choice through HTTP: set on creation and
 * with the word lists, validated, applied by /cads2/send-text-data (whose answer carries each
 * match's category and severity beside the spec's fields) and by chat log collection.
 */
import assert from "node:assert/strict";
import { admin, callJson, seedTenant } from "../../harness.ts";
import { chatBody, chatMessage, textBody } from "./fixtures.ts";

type Element = {
  tads_result: Record<string, string>;
  text_result: { text: string; masking_text: string };
  matches: { word: string; category: string; severity: number }[];
};

async function project(settings: Record<string, unknown>, gameIndex?: number) {
  const p = await admin("POST", "/admin/v1/tads/projects", {
    name: "severity",
    gameIndex,
    forbiddenWords: ["noob"],
    masking: { enabled: true },
    ...settings,
  });
  assert.equal(p.status, 201, JSON.stringify(p.body));
  return { key: p.body.projectKey as string, secret: p.body.secretKey as string };
}

async function detect(
  p: { key: string; secret: string },
  texts: (string | Record<string, unknown>)[],
) {
  const res = await callJson("POST", "/cads2/send-text-data", {
    json: textBody(p.key, p.secret, texts),
  });
  assert.equal(res.status, 200);
  assert.equal(res.body.result.result_code, "200", JSON.stringify(res.body));
  return res.body.result.result_array as Element[];
}

Deno.test("text detection: the answer keeps the spec's fields and adds each match's label", async () => {
  const p = await project({});
  const [shit, clean, own] = await detect(p, ["this shit", "hello", "noob"]);
  assert.deepEqual(Object.keys(shit.tads_result).sort(), [
    "aug_yn",
    "forbidden_yn",
    "long_yn",
    "spam_yn",
  ]);
  assert.deepEqual(Object.keys(shit.text_result).sort(), ["masking_text", "text"]);
  assert.deepEqual(shit.matches, [{ word: "*shit*", category: "profanity", severity: 2 }]);
  assert.equal(shit.text_result.masking_text, "this ****");
  assert.deepEqual(clean.matches, []);
  assert.deepEqual(own.matches, [{ word: "noob", category: "custom", severity: 4 }]);
});

Deno.test("text detection: matches below the project's lowest severity are not forbidden", async () => {
  const p = await project({ minSeverity: 3 });
  const [mild, strong, own] = await detect(p, ["this shit", "fuck this", "noob"]);
  assert.equal(mild.tads_result.forbidden_yn, "0");
  assert.equal(mild.text_result.masking_text, "this shit");
  assert.deepEqual(mild.matches, []);
  assert.equal(strong.tads_result.forbidden_yn, "1");
  assert.equal(strong.text_result.masking_text, "**** this");
  assert.equal(strong.matches[0].severity, 3);
  assert.equal(own.tads_result.forbidden_yn, "1"); // the studio's words are severity 4

  // Lowering the threshold with the word lists takes effect on the next request.
  const put = await admin("PUT", `/admin/v1/tads/projects/${p.key}/words`, {
    forbiddenWords: ["noob"],
    minSeverity: 1,
  });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  assert.equal(put.body.minSeverity, 1);
  assert.equal(put.body.countIntensifiers, false);
  const [again] = await detect(p, ["this shit"]);
  assert.equal(again.tads_result.forbidden_yn, "1");
});

Deno.test("text detection: intensifiers count only when the project says so", async () => {
  const off = await project({});
  const on = await project({ countIntensifiers: true });
  const texts = [{ user_id: "u-int", lang_code: "ko", text: "존나 좋아" }, "fucking great"];
  assert.deepEqual((await detect(off, texts)).map((r) => r.tads_result.forbidden_yn), ["0", "0"]);
  const counted = await detect(on, texts);
  assert.deepEqual(counted.map((r) => r.tads_result.forbidden_yn), ["1", "1"]);
  assert.equal(counted[0].text_result.masking_text, "** 좋아");
  assert.equal(counted[0].matches[0].category, "intensifier");
  // Kept when the lists change without them; shown by the project read.
  const put = await admin("PUT", `/admin/v1/tads/projects/${on.key}/words`, {
    forbiddenWords: [],
  });
  assert.equal(put.body.countIntensifiers, true);
});

Deno.test("admin: minSeverity and countIntensifiers are validated", async () => {
  for (const bad of [0, 5, 2.5, "2", null]) {
    const res = await admin("POST", "/admin/v1/tads/projects", {
      name: "x",
      minSeverity: bad,
      masking: { enabled: true },
    });
    assert.equal(res.status, 400, JSON.stringify(bad));
    assert.equal(res.body.error.code, "VALIDATION_FAILED");
    assert.match(res.body.error.message, /^minSeverity/);
  }
  const p = await project({});
  const res = await admin("PUT", `/admin/v1/tads/projects/${p.key}/words`, {
    forbiddenWords: [],
    countIntensifiers: "yes",
  });
  assert.equal(res.status, 400);
  assert.equal(res.body.error.code, "VALIDATION_FAILED");
  assert.match(res.body.error.message, /^countIntensifiers/);
});

Deno.test("chat logs: the linked project's threshold decides forbidden; labels are stored", async () => {
  const t = await seedTenant("severity chat");
  const p = await project({ minSeverity: 3 }, t.gameIndex);
  const key = await admin("POST", `/admin/v1/games/${t.gameIndex}/chat-keys`, {
    projectKey: p.key,
  });
  assert.equal(key.status, 201);
  const res = await callJson("POST", "/chat/api/v1/send-chat-log", {
    json: chatBody(key.body.gameKey, key.body.secretKey, [
      chatMessage({ chat_msg: "this shit", lang_code: 2, channel_user_id: 21 }),
      chatMessage({ chat_msg: "fuck this", lang_code: 2, channel_user_id: 22 }),
      chatMessage({ chat_msg: "존나 좋아", lang_code: 1, channel_user_id: 23 }),
    ]),
  });
  assert.equal(res.body.result.result_code, "200", JSON.stringify(res.body));
  const listed = await admin("GET", `/admin/v1/games/${t.gameIndex}/chat-logs`);
  assert.equal(listed.status, 200);
  const byUser = new Map(
    (listed.body.items as Record<string, unknown>[]).map((i) => [i.channelUserId, i]),
  );
  assert.equal(byUser.get("21")!.forbidden, false);
  assert.deepEqual(byUser.get("21")!.matches, []);
  assert.equal(byUser.get("22")!.forbidden, true);
  assert.deepEqual(byUser.get("22")!.matches, [
    { word: "*fuck*", category: "profanity", severity: 3 },
  ]);
  assert.equal(byUser.get("23")!.forbidden, false);
  const flagged = await admin("GET", `/admin/v1/games/${t.gameIndex}/chat-logs?flagged=true`);
  assert.deepEqual(flagged.body.items.map((i: { channelUserId: string }) => i.channelUserId), [
    "22",
  ]);
  const read = await admin("GET", `/admin/v1/games/${t.gameIndex}/tads/projects/${p.key}`);
  assert.equal(read.body.minSeverity, 3);
  assert.equal(read.body.countIntensifiers, false);
});
