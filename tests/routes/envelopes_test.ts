/** Failures render in each family's envelope: malformed JSON, content type, size, unknown paths. */
import assert from "node:assert/strict";
import { ADMIN_TOKEN, call, callJson, seedTenant } from "../harness.ts";

Deno.test("every response carries a request id; a sane incoming one is echoed", async () => {
  const a = await call("GET", "/healthz");
  assert.match(a.headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/);
  await a.body?.cancel();
  const b = await call("GET", "/nope", { headers: { "x-request-id": "abc-123" } });
  assert.equal(b.headers.get("x-request-id"), "abc-123");
  await b.body?.cancel();
  const c = await call("GET", "/healthz", { headers: { "x-request-id": "bad id with spaces" } });
  assert.notEqual(c.headers.get("x-request-id"), "bad id with spaces");
  await c.body?.cancel();
});

Deno.test("blockchain envelope: malformed JSON, wrong content type, wrong types, oversized", async () => {
  const malformed = await callJson("POST", "/v2/auth-token", {
    body: "{not json",
    headers: { "content-type": "application/json" },
  });
  assert.equal(malformed.status, 400);
  assert.deepEqual(malformed.body, { code: 1000, message: "request body is not valid JSON" });
  const text = await callJson("POST", "/v2/auth-token", {
    body: "{}",
    headers: { "content-type": "text/plain" },
  });
  assert.equal(text.body.code, 1000);
  assert.equal(text.body.message, "Content-Type must be application/json");
  const types = await callJson("POST", "/v2/auth-token", {
    json: { clientId: 5, clientSecret: [] },
  });
  assert.equal(types.status, 400);
  assert.equal(types.body.code, 1000);
  assert.match(types.body.message, /clientId: .*expected string/);
  const huge = await callJson("POST", "/v2/auth-token", {
    json: { clientId: "x".repeat(1_100_000), clientSecret: "y" },
  });
  assert.equal(huge.status, 413);
  assert.deepEqual(huge.body, { code: 1000, message: "request body too large" });
});

Deno.test("blockchain envelope: unknown route under an authenticated prefix needs auth first", async () => {
  const t = await seedTenant();
  const anon = await callJson("GET", "/service/v1/nope");
  assert.deepEqual([anon.status, anon.body.code], [401, 1001]);
  const authed = await callJson("GET", "/service/v1/nope", { headers: t.chainHeaders });
  assert.equal(authed.status, 404);
  assert.equal(authed.body.code, 1404);
});

Deno.test("admin envelope: malformed JSON and wrong content type", async () => {
  const headers = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const malformed = await callJson("POST", "/admin/v1/games", {
    body: "{",
    headers: { ...headers, "content-type": "application/json" },
  });
  assert.equal(malformed.status, 400);
  assert.deepEqual(malformed.body, {
    error: { code: "BAD_REQUEST", message: "request body is not valid JSON" },
  });
  const form = await callJson("POST", "/admin/v1/games", {
    body: "name=x",
    headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
  });
  assert.equal(form.body.error.message, "Content-Type must be application/json");
});

Deno.test("each family renders an unknown path in its own envelope", async () => {
  const chat = await callJson("POST", "/chat/api/v1/nope", { json: {} });
  assert.equal(chat.body.result.result_code, "500");
  const tads = await callJson("POST", "/cads2/nope", { json: {} });
  assert.equal(tads.body.result.result_code, "500");
  assert.equal(tads.body.result.result_text, "Incorrect request");
  assert.deepEqual(tads.body.result.result_array, []);
  const push = await callJson("POST", "/push/nope", { json: {} });
  assert.equal(typeof push.body.error.reason, "string");
  assert.ok(push.headers.get("uuid"));
  const otp = await callJson("POST", "/otp/nope", { json: {} });
  assert.equal(typeof otp.body.error.code, "string");
  const items = await callJson("GET", "/items/nope");
  assert.equal(items.status, 404);
  assert.equal(items.body.code, 4040);
  const root = await callJson("GET", "/nope");
  assert.equal(root.body.error.code, "NOT_FOUND");
});

Deno.test("OpenAPI document and reference page are served", async () => {
  const doc = await callJson("GET", "/openapi.json");
  assert.equal(doc.status, 200);
  assert.equal(doc.body.openapi, "3.1.0");
  assert.ok(doc.body.paths["/v2/auth-token"].post);
  assert.ok(doc.body.paths["/admin/v1/games"].post);
  const page = await call("GET", "/docs");
  const html = await page.text();
  assert.equal(page.status, 200);
  assert.match(html, /\/v2\/auth-token/);
});

Deno.test("readyz reports both dependencies", async () => {
  const r = await callJson("GET", "/readyz");
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, { status: "ready", checks: { database: "ok", kv: "ok" } });
});
