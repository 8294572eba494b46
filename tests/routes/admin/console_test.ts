import assert from "node:assert/strict";
import { admin, ADMIN_TOKEN, call, rememberSecret, seedTenant, testEnv } from "../../harness.ts";
import { itemFixture } from "../../lib/items/fixture.ts";

/** A cookie jar over in-process requests. */
class Browser {
  cookies = new Map<string, string>();
  setCookies: string[] = [];
  async request(method: string, path: string, form?: Record<string, string>) {
    const headers: Record<string, string> = {
      cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
    };
    let body: string | undefined;
    if (form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(form).toString();
    }
    const res = await call(method, path, { headers, body });
    this.setCookies = res.headers.getSetCookie();
    for (const line of this.setCookies) {
      const [pair] = line.split(";");
      const i = pair.indexOf("=");
      const name = pair.slice(0, i);
      const value = pair.slice(i + 1);
      if (/max-age=0/i.test(line) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: res.status, headers: res.headers, text: await res.text() };
  }
  csrfOf(html: string): string {
    const m = /name="_csrf" value="([^"]+)"/.exec(html);
    if (!m) throw new Error("no CSRF token on the page");
    return m[1];
  }
  async signIn(token = ADMIN_TOKEN) {
    const page = await this.request("GET", "/console/sign-in");
    return await this.request("POST", "/console/sign-in", {
      _csrf: this.csrfOf(page.text),
      token,
      next: "/console",
    });
  }
}

Deno.test("console: / leads to the console; pages need a session; assets are served", async () => {
  const root = await call("GET", "/");
  assert.equal(root.status, 302);
  assert.equal(root.headers.get("location"), "/console");
  const page = await call("GET", "/console/games");
  assert.equal(page.status, 303);
  assert.equal(page.headers.get("location"), "/console/sign-in?next=%2Fconsole%2Fgames");
  const css = await call("GET", "/console/assets/console.css");
  assert.equal(css.status, 200);
  assert.match(css.headers.get("content-type")!, /text\/css/);
  const js = await call("GET", "/console/assets/console.js");
  assert.match(js.headers.get("content-type")!, /javascript/);
});

Deno.test("console: sign-in sets an HttpOnly SameSite=Strict session cookie with expiry", async () => {
  const b = new Browser();
  const res = await b.signIn();
  assert.equal(res.status, 303, res.text);
  assert.equal(res.headers.get("location"), "/console");
  const session = b.setCookies.find((c) => c.startsWith("gp_console="))!;
  assert.match(session, /HttpOnly/);
  assert.match(session, /SameSite=Strict/);
  assert.match(session, /Max-Age=28800/);
  assert.match(session, /Path=\/console/);
  // Tests run in embedded mode (no database URL): no Secure flag, so http://localhost works.
  const { services } = await testEnv();
  assert.equal(/Secure/.test(session), !services.config.embedded);
  const games = await b.request("GET", "/console/games");
  assert.equal(games.status, 200);
  assert.match(games.text, /Register a game/);
  assert.ok(!games.text.includes(ADMIN_TOKEN), "the admin token never reaches a page");
});

Deno.test("console: a wrong token is refused with a message", async () => {
  const b = new Browser();
  const res = await b.signIn("not-the-token");
  assert.equal(res.status, 401);
  assert.match(res.text, /That admin token is not right/);
  assert.ok(!b.cookies.has("gp_console"));
  assert.equal((await b.request("GET", "/console/games")).status, 303);
});

Deno.test("console: a form without the CSRF token is refused, with a message not a trace", async () => {
  const b = new Browser();
  await b.signIn();
  const res = await b.request("POST", "/console/games", { name: "csrf-less" });
  assert.equal(res.status, 403);
  assert.match(res.text, /CSRF token/);
  assert.ok(!/at \w+ \(|\.ts:\d+/.test(res.text), "no stack trace");
  const wrong = await b.request("POST", "/console/games", { name: "x", _csrf: "forged" });
  assert.equal(wrong.status, 403);
  // Sign-in itself needs its form's token.
  const signIn = await new Browser().request("POST", "/console/sign-in", { token: ADMIN_TOKEN });
  assert.equal(signIn.status, 403);
});

Deno.test("console: create a game and an app; the secret is shown once; validation messages as the API", async () => {
  const b = new Browser();
  await b.signIn();
  const games = await b.request("GET", "/console/games");
  const empty = await b.request("POST", "/console/games", {
    _csrf: b.csrfOf(games.text),
    name: " ",
  });
  assert.equal(empty.status, 400);
  assert.match(empty.text, /name: Too small|name: /);
  const made = await b.request("POST", "/console/games", {
    _csrf: b.csrfOf(games.text),
    name: "Console game",
  });
  // The answer is the new game's apps page itself: its webhook secret exists only there.
  assert.equal(made.status, 200);
  const registered = /Game Console game registered \(#(\d+)\)/.exec(made.text);
  assert.ok(registered, made.text.slice(0, 500));
  const to = `/console/g/${registered[1]}/apps`;
  const webhookSecret = /Signing secret:<\/span><code id="secret-0">(whsec_[^<]+)</.exec(made.text)
    ?.[1];
  assert.ok(webhookSecret, "the webhook secret is shown at creation");
  rememberSecret(webhookSecret);
  const revealed = await admin("POST", `/admin/v1/games/${registered[1]}/webhook-secret/reveal`);
  assert.equal(revealed.body.secret, webhookSecret, "the shown secret is the game's");
  const apps = await b.request("GET", to);
  assert.ok(!apps.text.includes(webhookSecret!), "the webhook secret is not shown again");
  const created = await b.request("POST", to, {
    _csrf: b.csrfOf(apps.text),
    appid: `con-${crypto.randomUUID().slice(0, 6)}`,
  });
  assert.equal(created.status, 200);
  const secret = /Client secret:<\/span><code id="secret-1">([^<]+)</.exec(created.text)?.[1];
  assert.ok(secret && secret.length > 20, created.text.slice(0, 500));
  const again = await b.request("GET", to);
  assert.ok(!again.text.includes(secret!), "the secret is not shown again");
});

Deno.test("console: sign-out ends the session (the old cookie no longer works)", async () => {
  const b = new Browser();
  await b.signIn();
  const page = await b.request("GET", "/console/games");
  const cookie = b.cookies.get("gp_console")!;
  const out = await b.request("POST", "/console/sign-out", { _csrf: b.csrfOf(page.text) });
  assert.equal(out.status, 303);
  b.cookies.set("gp_console", cookie);
  assert.equal((await b.request("GET", "/console/games")).status, 303);
});

Deno.test("console: another game's resources are not found", async () => {
  const b = new Browser();
  await b.signIn();
  const t = await seedTenant();
  const res = await b.request("GET", `/console/g/${t.gameIndex}/moderation/not-a-project`);
  assert.equal(res.status, 404);
  assert.match(res.text, /not a project of game/);
  const none = await b.request("GET", "/console/g/2147483000");
  assert.equal(none.status, 404);
});

Deno.test("console: retry now on a FAILED delivery; every action logged without secret values", async () => {
  const { services } = await testEnv();
  await using f = await itemFixture("http");
  const g = f.tenant.gameIndex;
  const lines: { msg: string; fields: Record<string, unknown> }[] = [];
  const log = services.log;
  services.log = {
    ...log,
    info: (msg, fields) => {
      lines.push({ msg, fields: fields ?? {} });
      log.info(msg, fields);
    },
  };
  try {
    const b = new Browser();
    await b.signIn();
    f.server.faults.push({ kind: "code", code: 40004, message: "maintenance" });
    const body = f.body({ id: "console-retry" });
    await f.register(body);
    await services.idle();
    const page = await b.request("GET", `/console/g/${g}/items?status=FAILED`);
    assert.match(page.text, /Retry now/);
    const retry = await b.request(
      "POST",
      `/console/g/${g}/items/requests/${body.transactionId}/retry`,
      { _csrf: b.csrfOf(page.text) },
    );
    assert.equal(retry.status, 303);
    await services.idle();
    const after = await b.request("GET", `/console/g/${g}/items?status=DELIVERED`);
    assert.match(after.text, new RegExp(String(body.transactionId)));
    assert.match(after.text, /is due again; delivery has started/);

    // Issue and revoke a key, rotate a secret: each is logged, no secret value in any line.
    const keys = await b.request("GET", `/console/g/${g}/keys`);
    const issued = await b.request("POST", `/console/g/${g}/keys`, {
      _csrf: b.csrfOf(keys.text),
      scope_otp: "1",
    });
    const apiKey = /<code id="secret-0">([^<]+)</.exec(issued.text)![1];
    const keyId = /API key (key_[\w-]+) issued/.exec(issued.text)![1];
    const revoked = await b.request("POST", `/console/g/${g}/keys/${keyId}/revoke`, {
      _csrf: b.csrfOf(keys.text),
    });
    assert.equal(revoked.status, 303);
    const rotated = await b.request("POST", `/console/g/${g}/apps/${f.tenant.appid}/rotate`, {
      _csrf: b.csrfOf(keys.text),
    });
    const newSecret = /Client secret:<\/span><code id="secret-1">([^<]+)</.exec(rotated.text)![1];
    const actions = lines.filter((l) => l.msg === "console action").map((l) => l.fields.action);
    for (const a of ["signed in", "retried item request", "issued API key", "revoked API key"]) {
      assert.ok(actions.includes(a), `${a} logged: ${actions.join(", ")}`);
    }
    assert.ok(actions.includes("rotated app secret"));
    const text = JSON.stringify(lines);
    for (const secret of [apiKey, newSecret, ADMIN_TOKEN, f.vendorWord]) {
      assert.ok(!text.includes(secret), "no secret value is logged");
    }
  } finally {
    services.log = log;
  }
});

Deno.test("console: a project's lowest counted severity and intensifier choice, created and edited", async () => {
  const b = new Browser();
  await b.signIn();
  const t = await seedTenant("console severity");
  const list = await b.request("GET", `/console/g/${t.gameIndex}/moderation`);
  assert.match(list.text, /name="minSeverity"/);
  const created = await b.request("POST", `/console/g/${t.gameIndex}/moderation`, {
    _csrf: b.csrfOf(list.text),
    name: "strict",
    forbiddenWords: "noob",
    allowWords: "",
    minSeverity: "3",
    countIntensifiers: "1",
    masking: "1",
    maskChar: "*",
  });
  assert.equal(created.status, 200, created.text);
  const projects = await admin("GET", `/admin/v1/games/${t.gameIndex}/tads/projects`);
  const key = projects.body.items[0].projectKey as string;
  assert.equal(projects.body.items[0].minSeverity, 3);
  assert.equal(projects.body.items[0].countIntensifiers, true);
  const page = await b.request("GET", `/console/g/${t.gameIndex}/moderation/${key}`);
  assert.match(page.text, /counts severity 3 and up, intensifiers counted/);
  assert.match(page.text, /<option value="3" selected/);
  const saved = await b.request("POST", `/console/g/${t.gameIndex}/moderation/${key}/words`, {
    _csrf: b.csrfOf(page.text),
    forbiddenWords: "noob",
    allowWords: "",
    minSeverity: "2",
  });
  assert.equal(saved.status, 303, saved.text);
  const after = await b.request("GET", `/console/g/${t.gameIndex}/moderation/${key}`);
  assert.match(after.text, /counts severity 2 and up, intensifiers not counted/);
  const refused = await b.request("POST", `/console/g/${t.gameIndex}/moderation/${key}/words`, {
    _csrf: b.csrfOf(after.text),
    forbiddenWords: "noob",
    minSeverity: "9",
  });
  assert.equal(refused.status, 400);
  assert.match(refused.text, /minSeverity/);
});
