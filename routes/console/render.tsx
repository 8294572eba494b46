/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
/** Rendering helpers of console handlers: the page context, flash messages, action logging. */
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { Child } from "hono/jsx";
import type { ConsoleEnv } from "./session.ts";
import { type GameRef, type PageContext, type PageQuery, Shell } from "./layout.tsx";
import { type ConsoleApi, consoleApi, type RootApp } from "./api.ts";

const FLASH_COOKIE = "gp_console_flash";
/** How many of the newest games the switcher suggests. */
const RECENT_GAMES = 20;

/** A console request's tools: the admin API client and page rendering. */
export interface Console {
  api: ConsoleApi;
  csrf: string;
  /** The page's query (a GET's own; the answer to a form starts from none). */
  query: PageQuery;
  /**
   * The admin API query for one page of a list: `limit`, the cursor the page URL carries in
   * `param`, and the list's filters (empty ones left out).
   */
  listQuery(param: string, limit: number, filters?: Record<string, string | undefined>): string;
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
  const query = new URLSearchParams(c.req.method === "GET" ? new URL(c.req.url).search : "");
  return {
    api,
    csrf: session.csrf,
    query,
    form: c.get("form") ?? {},
    listQuery(param, limit, filters = {}) {
      const q = new URLSearchParams({ limit: String(limit) });
      for (const [name, value] of Object.entries(filters)) if (value) q.set(name, value);
      const cursor = query.get(param);
      if (cursor) q.set("cursor", cursor);
      return q.toString();
    },
    async page(title, body, options = {}) {
      const recent = await api.get<{ items: GameRef[] }>(`/admin/v1/games?limit=${RECENT_GAMES}`);
      const g = options.gameIndex;
      // The page's game is named in the shell; only a game outside the newest is looked up.
      const game = g === undefined ? undefined : recent.items.find((x) => x.gameIndex === g) ??
        await api.get<GameRef>(`/admin/v1/games/${g}`);
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
        recent: recent.items.map((x) => ({ gameIndex: x.gameIndex, name: x.name })),
        game: game && { gameIndex: game.gameIndex, name: game.name },
        section: options.section,
        flash,
      };
      return c.html(
        <Shell title={game ? `${title} · ${game.name}` : title} ctx={ctx}>{body}</Shell>,
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
