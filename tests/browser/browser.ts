/**
 * Browser tier plumbing: the app served on loopback (the harness's services), Debian's Chromium
 * driven by playwright-core (never a downloaded browser), and screenshots saved under
 * CONSOLE_SCREENSHOTS (default test-artifacts/console).
 */
import assert from "node:assert/strict";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { ADMIN_TOKEN, testEnv } from "../harness.ts";

/** Where screenshots go. */
export const SCREENSHOT_DIR = Deno.env.get("CONSOLE_SCREENSHOTS") ?? "test-artifacts/console";

/** Chromium's flags: headless, no sandbox (CI containers), and nothing that reaches the network. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** A served app and a browser. */
export interface BrowserRig {
  baseUrl: string;
  browser: Browser;
  close(): Promise<void>;
}

/** Serves the test app on a free loopback port and launches Chromium. */
export async function startRig(): Promise<BrowserRig> {
  const env = await testEnv();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (req) => env.app.fetch(req),
  );
  const browser = await chromium.launch({
    executablePath: Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
  });
  await Deno.mkdir(SCREENSHOT_DIR, { recursive: true });
  return {
    baseUrl: `http://127.0.0.1:${server.addr.port}`,
    browser,
    async close() {
      await browser.close();
      await env.services.idle();
      await server.shutdown();
    },
  };
}

/** Saves a screenshot as `<name>.png`: the full page unless `fullPage` is false (the viewport). */
export async function shoot(page: Page, name: string, fullPage = true) {
  await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}.png`, fullPage });
}

/** Asserts that the page open now does not scroll sideways (a table may scroll in its box). */
export async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() =>
    document.documentElement.scrollWidth - document.documentElement.clientWidth
  );
  assert.ok(overflow <= 1, `${page.url()} scrolls sideways by ${overflow}px`);
}

/**
 * The table cells of the page open now whose content is wider than the cell (a long address or
 * word running over into the next column), described: each visible cell's scrollWidth, which
 * counts what sticks out, against its clientWidth.
 */
export function overflowingCells(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll("td, th")].flatMap((cell) => {
      const el = cell as HTMLElement;
      const over = el.scrollWidth - el.clientWidth;
      if (over <= 1 || el.getClientRects().length === 0) return [];
      const table = el.closest("table");
      const column = (table?.querySelectorAll("th")[(el as HTMLTableCellElement).cellIndex]
        ?.textContent ?? "").trim();
      const where = `${table?.getAttribute("aria-label") ?? "table"} / ${column || "?"}`;
      return [`${where}: "${el.textContent?.trim().slice(0, 60)}" sticks out by ${over}px`];
    })
  );
}

/** Asserts that no table cell of the page open now overflows its cell (see overflowingCells). */
export async function noCellOverflow(page: Page) {
  assert.deepEqual(await overflowingCells(page), [], `${page.url()}: a cell's content overflows`);
}

let shared: Promise<BrowserRig> | undefined;

/** The process-wide rig (one server and one Chromium for every browser test of the process). */
export function rig(): Promise<BrowserRig> {
  shared ??= startRig().then((r) => {
    // Chromium and the server go when the test process ends.
    globalThis.addEventListener("unload", () => void r.close());
    return r;
  });
  return shared;
}

/** Options every browser test passes to Deno.test (the rig outlives a single test). */
export const RIG_TEST = { sanitizeResources: false, sanitizeOps: false } as const;

/** Signs a page in through the sign-in form. */
export async function signIn(page: Page, baseUrl: string, token = ADMIN_TOKEN) {
  await page.goto(`${baseUrl}/console`);
  await page.getByLabel("Admin token").fill(token);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForLoadState("load");
}

/**
 * A new browser context (1280 px wide unless given; the viewer's time zone and locale may be
 * given too), signed in, with script errors collected.
 */
export async function signedIn(
  width = 1280,
  viewer: { timezoneId?: string; locale?: string } = {},
): Promise<{ context: BrowserContext; page: Page; base: string; errors: string[] }> {
  const r = await rig();
  const context = await r.browser.newContext({ viewport: { width, height: 900 }, ...viewer });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await signIn(page, r.baseUrl);
  return { context, page, base: r.baseUrl, errors };
}
