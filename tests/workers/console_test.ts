/**
 * The console on workerd (the bundle under `wrangler dev --local`): sign-in, the Secure session
 * cookie outside embedded mode, and a server-rendered page reading the admin API in-process.
 */
import assert from "node:assert/strict";

const url = Deno.env.get("WORKER_URL");
const adminToken = Deno.env.get("WORKER_ADMIN_TOKEN") ?? "";
const ignore = !url;

function cookiesOf(res: Response): string {
  return res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
}

Deno.test({
  name: "workers: console sign-in and a page rendered with hono/jsx",
  ignore,
  fn: async () => {
    const form = await fetch(`${url}/console/sign-in`);
    const html = await form.text();
    assert.equal(form.status, 200);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(html)![1];
    const signIn = await fetch(`${url}/console/sign-in`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookiesOf(form) },
      body: new URLSearchParams({ _csrf: csrf, token: adminToken, next: "/console/games" }),
    });
    await signIn.body?.cancel();
    assert.equal(signIn.status, 303);
    const session = signIn.headers.getSetCookie().find((c) => c.startsWith("gp_console="))!;
    assert.match(session, /HttpOnly/);
    assert.match(session, /Secure/, "Secure outside embedded mode");
    const page = await fetch(`${url}/console/games`, {
      headers: { cookie: session.split(";")[0] },
    });
    const text = await page.text();
    assert.equal(page.status, 200);
    assert.match(text, /<h1>Games<\/h1>/);
    const css = await fetch(`${url}/console/assets/console.css`);
    await css.body?.cancel();
    assert.equal(css.status, 200);
  },
});
