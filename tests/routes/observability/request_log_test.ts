import assert from "node:assert/strict";
import {
  admin,
  ADMIN_TOKEN,
  appWith,
  call,
  callJson,
  capturedLogs,
  rememberSecret,
  seedTenant,
  testEnv,
} from "../../harness.ts";
import { observedFetch } from "../../../lib/outbound/mod.ts";
import { chatBody, chatMessage } from "../moderation/fixtures.ts";
import { koreanMobile, seedOtpTenant } from "../otp/fixture.ts";

// deno-lint-ignore no-explicit-any
type Line = Record<string, any>;

function requestLines(requestId: string): Line[] {
  return capturedLogs().map((l) => JSON.parse(l) as Line)
    .filter((l) => l.msg === "request" && l.requestId === requestId);
}

Deno.test("request log: one line per request with route template, ids, size and error code", async () => {
  const t = await seedTenant("request log");
  const okId = `rl-ok-${crypto.randomUUID()}`;
  const ok = await callJson("GET", "/service/v1/contract/owner/0xabc", {
    headers: { ...t.chainHeaders, "x-request-id": okId },
  });
  assert.equal(ok.status, 200);
  const [line, ...more] = requestLines(okId);
  assert.equal(more.length, 0);
  assert.equal(line.level, "info");
  assert.match(line.t, /^\d{4}-\d\d-\d\dT/);
  assert.equal(line.method, "GET");
  assert.equal(line.route, "/service/v1/contract/owner/:owner");
  assert.equal(line.status, 200);
  assert.equal(line.family, "blockchain");
  assert.equal(line.gameIndex, t.gameIndex);
  assert.equal(line.appid, t.appid);
  assert.equal(typeof line.durationMs, "number");
  assert.equal(line.size, new TextEncoder().encode(JSON.stringify(ok.body)).byteLength);
  assert.equal(line.errorCode, undefined);

  const badId = `rl-bad-${crypto.randomUUID()}`;
  const bad = await callJson("POST", "/v2/auth-token", {
    json: { clientId: t.clientId },
    headers: { "x-request-id": badId },
  });
  assert.notEqual(bad.body.code, 0);
  const [badLine] = requestLines(badId);
  assert.equal(badLine.route, "/v2/auth-token");
  assert.equal(badLine.errorCode, "VALIDATION_FAILED");
  assert.equal(badLine.status, bad.status);

  const missingId = `rl-404-${crypto.randomUUID()}`;
  await call("GET", "/nowhere/at/all", { headers: { "x-request-id": missingId } });
  const [missing] = requestLines(missingId);
  assert.equal(missing.route, "unmatched");
  assert.equal(missing.errorCode, "NOT_FOUND");
  assert.equal(missing.status, 404);

  const keyId = `rl-key-${crypto.randomUUID()}`;
  const { apiKey, keyId: issued } = await t.apiKey(["items"]);
  await call("GET", "/items/v1/requests/none", {
    headers: { authorization: `Bearer ${apiKey}`, "x-request-id": keyId },
  });
  const [keyLine] = requestLines(keyId);
  assert.equal(keyLine.family, "items");
  assert.equal(keyLine.gameIndex, t.gameIndex);
  assert.equal(keyLine.keyId, issued);
});

Deno.test("request log: chat failures in a 200 body are logged with their code", async () => {
  const id = `rl-chat-${crypto.randomUUID()}`;
  const r = await callJson("POST", "/chat/api/v1/send-chat-log", {
    json: { nope: true },
    headers: { "x-request-id": id },
  });
  assert.equal(r.status, 200);
  const [line] = requestLines(id);
  assert.equal(line.family, "chat");
  assert.equal(line.errorCode, "VALIDATION_FAILED");

  const unknownId = `rl-chat-${crypto.randomUUID()}`;
  const secret = "0123456789abcdef";
  const unknown = await callJson("POST", "/chat/api/v1/send-chat-log", {
    json: chatBody("ZZZZZZZZZZZZZZZZ", secret, [chatMessage()]),
    headers: { "x-request-id": unknownId },
  });
  assert.equal(unknown.body.result.result_code, "503");
  assert.equal(requestLines(unknownId)[0].errorCode, "RESULT_503");
});

Deno.test("request log: a 5xx is an error line with its cause; a slow request a warning", async () => {
  const app = await appWith({ config: { LOG_SLOW_MS: 1 } });
  app.get("/test-only/boom", () => {
    throw new Error("disk on fire");
  });
  app.get("/test-only/slow", async (c) => {
    await new Promise((r) => setTimeout(r, 20));
    return c.json({ ok: true });
  });
  const boomId = `rl-500-${crypto.randomUUID()}`;
  const boom = await app.request("/test-only/boom", { headers: { "x-request-id": boomId } });
  assert.equal(boom.status, 500);
  assert.doesNotMatch(await boom.text(), /disk on fire/);
  const [err] = requestLines(boomId);
  assert.equal(err.level, "error");
  assert.equal(err.errorCode, "INTERNAL");
  assert.equal(err.cause, "Error: disk on fire");

  const slowId = `rl-slow-${crypto.randomUUID()}`;
  await (await app.request("/test-only/slow", { headers: { "x-request-id": slowId } })).text();
  const [slow] = requestLines(slowId);
  assert.equal(slow.level, "warn");
  assert.equal(slow.cause, "slow");
});

Deno.test("request log: LOG_REQUEST_SAMPLE=0 drops ordinary lines but keeps errors", async () => {
  const app = await appWith({ config: { LOG_REQUEST_SAMPLE: 0 } });
  app.get("/test-only/boom2", () => {
    throw new Error("sampled out? no");
  });
  const okId = `rl-s-${crypto.randomUUID()}`;
  await (await app.request("/healthz", { headers: { "x-request-id": okId } })).text();
  assert.equal(requestLines(okId).length, 0);
  const errId = `rl-s-${crypto.randomUUID()}`;
  await (await app.request("/test-only/boom2", { headers: { "x-request-id": errId } })).text();
  assert.equal(requestLines(errId).length, 1);
});

Deno.test("outbound calls are logged with purpose, host, duration and outcome, no body", async () => {
  const { services } = await testEnv();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("nope", { status: 503 }),
  );
  try {
    const url = `http://127.0.0.1:${server.addr.port}/hook`;
    const secretBody = `body-secret-${crypto.randomUUID()}`;
    rememberSecret(secretBody);
    const res = await services.outbound.send({ url, body: secretBody, purpose: "test-hook" });
    assert.equal(res.status, 503);
    const line = capturedLogs().map((l) => JSON.parse(l) as Line)
      .findLast((l) => l.msg === "outbound" && l.purpose === "test-hook")!;
    assert.equal(line.host, `127.0.0.1:${server.addr.port}`);
    assert.equal(line.outcome, "http_503");
    assert.equal(line.level, "warn");
    assert.equal(typeof line.durationMs, "number");
    // Clients with their own HTTP stack (the chain RPC) report through observedFetch.
    const rpc = observedFetch({ log: services.log, metrics: services.metrics }, "chain-rpc");
    await (await rpc(`${url}/v2/secret-path-key`, { method: "POST", body: "{}" })).text();
    const rpcLine = capturedLogs().map((l) => JSON.parse(l) as Line)
      .findLast((l) => l.msg === "outbound" && l.purpose === "chain-rpc")!;
    assert.equal(rpcLine.outcome, "http_503");
    assert.equal(rpcLine.host, `127.0.0.1:${server.addr.port}`);
    assert.ok(!JSON.stringify(rpcLine).includes("secret-path-key"), "the path is not logged");
  } finally {
    await server.shutdown();
  }
});

Deno.test("no secret the tests created appears in any captured log line", async () => {
  const t = await seedTenant("secret scan");
  const { apiKey } = await t.apiKey(["otp", "push", "items"]);
  // Traffic that carries secrets in headers and bodies, including failures.
  await call("GET", "/service/v1/contract/owner/0x1", { headers: t.chainHeaders });
  await call("POST", "/v2/refresh-token", { json: { refreshToken: t.refreshToken } });
  await call("POST", "/v2/auth-token", { json: { clientId: t.clientId, clientSecret: "wrong" } });
  await call("GET", "/items/v1/requests/x", { headers: { authorization: `Bearer ${apiKey}` } });
  await admin("GET", "/admin/v1/games/999999999");
  await call("GET", "/metrics", { headers: { authorization: `Bearer ${ADMIN_TOKEN}x` } });
  // Decrypted payloads: a chat message's plaintext and an OTP code.
  const keys = await admin("POST", `/admin/v1/games/${t.gameIndex}/chat-keys`, {});
  const plaintext = `private words ${crypto.randomUUID()}`;
  rememberSecret(plaintext, keys.body.secretKey);
  const chat = await callJson("POST", "/chat/api/v1/send-chat-log", {
    json: chatBody(keys.body.gameKey, keys.body.secretKey, [chatMessage({ chat_msg: plaintext })]),
  });
  assert.equal(chat.body.result.result_code, "200");
  const otp = await seedOtpTenant();
  const sent = await otp.sendSms(koreanMobile());
  assert.equal(sent.status, 200);
  const lines = capturedLogs();
  assert.ok(lines.length > 0);
  for (
    const secret of [
      ADMIN_TOKEN,
      t.clientSecret,
      t.accessToken,
      t.refreshToken,
      apiKey,
      plaintext,
      keys.body.secretKey,
      otp.apiKey,
      `"${sent.body.otp}"`,
    ]
  ) {
    assert.equal(lines.find((l) => l.includes(secret)), undefined);
  }
});

Deno.test("request log: a device token in a path is logged as a prefix only, matched or not", async () => {
  const t = await seedTenant("device token log");
  const { apiKey } = await t.apiKey(["push"]);
  const token = `dtok${crypto.randomUUID().replaceAll("-", "")}${"f".repeat(100)}`;
  const headers = { authorization: `Bearer ${apiKey}` };
  const ids: string[] = [];
  for (
    const [method, path] of [
      ["GET", `/push/devices/${t.appid}/${token}`],
      ["GET", `/push/devices/${t.appid}/${encodeURIComponent(`${token}:/x`)}`],
      // No route has this method or this shape: the path is still not logged in full.
      ["DELETE", `/push/devices/${t.appid}/${token}`],
      ["GET", `/push/devices/${t.appid}/${token}/extra`],
    ]
  ) {
    const requestId = `rl-dev-${crypto.randomUUID()}`;
    ids.push(requestId);
    const res = await call(method, path, { headers: { ...headers, "x-request-id": requestId } });
    await res.body?.cancel();
  }
  const [matched, encoded, ...unmatched] = ids.map((id) => requestLines(id)[0]);
  assert.equal(matched.route, "/push/devices/:appid/:token");
  assert.equal(matched.status, 404);
  assert.equal(matched.path, `/push/devices/${t.appid}/${token.slice(0, 6)}…`);
  assert.equal(encoded.path, `/push/devices/${t.appid}/${token.slice(0, 6)}…`);
  for (const line of unmatched) {
    assert.equal(line.route, "unmatched");
    assert.match(line.path, new RegExp(`^/push/devices/${t.appid}/${token.slice(0, 6)}…`));
  }
  for (const id of ids) {
    for (const line of capturedLogs().filter((l) => l.includes(id))) {
      assert.ok(!line.includes(token.slice(0, 20)), line);
    }
  }
});
