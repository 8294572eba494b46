/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
/** Games (list, create) and a game's apps (list, register with the secret shown once, rotate). */
import type { Hono } from "hono";
import type { ConsoleEnv } from "../session.ts";
import type { RootApp } from "../api.ts";
import { type Console, consoleOf } from "../render.tsx";
import { Csrf, Empty, Field, gamePath, SecretOnce, Table, when } from "../layout.tsx";
import { gameOf, seg } from "./params.ts";

type Game = {
  gameIndex: number;
  name: string;
  createdAt: string;
  apps: number;
  activeApiKeys: number;
};
type App = { appid: string; clientId: string; createdAt: string };

async function gamesPage(k: Console, error?: string) {
  const games = await k.api.get<{ items: Game[] }>("/admin/v1/games?limit=200");
  return k.page(
    "Games",
    <>
      <h1>Games</h1>
      <p class="sub">Every app, key, endpoint and campaign belongs to a game.</p>
      <Table
        label="Games"
        rows={games.items}
        columns={[
          ["Game", (g) => <a href={gamePath(g.gameIndex)}>{g.name}</a>],
          ["Index", (g) => <code>{g.gameIndex}</code>],
          ["Apps", (g) => g.apps],
          ["Active API keys", (g) => g.activeApiKeys],
          ["Created", (g) => when(g.createdAt)],
        ]}
        empty={
          <Empty
            title="No games yet"
            next="Register your first game below; then add its apps and keys."
          />
        }
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
  extra: { secret?: App & { clientSecret: string }; error?: string; rotated?: boolean } = {},
) {
  const apps = await k.api.get<{ items: App[] }>(`/admin/v1/games/${g}/apps?limit=200`);
  return k.page(
    "Apps",
    <>
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
      <Table
        label="Apps"
        rows={apps.items}
        columns={[
          ["App id", (a) => <code>{a.appid}</code>],
          ["Client id", (a) => <code>{a.clientId}</code>],
          ["Created", (a) => when(a.createdAt)],
          ["", (a) => (
            <form
              method="post"
              action={`/console/g/${g}/apps/${seg(a.appid)}/rotate`}
              data-confirm={`Issue a new secret for ${a.appid}? The current one stops working at once.`}
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

/** Registers the game and app pages. */
export function registerGamePages(app: Hono<ConsoleEnv>, root: RootApp) {
  app.get("/console", (c) => gamesPage(consoleOf(c, root)));
  app.get("/console/games", (c) => gamesPage(consoleOf(c, root)));
  app.get("/console/go", (c) => {
    const g = c.req.query("game") ?? "";
    return c.redirect(/^\d{1,10}$/.test(g) ? gamePath(Number(g)) : "/console/games", 303);
  });
  app.post("/console/games", async (c) => {
    const k = consoleOf(c, root);
    const r = await k.api.call("POST", "/admin/v1/games", { name: k.form.name ?? "" });
    if (!r.ok) return gamesPage(k, r.message);
    k.log("created game", { gameIndex: r.body.gameIndex });
    return k.redirect(
      gamePath(r.body.gameIndex, "apps"),
      `Game ${r.body.name} registered (#${r.body.gameIndex}). Add its first app.`,
    );
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
