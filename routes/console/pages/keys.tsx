/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
/** API keys (issue, revoke) and chat game keys (issue, rotate); secrets are shown once. */
import type { Hono } from "hono";
import type { ConsoleEnv } from "../session.ts";
import type { RootApp } from "../api.ts";
import { type Console, consoleOf } from "../render.tsx";
import {
  Badge,
  Choice,
  Csrf,
  Empty,
  Field,
  gamePath,
  PagedTable,
  SecretOnce,
  when,
} from "../layout.tsx";
import { gameOf, seg } from "./params.ts";
import { PAGE_ROWS } from "./games.tsx";
import { API_SCOPES } from "../../../lib/auth/api_keys.ts";

interface Extra {
  secret?: { title: string; values: [string, string][]; note?: string };
  error?: string;
}

async function keysPage(k: Console, g: number, extra: Extra = {}) {
  const [keys, chat, projects] = await Promise.all([
    k.api.get(`/admin/v1/games/${g}/api-keys?${k.listQuery("keys", PAGE_ROWS)}`),
    k.api.get(`/admin/v1/games/${g}/chat-keys?${k.listQuery("chat", PAGE_ROWS)}`),
    k.api.get(`/admin/v1/games/${g}/tads/projects?limit=200`),
  ]);
  const base = gamePath(g, "keys");
  return k.page(
    "Keys",
    <>
      <h1>Keys</h1>
      <p class="sub">
        API keys authorise the push, OTP, items and CPA APIs; chat game keys encrypt chat logs.
      </p>
      {extra.secret && <SecretOnce {...extra.secret} />}
      <h2>API keys</h2>
      <PagedTable
        label="API keys"
        page={keys}
        base={base}
        query={k.query}
        param="keys"
        columns={[
          ["Name", (x) => x.name ?? <span class="muted">unnamed</span>],
          ["Key id", (x) => <code>{x.keyId}</code>],
          ["Scopes", (x) => x.scopes.join(", ")],
          ["Created", (x) => when(x.createdAt)],
          ["Last used", (x) => when(x.lastUsedAt)],
          ["State", (x) => <Badge value={x.revokedAt ? "revoked" : "active"} />],
          ["", (x) =>
            !x.revokedAt && (
              <form
                method="post"
                action={`/console/g/${g}/keys/${seg(x.keyId)}/revoke`}
                data-confirm={`Revoke ${
                  x.name ? `“${x.name}” (${x.keyId})` : x.keyId
                }? Every call made with it (${
                  x.scopes.join(", ")
                }) is refused from now on, and a revoked key cannot be restored.`}
              >
                <Csrf token={k.csrf} />
                <button type="submit" class="danger small">Revoke</button>
              </form>
            )],
        ]}
        empty={
          <Empty
            title="No API keys yet"
            next="Issue one below with the scopes your game server needs."
          />
        }
      />
      <div class="panel">
        <form method="post" action={`/console/g/${g}/keys`} class="row">
          <Csrf token={k.csrf} />
          <Field
            id="key-name"
            label="Name (optional)"
            hint="What the key is for, e.g. game server eu-1"
          >
            <input id="key-name" name="name" maxlength={100} aria-describedby="key-name-hint" />
          </Field>
          <fieldset class="field">
            <legend>Scopes</legend>
            {API_SCOPES.map((s) => (
              <label>
                <input type="checkbox" name={`scope_${s}`} value="1" /> {s}
              </label>
            ))}
          </fieldset>
          <button type="submit">Issue API key</button>
        </form>
      </div>
      <h2>Chat game keys</h2>
      <PagedTable
        label="Chat game keys"
        page={chat}
        base={base}
        query={k.query}
        param="chat"
        columns={[
          ["Game key", (x) => <code>{x.gameKey}</code>],
          [
            "Word lists of project",
            (x) => x.projectKey ? <code>{x.projectKey}</code> : <span class="muted">none</span>,
          ],
          ["Created", (x) => when(x.createdAt)],
          ["", (x) => (
            <form
              method="post"
              action={`/console/g/${g}/chat-keys/${seg(x.gameKey)}/rotate`}
              data-confirm={`Issue a new secret for ${x.gameKey}? The current one stops working at once: chat logs encrypted with it are refused until the game servers use the new one.`}
            >
              <Csrf token={k.csrf} />
              <button type="submit" class="secondary small">Rotate secret</button>
            </form>
          )],
        ]}
        empty={
          <Empty
            title="No chat game keys yet"
            next="Issue one for each game server that sends chat logs."
          />
        }
      />
      <div class="panel">
        <form method="post" action={`/console/g/${g}/chat-keys`} class="row">
          <Csrf token={k.csrf} />
          <Field id="chat-project" label="Word lists from project">
            <Choice
              id="chat-project"
              name="projectKey"
              empty="none (no forbidden-word detection)"
              complete={projects.nextCursor === null}
              options={projects.items.map((p: { projectKey: string; name: string }) => [
                p.projectKey,
                `${p.name} (${p.projectKey})`,
              ])}
            />
          </Field>
          <button type="submit">Issue chat game key</button>
        </form>
      </div>
    </>,
    { gameIndex: g, section: "keys", error: extra.error, status: extra.error ? 400 : 200 },
  );
}

/** Registers the key pages. */
export function registerKeyPages(app: Hono<ConsoleEnv>, root: RootApp) {
  app.get("/console/g/:g/keys", (c) => keysPage(consoleOf(c, root), gameOf(c)));
  app.post("/console/g/:g/keys", async (c) => {
    const k = consoleOf(c, root);
    const g = gameOf(c);
    const scopes = API_SCOPES.filter((s) => k.form[`scope_${s}`] === "1");
    const name = k.form.name?.trim() || undefined;
    const r = await k.api.call("POST", `/admin/v1/games/${g}/api-keys`, { scopes, name });
    if (!r.ok) return keysPage(k, g, { error: r.message });
    k.log("issued API key", { gameIndex: g, keyId: r.body.keyId, scopes });
    return keysPage(k, g, {
      secret: {
        title: `API key ${name ? `“${name}” ` : ""}${r.body.keyId} issued (${scopes.join(", ")})`,
        values: [["API key", r.body.apiKey]],
      },
    });
  });
  app.post("/console/g/:g/keys/:keyId/revoke", async (c) => {
    const k = consoleOf(c, root);
    const g = gameOf(c);
    const keyId = c.req.param("keyId");
    // The key must be this game's before it is revoked.
    const own = await k.api.call("GET", `/admin/v1/games/${g}/api-keys/${seg(keyId)}`);
    if (!own.ok) return keysPage(k, g, { error: own.message });
    const r = await k.api.call("DELETE", `/admin/v1/api-keys/${seg(keyId)}`);
    if (!r.ok) return keysPage(k, g, { error: r.message });
    k.log("revoked API key", { gameIndex: g, keyId });
    return k.redirect(`/console/g/${g}/keys`, `API key ${keyId} revoked.`);
  });
  app.post("/console/g/:g/chat-keys", async (c) => {
    const k = consoleOf(c, root);
    const g = gameOf(c);
    const projectKey = k.form.projectKey || undefined;
    const r = await k.api.call("POST", `/admin/v1/games/${g}/chat-keys`, { projectKey });
    if (!r.ok) return keysPage(k, g, { error: r.message });
    k.log("issued chat game key", { gameIndex: g, gameKey: r.body.gameKey });
    return keysPage(k, g, {
      secret: {
        title: "Chat game key issued",
        values: [["Game key", r.body.gameKey], ["Secret key", r.body.secretKey]],
      },
    });
  });
  app.post("/console/g/:g/chat-keys/:gameKey/rotate", async (c) => {
    const k = consoleOf(c, root);
    const g = gameOf(c);
    const gameKey = c.req.param("gameKey");
    const r = await k.api.call(
      "POST",
      `/admin/v1/games/${g}/chat-keys/${seg(gameKey)}/rotate-secret`,
    );
    if (!r.ok) return keysPage(k, g, { error: r.message });
    k.log("rotated chat key secret", { gameIndex: g, gameKey });
    return keysPage(k, g, {
      secret: {
        title: `New secret of game key ${gameKey}`,
        values: [["Secret key", r.body.secretKey]],
        note: "The old secret stopped working. Copy the new one now: it is shown only this once.",
      },
    });
  });
}
