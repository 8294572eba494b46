/**
 * Wrong admin tokens are limited per client address (429 with Retry-After), with one count for
 * both doors (the admin API and console sign-in). The address is the connection's peer; a
 * forwarding header is believed only from a peer TRUSTED_PROXIES names.
 */
import assert from "node:assert/strict";
import { ADMIN_TOKEN, testEnv } from "../harness.ts";
import { createApp } from "../../routes/mod.ts";

const MAX_FAILURES = 10;
const limitedApps = new Map<string, ReturnType<typeof createApp>>();

/** The app with the production default limit (the shared test setting is far higher). */
async function appWithLimit(trustedProxies?: string) {
  const { services } = await testEnv();
  const key = trustedProxies ?? "";
  let app = limitedApps.get(key);
  if (!app) {
    app = createApp({
      ...services,
      config: {
        ...services.config,
        ADMIN_AUTH_MAX_FAILURES: MAX_FAILURES,
        TRUSTED_PROXIES: trustedProxies,
      },
    });
    limitedApps.set(key, app);
  }
  return app;
}

function randomAddress(prefix = "198.51"): string {
  const [a, b] = crypto.getRandomValues(new Uint8Array(2));
  return `${prefix}.${a}.${b}`;
}

/** Deno.serve hands the connection info to app.fetch as its env; the same shape here. */
function peerEnv(address: string) {
  return { remoteAddr: { hostname: address, port: 5000, transport: "tcp" } };
}

interface From {
  peer: string;
  headers?: Record<string, string>;
  trustedProxies?: string;
}

async function adminCall(from: From | string, token: string) {
  const f = typeof from === "string" ? { peer: from } : from;
  const app = await appWithLimit(f.trustedProxies);
  const res = await app.request("/admin/v1/games/1", {
    headers: { ...f.headers, authorization: `Bearer ${token}` },
  }, peerEnv(f.peer));
  return { status: res.status, body: await res.json(), retryAfter: res.headers.get("retry-after") };
}

/** Signs in to the console through its form (GET for the CSRF cookie, then POST). */
async function consoleSignIn(from: From, token: string) {
  const app = await appWithLimit(from.trustedProxies);
  const env = peerEnv(from.peer);
  const form = await app.request("/console/sign-in", { headers: from.headers }, env);
  const html = await form.text();
  const csrf = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
  assert.ok(csrf, "the sign-in form has a CSRF token");
  const cookie = form.headers.getSetCookie().map((l) => l.split(";")[0]).join("; ");
  const res = await app.request("/console/sign-in", {
    method: "POST",
    headers: {
      ...from.headers,
      cookie,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ _csrf: csrf, token, next: "/console" }),
  }, env);
  return { status: res.status, text: await res.text(), retryAfter: res.headers.get("retry-after") };
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

Deno.test("console sign-in: with no proxy header, the limit holds even for the right token", async () => {
  const from = { peer: randomAddress() };
  for (let i = 0; i < MAX_FAILURES; i++) {
    assert.equal((await consoleSignIn(from, `wrong-${i}`)).status, 401, `try ${i + 1}`);
  }
  const locked = await consoleSignIn(from, ADMIN_TOKEN);
  assert.equal(locked.status, 429);
  assert.match(locked.text, /Too many wrong tokens from here\. Try again in \d+ minutes?\./);
  assert.ok(Number(locked.retryAfter) >= 1, locked.retryAfter ?? "no Retry-After");
  // Another address signs in meanwhile.
  assert.equal((await consoleSignIn({ peer: randomAddress() }, ADMIN_TOKEN)).status, 303);
});

Deno.test("a changing X-Forwarded-For is not believed without TRUSTED_PROXIES: both doors stay locked", async () => {
  const peer = randomAddress();
  for (let i = 0; i < MAX_FAILURES; i++) {
    const headers = {
      "x-forwarded-for": randomAddress("203.0"),
      "cf-connecting-ip": randomAddress(),
    };
    const r = i % 2 === 0
      ? await consoleSignIn({ peer, headers }, "wrong")
      : await adminCall({ peer, headers }, "wrong");
    assert.equal(r.status, 401, `try ${i + 1}`);
  }
  const headers = { "x-forwarded-for": randomAddress("203.0") };
  assert.equal((await consoleSignIn({ peer, headers }, ADMIN_TOKEN)).status, 429);
  assert.equal((await adminCall({ peer, headers }, ADMIN_TOKEN)).status, 429);
});

Deno.test("one count serves both doors: admin API failures lock console sign-in and back", async () => {
  const apiFirst = randomAddress();
  for (let i = 0; i < MAX_FAILURES; i++) {
    assert.equal((await adminCall(apiFirst, "wrong")).status, 401);
  }
  assert.equal((await adminCall(apiFirst, ADMIN_TOKEN)).status, 429);
  assert.equal((await consoleSignIn({ peer: apiFirst }, ADMIN_TOKEN)).status, 429);

  const consoleFirst = { peer: randomAddress() };
  for (let i = 0; i < MAX_FAILURES; i++) {
    assert.equal((await consoleSignIn(consoleFirst, "wrong")).status, 401);
  }
  const api = await adminCall(consoleFirst.peer, ADMIN_TOKEN);
  assert.equal(api.status, 429);
  assert.equal(api.body.error.code, "TOO_MANY_AUTH_FAILURES");
});

Deno.test("TRUSTED_PROXIES: a named proxy's X-Forwarded-For is believed, another peer's is not", async () => {
  const proxy = randomAddress("192.0");
  const trustedProxies = `10.0.0.0/8, ${proxy}`;
  const client = randomAddress("203.0");
  // The client spoofs a first hop; the trusted proxy appends the address it saw.
  const viaProxy = (who: string) => ({
    peer: proxy,
    trustedProxies,
    headers: { "x-forwarded-for": `${randomAddress()}, ${who}` },
  });
  for (let i = 0; i < MAX_FAILURES; i++) {
    assert.equal((await consoleSignIn(viaProxy(client), "wrong")).status, 401);
  }
  assert.equal((await consoleSignIn(viaProxy(client), ADMIN_TOKEN)).status, 429);
  assert.equal((await adminCall(viaProxy(client), ADMIN_TOKEN)).status, 429);
  // Other clients behind the same proxy are counted apart, so they are not locked out.
  assert.equal((await consoleSignIn(viaProxy(randomAddress("203.0")), ADMIN_TOKEN)).status, 303);
  const neighbour = await adminCall(viaProxy(randomAddress("203.0")), ADMIN_TOKEN);
  assert.ok(neighbour.status !== 429 && neighbour.status !== 401, String(neighbour.status));
  // A peer that is not a named proxy is counted by its own address whatever it sends.
  const stranger = randomAddress();
  for (let i = 0; i < MAX_FAILURES; i++) {
    const from = {
      peer: stranger,
      trustedProxies,
      headers: { "x-forwarded-for": randomAddress("203.0") },
    };
    assert.equal((await adminCall(from, "wrong")).status, 401);
  }
  assert.equal((await adminCall({ peer: stranger, trustedProxies }, ADMIN_TOKEN)).status, 429);
});
