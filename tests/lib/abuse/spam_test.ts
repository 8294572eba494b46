import assert from "node:assert/strict";
import {
  contentSpamRule,
  markRepeatedTexts,
  REPEAT_WINDOW_MS,
  textFingerprint,
} from "../../../lib/abuse/spam.ts";
import { openMemoryKv } from "../../../lib/kv/memory.ts";
import { TestClock } from "../../../lib/clock.ts";
import { testEnv } from "../../harness.ts";

Deno.test("content rules: links, contacts, repeated characters and tokens", () => {
  const cases: [string, string | null][] = [
    ["visit https://cheap-gold.example now", "link"],
    ["go to www.gold4u.net", "link"],
    ["cheapgold.com best price", "link"],
    ["join t.me/goldseller", "link"],
    ["mail me seller@gold.co", "contact"],
    ["call 010-1234-5678", "contact"],
    ["kakao: gold1234", "contact"],
    ["카톡 아이디: gold1234", "contact"],
    ["telegram @goldshop", "contact"],
    ["ㅋ".repeat(15), "repeat_char"],
    ["buy buy buy buy buy buy", "repeat_token"],
    ["buy".repeat(8), "repeat_token"],
    ["ㅋ".repeat(14), null],
    ["ㅋㅋ".repeat(7), null],
    ["lets line up at 10 and get 100000 gold", null],
    ["see you at 2024.05.01 ok.", null],
    ["안녕하세요 반갑습니다", null],
  ];
  for (const [text, rule] of cases) assert.equal(contentSpamRule(text), rule, text);
});

Deno.test("repeat rule: third identical text from one user within the window", async () => {
  const clock = new TestClock();
  const kv = openMemoryKv(() => clock.now());
  const send = async (userId: string, text: string) =>
    (await markRepeatedTexts(kv, { scope: "t", items: [{ userId, text }] }))[0];
  assert.equal(await send("u1", "Hello"), false);
  assert.equal(await send("u1", "hello "), false);
  assert.equal(await send("u2", "hello"), false); // another user counts apart
  assert.equal(await send("u1", "HELLO"), true);
  clock.advance(REPEAT_WINDOW_MS + 1);
  assert.equal(await send("u1", "hello"), false); // the window expired
});

Deno.test("repeat rule on the configured KV store (Redis on the real tier): count and window", async () => {
  const { services } = await testEnv();
  const scope = `t-${crypto.randomUUID()}`;
  const send = async (userId: string, text: string) =>
    (await markRepeatedTexts(services.kv, { scope, items: [{ userId, text }] }))[0];
  assert.equal(await send("u1", "Hello"), false);
  assert.equal(await send("u1", "hello "), false);
  assert.equal(await send("u2", "hello"), false); // another user counts apart
  assert.equal(await send("u1", "HELLO"), true);
  // The counter expires with the window (set on the first hit, not extended by later ones).
  const ttl = await services.kv.pttl(`abuse:repeat:${scope}:u1:${textFingerprint("hello")}`);
  assert.ok(ttl > 0 && ttl <= REPEAT_WINDOW_MS, `ttl ${ttl}`);
});

Deno.test("repeat rule: one batch counts its own repeats in order", async () => {
  const { services } = await testEnv();
  const scope = `t-${crypto.randomUUID()}`;
  const items = ["spam me", "Spam me", "other", "SPAM ME "].map((text) => ({ userId: "u", text }));
  assert.deepEqual(await markRepeatedTexts(services.kv, { scope, items }), [
    false,
    false,
    false,
    true,
  ]);
});
