import assert from "node:assert/strict";
import { admin, callJson, seedTenant } from "../../harness.ts";
import { textBody } from "../moderation/fixtures.ts";
import { assertNoSecret, assertNotFound } from "./fixture.ts";

async function gameProject(gameIndex: number) {
  const p = await admin("POST", "/admin/v1/tads/projects", {
    name: "chat words",
    gameIndex,
    forbiddenWords: ["fuck", "시발"],
    allowWords: ["assassin"],
    masking: { enabled: true },
  });
  assert.equal(p.status, 201, JSON.stringify(p.body));
  return { key: p.body.projectKey as string, secret: p.body.secretKey as string };
}

Deno.test("projects: listed per game with counts, read with lists, never the secret; tenancy", async () => {
  const t = await seedTenant();
  const other = await seedTenant();
  const p = await gameProject(t.gameIndex);
  // A project created without a game joins the game that links it with a chat key.
  const linked = await admin("POST", "/admin/v1/tads/projects", {
    name: "linked",
    forbiddenWords: ["x1"],
    masking: { enabled: false },
  });
  const key = await admin("POST", `/admin/v1/games/${t.gameIndex}/chat-keys`, {
    projectKey: linked.body.projectKey,
  });
  assert.equal(key.status, 201);
  const list = await admin("GET", `/admin/v1/games/${t.gameIndex}/tads/projects`);
  assert.equal(list.status, 200);
  assert.deepEqual(
    list.body.items.map((x: { projectKey: string }) => x.projectKey).sort(),
    [p.key, linked.body.projectKey].sort(),
  );
  const mine = list.body.items.find((x: { projectKey: string }) => x.projectKey === p.key);
  assert.equal(mine.forbiddenWords, 2);
  assert.equal(mine.allowWords, 1);
  assert.equal(mine.version, 1);
  assertNoSecret(list.body, [p.secret, linked.body.secretKey]);

  const one = await admin("GET", `/admin/v1/games/${t.gameIndex}/tads/projects/${p.key}`);
  assert.equal(one.status, 200);
  assert.deepEqual(one.body.forbiddenWords, ["fuck", "시발"]);
  assert.deepEqual(one.body.allowWords, ["assassin"]);
  assert.equal(one.body.updatedBy, null);
  assertNoSecret(one.body, [p.secret]);

  assertNotFound(
    await admin("GET", `/admin/v1/games/${other.gameIndex}/tads/projects/${p.key}`),
    "PROJECT_NOT_FOUND",
  );
  const otherList = await admin("GET", `/admin/v1/games/${other.gameIndex}/tads/projects`);
  assert.deepEqual(otherList.body.items, []);
});

Deno.test("projects: word lists edited within the game record version, who and when", async () => {
  const t = await seedTenant();
  const other = await seedTenant();
  const p = await gameProject(t.gameIndex);
  const refused = await admin(
    "PUT",
    `/admin/v1/games/${other.gameIndex}/tads/projects/${p.key}/words`,
    { forbiddenWords: ["nothing"] },
  );
  assertNotFound(refused, "PROJECT_NOT_FOUND");
  const put = await admin("PUT", `/admin/v1/games/${t.gameIndex}/tads/projects/${p.key}/words`, {
    forbiddenWords: ["darn", "heck", "darn"],
  });
  assert.equal(put.status, 200);
  assert.deepEqual(put.body, {
    projectKey: p.key,
    version: 2,
    forbiddenWords: 2,
    allowWords: 1,
    builtinLexicon: true,
    builtinLanguages: null,
    minSeverity: 1,
    countIntensifiers: false,
  });
  const one = await admin("GET", `/admin/v1/games/${t.gameIndex}/tads/projects/${p.key}`);
  assert.deepEqual(one.body.forbiddenWords, ["darn", "heck"]);
  assert.equal(one.body.version, 2);
  assert.equal(one.body.updatedBy, "admin token");
  assert.equal(one.body.builtinLexicon, true);
  assert.equal(one.body.builtinLanguages, null);
  assert.ok(Date.parse(one.body.updatedAt) >= Date.parse(one.body.createdAt));
});

Deno.test("detection test: matched words, their positions and the masked text", async () => {
  const t = await seedTenant();
  const other = await seedTenant();
  const p = await gameProject(t.gameIndex);
  const res = await admin("POST", `/admin/v1/games/${t.gameIndex}/tads/projects/${p.key}/test`, {
    text: "an assassin said f.u.c.k and 시발",
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.forbidden, true);
  assert.deepEqual(res.body.words.sort(), ["fuck", "시발"]);
  assert.deepEqual(res.body.labels, [
    { word: "fuck", category: "custom", severity: 4 },
    { word: "시발", category: "custom", severity: 4 },
  ]);
  assert.equal(res.body.masked, "an assassin said ******* and **");
  assert.deepEqual(res.body.matches, [
    { start: 17, end: 24, text: "f.u.c.k" },
    { start: 29, end: 31, text: "시발" },
  ]);
  assert.equal(res.body.version, 1);
  assertNoSecret(res.body, [p.secret]);

  const clean = await admin("POST", `/admin/v1/games/${t.gameIndex}/tads/projects/${p.key}/test`, {
    text: "hello there",
  });
  assert.deepEqual(
    { forbidden: clean.body.forbidden, matches: clean.body.matches, masked: clean.body.masked },
    { forbidden: false, matches: [], masked: "hello there" },
  );
  const empty = await admin("POST", `/admin/v1/games/${t.gameIndex}/tads/projects/${p.key}/test`, {
    text: "",
  });
  assert.equal(empty.status, 400);
  assert.match(empty.body.error.message, /^text/);
  assertNotFound(
    await admin("POST", `/admin/v1/games/${other.gameIndex}/tads/projects/${p.key}/test`, {
      text: "fuck",
    }),
    "PROJECT_NOT_FOUND",
  );
});

Deno.test("projects: rotate-secret shows the new secret once; text detection uses it at once", async () => {
  const t = await seedTenant();
  const other = await seedTenant();
  const p = await gameProject(t.gameIndex);
  assertNotFound(
    await admin("POST", `/admin/v1/games/${other.gameIndex}/tads/projects/${p.key}/rotate-secret`),
    "PROJECT_NOT_FOUND",
  );
  const rotated = await admin(
    "POST",
    `/admin/v1/games/${t.gameIndex}/tads/projects/${p.key}/rotate-secret`,
  );
  assert.equal(rotated.status, 200);
  assert.equal(rotated.body.secretKey.length, 32);
  assert.notEqual(rotated.body.secretKey, p.secret);
  const ok = await callJson("POST", "/cads2/send-text-data", {
    json: textBody(p.key, rotated.body.secretKey, ["hello"]),
  });
  assert.equal(ok.body.result.result_code, "200");
  const old = await callJson("POST", "/cads2/send-text-data", {
    json: textBody(p.key, p.secret, ["hello"]),
  });
  assert.notEqual(old.body.result.result_code, "200");
});

Deno.test("chat keys: listed with their project, never the secret; rotate; tenancy", async () => {
  const t = await seedTenant();
  const other = await seedTenant();
  const p = await gameProject(t.gameIndex);
  const k1 = await admin("POST", `/admin/v1/games/${t.gameIndex}/chat-keys`, { projectKey: p.key });
  const k2 = await admin("POST", `/admin/v1/games/${t.gameIndex}/chat-keys`, {});
  const list = await admin("GET", `/admin/v1/games/${t.gameIndex}/chat-keys?limit=1`);
  assert.equal(list.status, 200);
  assert.equal(list.body.items.length, 1);
  assert.equal(list.body.items[0].gameKey, k2.body.gameKey);
  const next = await admin(
    "GET",
    `/admin/v1/games/${t.gameIndex}/chat-keys?limit=1&cursor=${list.body.nextCursor}`,
  );
  assert.equal(next.body.items[0].gameKey, k1.body.gameKey);
  assert.equal(next.body.items[0].projectKey, p.key);
  assert.equal(next.body.nextCursor, null);
  assertNoSecret([list.body, next.body], [k1.body.secretKey, k2.body.secretKey]);

  assertNotFound(
    await admin(
      "POST",
      `/admin/v1/games/${other.gameIndex}/chat-keys/${k1.body.gameKey}/rotate-secret`,
    ),
    "CHAT_KEY_NOT_FOUND",
  );
  const rotated = await admin(
    "POST",
    `/admin/v1/games/${t.gameIndex}/chat-keys/${k1.body.gameKey}/rotate-secret`,
  );
  assert.equal(rotated.status, 200);
  assert.notEqual(rotated.body.secretKey, k1.body.secretKey);
  assert.equal(rotated.body.secretKey.length, 32);
  const otherList = await admin("GET", `/admin/v1/games/${other.gameIndex}/chat-keys`);
  assert.deepEqual(otherList.body.items, []);
});
