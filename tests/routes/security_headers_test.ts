/**
 * Every answer carries `X-Content-Type-Options: nosniff` (HTML pages, JSON, errors), and one that
 * went out over HTTPS carries `Strict-Transport-Security`; a forwarded scheme is believed only
 * from a proxy TRUSTED_PROXIES names.
 */
import assert from "node:assert/strict";
import { appWith, call } from "../harness.ts";

const HSTS = "max-age=31536000";

Deno.test("nosniff on every HTML page and error, JSON too; no HSTS over plain HTTP", async () => {
  for (
    const [path, type] of [
      ["/docs", /text\/html/],
      ["/console/sign-in", /text\/html/],
      ["/console/games", null], // a redirect to sign-in
      ["/console/no-such-page", null],
      ["/healthz", /json/],
      ["/openapi.json", /json/],
      ["/admin/v1/games", /json/], // 401
      ["/no/such/route", /json/],
    ] as const
  ) {
    const res = await call("GET", path);
    await res.body?.cancel();
    if (type) assert.match(res.headers.get("content-type") ?? "", type, path);
    assert.equal(res.headers.get("x-content-type-options"), "nosniff", path);
    assert.equal(res.headers.get("strict-transport-security"), null, path);
  }
  // The console's error page (a sign-in form without its CSRF token).
  const refused = await call("POST", "/console/sign-in", {
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "token=x",
  });
  assert.equal(refused.status, 403);
  assert.match(await refused.text(), /CSRF/);
  assert.match(refused.headers.get("content-type") ?? "", /text\/html/);
  assert.equal(refused.headers.get("x-content-type-options"), "nosniff");
});

Deno.test("HSTS when the request came over HTTPS, or through a trusted proxy that says so", async () => {
  const direct = await call("GET", "https://games.example/docs");
  await direct.body?.cancel();
  assert.equal(direct.headers.get("strict-transport-security"), HSTS);
  assert.equal(direct.headers.get("x-content-type-options"), "nosniff");

  const proxied = (app: Awaited<ReturnType<typeof appWith>>, peer: string) =>
    app.request("/console/sign-in", { headers: { "x-forwarded-proto": "https" } }, {
      remoteAddr: { hostname: peer, port: 4000, transport: "tcp" },
    });
  const app = await appWith({ config: { TRUSTED_PROXIES: "10.0.0.0/8" } });
  const trusted = await proxied(app, "10.1.2.3");
  await trusted.body?.cancel();
  assert.equal(trusted.headers.get("strict-transport-security"), HSTS);
  const stranger = await proxied(app, "198.51.100.4");
  await stranger.body?.cancel();
  assert.equal(stranger.headers.get("strict-transport-security"), null);
  const untrustedSetting = await proxied(await appWith(), "10.1.2.3");
  await untrustedSetting.body?.cancel();
  assert.equal(untrustedSetting.headers.get("strict-transport-security"), null);
});
