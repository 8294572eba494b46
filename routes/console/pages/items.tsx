/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
/**
 * Items: the game server's endpoint (HTTP URL or TCP host:port, vendor word), its health and
 * history, sending items to a player, and the delivery log with "retry now".
 */
import type { Hono } from "hono";
import type { ConsoleEnv } from "../session.ts";
import type { RootApp } from "../api.ts";
import { type Console, consoleOf } from "../render.tsx";
import { Badge, Csrf, Empty, Field, gamePath, PagedTable, when } from "../layout.tsx";
import { gameOf, seg } from "./params.ts";
import { PAGE_ROWS } from "./games.tsx";
import { ITEM_REASON_MEANINGS, ITEM_REASONS } from "../../../lib/items/record.ts";
import { ITEM_REQUEST_STATUSES } from "../../../lib/items/register.ts";

function healthOf(endpoint: { health: { healthy: boolean | null } } | null): string {
  if (!endpoint) return "not registered";
  const h = endpoint.health.healthy;
  return h === null ? "unknown" : h ? "healthy" : "unhealthy";
}

async function itemsPage(k: Console, g: number, error?: string) {
  const q = {
    status: k.query.get("status") || undefined,
    transactionId: k.query.get("transactionId")?.trim() || undefined,
  };
  const [endpointRes, probes, log] = await Promise.all([
    k.api.call("GET", `/admin/v1/games/${g}/item-endpoint`),
    k.api.get(`/admin/v1/games/${g}/item-endpoint/probes?${k.listQuery("probes", 10)}`),
    k.api.call("GET", `/admin/v1/games/${g}/item-requests?${k.listQuery("cursor", PAGE_ROWS, q)}`),
  ]);
  const endpoint = endpointRes.ok ? endpointRes.body : null;
  const tcp = endpoint?.transport === "tcp";
  const base = gamePath(g, "items");
  return k.page(
    "Items",
    <>
      <h1>Items</h1>
      <p class="sub">
        Item requests are sent to the game server, retried until it answers, and logged here.
      </p>
      <h2>Game server endpoint</h2>
      <div class="panel">
        <p>
          <Badge value={healthOf(endpoint)} /> {endpoint
            ? (
              <>
                <code>
                  {endpoint.transport === "http"
                    ? endpoint.url
                    : `${endpoint.host}:${endpoint.port}`}
                </code>{" "}
                · last probe {when(endpoint.health.lastProbeAt)}
                {endpoint.health.lastError && (
                  <>
                    · <span class="muted">{endpoint.health.lastError}</span>
                  </>
                )}
                {endpoint.configSuspect && (
                  <>
                    · <strong>check the vendor word: {endpoint.suspectReason}</strong>
                  </>
                )}
              </>
            )
            : "No endpoint yet: register the game server below."}
        </p>
        {endpoint && (
          <form method="post" action={`${base}/probe`}>
            <Csrf token={k.csrf} />
            <button type="submit" class="secondary">Probe now</button>
          </form>
        )}
        <form
          method="post"
          action={`${base}/endpoint`}
          class="stack mt"
          data-transport-form
          data-confirm={endpoint
            ? "Replace the game server endpoint? Every delivery from now on, retries of waiting requests included, goes to the new address with the new vendor word."
            : undefined}
        >
          <Csrf token={k.csrf} />
          <Field id="ep-transport" label="Transport">
            <select id="ep-transport" name="transport">
              <option value="http" selected={!tcp}>HTTP (POST to a URL)</option>
              <option value="tcp" selected={tcp}>TCP socket</option>
            </select>
          </Field>
          {/* Only the chosen transport's fields show (stylesheet, and the script without :has). */}
          <div data-transport="http">
            <Field id="ep-url" label="URL" hint="e.g. https://game.example.com/items">
              <input
                id="ep-url"
                name="url"
                type="url"
                value={tcp ? "" : endpoint?.url ?? ""}
                aria-describedby="ep-url-hint"
              />
            </Field>
          </div>
          <div class="actions" data-transport="tcp">
            <Field id="ep-host" label="Host">
              <input id="ep-host" name="host" value={tcp ? endpoint?.host ?? "" : ""} />
            </Field>
            <Field id="ep-port" label="Port" hint="e.g. 20080">
              <input
                id="ep-port"
                name="port"
                inputmode="numeric"
                value={tcp ? String(endpoint?.port ?? "") : ""}
                size={6}
                aria-describedby="ep-port-hint"
              />
            </Field>
          </div>
          <Field
            id="ep-word"
            label="Vendor word"
            hint="The shared word the game server checks; never shown again."
          >
            <input
              id="ep-word"
              name="vendorWord"
              type="password"
              autocomplete="off"
              required
              aria-describedby="ep-word-hint"
            />
          </Field>
          <button type="submit">{endpoint ? "Replace endpoint" : "Register endpoint"}</button>
        </form>
      </div>
      <h2>Health history</h2>
      <PagedTable
        label="Health history"
        page={probes}
        base={base}
        query={k.query}
        param="probes"
        columns={[
          ["Probed", (p) => when(p.probedAt)],
          ["Result", (p) => <Badge value={p.healthy ? "healthy" : "unhealthy"} />],
          ["Error", (p) => p.error ?? ""],
        ]}
        empty={
          <Empty
            title="No probes yet"
            next="Probes run every five minutes once an endpoint is registered; use Probe now to run one."
          />
        }
      />
      <h2>Send items</h2>
      <div class="panel">
        <form method="post" action={`${base}/send`} class="row">
          <Csrf token={k.csrf} />
          <Field id="s-cat" label="Id category">
            <input id="s-cat" name="idCategory" value="vid" required size={6} />
          </Field>
          <Field id="s-id" label="Player id">
            <input id="s-id" name="id" required />
          </Field>
          <Field id="s-server" label="Server id">
            <input id="s-server" name="serverId" required size={8} />
          </Field>
          <Field id="s-asset" label="Item code">
            <input id="s-asset" name="assetCode" required size={10} />
          </Field>
          <Field id="s-amount" label="Amount">
            <input id="s-amount" name="amount" inputmode="numeric" value="1" required size={5} />
          </Field>
          <Field id="s-reason" label="Reason">
            <select id="s-reason" name="reason">
              {ITEM_REASONS.map((r) => (
                <option value={r} selected={r === "etc"}>{r} — {ITEM_REASON_MEANINGS[r]}</option>
              ))}
            </select>
          </Field>
          <button type="submit">Send</button>
        </form>
      </div>
      <h2>Delivery log</h2>
      <form method="get" action={base} class="row mb">
        <Field id="f-status" label="Status">
          <select id="f-status" name="status">
            <option value="">any</option>
            {ITEM_REQUEST_STATUSES.map((s) => (
              <option value={s} selected={q.status === s}>{s}</option>
            ))}
          </select>
        </Field>
        <Field id="f-tx" label="Transaction id">
          <input id="f-tx" name="transactionId" value={q.transactionId ?? ""} />
        </Field>
        <button type="submit" class="secondary">Filter</button>
      </form>
      {!log.ok ? <div class="flash error" role="alert">{log.message}</div> : (
        <PagedTable
          label="Delivery log"
          page={log.body}
          base={base}
          query={k.query}
          param="cursor"
          columns={[
            ["Transaction", (d) => <code>{d.transactionId}</code>],
            ["Player", (d) => `${d.record.idCategory ?? ""}:${d.record.id ?? ""}`],
            ["Items", (d) =>
              (d.record.detail ?? []).map((x: { assetCode: string; amount: number }) =>
                `${x.assetCode} × ${x.amount}`
              ).join(", ")],
            ["Status", (d) => <Badge value={d.status} />],
            ["Attempts", (d) =>
              d.attempts],
            ["Last answer", (d) =>
              d.lastCode === null ? "" : `${d.lastCode} ${d.lastMessage ?? ""}`],
            ["Registered", (d) => when(d.createdAt)],
            ["", (d) =>
              (d.status === "FAILED" || d.status === "RETRYING") && (
                <form method="post" action={`${base}/requests/${seg(d.transactionId)}/retry`}>
                  <Csrf token={k.csrf} />
                  <button type="submit" class="small">Retry now</button>
                </form>
              )],
          ]}
          empty={
            <Empty
              title="No item requests match"
              next="Requests from the items API, CPA rewards and the form above appear here."
            />
          }
        />
      )}
    </>,
    { gameIndex: g, section: "items", error, status: error ? 400 : 200 },
  );
}

/** Registers the item pages. */
export function registerItemPages(app: Hono<ConsoleEnv>, root: RootApp) {
  app.get("/console/g/:g/items", (c) => itemsPage(consoleOf(c, root), gameOf(c)));
  app.post("/console/g/:g/items/endpoint", async (c) => {
    const k = consoleOf(c, root);
    const g = gameOf(c);
    const f = k.form;
    const body = f.transport === "tcp"
      ? {
        transport: "tcp",
        host: f.host ?? "",
        port: /^\d+$/.test(f.port ?? "") ? Number(f.port) : f.port,
        vendorWord: f.vendorWord ?? "",
      }
      : { transport: "http", url: f.url ?? "", vendorWord: f.vendorWord ?? "" };
    const r = await k.api.call("PUT", `/admin/v1/games/${g}/item-endpoint`, body);
    if (!r.ok) return itemsPage(k, g, r.message);
    k.log("registered item endpoint", { gameIndex: g, transport: body.transport });
    // Probe at once so the page shows whether the game server answers.
    const probe = await k.api.call("POST", `/admin/v1/games/${g}/item-endpoint/probe`);
    const health = probe.ok
      ? (probe.body.healthy ? "healthy" : `unhealthy (${probe.body.error})`)
      : "not probed";
    return k.redirect(gamePath(g, "items"), `Endpoint saved; first probe: ${health}.`);
  });
  app.post("/console/g/:g/items/probe", async (c) => {
    const k = consoleOf(c, root);
    const g = gameOf(c);
    const r = await k.api.call("POST", `/admin/v1/games/${g}/item-endpoint/probe`);
    if (!r.ok) return itemsPage(k, g, r.message);
    k.log("probed item endpoint", { gameIndex: g, healthy: r.body.healthy });
    return k.redirect(
      gamePath(g, "items"),
      r.body.healthy
        ? "The game server answered: healthy."
        : `The game server did not answer: ${r.body.error}`,
    );
  });
  app.post("/console/g/:g/items/send", async (c) => {
    const k = consoleOf(c, root);
    const g = gameOf(c);
    const f = k.form;
    const amount = /^\d{1,10}$/.test(f.amount ?? "") ? Number(f.amount) : f.amount;
    const r = await k.api.call("POST", `/admin/v1/games/${g}/item-requests`, {
      gameIndex: g,
      idCategory: f.idCategory ?? "",
      id: f.id ?? "",
      serverId: f.serverId ?? "",
      reason: f.reason ?? "",
      detail: [{ action: "send", assetCode: f.assetCode ?? "", amount }],
    });
    if (!r.ok) return itemsPage(k, g, r.message);
    k.log("sent items", { gameIndex: g, transactionId: r.body.transactionId });
    return k.redirect(
      gamePath(g, "items"),
      `Request ${r.body.transactionId} registered; delivery has started.`,
    );
  });
  app.post("/console/g/:g/items/requests/:tx/retry", async (c) => {
    const k = consoleOf(c, root);
    const g = gameOf(c);
    const tx = c.req.param("tx");
    const r = await k.api.call("POST", `/admin/v1/games/${g}/item-requests/${seg(tx)}/retry`);
    if (!r.ok) return itemsPage(k, g, r.message);
    k.log("retried item request", { gameIndex: g, transactionId: tx });
    return k.redirect(gamePath(g, "items"), `Request ${tx} is due again; delivery has started.`);
  });
}
