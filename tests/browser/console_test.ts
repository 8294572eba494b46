/**
 * The console in Debian's Chromium: each flow of a studio's day, each with its own game, and a
 * screenshot of every page (see README "Console screenshots").
 */
import assert from "node:assert/strict";
import { admin, ADMIN_TOKEN, callJson, seedTenant, testEnv } from "../harness.ts";
import { startGameServer } from "../../dev/game_server.ts";
import { rig, RIG_TEST, shoot, signedIn, signIn } from "./browser.ts";

function isoDay(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

Deno.test({ name: "a wrong admin token is refused", ...RIG_TEST }, async () => {
  const r = await rig();
  const context = await r.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signIn(page, r.baseUrl, "wrong-token");
  await page.getByText("That admin token is not right.").waitFor();
  assert.ok(page.url().endsWith("/console/sign-in"));
  assert.deepEqual((await context.cookies()).filter((c) => c.name === "gp_console"), []);
  await shoot(page, "01-sign-in-refused");
  await context.close();
});

Deno.test({
  name: "sign in: HttpOnly SameSite=Strict session with expiry; sign out ends it",
  ...RIG_TEST,
}, async () => {
  const { context, page, base } = await signedIn();
  await page.getByRole("heading", { name: "Games" }).waitFor();
  const session = (await context.cookies()).find((c) => c.name === "gp_console")!;
  assert.equal(session.httpOnly, true);
  assert.equal(session.sameSite, "Strict");
  assert.ok(session.expires > Date.now() / 1000 && session.expires < Date.now() / 1000 + 9 * 3600);
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.getByLabel("Admin token").waitFor();
  // The old cookie is revoked on the server, not only deleted in the browser.
  await context.addCookies([session]);
  await page.goto(`${base}/console/games`);
  assert.ok(page.url().includes("/console/sign-in"));
  await context.close();
});

Deno.test(
  { name: "create a game and an app: the secret is shown once and works", ...RIG_TEST },
  async () => {
    const { context, page, base } = await signedIn();
    await shoot(page, "02-games");
    const name = `Browser Quest ${crypto.randomUUID().slice(0, 4)}`;
    await page.getByLabel("Game name").fill(name);
    await page.getByRole("button", { name: "Register game" }).click();
    await page.getByText(`Game ${name} registered`).waitFor();
    const game = Number(/\/console\/g\/(\d+)\/apps/.exec(page.url())![1]);
    await page.getByLabel("App id").fill(`com.browser.quest.${game}`);
    await page.getByRole("button", { name: "Register app" }).click();
    const clientId = (await page.locator("#secret-0").textContent())!.trim();
    const secret = (await page.locator("#secret-1").textContent())!.trim();
    assert.ok(secret.length >= 32);
    assert.equal(await page.getByRole("button", { name: "Copy" }).count(), 2);
    await shoot(page, "03-app-secret-once");
    const login = await callJson("POST", "/v2/auth-token", {
      json: { clientId, clientSecret: secret },
    });
    assert.equal(login.body.code, 0, "the shown credentials work");
    await page.goto(`${base}/console/g/${game}/apps`);
    assert.equal(await page.locator("#secret-1").count(), 0, "not shown again");
    assert.ok(!(await page.content()).includes(secret));
    await shoot(page, "04-apps");
    await context.close();
  },
);

Deno.test(
  { name: "issue an API key: shown once, listed with its scopes", ...RIG_TEST },
  async () => {
    const t = await seedTenant("keys game");
    const { context, page, base } = await signedIn();
    await page.goto(`${base}/console/g/${t.gameIndex}/keys`);
    for (const scope of ["push", "items"]) await page.getByLabel(scope, { exact: true }).check();
    await page.getByRole("button", { name: "Issue API key" }).click();
    const apiKey = (await page.locator("#secret-0").textContent())!.trim();
    assert.match(apiKey, /^ey/);
    await shoot(page, "05-api-key-once");
    await page.goto(`${base}/console/g/${t.gameIndex}/keys`);
    await page.getByRole("cell", { name: "push, items" }).waitFor();
    assert.ok(!(await page.content()).includes(apiKey));
    await shoot(page, "06-keys");
    await context.close();
  },
);

Deno.test(
  { name: "tads project: upload words, type a text, see it masked live", ...RIG_TEST },
  async () => {
    const t = await seedTenant("moderation game");
    const { context, page, base, errors } = await signedIn();
    await page.goto(`${base}/console/g/${t.gameIndex}/moderation`);
    await page.getByLabel("Project name").fill("Chat filter");
    await page.getByLabel("Forbidden words").fill("darn\nheck");
    await page.getByLabel("Allowed words").fill("checkers");
    await page.getByRole("button", { name: "Create project" }).click();
    await page.getByText("Project created").waitFor();
    await shoot(page, "07-project-secret-once");
    await page.getByRole("link", { name: "Chat filter" }).click();
    await page.getByLabel(/Forbidden words/).fill("darn\nheck\nblast");
    await page.getByRole("button", { name: "Save word lists" }).click();
    await page.getByText("Saved: version 2, 3 forbidden").waitFor();
    await page.getByText(/version 2 · changed .* by console session [\w-]{8}/).waitFor();
    // The live box updates as the text is typed (no submit).
    await page.getByLabel("Text to test").pressSequentially("oh blast, checkers again", {
      delay: 5,
    });
    await page.locator("[data-masked]").filter({ hasText: "oh *****, checkers again" }).waitFor();
    assert.equal(await page.locator("[data-highlighted] mark").textContent(), "blast");
    await shoot(page, "08-moderation-project");
    await page.goto(`${base}/console/g/${t.gameIndex}/moderation`);
    await shoot(page, "09-moderation");
    assert.deepEqual(errors, []);
    await context.close();
  },
);

Deno.test({
  name: "items: endpoint healthy against the game server; an item request DELIVERED",
  ...RIG_TEST,
}, async () => {
  const { services } = await testEnv();
  const t = await seedTenant("items game");
  const vendorWord = `vw-${crypto.randomUUID().slice(0, 8)}`;
  const gameServer = await startGameServer({ vendorWord, httpPort: 0, tcpPort: 0 });
  const { context, page, base } = await signedIn();
  try {
    await page.goto(`${base}/console/g/${t.gameIndex}/items`);
    await shoot(page, "10-items-empty");
    await page.getByLabel("URL (HTTP)").fill(gameServer.url);
    await page.getByLabel("Vendor word").fill(vendorWord);
    await page.getByRole("button", { name: "Register endpoint" }).click();
    await page.getByText("Endpoint saved; first probe: healthy.").waitFor();
    await page.locator(".panel .badge", { hasText: "healthy" }).first().waitFor();
    assert.ok(!(await page.content()).includes(vendorWord), "the vendor word is never shown");

    await page.getByLabel("Player id").fill("hero-1");
    await page.getByLabel("Server id").fill("s1");
    await page.getByLabel("Item code").fill("gold");
    await page.getByLabel("Amount").fill("250");
    await page.getByRole("button", { name: "Send" }).click();
    await page.getByText(/Request \w+ registered/).waitFor();
    await services.idle();
    await page.goto(`${base}/console/g/${t.gameIndex}/items?status=DELIVERED`);
    await page.getByRole("cell", { name: "gold × 250" }).waitFor();
    await page.locator("td .badge", { hasText: "DELIVERED" }).first().waitFor();
    assert.deepEqual(gameServer.store.itemsOf("vid", "hero-1"), { gold: 250 });
    await page.goto(`${base}/console/g/${t.gameIndex}/items`);
    await shoot(page, "11-items");
  } finally {
    await context.close();
    await services.idle();
    await gameServer.stop();
  }
});

Deno.test({ name: "push: a campaign's tasks drawn per time zone", ...RIG_TEST }, async () => {
  const t = await seedTenant("push game");
  const { apiKey } = await t.apiKey(["push"]);
  const campaign = await callJson("POST", "/push/campaigns", {
    headers: { authorization: `Bearer ${apiKey}` },
    json: {
      company: "com2us",
      companyIndex: 7,
      description: "Weekend event",
      notice: false,
      type: "B",
      registrant: { id: "op-1", name: "Operator" },
      reservation: {
        localizing: true,
        startDate: isoDay(3),
        endDate: isoDay(3),
        time: "10:00",
        repeat: false,
      },
      distribution: { enable: true, interval: 30, count: 3 },
      continents: [],
      countries: ["KR", "US", "GB"],
      game: { gameindex: t.gameIndex, apps: [{ appindex: 1, appid: t.appid }] },
      defaultLanguage: "en",
      notification: {
        en: { android: { title: "Hi", message: "Event" }, ios: { title: "Hi", message: "Event" } },
      },
    },
  });
  assert.ok(campaign.status < 300, JSON.stringify(campaign.body));
  const { context, page, base } = await signedIn();
  await page.goto(`${base}/console/g/${t.gameIndex}/push`);
  await shoot(page, "12-push");
  await page.getByRole("link", { name: /Weekend event/ }).click();
  await page.getByRole("heading", { name: "Sendings per time zone" }).waitFor();
  const rows = page.locator(".tl-row");
  assert.ok((await rows.count()) >= 3, "one row per zone group (KR, US zones, GB)");
  await page.locator(".tl-row", { hasText: "Asia/Seoul" }).waitFor();
  await page.locator(".tl-row", { hasText: "Europe/London" }).waitFor();
  assert.equal(await rows.first().locator("rect.tl-mark").count(), 3, "three slices per task");
  await shoot(page, "13-push-campaign");
  await context.close();
});

Deno.test({ name: "a form posted without the CSRF token is refused", ...RIG_TEST }, async () => {
  const { context, page, base } = await signedIn();
  await page.goto(`${base}/console/games`);
  await page.evaluate(() => {
    document.querySelectorAll("input[name=_csrf]").forEach((e) => e.remove());
  });
  const name = `No CSRF ${crypto.randomUUID().slice(0, 6)}`;
  await page.getByLabel("Game name").fill(name);
  await page.getByRole("button", { name: "Register game" }).click();
  await page.getByText(/missing or wrong CSRF token/).waitFor();
  await shoot(page, "14-csrf-refused");
  const list = await admin("GET", `/admin/v1/games?name=${encodeURIComponent(name)}`);
  assert.deepEqual(list.body.items, [], "nothing was created");
  await context.close();
});

Deno.test({
  name: "every page renders, every input is labelled, the keyboard reaches content",
  ...RIG_TEST,
}, async () => {
  const t = await seedTenant("tour game");
  const { context, page, base, errors } = await signedIn();
  for (
    const [name, path] of [
      ["15-overview", ""],
      ["16-cpa", "/cpa"],
      ["17-blockchain", "/blockchain"],
      ["18-otp", "/otp"],
      ["19-keys-empty", "/keys"],
      ["20-moderation-empty", "/moderation"],
    ]
  ) {
    const res = await page.goto(`${base}/console/g/${t.gameIndex}${path}`);
    assert.equal(res?.status(), 200, path);
    const unlabelled = await page.evaluate(() =>
      [...document.querySelectorAll("input:not([type=hidden]), select, textarea")]
        .filter((el) => !(el as HTMLInputElement).labels?.length)
        .map((el) => el.outerHTML)
    );
    assert.deepEqual(unlabelled, [], path);
    await shoot(page, name);
  }
  await page.goto(`${base}/console/g/${t.gameIndex}`);
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Skip to content");
  await page.keyboard.press("Enter");
  assert.ok(page.url().endsWith("#main"));
  assert.deepEqual(errors, []);
  await context.close();
});

Deno.test({ name: "phone width: pages do not scroll sideways", ...RIG_TEST }, async () => {
  const t = await seedTenant("phone game");
  const { context, page, base } = await signedIn(390);
  for (
    const [name, path] of [
      ["21-phone-overview", ""],
      ["22-phone-items", "/items"],
      ["23-phone-moderation", "/moderation"],
      ["24-phone-push", "/push"],
    ]
  ) {
    await page.goto(`${base}/console/g/${t.gameIndex}${path}`);
    const overflow = await page.evaluate(() =>
      document.documentElement.scrollWidth - document.documentElement.clientWidth
    );
    assert.ok(overflow <= 1, `${path} scrolls sideways by ${overflow}px`);
    await shoot(page, name);
  }
  await context.close();
});

Deno.test({ name: "the admin token never appears in a page", ...RIG_TEST }, async () => {
  const { context, page, base } = await signedIn();
  await page.goto(`${base}/console/games`);
  assert.ok(!(await page.content()).includes(ADMIN_TOKEN));
  await context.close();
});
