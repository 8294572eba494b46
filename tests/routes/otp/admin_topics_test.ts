import assert from "node:assert/strict";
import { admin, callJson, seedTenant } from "../../harness.ts";

Deno.test("admin: registering a topic answers 201 with the defaults filled in", async () => {
  const t = await seedTenant();
  const r = await admin("POST", `/admin/v1/games/${t.gameIndex}/otp-topics`, {
    topic: "login",
    serviceName: "Summoners War",
    mode: "provider",
  });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  assert.deepEqual(r.body, {
    gameIndex: t.gameIndex,
    topic: "login",
    serviceName: "Summoners War",
    mode: "provider",
    callbackUrl: null,
    expirySeconds: 180,
    timeZone: "Asia/Seoul",
    codeLength: 6,
  });
});

Deno.test("admin: registering the same topic again replaces it (200)", async () => {
  const t = await seedTenant();
  const path = `/admin/v1/games/${t.gameIndex}/otp-topics`;
  assert.equal(
    (await admin("POST", path, { topic: "x", serviceName: "A", mode: "provider" })).status,
    201,
  );
  const r = await admin("POST", path, {
    topic: "x",
    serviceName: "B",
    mode: "direct",
    callbackUrl: "https://game.example/otp",
    expirySeconds: 300,
    timeZone: "America/New_York",
    codeLength: 8,
  });
  assert.equal(r.status, 200);
  assert.equal(r.body.serviceName, "B");
  assert.equal(r.body.mode, "direct");
  assert.equal(r.body.callbackUrl, "https://game.example/otp");
  assert.equal(r.body.expirySeconds, 300);
  assert.equal(r.body.timeZone, "America/New_York");
  assert.equal(r.body.codeLength, 8);
});

Deno.test("admin: invalid topics are refused with the field named", async () => {
  const t = await seedTenant();
  const path = `/admin/v1/games/${t.gameIndex}/otp-topics`;
  const base = { topic: "t", serviceName: "S", mode: "provider" };
  const cases: [unknown, RegExp][] = [
    [{ ...base, mode: "direct" }, /callbackUrl is required for mode direct/],
    [{ ...base, mode: "carrier-pigeon" }, /^mode: /],
    [{ ...base, timeZone: "Mars/Olympus" }, /timeZone: unknown time zone Mars\/Olympus/],
    [{ ...base, codeLength: 3 }, /^codeLength: /],
    [{ ...base, expirySeconds: 5 }, /^expirySeconds: /],
    [{ ...base, callbackUrl: "not a url" }, /^callbackUrl: /],
    [{ serviceName: "S", mode: "provider" }, /^topic is required/],
  ];
  for (const [json, message] of cases) {
    const r = await admin("POST", path, json);
    assert.equal(r.status, 400, JSON.stringify(json));
    assert.match(r.body.error.message, message, JSON.stringify(r.body));
  }
});

Deno.test("admin: an unknown game is 404 and the admin token is required", async () => {
  const r = await admin("POST", "/admin/v1/games/999999999/otp-topics", {
    topic: "t",
    serviceName: "S",
    mode: "provider",
  });
  assert.equal(r.status, 404);
  assert.equal(r.body.error.code, "GAME_NOT_FOUND");
  const anon = await callJson("POST", "/admin/v1/games/1/otp-topics", {
    json: { topic: "t", serviceName: "S", mode: "provider" },
  });
  assert.equal(anon.status, 401);
});
