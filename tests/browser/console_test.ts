/**
 * The console in Debian's Chromium: each flow of a studio's day, each with its own game, and a
 * screenshot of every page (see README "Console screenshots").
 */
import assert from "node:assert/strict";
import { Webhook } from "standardwebhooks";
import type { Page } from "playwright-core";
import { admin, ADMIN_TOKEN, callJson, rememberSecret, seedTenant, testEnv } from "../harness.ts";
import { seedChainTxs } from "../seed_rows.ts";
import { startGameServer } from "../../dev/game_server.ts";
import { dueCallback, receiver } from "../routes/observability/webhook_fixture.ts";
import {
  noCellOverflow,
  noSidewaysScroll,
  overflowingCells,
  rig,
  RIG_TEST,
  shoot,
  signedIn,
  signIn,
} from "./browser.ts";

function isoDay(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

/** A push campaign of the tenant's app: three slices per zone, three days from now, KR/US/GB. */
function weekendCampaign(t: { gameIndex: number; appid: string }) {
  return {
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
  };
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
  {
    name: "create a game: its webhook secret shown once verifies a callback; an app's secret works",
    ...RIG_TEST,
  },
  async () => {
    const { context, page, base } = await signedIn();
    await shoot(page, "02-games");
    const name = `Browser Quest ${crypto.randomUUID().slice(0, 4)}`;
    await page.getByLabel("Game name").fill(name);
    await page.getByRole("button", { name: "Register game" }).click();
    const registered = page.getByText(new RegExp(`Game ${name} registered \\(#\\d+\\)`));
    await registered.waitFor();
    const game = Number(/#(\d+)/.exec((await registered.textContent())!)![1]);
    const webhookSecret = (await page.locator("#secret-0").textContent())!.trim();
    rememberSecret(webhookSecret);
    assert.match(webhookSecret, /^whsec_/);
    await shoot(page, "03-game-webhook-secret-once");
    // The game's first callback verifies with the secret the page showed.
    const appid = `com.browser.quest.${game}`;
    await page.getByLabel("App id").fill(appid);
    await page.getByRole("button", { name: "Register app" }).click();
    const clientId = (await page.locator("#secret-0").textContent())!.trim();
    const secret = (await page.locator("#secret-1").textContent())!.trim();
    assert.ok(secret.length >= 32);
    assert.equal(await page.getByRole("button", { name: "Copy" }).count(), 2);
    await shoot(page, "03b-app-secret-once");
    const login = await callJson("POST", "/v2/auth-token", {
      json: { clientId, clientSecret: secret },
    });
    assert.equal(login.body.code, 0, "the shown credentials work");
    await using sink = receiver();
    await dueCallback(game, appid, sink.url);
    assert.equal(sink.got.length, 1);
    new Webhook(webhookSecret).verify(sink.got[0].raw, sink.got[0].headers);
    await page.goto(`${base}/console/g/${game}/apps`);
    assert.equal(await page.locator("#secret-1").count(), 0, "not shown again");
    const html = await page.content();
    assert.ok(!html.includes(secret) && !html.includes(webhookSecret));
    await page.goto(`${base}/console/g/${game}/webhooks`);
    assert.ok(!(await page.content()).includes(webhookSecret), "not on the webhooks page either");
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
    await page.getByLabel("URL", { exact: true }).fill(gameServer.url);
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
    json: weekendCampaign(t),
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
    // Shot first, so that a failing page's screenshot shows what went wrong.
    await shoot(page, name);
    await noCellOverflow(page);
  }
  // The empty multi-signature list says how to make one, naming an endpoint that exists.
  await page.goto(`${base}/console/g/${t.gameIndex}/blockchain`);
  const multisig = await page.locator("#multisig-list").textContent();
  assert.match(multisig ?? "", /POST \/core\/v1\/multisig/);
  assert.ok(
    !(multisig ?? "").includes("/admin/v1/multisig"),
    "names no endpoint that does not exist",
  );
  await page.goto(`${base}/console/g/${t.gameIndex}`);
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Skip to content");
  await page.keyboard.press("Enter");
  // The fragment navigation lands after the key press returns.
  await page.waitForURL(/#main$/, { timeout: 5000 });
  assert.deepEqual(errors, []);
  await context.close();
});

/** A game with something in every list, so each page is shown with content. */
/** Asserts an admin call created what it was asked to (201); returns it. */
// deno-lint-ignore no-explicit-any
function created<T extends { status: number; body: any }>(res: T): T {
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res;
}

async function busyGame() {
  const { services } = await testEnv();
  const t = await seedTenant("A game with a rather long name to wrap on a phone");
  const { apiKey } = await t.apiKey(["push"]);
  const named = await admin("POST", `/admin/v1/games/${t.gameIndex}/api-keys`, {
    scopes: ["items", "otp"],
    name: "game server eu-1",
  });
  created(named);
  created(await admin("POST", `/admin/v1/games/${t.gameIndex}/chat-keys`, {}));
  const project = created(
    await admin("POST", "/admin/v1/tads/projects", {
      name: "Chat words",
      gameIndex: t.gameIndex,
      forbiddenWords: ["darn"],
      masking: { enabled: true },
    }),
  );
  created(
    await admin("POST", `/admin/v1/games/${t.gameIndex}/cpa`, {
      appid: t.appid,
      cpaCode: "tutorial-done",
      subReason: "6",
      detail: [{ action: "send", assetCode: "gold", amount: 100 }],
    }),
  );
  created(
    await admin("POST", `/admin/v1/games/${t.gameIndex}/otp-topics`, {
      topic: "signup",
      serviceName: "Hero Quest",
      mode: "provider",
    }),
  );
  created(await admin("POST", "/admin/v1/wallets", { gameIndex: t.gameIndex }));
  const owners = [0, 1, 2].map((i) => `0x${String(i + 1).repeat(40)}`);
  await services.db.query(
    `insert into multisig_wallets (chain_id, address, network, game_index, owners, threshold,
       salt_nonce, creator, singleton, proxy_factory, fallback_handler, created_at)
     values (137, $1, 'polygon', $2, $3::jsonb, 2, '0', $4, $4, $4, $4, now())`,
    [
      `0x${crypto.randomUUID().replaceAll("-", "").slice(0, 32)}${"ab".repeat(4)}`,
      t.gameIndex,
      JSON.stringify(owners),
      owners[0],
    ],
  );
  // Ten transactions, one of them PENDING (with its cancel button).
  await seedChainTxs(services.db, { appid: t.appid, gameIndex: t.gameIndex, rows: 10 });
  await services.db.query(
    `insert into item_requests (game_index, transaction_id, body, body_hash, source, status,
       attempts, last_code, last_message, next_attempt_at, created_at, updated_at)
     values ($1, 'tx-phone-0000000000000000000001', $2, 'h', 'api', 'FAILED', 3, 500,
       'a long answer from the game server that goes on and on', now(), now(), now())`,
    [
      t.gameIndex,
      JSON.stringify({
        idCategory: "vid",
        id: "hero-with-a-long-id-000000001",
        detail: [{ assetCode: "legendary-sword-of-the-north", amount: 1 }],
      }),
    ],
  );
  const device = await callJson("POST", "/push/v1/devices", {
    json: {
      appid: t.appid,
      token: `tok-${crypto.randomUUID()}`,
      platform: "android",
      country: "KR",
    },
    headers: { authorization: `Bearer ${apiKey}` },
  });
  assert.ok(device.status < 300, JSON.stringify(device.body));
  const campaign = await callJson("POST", "/push/campaigns", {
    headers: { authorization: `Bearer ${apiKey}` },
    json: weekendCampaign(t),
  });
  assert.ok(campaign.status < 300, JSON.stringify(campaign.body));
  const campaigns = await admin("GET", `/admin/v1/games/${t.gameIndex}/push/campaigns`);
  return {
    t,
    projectKey: project.body.projectKey as string,
    campaignId: campaigns.body.items[0].id,
  };
}

/**
 * Opens every console page of a new busy game at a width, each answering 200 with no sideways
 * scroll, shot as `<n>-<prefix>-<page>`; asserts at the end that no table cell of any of them
 * overflows (all pages listed at once). `check` adds assertions per page.
 */
async function everyPage(
  width: number,
  shots: { numbers: string; prefix: string },
  check: (page: Page, path: string) => Promise<void> = async () => {},
) {
  const busy = await busyGame();
  const g = `/console/g/${busy.t.gameIndex}`;
  const pages: [string, string][] = [
    ["1", "games", "/console/games"],
    ["2", "overview", g],
    ["3", "apps", `${g}/apps`],
    ["4", "keys", `${g}/keys`],
    ["5", "webhooks", `${g}/webhooks`],
    ["6", "moderation", `${g}/moderation`],
    ["7", "project", `${g}/moderation/${busy.projectKey}`],
    ["8", "items", `${g}/items`],
    ["9", "cpa", `${g}/cpa`],
    ["9b", "blockchain", `${g}/blockchain`],
    ["9c", "otp", `${g}/otp`],
    ["9d", "push", `${g}/push`],
    ["9e", "campaign", `${g}/push/${busy.campaignId}`],
  ].map(([n, name, path]) => [`${shots.numbers}${n}-${shots.prefix}-${name}`, path]);
  const { context, page, base, errors } = await signedIn(width);
  const overflows: Record<string, string[]> = {};
  for (const [name, path] of pages) {
    const res = await page.goto(`${base}${path}`);
    assert.equal(res?.status(), 200, path);
    await shoot(page, name);
    await noSidewaysScroll(page);
    const cells = await overflowingCells(page);
    if (cells.length) overflows[path] = cells;
    await check(page, path);
  }
  assert.deepEqual(overflows, {}, "cells whose content overflows them, per page");
  assert.deepEqual(errors, []);
  await context.close();
}

Deno.test({
  name: "phone width: every console page, with content, has no sideways scroll or cell overflow",
  ...RIG_TEST,
}, async () => {
  await everyPage(390, { numbers: "2", prefix: "phone" }, async (page, path) => {
    // The header's switcher and its button stay inside the screen.
    const open = await page.locator("header.top").getByRole("button", { name: "Open" })
      .boundingBox();
    assert.ok(open && open.x >= 0 && open.x + open.width <= 390, `${path}: Open at ${open?.x}`);
  });
});

Deno.test({
  name: "desktop width: no table cell of any console page, with content, overflows its cell",
  ...RIG_TEST,
}, async () => {
  await everyPage(1280, { numbers: "4", prefix: "desktop" });
});

Deno.test({
  name: "pages read as a product: names, wording, times in the viewer's zone, reasons, wallets",
  ...RIG_TEST,
}, async () => {
  const { t } = await busyGame();
  const { context, page, base, errors } = await signedIn(1280, {
    timezoneId: "Asia/Seoul",
    locale: "en-US",
  });
  const g = `${base}/console/g/${t.gameIndex}`;
  try {
    await page.goto(g);
    // The game's name, not "GAME #n"; "1 app", not "1 apps".
    await page.locator("nav.side h2", { hasText: "A game with a rather long name" }).waitFor();
    assert.equal(await page.locator(".card .l").first().textContent(), "app");
    // Local time (Seoul) beside UTC, and how long ago.
    const registered = page.locator(".sub time[data-when]");
    await registered.locator(".when-local").waitFor();
    assert.match(
      await registered.textContent() ?? "",
      /GMT\+9 · \d{4}-\d\d-\d\d \d\d:\d\d UTC · (now|\d+ (seconds?|minutes?) ago)/,
    );

    await page.goto(`${g}/keys`);
    await page.getByRole("cell", { name: "game server eu-1" }).waitFor();
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.locator("tr", { hasText: "game server eu-1" }).getByRole("button", {
      name: "Revoke",
    })
      .click();
    assert.match(
      dialogs[0],
      /^Revoke “game server eu-1” \(key_[\w-]+\)\? Every call made with it \(items, otp\) is refused from now on, and a revoked key cannot be restored\.$/,
    );
    await page.getByRole("cell", { name: "game server eu-1" }).waitFor(); // dismissed: still there
    await page.getByLabel("Name (optional)").fill("ci deploys");
    await page.getByLabel("cpa", { exact: true }).check();
    await page.getByRole("button", { name: "Issue API key" }).click();
    await page.getByText(/API key “ci deploys” key_[\w-]+ issued \(cpa\)/).waitFor();
    rememberSecret((await page.locator("#secret-0").textContent())!.trim());
    await page.getByRole("cell", { name: "ci deploys" }).waitFor();

    await page.goto(`${g}/items`);
    // Only the chosen transport's fields; no TCP port pre-filled for HTTP.
    assert.ok(await page.getByLabel("URL", { exact: true }).isVisible());
    assert.ok(!(await page.getByLabel("Port", { exact: true }).isVisible()));
    await page.getByLabel("Transport").selectOption("tcp");
    assert.ok(await page.getByLabel("Port", { exact: true }).isVisible());
    assert.ok(!(await page.getByLabel("URL", { exact: true }).isVisible()));
    assert.equal(await page.getByLabel("Port", { exact: true }).inputValue(), "");
    await shoot(page, "35-items-tcp-fields");
    const reasons = await page.getByLabel("Reason").locator("option").allTextContents();
    assert.ok(reasons.includes("pe — payment error"), reasons.join("|"));
    assert.ok(reasons.includes("rr — retrieve: refund"));
    assert.equal(reasons.length, 27);

    await page.goto(`${g}/cpa`);
    await page.getByRole("cell", { name: "6 — CPA on offerwall" }).waitFor();

    await page.goto(`${g}/blockchain`);
    const wallet = (await admin("GET", `/admin/v1/wallets?gameIndex=${t.gameIndex}`)).body.items[0];
    const row = page.locator('table[aria-label="Wallets"] tbody tr').first();
    await row.getByText(wallet.address, { exact: true }).waitFor();
    await row.getByText(wallet.xplaAddress, { exact: true }).waitFor();
    await row.locator(".badge", { hasText: "held" }).waitFor();
    assert.equal(
      await page.locator('table[aria-label="Wallets"] th').allTextContents().then((h) =>
        h.join("|")
      ),
      "Addresses|Polygon|XPLA|Key|Created",
    );
    const safe = page.locator('table[aria-label="Multi-signature wallets"] tbody tr').first();
    await safe.getByRole("cell", { name: "2 of 3" }).waitFor();
    for (const n of ["1", "2", "3"]) await safe.getByText(`0x${n.repeat(40)}`).waitFor();
    await shoot(page, "36-blockchain-wallets");
    await noCellOverflow(page);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

Deno.test({
  name: "webhooks: the secret is revealed only after a confirmation; rotation names its grace",
  ...RIG_TEST,
}, async () => {
  const t = await seedTenant("webhook console game");
  const { context, page, base } = await signedIn();
  try {
    await page.goto(`${base}/console/g/${t.gameIndex}/webhooks`);
    assert.equal(await page.locator("#secret-0").count(), 0, "nothing shown before asking");
    let answer = false;
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void (answer ? d.accept() : d.dismiss());
    });
    await page.getByRole("button", { name: "Reveal secret" }).click();
    assert.match(dialogs[0], /Anyone who sees it can sign callbacks your servers will accept/);
    assert.equal(await page.locator("#secret-0").count(), 0, "declined: still hidden");
    answer = true;
    await page.getByRole("button", { name: "Reveal secret" }).click();
    const shown = (await page.locator("#secret-0").textContent())!.trim();
    const current = await admin("POST", `/admin/v1/games/${t.gameIndex}/webhook-secret/reveal`);
    assert.equal(shown, current.body.secret);
    await shoot(page, "37-webhooks-revealed");
    await page.getByRole("button", { name: "Rotate secret" }).click();
    assert.match(
      dialogs.at(-1)!,
      /keeps signing next to the new one for 24 hours; after that, receivers still verifying with it reject every callback/,
    );
    const rotated = (await page.locator("#secret-0").textContent())!.trim();
    rememberSecret(rotated);
    assert.notEqual(rotated, shown);
    await page.getByText(/The previous secret also signs until/).first().waitFor();
    await shoot(page, "38-webhooks-rotated");
  } finally {
    await context.close();
  }
});

Deno.test({ name: "the admin token never appears in a page", ...RIG_TEST }, async () => {
  const { context, page, base } = await signedIn();
  await page.goto(`${base}/console/games`);
  assert.ok(!(await page.content()).includes(ADMIN_TOKEN));
  await context.close();
});
