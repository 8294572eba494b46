/**
 * The web console at /console: server-rendered pages (hono/jsx) over the admin API, with every
 * asset served here. Signing in takes the admin token; every form carries a CSRF token.
 */
import { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { CONSOLE_CSS, CONSOLE_JS } from "./assets.ts";
import { type ConsoleEnv, requireSession } from "./session.ts";
import type { RootApp } from "./api.ts";
import { registerSignIn } from "./pages/sign_in.tsx";
import { registerGamePages } from "./pages/games.tsx";
import { registerOverview } from "./pages/overview.tsx";
import { registerKeyPages } from "./pages/keys.tsx";
import { registerModerationPages } from "./pages/moderation.tsx";
import { registerItemPages } from "./pages/items.tsx";
import { registerCpaPages } from "./pages/cpa.tsx";
import { registerBlockchainPages } from "./pages/blockchain.tsx";
import { registerOtpPages } from "./pages/otp.tsx";
import { registerPushPages } from "./pages/push.tsx";
import { registerWebhookPages } from "./pages/webhooks.tsx";

const ASSET_HEADERS = {
  "cache-control": "public, max-age=3600",
  "x-content-type-options": "nosniff",
};

/** Builds the console sub-app; `root` is the whole application (the console calls its API). */
export function consoleRoutes(root: RootApp): Hono<AppEnv> {
  const app = new Hono<ConsoleEnv>();
  app.get("/", (c) => c.redirect("/console", 302));
  app.get(
    "/console/assets/console.css",
    (c) =>
      c.body(CONSOLE_CSS, 200, { ...ASSET_HEADERS, "content-type": "text/css; charset=utf-8" }),
  );
  app.get("/console/assets/console.js", (c) =>
    c.body(CONSOLE_JS, 200, {
      ...ASSET_HEADERS,
      "content-type": "text/javascript; charset=utf-8",
    }));
  app.use("/console/*", async (c, next) => {
    await next();
    // Pages are never framed, never cached, and load only what the app serves.
    c.res.headers.set(
      "content-security-policy",
      "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
    );
    c.res.headers.set("x-frame-options", "DENY");
    c.res.headers.set("referrer-policy", "same-origin");
    if (!c.res.headers.has("cache-control")) c.res.headers.set("cache-control", "no-store");
  });
  registerSignIn(app);
  app.use("*", async (c, next) => {
    const p = c.req.path;
    const open = p === "/console/sign-in" || p === "/console/sign-out" ||
      p.startsWith("/console/assets/");
    if (open || !(p === "/console" || p.startsWith("/console/"))) return await next();
    return await requireSession(c, next);
  });
  registerGamePages(app, root);
  registerOverview(app, root);
  registerKeyPages(app, root);
  registerModerationPages(app, root);
  registerItemPages(app, root);
  registerCpaPages(app, root);
  registerBlockchainPages(app, root);
  registerOtpPages(app, root);
  registerPushPages(app, root);
  registerWebhookPages(app, root);
  return app as unknown as Hono<AppEnv>;
}
