/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
// Rendered once on the server: keys matter only to client-side reconciliation.
// deno-lint-ignore-file jsx-key
/**
 * Blockchain: wallets and multi-signature wallets (from the admin API's wallet endpoints where
 * this deployment has them), contracts, and transactions of every app with their states.
 */
import type { Hono } from "hono";
import type { ConsoleEnv } from "../session.ts";
import type { ApiResult, RootApp } from "../api.ts";
import { type Console, consoleOf } from "../render.tsx";
import { Badge, Csrf, Empty, Field, gamePath, Table, when } from "../layout.tsx";
import { gameOf, seg } from "./params.ts";

const TX_STATUSES = ["PENDING", "WAITING", "SUCCESS", "FAILED"];

/** Shows whatever rows a wallet listing returns, or says where wallets come from. */
function ListingOf({ label, result, path }: { label: string; result: ApiResult; path: string }) {
  if (!result.ok) {
    return (
      <div class="empty">
        <strong>{label} come from the admin API</strong>
        {result.status === 404 && result.code === "NOT_FOUND"
          ? (
            <span>
              This deployment has no <code>GET {path}</code> yet.
            </span>
          )
          : <span>{result.message}</span>}
      </div>
    );
  }
  // deno-lint-ignore no-explicit-any
  const rows: Record<string, any>[] = Array.isArray(result.body)
    ? result.body
    : result.body?.items ?? result.body?.wallets ?? result.body?.multisig ?? [];
  // deno-lint-ignore no-explicit-any
  const shown = (v: any) =>
    v !== null && v !== undefined && (typeof v !== "object" || Array.isArray(v));
  const keys = rows.length
    ? Object.keys(rows[0]).filter((key) => rows.some((r) => shown(r[key]))).slice(0, 9)
    : [];
  return (
    <Table
      label={label}
      rows={rows}
      columns={keys.map((key) => [
        key,
        // deno-lint-ignore no-explicit-any
        (r: Record<string, any>) =>
          Array.isArray(r[key])
            ? r[key].join(", ")
            : typeof r[key] === "object" && r[key] !== null
            ? JSON.stringify(r[key])
            : String(r[key] ?? ""),
      ])}
      empty={
        <Empty title={`No ${label.toLowerCase()} yet`} next={`Create them through POST ${path}.`} />
      }
    />
  );
}

async function chainPage(k: Console, g: number, q: { status?: string; cursor?: string }) {
  const params = new URLSearchParams({ limit: "25" });
  if (q.status) params.set("status", q.status);
  if (q.cursor) params.set("cursor", q.cursor);
  const [wallets, multisig, contracts, txs] = await Promise.all([
    k.api.call("GET", `/admin/v1/wallets?gameIndex=${g}&limit=100`),
    k.api.call("GET", `/admin/v1/multisig?gameIndex=${g}&limit=100`),
    k.api.get(`/admin/v1/games/${g}/contracts?limit=200`),
    k.api.call("GET", `/admin/v1/games/${g}/transactions?${params}`),
  ]);
  const base = gamePath(g, "blockchain");
  const next = txs.ok && txs.body.nextCursor
    ? `${base}?${new URLSearchParams({
      ...(q.status ? { status: q.status } : {}),
      cursor: txs.body.nextCursor,
    })}`
    : null;
  return k.page(
    "Blockchain",
    <>
      <h1>Blockchain</h1>
      <p class="sub">
        Wallets the service signs with, the game's contracts, and every app's transactions.
      </p>
      <h2>Wallets</h2>
      <ListingOf label="Wallets" result={wallets} path="/admin/v1/wallets" />
      <h2>Multi-signature wallets</h2>
      <ListingOf label="Multi-signature wallets" result={multisig} path="/admin/v1/multisig" />
      <h2>Contracts</h2>
      <Table
        label="Contracts"
        rows={contracts.items}
        columns={[
          ["Name", (x) => x.name],
          ["Type", (x) => x.type],
          ["Network", (x) => x.network],
          ["Address", (x) => <code>{x.address}</code>],
          ["Owner", (x) => <code>{x.owner}</code>],
          ["Registered", (x) => when(x.createdAt)],
        ]}
        empty={
          <Empty
            title="No contracts yet"
            next="Register or deploy one with POST /admin/v1/contracts or /admin/v1/contracts/deploy."
          />
        }
      />
      <h2>Transactions</h2>
      <form method="get" action={base} class="row mb">
        <Field id="tx-status" label="Status">
          <select id="tx-status" name="status">
            <option value="">any</option>
            {TX_STATUSES.map((s) => <option value={s} selected={q.status === s}>{s}</option>)}
          </select>
        </Field>
        <button type="submit" class="secondary">Filter</button>
      </form>
      {txs.ok
        ? (
          <Table
            label="Transactions"
            rows={txs.body.items}
            columns={[
              ["Request", (t) => <code>{t.requestId}</code>],
              ["App", (t) => t.appid],
              ["Type", (t) => t.txType],
              ["Network", (t) => t.network],
              ["Status", (t) => <Badge value={t.status} />],
              ["Hash", (t) => t.txHash ? <code>{t.txHash}</code> : "—"],
              ["Created", (t) => when(t.createdAt)],
              ["", (t) =>
                t.status === "PENDING" && t.network === "polygon" && (
                  <form
                    method="post"
                    action={`${base}/transactions/${seg(t.requestId)}/cancel`}
                    data-confirm={`Cancel ${t.requestId}? A zero-value transfer replaces it at its nonce.`}
                  >
                    <Csrf token={k.csrf} />
                    <button type="submit" class="danger small">Cancel</button>
                  </form>
                )],
            ]}
            empty={
              <Empty
                title="No transactions"
                next="Mints, transfers, locks and conversions of the game's apps appear here."
              />
            }
          />
        )
        : <div class="flash error" role="alert">{txs.message}</div>}
      {next && (
        <p>
          <a class="button secondary" href={next}>Next page</a>
        </p>
      )}
    </>,
    { gameIndex: g, section: "blockchain" },
  );
}

/** Registers the blockchain page. */
export function registerBlockchainPages(app: Hono<ConsoleEnv>, root: RootApp) {
  app.get("/console/g/:g/blockchain", (c) =>
    chainPage(consoleOf(c, root), gameOf(c), {
      status: c.req.query("status") || undefined,
      cursor: c.req.query("cursor") || undefined,
    }));
  app.post("/console/g/:g/blockchain/transactions/:requestId/cancel", async (c) => {
    const k = consoleOf(c, root);
    const g = gameOf(c);
    const requestId = c.req.param("requestId");
    const r = await k.api.call(
      "POST",
      `/admin/v1/games/${g}/transactions/${seg(requestId)}/cancel`,
    );
    if (r.ok) k.log("cancelled transaction", { gameIndex: g, requestId });
    return k.redirect(
      gamePath(g, "blockchain"),
      r.ok
        ? `Cancel of ${requestId} sent (${r.body.cancelTxHash}); it is FAILED once the cancel is mined.`
        : `Cancel of ${requestId} refused: ${r.message}`,
    );
  });
}
