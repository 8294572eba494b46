/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
/**
 * A game's overview: apps and keys, item endpoint health, recent deliveries, pending
 * transactions and the push campaigns due next.
 */
import type { Hono } from "hono";
import type { ConsoleEnv } from "../session.ts";
import type { RootApp } from "../api.ts";
import { consoleOf } from "../render.tsx";
import { Badge, Empty, gamePath, noun, Table, when, whenUnix } from "../layout.tsx";
import { gameOf } from "./params.ts";

/** Registers GET /console/g/:g. */
export function registerOverview(app: Hono<ConsoleEnv>, root: RootApp) {
  app.get("/console/g/:g", async (c) => {
    const k = consoleOf(c, root);
    const g = gameOf(c);
    const game = await k.api.get(`/admin/v1/games/${g}`);
    const [endpoint, deliveries, pending, waiting, campaigns] = await Promise.all([
      k.api.call("GET", `/admin/v1/games/${g}/item-endpoint`),
      k.api.get(`/admin/v1/games/${g}/item-requests?limit=5`),
      k.api.get(`/admin/v1/games/${g}/transactions?status=PENDING&limit=5`),
      k.api.get(`/admin/v1/games/${g}/transactions?status=WAITING&limit=5`),
      k.api.get(`/admin/v1/games/${g}/push/campaigns?status=1&limit=20`),
    ]);
    const health = endpoint.ok
      ? endpoint.body.health.healthy === null
        ? "unknown"
        : endpoint.body.health.healthy
        ? "healthy"
        : "unhealthy"
      : "not registered";
    // deno-lint-ignore no-explicit-any
    const due = (campaigns.items as any[]).filter((x) => x.nextSendAt !== null)
      .sort((a, b) => a.nextSendAt - b.nextSendAt).slice(0, 5);
    const txs = [...pending.items, ...waiting.items];
    return k.page(
      game.name,
      <>
        <h1>{game.name}</h1>
        <p class="sub">Game #{g} · registered {when(game.createdAt)}</p>
        <div class="cards">
          <a class="card" href={gamePath(g, "apps")}>
            <div class="n">{game.apps}</div>
            <div class="l">{noun(game.apps, "app")}</div>
          </a>
          <a class="card" href={gamePath(g, "keys")}>
            <div class="n">{game.activeApiKeys}</div>
            <div class="l">active {noun(game.activeApiKeys, "API key")}</div>
          </a>
          <a class="card" href={gamePath(g, "items")}>
            <div class="n">
              <Badge value={health} />
            </div>
            <div class="l">item endpoint</div>
          </a>
          <a class="card" href={`${gamePath(g, "items")}?status=FAILED`}>
            <div class="n">{game.deliveries.FAILED}</div>
            <div class="l">
              failed {noun(game.deliveries.FAILED, "delivery", "deliveries")}{" "}
              ({game.deliveries.DELIVERED} delivered)
            </div>
          </a>
          <a class="card" href={gamePath(g, "blockchain")}>
            <div class="n">{game.transactions.PENDING + game.transactions.WAITING}</div>
            <div class="l">
              pending {noun(game.transactions.PENDING + game.transactions.WAITING, "transaction")}
            </div>
          </a>
        </div>
        <h2>Recent deliveries</h2>
        <Table
          label="Recent deliveries"
          rows={deliveries.items}
          columns={[
            ["Transaction", (d) => <code>{d.transactionId}</code>],
            ["Status", (d) => <Badge value={d.status} />],
            ["Attempts", (d) => d.attempts],
            ["Registered", (d) => when(d.createdAt)],
          ]}
          empty={
            <Empty
              title="No item requests yet"
              next={
                <span>
                  Register the game server on the <a href={gamePath(g, "items")}>Items</a>{" "}
                  page, then send items.
                </span>
              }
            />
          }
        />
        <h2>Pending transactions</h2>
        <Table
          label="Pending transactions"
          rows={txs}
          columns={[
            ["Request", (t) => <code>{t.requestId}</code>],
            ["App", (t) => t.appid],
            ["Type", (t) => t.txType],
            ["Status", (t) => <Badge value={t.status} />],
            ["Created", (t) => when(t.createdAt)],
          ]}
          empty={
            <Empty
              title="Nothing pending"
              next="Mints, transfers and conversions waiting for the chain appear here."
            />
          }
        />
        <h2>Campaigns due</h2>
        <Table
          label="Campaigns due"
          rows={due}
          columns={[
            [
              "Campaign",
              (x) => <a href={`${gamePath(g, "push")}/${x.id}`}>#{x.id} {x.description}</a>,
            ],
            ["Next sending", (x) => whenUnix(x.nextSendAt)],
            ["Pending slices", (x) => x.slices.pending],
          ]}
          empty={
            <Empty
              title="No campaign is due"
              next="Push campaigns registered through the push API appear here with their next sending."
            />
          }
        />
      </>,
      { gameIndex: g, section: "overview" },
    );
  });
}
