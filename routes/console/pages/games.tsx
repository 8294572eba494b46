/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
/**
 * Games (search, list, create with the webhook secret shown once, the switcher's destination) and
 * a game's apps (list, register with the secret shown once, rotate).
 */
import type { Hono } from "hono";
import type { ConsoleEnv } from "../session.ts";
import type { RootApp } from "../api.ts";
import { type Console, consoleOf } from "../render.tsx";
import { Csrf, Empty, Field, gamePath, PagedTable, plural, SecretOnce, when } from "../layout.tsx";
import { gameOf, seg } from "./params.ts";

/** Rows per page of the console's main lists. */
export const PAGE_ROWS = 50;

type Game = {
  gameIndex: number;
  name: string;
  createdAt: string;
  apps: number;
  activeApiKeys: number;
};
type App = { appid: string; clientId: string; createdAt: string };

async function gamesPage(k: Console, error?: string) {
  const name = k.query.get("name")?.trim() || undefined;
  const games = await k.api.get<{ items: Game[]; nextCursor: string | null }>(
    `/admin/v1/games?${k.listQuery("cursor", PAGE_ROWS, { name })}`,
  );
  return k.page(
    "Games",
    <>
      <h1>Games</h1>
      <p class="sub">Every app, key, endpoint and campaign belongs to a game.</p>
      <form method="get" action="/console/games" class="row mb" role="search">
        <Field id="games-search" label="Find a game">
          <input
            id="games-search"
            name="name"
            type="search"
            value={name ?? ""}
            maxlength={200}
            placeholder="part of its name"
          />
        </Field>
        <button type="submit" class="secondary">Search</button>
        {name && <a href="/console/games">Show all</a>}
      </form>
      <PagedTable
        label="Games"
        page={games}
        base="/console/games"
        query={k.query}
        param="cursor"
        columns={[
          ["Game", (g) => <a href={gamePath(g.gameIndex)}>{g.name}</a>],
          ["Index", (g) => <code>{g.gameIndex}</code>],
          ["Apps", (g) => plural(g.apps, "app")],
          ["Active API keys", (g) => plural(g.activeApiKeys, "key")],
          ["Created", (g) => when(g.createdAt)],
        ]}
        empty={name
          ? (
            <Empty
              title={`No game's name contains “${name}”`}
              next="Search for another part of the name."
            />
          )
          : (
            <Empty
              title="No games yet"
              next="Register your first game below; then add its apps and keys."
            />
          )}
      />
      <h2>Register a game</h2>
      <div class="panel">
        <form method="post" action="/console/games" class="row">
          <Csrf token={k.csrf} />
          <Field id="game-name" label="Game name">
            <input id="game-name" name="name" required maxlength={200} />
          </Field>
          <button type="submit">Register game</button>
        </form>
      </div>
    </>,
    { section: "games", error, status: error ? 400 : 200 },
  );
}

async function appsPage(
  k: Console,
  g: number,
  extra: {
    secret?: App & { clientSecret: string };
    error?: string;
    rotated?: boolean;
    created?: { name: string; webhookSecret: string };
  } = {},
) {
  const apps = await k.api.get<{ items: App[]; nextCursor: string | null }>(
    `/admin/v1/games/${g}/apps?${k.listQuery("cursor", PAGE_ROWS)}`,
  );
  return k.page(
    "Apps",
    <>
      {extra.created && (
        <>
          <div class="flash ok" role="status">
            Game {extra.created.name} registered (#{g}). Add its first app below.
          </div>
          <SecretOnce
            title="Webhook signing secret"
            values={[["Signing secret", extra.created.webhookSecret]]}
            note="Your servers verify the game's transaction callbacks, OTP callbacks and push webhooks with it (Standard Webhooks). Copy it now: it is shown only this once; the Webhooks page can reveal it again or rotate it."
          />
        </>
      )}
      <h1>Apps</h1>
      <p class="sub">
        Each app signs in to the blockchain API with its client id and secret (POST /v2/auth-token).
      </p>
      {extra.secret && (
        <SecretOnce
          title={extra.rotated
            ? `New client secret of ${extra.secret.appid}`
            : `App ${extra.secret.appid} registered`}
          values={[["Client id", extra.secret.clientId], [
            "Client secret",
            extra.secret.clientSecret,
          ]]}
          note={extra.rotated
            ? "The old secret stopped working. Copy the new one now: it is shown only this once."
            : undefined}
        />
      )}
      <PagedTable
        label="Apps"
        page={apps}
        base={gamePath(g, "apps")}
        query={k.query}
        param="cursor"
        columns={[
          ["App id", (a) => <code>{a.appid}</code>],
          ["Client id", (a) => <code>{a.clientId}</code>],
          ["Created", (a) => when(a.createdAt)],
          ["", (a) => (
            <form
              method="post"
              action={`/console/g/${g}/apps/${seg(a.appid)}/rotate`}
              data-confirm={`Issue a new client secret for ${a.appid}? The current secret stops working at once: the app's servers cannot get access tokens until they use the new one.`}
            >
              <Csrf token={k.csrf} />
              <button type="submit" class="secondary small">Rotate secret</button>
            </form>
          )],
        ]}
        empty={
          <Empty
            title="No apps yet"
            next="Register the game's first app below to get its client credentials."
          />
        }
      />
      <h2>Register an app</h2>
      <div class="panel">
        <form method="post" action={`/console/g/${g}/apps`} class="row">
          <Csrf token={k.csrf} />
          <Field
            id="appid"
            label="App id"
            hint="The x-appid your game clients send, e.g. com.studio.game"
          >
            <input id="appid" name="appid" required maxlength={128} aria-describedby="appid-hint" />
          </Field>
          <button type="submit">Register app</button>
        </form>
      </div>
    </>,
    { gameIndex: g, section: "apps", error: extra.error, status: extra.error ? 400 : 200 },
  );
}

/**
 * Where the switcher goes: "#12", "12" or a suggestion ("#12 Name") opens that game; a name opens
 * the only game containing it, else the games list searched for it.
 */
async function switchTarget(k: Console, text: string): Promise<string> {
  const q = text.trim().slice(0, 200);
  if (!q) return "/console/games";
  const index = /^#?(\d{1,10})(?:\s|$)/.exec(q);
  if (index) {
    const found = await k.api.call("GET", `/admin/v1/games/${index[1]}`);
    if (found.ok) return gamePath(found.body.gameIndex);
  }
  const name = new URLSearchParams({ name: q });
  const matches = await k.api.call("GET", `/admin/v1/games?limit=2&${name}`);
  if (matches.ok && matches.body.items.length === 1) {
    return gamePath(matches.body.items[0].gameIndex);
  }
  return `/console/games?${name}`;
}

/** Registers the game and app pages. */
export function registerGamePages(app: Hono<ConsoleEnv>, root: RootApp) {
  app.get("/console", (c) => gamesPage(consoleOf(c, root)));
  app.get("/console/games", (c) => gamesPage(consoleOf(c, root)));
  app.get("/console/go", async (c) => {
    const k = consoleOf(c, root);
    return c.redirect(await switchTarget(k, c.req.query("q") ?? c.req.query("game") ?? ""), 303);
  });
  app.post("/console/games", async (c) => {
    const k = consoleOf(c, root);
    const r = await k.api.call("POST", "/admin/v1/games", { name: k.form.name ?? "" });
    if (!r.ok) return gamesPage(k, r.message);
    k.log("created game", { gameIndex: r.body.gameIndex });
    // The webhook secret exists only in this answer: the page is rendered here, not redirected to.
    return appsPage(k, r.body.gameIndex, {
      created: { name: r.body.name, webhookSecret: r.body.webhookSecret },
    });
  });
  app.get("/console/g/:g/apps", (c) => appsPage(consoleOf(c, root), gameOf(c)));
  app.post("/console/g/:g/apps", async (c) => {
    const k = consoleOf(c, root);
    const g = gameOf(c);
    const r = await k.api.call("POST", `/admin/v1/games/${g}/apps`, { appid: k.form.appid ?? "" });
    if (!r.ok) return appsPage(k, g, { error: r.message });
    k.log("registered app", { gameIndex: g, appid: r.body.appid });
    return appsPage(k, g, { secret: r.body });
  });
  app.post("/console/g/:g/apps/:appid/rotate", async (c) => {
    const k = consoleOf(c, root);
    const g = gameOf(c);
    const appid = c.req.param("appid");
    const r = await k.api.call("POST", `/admin/v1/games/${g}/apps/${seg(appid)}/rotate-secret`);
    if (!r.ok) return appsPage(k, g, { error: r.message });
    k.log("rotated app secret", { gameIndex: g, appid });
    return appsPage(k, g, { secret: r.body, rotated: true });
  });
}
