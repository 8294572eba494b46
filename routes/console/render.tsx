/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
/** Rendering helpers of console handlers: the page context, flash messages, action logging. */
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { Child } from "hono/jsx";
import type { ConsoleEnv } from "./session.ts";
import { type PageContext, Shell } from "./layout.tsx";
import { type ConsoleApi, consoleApi, type RootApp } from "./api.ts";

const FLASH_COOKIE = "gp_console_flash";

/** A console request's tools: the admin API client and page rendering. */
export interface Console {
  api: ConsoleApi;
  csrf: string;
  /** Renders a page inside the shell (status 200 unless given). */
  page(
    title: string,
    body: Child,
    options?: { gameIndex?: number; section?: string; status?: number; error?: string },
  ): Promise<Response>;
  /** Redirects with a message shown once on the next page. */
  redirect(to: string, message: string): Response;
  /** Logs who did what (never a secret value). */
  log(action: string, details?: Record<string, unknown>): void;
  form: Record<string, string>;
}

/** Builds the tools for one request. */
export function consoleOf(c: Context<ConsoleEnv>, root: RootApp): Console {
  const session = c.get("session");
  const actor = `console session ${session.sid.slice(0, 8)}`;
  // deno-lint-ignore no-explicit-any
  const api = consoleApi(c as any, root, actor);
  return {
    api,
    csrf: session.csrf,
    form: c.get("form") ?? {},
    async page(title, body, options = {}) {
      const games = await api.get("/admin/v1/games?limit=200");
      let flash: PageContext["flash"] = null;
      const raw = getCookie(c, FLASH_COOKIE);
      if (raw) {
        deleteCookie(c, FLASH_COOKIE, { path: "/console" });
        try {
          const parsed = JSON.parse(decodeURIComponent(raw));
          if (typeof parsed.text === "string") {
            flash = { kind: "ok", text: parsed.text.slice(0, 300) };
          }
        } catch { /* a damaged cookie shows nothing */ }
      }
      if (options.error) flash = { kind: "error", text: options.error };
      const ctx: PageContext = {
        csrf: session.csrf,
        games: games.items,
        gameIndex: options.gameIndex,
        section: options.section,
        flash,
      };
      return c.html(
        <Shell title={title} ctx={ctx}>{body}</Shell>,
        // deno-lint-ignore no-explicit-any
        (options.status ?? 200) as any,
      );
    },
    redirect(to, message) {
      setCookie(c, FLASH_COOKIE, encodeURIComponent(JSON.stringify({ text: message })), {
        path: "/console",
        httpOnly: true,
        sameSite: "Strict",
        secure: !c.get("services").config.embedded,
        maxAge: 60,
      });
      return c.redirect(to, 303);
    },
    log(action, details = {}) {
      c.get("services").log.info("console action", {
        actor,
        action,
        ...details,
        requestId: c.get("requestId"),
      });
    },
  };
}
