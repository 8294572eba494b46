/**
 * A receiver written the way the README tells studios to write one: the `standardwebhooks`
 * package verifies the transaction callback and the OTP direct-send callback with the game's
 * secret from the admin API.
 */
import assert from "node:assert/strict";
import { Webhook } from "standardwebhooks";
import { admin, callJson, rememberSecret, seedTenant, testEnv } from "../../harness.ts";
import { dueCallback, receiver } from "./webhook_fixture.ts";
import { koreanMobile } from "../otp/fixture.ts";

async function rotate(gameIndex: number) {
  const r = await admin("POST", `/admin/v1/games/${gameIndex}/webhook-secret`);
  assert.equal(r.status, 201, JSON.stringify(r.body));
  assert.match(r.body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
  rememberSecret(r.body.secret);
  return r.body as { secret: string; previousValidUntil: string | null };
}

Deno.test("a transaction callback verifies with standardwebhooks and the game's secret", async () => {
  const t = await seedTenant("webhook game");
  const { secret } = await rotate(t.gameIndex);
  await using sink = receiver();
  const requestId = await dueCallback(t.gameIndex, t.appid, sink.url);
  assert.equal(sink.got.length, 1);
  const { raw, headers } = sink.got[0];
  assert.equal(headers["webhook-id"], `tx_${requestId}`);
  // The rotation just now: the new secret signs, and the one made with the game in its grace.
  assert.match(headers["webhook-signature"], /^v1,[A-Za-z0-9+/]+=* v1,[A-Za-z0-9+/]+=*$/);
  const payload = new Webhook(secret).verify(raw, headers) as Record<string, string>;
  assert.equal(payload.requestId, requestId);
  assert.equal(payload.txStatus, "SUCCESS");
  // A tampered body or another game's secret does not verify.
  assert.throws(() => new Webhook(secret).verify(raw.replace("SUCCESS", "FAILED"), headers));
  const other = await seedTenant("other game");
  const { secret: otherSecret } = await rotate(other.gameIndex);
  assert.throws(() => new Webhook(otherSecret).verify(raw, headers));
});

Deno.test("an OTP direct-send callback verifies with standardwebhooks", async () => {
  const t = await seedTenant("otp webhook game");
  const { secret } = await rotate(t.gameIndex);
  const { apiKey } = await t.apiKey(["otp"]);
  await using sink = receiver();
  const topic = `topic-${crypto.randomUUID().slice(0, 8)}`;
  const created = await admin("POST", `/admin/v1/games/${t.gameIndex}/otp-topics`, {
    topic,
    serviceName: "Hive",
    mode: "direct",
    callbackUrl: sink.url,
  });
  assert.equal(created.status, 201);
  const sent = await callJson("POST", "/otp/sms", {
    json: { to: koreanMobile(), toCountryNo: "82" },
    headers: { authorization: `Bearer ${apiKey}`, topic },
  });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  assert.equal(sink.got.length, 1);
  const payload = new Webhook(secret).verify(sink.got[0].raw, sink.got[0].headers) as {
    otp: string;
  };
  assert.equal(payload.otp, sent.body.otp);
  assert.match(sink.got[0].headers["webhook-id"], /^otp_/);
});

Deno.test("after a rotation both secrets sign until the grace period ends", async () => {
  const { clock, services } = await testEnv();
  const t = await seedTenant("rotating game");
  const first = await rotate(t.gameIndex);
  assert.notEqual(first.previousValidUntil, null, "the secret made with the game is replaced");
  const second = await rotate(t.gameIndex);
  assert.notEqual(second.secret, first.secret);
  const graceMs = services.config.WEBHOOK_ROTATION_GRACE_SECONDS * 1000;
  assert.ok(Math.abs(Date.parse(second.previousValidUntil!) - (clock.now() + graceMs)) < 5000);
  await using sink = receiver();
  await dueCallback(t.gameIndex, t.appid, sink.url);
  const { raw, headers } = sink.got[0];
  assert.equal(headers["webhook-signature"].split(" ").length, 2);
  new Webhook(first.secret).verify(raw, headers);
  new Webhook(second.secret).verify(raw, headers);
  clock.advance(graceMs + 1000);
  try {
    await dueCallback(t.gameIndex, t.appid, sink.url);
  } finally {
    clock.advance(-(graceMs + 1000));
  }
  const later = sink.got[1];
  assert.equal(later.headers["webhook-signature"].split(" ").length, 1);
  assert.throws(() => new Webhook(first.secret).verify(later.raw, later.headers));
  new Webhook(second.secret).verify(later.raw, later.headers);
});

Deno.test("a new game's secret is shown once at creation and signs its callbacks from the start", async () => {
  const { services } = await testEnv();
  const name = `secret from the start ${crypto.randomUUID().slice(0, 6)}`;
  const created = await admin("POST", "/admin/v1/games", { name });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const secret = created.body.webhookSecret as string;
  rememberSecret(secret);
  assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
  assert.deepEqual(Object.keys(created.body).sort(), ["gameIndex", "name", "webhookSecret"]);
  const gameIndex = created.body.gameIndex as number;

  // Nothing else answers it: not the game, not the list, not the secret's state.
  const state = await admin("GET", `/admin/v1/games/${gameIndex}/webhook-secret`);
  assert.equal(state.status, 200);
  assert.equal(state.body.exists, true);
  assert.equal(state.body.previousValidUntil, null);
  assert.ok(Math.abs(Date.parse(state.body.rotatedAt) - services.clock.now()) < 5000);
  for (
    const path of [`/admin/v1/games/${gameIndex}`, "/admin/v1/games?limit=200", state.body]
  ) {
    const body = typeof path === "string" ? (await admin("GET", path)).body : path;
    assert.ok(!JSON.stringify(body).includes(secret.slice(6)), String(path));
  }

  // The game's first callback verifies with the secret from the creation answer.
  const app = await admin("POST", `/admin/v1/games/${gameIndex}/apps`, {
    appid: `app-${crypto.randomUUID().slice(0, 8)}`,
  });
  rememberSecret(app.body.clientSecret);
  await using sink = receiver();
  const requestId = await dueCallback(gameIndex, app.body.appid, sink.url);
  assert.equal(sink.got.length, 1);
  const { raw, headers } = sink.got[0];
  assert.equal(headers["webhook-signature"].split(" ").length, 1, "one secret signs");
  const payload = new Webhook(secret).verify(raw, headers) as Record<string, string>;
  assert.equal(payload.requestId, requestId);

  // Revealing answers the same secret, uncached; the game's secret did not change.
  const revealed = await admin("POST", `/admin/v1/games/${gameIndex}/webhook-secret/reveal`);
  assert.equal(revealed.status, 200, JSON.stringify(revealed.body));
  assert.equal(revealed.body.secret, secret);
  assert.equal(revealed.headers.get("cache-control"), "no-store");
  assert.equal(created.headers.get("cache-control"), "no-store");
  const missing = await admin("POST", "/admin/v1/games/999999999/webhook-secret/reveal");
  assert.equal(missing.status, 404);
  assert.equal(missing.body.error.code, "GAME_NOT_FOUND");
});

Deno.test("a game without a secret yet: state says so; reveal makes the one it will sign with", async () => {
  const { services } = await testEnv();
  // A game registered before secrets came with games.
  const [row] = await services.db.query<{ game_index: number }>(
    "insert into games (name) values ('older game') returning game_index",
  );
  const path = `/admin/v1/games/${row.game_index}/webhook-secret`;
  const before = await admin("GET", path);
  assert.deepEqual(before.body, {
    gameIndex: row.game_index,
    exists: false,
    rotatedAt: null,
    previousValidUntil: null,
  });
  const revealed = await admin("POST", `${path}/reveal`);
  rememberSecret(revealed.body.secret);
  assert.match(revealed.body.secret, /^whsec_/);
  assert.equal((await admin("GET", path)).body.exists, true);
  const again = await admin("POST", `${path}/reveal`);
  assert.equal(again.body.secret, revealed.body.secret);
});

Deno.test("webhook-secret: unknown game is 404 and the secret is never listed again", async () => {
  const missing = await admin("POST", "/admin/v1/games/999999999/webhook-secret");
  assert.equal(missing.status, 404);
  assert.equal(missing.body.error.code, "GAME_NOT_FOUND");
  const t = await seedTenant("secret once");
  const { secret } = await rotate(t.gameIndex);
  const { services } = await testEnv();
  const rows = await services.db.query<{ secret_sealed: string }>(
    "select secret_sealed from webhook_secrets where game_index = $1",
    [t.gameIndex],
  );
  assert.match(rows[0].secret_sealed, /^v1:/);
  assert.ok(!rows[0].secret_sealed.includes(secret.slice(6)));
});
