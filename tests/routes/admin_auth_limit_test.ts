/** Failed admin authentications are limited per client address (429 with Retry-After). */
import assert from "node:assert/strict";
import { ADMIN_TOKEN, testEnv } from "../harness.ts";
import { createApp } from "../../routes/mod.ts";

const MAX_FAILURES = 10;
let limitedApp: ReturnType<typeof createApp> | undefined;

/** The app with the production default limit (the shared test setting is far higher). */
async function appWithLimit() {
  const { services } = await testEnv();
  limitedApp ??= createApp({
    ...services,
    config: { ...services.config, ADMIN_AUTH_MAX_FAILURES: MAX_FAILURES },
  });
  return limitedApp;
}

function randomAddress(): string {
  const [a, b] = crypto.getRandomValues(new Uint8Array(2));
  return `198.51.${a}.${b}`;
}

async function adminCall(address: string, token: string) {
  const app = await appWithLimit();
  // Deno.serve hands the connection info to app.fetch as its env; the same shape here.
  const res = await app.request("/admin/v1/games/1", {
    headers: { authorization: `Bearer ${token}` },
  }, { remoteAddr: { hostname: address, port: 5000, transport: "tcp" } });
  return { status: res.status, body: await res.json(), retryAfter: res.headers.get("retry-after") };
}

Deno.test("admin: past its wrong-token limit an address gets 429 with Retry-After, others do not", async () => {
  const { services } = await testEnv();
  const max = MAX_FAILURES;
  const attacker = randomAddress();
  for (let i = 0; i < max; i++) {
    const r = await adminCall(attacker, `wrong-token-${i}`);
    assert.equal(r.status, 401, `try ${i + 1}`);
    assert.equal(r.body.error.code, "UNAUTHORIZED");
  }
  for (const token of ["wrong-again", ADMIN_TOKEN]) {
    const r = await adminCall(attacker, token);
    assert.equal(r.status, 429, JSON.stringify(r.body));
    assert.equal(r.body.error.code, "TOO_MANY_AUTH_FAILURES");
    assert.match(r.body.error.message, /retry after \d+ s/);
    const after = Number(r.retryAfter);
    assert.ok(after >= 1 && after <= services.config.ADMIN_AUTH_WINDOW_SECONDS, r.retryAfter!);
  }
  // Another address with the right token is unaffected.
  const other = await adminCall(randomAddress(), ADMIN_TOKEN);
  assert.notEqual(other.status, 429);
  assert.notEqual(other.status, 401);
});

Deno.test("admin: successful calls do not count as failures", async () => {
  const address = randomAddress();
  for (let i = 0; i < MAX_FAILURES + 5; i++) {
    const r = await adminCall(address, ADMIN_TOKEN);
    assert.notEqual(r.status, 429);
  }
});
