import assert from "node:assert/strict";
import { admin, appWith, call, callJson, seedTenant, testEnv } from "../../harness.ts";
import { DbError, type Sql } from "../../../lib/db/port.ts";
import { createApp } from "../../../routes/mod.ts";
import { purgeChatBatchReceipts } from "../../../lib/moderation/chat_logs.ts";
import { encryptEcb } from "../../../lib/crypto/aes_ecb.ts";
import { appWithDatabaseDown, chatBody, chatMessage } from "./fixtures.ts";

const PATH = "/chat/api/v1/send-chat-log";

async function setup(withProject = true) {
  const tenant = await seedTenant("chat game");
  let projectKey: string | undefined;
  if (withProject) {
    const p = await admin("POST", "/admin/v1/tads/projects", {
      name: "chat words",
      forbiddenWords: ["시발", "fuck"],
      allowWords: ["classic"],
      masking: { enabled: true },
    });
    assert.equal(p.status, 201);
    projectKey = p.body.projectKey;
  }
  const key = await admin("POST", `/admin/v1/games/${tenant.gameIndex}/chat-keys`, { projectKey });
  assert.equal(key.status, 201);
  assert.equal(key.body.gameKey.length, 16);
  assert.equal(key.body.secretKey.length, 32);
  return { ...tenant, gameKey: key.body.gameKey as string, secret: key.body.secretKey as string };
}

async function post(body: unknown) {
  const res = await callJson("POST", PATH, { json: body });
  assert.equal(res.status, 200);
  return res.body.result as { result_code: string; result_msg: string };
}

async function logs(gameIndex: number, query = "") {
  const res = await admin("GET", `/admin/v1/games/${gameIndex}/chat-logs${query}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as { items: Record<string, unknown>[]; nextCursor: string | null };
}

Deno.test("200: a batch in both paddings is decrypted, analysed and stored", async () => {
  const t = await setup();
  const result = await post(chatBody(t.gameKey, t.secret, [
    chatMessage({ chat_msg: "아 시 발 진짜", channel_user_id: 1 }),
    chatMessage({ chat_msg: "classic game", channel_user_id: 2, chat_mode: 300 }),
    chatMessage({ chat_msg: "buy gold at cheapgold.com", channel_user_id: 3, chat_mode: 401 }),
  ]));
  assert.deepEqual(result, { result_code: "200", result_msg: "success" });
  const all = await logs(t.gameIndex);
  assert.equal(all.items.length, 3);
  const [spam, clean, bad] = all.items; // newest first
  assert.equal(bad.chatMsg, "아 시 발 진짜");
  assert.equal(bad.forbidden, true);
  assert.deepEqual(bad.matchedWords, ["시발"]);
  assert.equal(clean.forbidden, false);
  assert.equal(clean.spam, false);
  assert.equal(clean.chatMode, 300);
  assert.equal(spam.spam, true);
  assert.equal(spam.spamRule, "link");
  assert.equal(spam.timeStamp, "2024-05-01T12:00:00.000+09:00");
  // bigint columns are answered as decimal strings, the clean message carries no rule.
  assert.equal(clean.roomNum, "7");
  assert.match(clean.id as string, /^\d+$/);
  assert.equal(clean.spamRule, null);
  assert.equal(typeof clean.langCode, "number");
  const flagged = await logs(t.gameIndex, "?flagged=true");
  assert.deepEqual(flagged.items.map((i) => i.channelUserId), ["3", "1"]);
  const byUser = await logs(t.gameIndex, "?userId=2");
  assert.deepEqual(byUser.items.map((i) => i.chatMsg), ["classic game"]);
  const page1 = await logs(t.gameIndex, "?limit=2");
  assert.equal(page1.items.length, 2);
  assert.ok(page1.nextCursor);
  const page2 = await logs(t.gameIndex, `?limit=2&cursor=${page1.nextCursor}`);
  assert.deepEqual(page2.items.map((i) => i.chatMsg), ["아 시 발 진짜"]);
  assert.equal(page2.nextCursor, null);
});

Deno.test("200 without a linked project: spam rules only", async () => {
  const t = await setup(false);
  assert.equal(
    (await post(chatBody(t.gameKey, t.secret, [chatMessage({ chat_msg: "fuck kakao: gold123" })])))
      .result_code,
    "200",
  );
  const [row] = (await logs(t.gameIndex)).items;
  assert.equal(row.forbidden, false);
  assert.equal(row.spamRule, "contact");
});

Deno.test("500: missing fields, malformed JSON, wrong content type, bad message fields", async () => {
  const t = await setup();
  const noKey = await post({ chat_log: { chat_count: 0, msg_array: [] } });
  assert.equal(noKey.result_code, "500");
  assert.match(noKey.result_msg, /game_key is required/);
  const raw = await call("POST", PATH, {
    body: "{not json",
    headers: { "content-type": "application/json" },
  });
  assert.equal((await raw.json()).result.result_code, "500");
  const text = await call("POST", PATH, { body: "x", headers: { "content-type": "text/plain" } });
  assert.equal((await text.json()).result.result_code, "500");
  for (
    const bad of [
      { lang_code: 17 },
      { chat_mode: 500 },
      { room_num: "7" },
      { time_stamp: "2024-05-01 12:00:00" },
      { chat_msg: undefined },
    ]
  ) {
    const r = await post(chatBody(t.gameKey, t.secret, [chatMessage(), chatMessage(bad)]));
    assert.equal(r.result_code, "500", JSON.stringify(bad));
    assert.match(r.result_msg, /msg_array\[1\]\.msg\./);
  }
  const outer = chatBody(t.gameKey, t.secret, [chatMessage()]);
  outer.chat_log.msg_array[0].time_stamp = "yesterday";
  assert.equal((await post(outer)).result_code, "500");
  // All or nothing: the valid first messages above were not stored.
  assert.equal((await logs(t.gameIndex)).items.length, 0);
});

Deno.test("501: chat_count differs from msg_array", async () => {
  const t = await setup();
  const body = chatBody(t.gameKey, t.secret, [chatMessage(), chatMessage()]);
  body.chat_log.chat_count = 3;
  assert.equal((await post(body)).result_code, "501");
});

Deno.test("502: wrong secret or corrupt ciphertext; nothing stored", async () => {
  const t = await setup();
  const wrong = chatBody(t.gameKey, "W".repeat(32), [chatMessage()]);
  assert.deepEqual((await post(wrong)).result_code, "502");
  const mixed = chatBody(t.gameKey, t.secret, [chatMessage(), chatMessage()]);
  mixed.chat_log.msg_array[1].msg = "!!!!corrupt";
  assert.equal((await post(mixed)).result_code, "502");
  const truncated = chatBody(t.gameKey, t.secret, [chatMessage({ chat_msg: "x".repeat(40) })]);
  truncated.chat_log.msg_array[0].msg = truncated.chat_log.msg_array[0].msg.slice(0, 24);
  assert.equal((await post(truncated)).result_code, "502");
  // Decrypts under the right secret but is not JSON: still read as a wrong key.
  const notJson = chatBody(t.gameKey, t.secret, [chatMessage()]);
  notJson.chat_log.msg_array[0].msg = encryptEcb("plain words", t.secret);
  assert.equal((await post(notJson)).result_code, "502");
  assert.equal((await logs(t.gameIndex)).items.length, 0);
});

Deno.test("503: unregistered game key", async () => {
  const t = await setup(false);
  assert.equal(
    (await post(chatBody("ZZZZZZZZZZZZZZZZ", t.secret, [chatMessage()]))).result_code,
    "503",
  );
});

Deno.test("507: a msg over 2 KB refuses the batch", async () => {
  const t = await setup(false);
  const big = chatBody(t.gameKey, t.secret, [
    chatMessage(),
    chatMessage({ chat_msg: "가".repeat(700) }),
  ]);
  assert.ok(big.chat_log.msg_array[1].msg.length > 2048);
  assert.equal((await post(big)).result_code, "507");
  const fits = chatBody(t.gameKey, t.secret, [chatMessage({ chat_msg: "a".repeat(1200) })]);
  assert.ok(fits.chat_log.msg_array[0].msg.length <= 2048);
  assert.equal((await post(fits)).result_code, "200");
  assert.equal((await logs(t.gameIndex)).items.length, 1);
});

Deno.test("506: database unavailable", async () => {
  const app = await appWithDatabaseDown();
  const body = chatBody("AAAAAAAAAAAAAAAA", "S".repeat(32), [chatMessage()]);
  const res = await app.request(PATH, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  assert.equal((await res.json()).result.result_code, "506");
});

Deno.test("repeat rule: the same text three times from one user is spam", async () => {
  const t = await setup(false);
  const same = chatMessage({ chat_msg: "anyone selling swords?", channel_user_id: 55 });
  assert.equal((await post(chatBody(t.gameKey, t.secret, [same, same, same]))).result_code, "200");
  const items = (await logs(t.gameIndex)).items;
  assert.deepEqual(items.map((i) => i.spam).sort(), [false, false, true]);
  assert.equal(items.find((i) => i.spam)?.spamRule, "repeat_text");
});

Deno.test("admin: chat key for an unknown game or project is 404", async () => {
  const t = await seedTenant();
  const noGame = await admin("POST", "/admin/v1/games/999999/chat-keys", {});
  assert.equal(noGame.status, 404);
  const noProject = await admin("POST", `/admin/v1/games/${t.gameIndex}/chat-keys`, {
    projectKey: "nope",
  });
  assert.equal(noProject.status, 404);
  assert.equal(noProject.body.error.code, "PROJECT_NOT_FOUND");
});

Deno.test("200: a full-size batch (1,000 messages near the 2 KB limit) passes the body limit", async () => {
  const t = await setup(false);
  // 1,400 characters encrypt to about 1.9 KB of Base64 each: about 2 MB in all, above the
  // general 1 MiB body limit.
  const messages = Array.from(
    { length: 1000 },
    (_, i) => chatMessage({ chat_msg: "x".repeat(1400), channel_user_id: i }),
  );
  const body = chatBody(t.gameKey, t.secret, messages, "pkcs7");
  assert.ok(JSON.stringify(body).length > 1_048_576);
  assert.deepEqual(await post(body), { result_code: "200", result_msg: "success" });
  const stored = await logs(t.gameIndex, "?limit=5");
  assert.equal(stored.items.length, 5);
  const tooMany = chatBody(t.gameKey, t.secret, [...messages, chatMessage()], "pkcs7");
  assert.equal((await post(tooMany)).result_code, "500");
});

Deno.test("chat lang_code (1..16) selects the linked project's built-in lexicons", async () => {
  const t = await setup();
  const result = await post(chatBody(t.gameKey, t.secret, [
    chatMessage({ chat_msg: "hijo de puta", lang_code: 6, channel_user_id: 11 }), // Spanish
    chatMessage({ chat_msg: "puta", lang_code: 2, channel_user_id: 12 }), // English text
    chatMessage({ chat_msg: "SIÇMAK", lang_code: 14, channel_user_id: 13 }), // Turkish
    chatMessage({ chat_msg: "조직 시발점", lang_code: 1, channel_user_id: 14 }),
  ]));
  assert.equal(result.result_code, "200");
  const byUser = new Map((await logs(t.gameIndex)).items.map((i) => [i.channelUserId, i]));
  assert.equal(byUser.get("11")!.forbidden, true);
  assert.equal(byUser.get("12")!.forbidden, false);
  assert.equal(byUser.get("13")!.forbidden, true);
  assert.equal(byUser.get("14")!.forbidden, false);
});

/** Posts a chat batch to `app` (an app with other services or settings) and answers its result. */
async function postTo(
  app: { request: (p: string, i: RequestInit) => Response | Promise<Response> },
  body: unknown,
) {
  const res = await app.request(PATH, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  assert.equal(res.status, 200);
  return (await res.json()).result as { result_code: string; result_msg: string };
}

Deno.test("a batch sent again is stored once and answered as the first; another batch is stored", async () => {
  const t = await setup();
  const batch = chatBody(t.gameKey, t.secret, [
    chatMessage({ chat_msg: "first", channel_user_id: 1 }),
    chatMessage({ chat_msg: "second", channel_user_id: 2 }),
  ]);
  const first = await post(batch);
  assert.deepEqual(first, { result_code: "200", result_msg: "success" });
  assert.deepEqual(await post(batch), first);
  // Two copies at once: one stores, the other finds its receipt.
  const [a, b] = await Promise.all([post(batch), post(batch)]);
  assert.deepEqual([a, b], [first, first]);
  assert.deepEqual((await logs(t.gameIndex)).items.map((i) => i.chatMsg), ["second", "first"]);
  // Another batch (one message differs) is stored; so is the same batch for another game.
  const other = chatBody(t.gameKey, t.secret, [
    chatMessage({ chat_msg: "first", channel_user_id: 1 }),
    chatMessage({ chat_msg: "second!", channel_user_id: 2 }),
  ]);
  assert.deepEqual(await post(other), first);
  assert.equal((await logs(t.gameIndex)).items.length, 4);
  const u = await setup();
  const same = chatBody(u.gameKey, u.secret, [chatMessage({ chat_msg: "first" })]);
  const again = chatBody(t.gameKey, t.secret, [chatMessage({ chat_msg: "first" })]);
  await post(same);
  await post(again);
  assert.equal((await logs(u.gameIndex)).items.length, 1);
  assert.equal((await logs(t.gameIndex)).items.length, 5);
});

Deno.test("a batch answered 506 after it was stored is stored once when the client sends it again", async () => {
  const t = await setup();
  const { services } = await testEnv();
  // The database commits the batch, then the answer is lost (the connection drops).
  const lostAnswer: Sql = {
    ...services.db,
    query: async <T>(text: string, params?: unknown[]) => {
      const rows = await services.db.query<T>(text, params);
      if (/insert into chat_logs/.test(text)) throw new DbError("connection lost", "08006");
      return rows;
    },
  };
  const flaky = createApp({ ...services, db: lostAnswer });
  const batch = chatBody(t.gameKey, t.secret, [chatMessage({ chat_msg: "only once" })]);
  assert.equal((await postTo(flaky, batch)).result_code, "506");
  assert.deepEqual(await post(batch), { result_code: "200", result_msg: "success" });
  assert.deepEqual((await logs(t.gameIndex)).items.map((i) => i.chatMsg), ["only once"]);
});

Deno.test("after CHAT_BATCH_DEDUP_SECONDS the same batch is stored again; 0 turns the rule off", async () => {
  const t = await setup();
  const { clock } = await testEnv();
  const app = await appWith({ config: { CHAT_BATCH_DEDUP_SECONDS: 60 } });
  const batch = chatBody(t.gameKey, t.secret, [chatMessage({ chat_msg: "windowed" })]);
  const success = { result_code: "200", result_msg: "success" };
  assert.deepEqual(await postTo(app, batch), success);
  // The test clock flows with real time: steps far larger than a slow request.
  clock.advance(30_000);
  try {
    assert.deepEqual(await postTo(app, batch), success);
    assert.equal((await logs(t.gameIndex)).items.length, 1);
    clock.advance(31_000);
    assert.deepEqual(await postTo(app, batch), success);
    assert.equal((await logs(t.gameIndex)).items.length, 2);
    // The renewed receipt holds for a new window.
    assert.deepEqual(await postTo(app, batch), success);
    assert.equal((await logs(t.gameIndex)).items.length, 2);
  } finally {
    clock.advance(-61_000);
  }
  const off = await appWith({ config: { CHAT_BATCH_DEDUP_SECONDS: 0 } });
  const repeated = chatBody(t.gameKey, t.secret, [chatMessage({ chat_msg: "every time" })]);
  await postTo(off, repeated);
  await postTo(off, repeated);
  assert.equal((await logs(t.gameIndex, "?userId=1001")).items.length, 4);
});

Deno.test("expired batch receipts are deleted by the scheduled work", async () => {
  const t = await setup();
  const { services, clock } = await testEnv();
  const batch = chatBody(t.gameKey, t.secret, [chatMessage({ chat_msg: "purged receipt" })]);
  await post(batch);
  const receipts = () =>
    services.db.query("select 1 from chat_batch_receipts where game_index = $1", [t.gameIndex]);
  assert.equal((await receipts()).length, 1);
  await purgeChatBatchReceipts(services, clock.now());
  assert.equal((await receipts()).length, 1);
  await purgeChatBatchReceipts(services, clock.now() + 86_400_000);
  assert.equal((await receipts()).length, 0);
});
