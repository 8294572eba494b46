/**
 * Paging in the console at phone width (390 px): 305 rows of the delivery log (with a filter),
 * the games list (searched), API keys and devices are walked with the "Next page" links, every
 * row exactly once and in the admin API's order, and no page scrolls sideways.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { seedTenant, testEnv } from "../harness.ts";
import { noCellOverflow, noSidewaysScroll, RIG_TEST, shoot, signedIn } from "./browser.ts";

const ROWS = 305;
const PHONE = 390;

/**
 * Follows a list's "Next page" links from the page open now; returns the text of one column of
 * every row seen, page by page, checking each page for sideways scroll and cell overflow.
 */
async function walk(page: Page, table: string, column: number, shots: string): Promise<string[]> {
  const seen: string[] = [];
  for (let n = 1; n <= 20; n++) {
    await noSidewaysScroll(page);
    await noCellOverflow(page);
    const cells = await page.locator(`table[aria-label="${table}"] > tbody > tr`).evaluateAll(
      (rows, i) => rows.map((r) => r.querySelectorAll("td")[i]?.textContent?.trim() ?? ""),
      column,
    );
    assert.ok(cells.length > 0, `${table}: page ${n} has rows`);
    seen.push(...cells);
    if (n <= 2) await shoot(page, `${shots}-page-${n}`, false);
    const next = page.getByRole("navigation", { name: `${table} pages` })
      .getByRole("link", { name: "Next page" });
    if (await next.count() === 0) return seen;
    const href = (await next.getAttribute("href"))!;
    await next.click();
    await page.waitForURL((url) => `${url.pathname}${url.search}` === href.split("#")[0]);
  }
  throw new Error(`${table}: more than 20 pages`);
}

function assertEveryRowOnce(seen: string[], expected: string[], what: string) {
  assert.equal(new Set(seen).size, seen.length, `${what}: a row is repeated`);
  assert.equal(seen.length, expected.length, `${what}: ${expected.length - seen.length} missing`);
  assert.deepEqual(seen, expected, `${what}: in the admin API's order`);
}

Deno.test({
  name: "delivery log: 305 FAILED requests walked with the status filter kept, no gap or repeat",
  ...RIG_TEST,
}, async () => {
  const { services } = await testEnv();
  const t = await seedTenant("paging items");
  // Pairs of rows share a creation time: the cursor's tie-breaker must keep both.
  await services.db.query(
    `insert into item_requests (game_index, transaction_id, body, body_hash, source, status,
       attempts, last_code, last_message, next_attempt_at, created_at, updated_at)
     select $1, 'tx-' || lpad(i::text, 4, '0'),
       json_build_object('idCategory', 'vid', 'id', 'p-' || i,
         'detail', json_build_array(json_build_object('assetCode', 'gold', 'amount', i)))::text,
       md5(i::text), 'api', case when i % 10 = 0 then 'DELIVERED' else 'FAILED' end,
       3, 500, 'game server error', now(),
       timestamptz '2026-03-01' + (i / 2) * interval '1 second', now()
     from generate_series(1, $2) i`,
    [t.gameIndex, Math.ceil(ROWS / 0.9)],
  );
  const expected = (await services.db.query<{ transaction_id: string }>(
    `select transaction_id from item_requests where game_index = $1 and status = 'FAILED'
      order by created_at desc, transaction_id desc`,
    [t.gameIndex],
  )).map((r) => r.transaction_id);
  assert.ok(expected.length >= ROWS, `${expected.length} FAILED rows seeded`);
  const { context, page, base } = await signedIn(PHONE);
  try {
    await page.goto(`${base}/console/g/${t.gameIndex}/items`);
    await page.getByLabel("Status").selectOption("FAILED");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/status=FAILED/);
    const seen = await walk(page, "Delivery log", 0, "30-phone-delivery-log");
    assertEveryRowOnce(seen, expected, "delivery log");
    assert.ok(!page.url().includes("undefined"), page.url());
    assert.match(page.url(), /status=FAILED/, "the filter is still applied on the last page");
    const badges = await page.locator('table[aria-label="Delivery log"] td .badge')
      .allTextContents();
    assert.ok(badges.every((b) => b === "FAILED"), "only FAILED rows");
    // Back to the first page keeps the filter too.
    await page.getByRole("link", { name: "First page" }).click();
    await page.waitForURL((url) =>
      !url.search.includes("cursor=") && url.search.includes("FAILED")
    );
  } finally {
    await context.close();
  }
});

Deno.test({
  name: "games: 305 games found by search and walked without gap or repeat; the switcher finds one",
  ...RIG_TEST,
}, async () => {
  const { services } = await testEnv();
  const tag = `Pager ${crypto.randomUUID().slice(0, 6)}`;
  const made = await services.db.query<{ game_index: number; name: string }>(
    `insert into games (name) select $1 || ' ' || lpad(i::text, 3, '0')
       from generate_series(1, $2) i order by i returning game_index, name`,
    [tag, ROWS],
  );
  const expected = made.sort((a, b) => b.game_index - a.game_index).map((g) => g.name);
  const { context, page, base } = await signedIn(PHONE);
  try {
    await page.goto(`${base}/console/games`);
    await page.getByLabel("Find a game").fill(tag);
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL(/name=/);
    const seen = await walk(page, "Games", 0, "31-phone-games");
    assertEveryRowOnce(seen, expected, "games");

    // The header's switcher: an index opens that game, a name its only match, else a search.
    const target = made.find((g) => g.name.endsWith(" 007"))!;
    const switcher = page.locator("#game-switch");
    await switcher.fill(`#${target.game_index}`);
    await switcher.press("Enter");
    await page.waitForURL(`${base}/console/g/${target.game_index}`);
    await page.locator("nav.side h2", { hasText: target.name }).waitFor();
    await noSidewaysScroll(page);
    await shoot(page, "32-phone-switched");
    await switcher.fill(made.find((g) => g.name.endsWith(" 123"))!.name);
    await switcher.press("Enter");
    await page.waitForURL(/\/console\/g\/\d+$/);
    await page.locator("nav.side h2", { hasText: " 123" }).waitFor();
    await switcher.fill(tag);
    await switcher.press("Enter");
    await page.waitForURL(/\/console\/games\?name=/);
    assert.equal(await page.getByLabel("Find a game").inputValue(), tag);
    assert.equal(await page.locator('table[aria-label="Games"] > tbody > tr').count(), 50);
  } finally {
    await context.close();
  }
});

Deno.test({
  name: "API keys: 305 keys walked without gap or repeat, in the list's own page parameter",
  ...RIG_TEST,
}, async () => {
  const { services } = await testEnv();
  const t = await seedTenant("paging keys");
  await services.db.query(
    `insert into api_keys (key_id, game_index, scopes, key_hash, name, created_at)
     select 'key_pg' || $1::text || lpad(i::text, 4, '0'), $1::int, '["items"]'::jsonb,
       md5(random()::text),
       'server ' || i, timestamptz '2026-03-01' + (i / 2) * interval '1 second'
     from generate_series(1, $2) i`,
    [t.gameIndex, ROWS],
  );
  const expected = (await services.db.query<{ key_id: string }>(
    "select key_id from api_keys where game_index = $1 order by created_at desc, key_id desc",
    [t.gameIndex],
  )).map((r) => r.key_id);
  const { context, page, base } = await signedIn(PHONE);
  try {
    await page.goto(`${base}/console/g/${t.gameIndex}/keys`);
    const seen = await walk(page, "API keys", 1, "33-phone-keys");
    assertEveryRowOnce(seen, expected, "API keys");
    assert.ok(page.url().includes("keys="), "the API key list pages in its own parameter");
  } finally {
    await context.close();
  }
});

Deno.test({
  name: "devices: 305 devices walked without gap or repeat, beside the other push lists",
  ...RIG_TEST,
}, async () => {
  const { services } = await testEnv();
  const t = await seedTenant("paging devices");
  await services.db.query(
    `insert into push_devices (game_index, appid, token, platform, player_id, country, zone,
       language, updated_at)
     select $1, $2, 'tok-' || md5(i::text), 'android', 100000 + i, 'KR', 'Asia/Seoul', 'ko',
       timestamptz '2026-03-01' + (i / 3) * interval '1 second'
     from generate_series(1, $3) i`,
    [t.gameIndex, t.appid, ROWS],
  );
  const expected = (await services.db.query<{ player_id: string }>(
    `select player_id::text from push_devices where game_index = $1
      order by updated_at desc, lpad(id::text, 20, '0') desc`,
    [t.gameIndex],
  )).map((r) => r.player_id);
  const { context, page, base } = await signedIn(PHONE);
  try {
    await page.goto(`${base}/console/g/${t.gameIndex}/push`);
    const seen = await walk(page, "Devices", 3, "34-phone-devices");
    assertEveryRowOnce(seen, expected, "devices");
  } finally {
    await context.close();
  }
});
