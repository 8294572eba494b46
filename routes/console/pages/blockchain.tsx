/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
// Rendered once on the server: keys matter only to client-side reconciliation.
// deno-lint-ignore-file jsx-key
/**
 * Blockchain: wallets and multi-signature wallets, contracts, and transactions of every app with
 * their states; each list pages on its own.
 */
import type { Hono } from "hono";
import type { ConsoleEnv } from "../session.ts";
import type { RootApp } from "../api.ts";
import { type Console, consoleOf } from "../render.tsx";
import { Badge, Csrf, Empty, Field, gamePath, LongId, PagedTable, when } from "../layout.tsx";
import { gameOf, seg } from "./params.ts";
import { PAGE_ROWS } from "./games.tsx";
import { MultisigTable, WalletsTable } from "./wallets.tsx";

const TX_STATUSES = ["PENDING", "WAITING", "SUCCESS", "FAILED"];

// A wallet row reads its balances from the chain: its pages are shorter than the others.
const WALLET_ROWS = 20;

async function chainPage(k: Console, g: number) {
  const q = { status: k.query.get("status") || undefined };
  const [wallets, multisig, contracts, txs] = await Promise.all([
    k.api.call("GET", `/admin/v1/wallets?gameIndex=${g}&${k.listQuery("wallets", WALLET_ROWS)}`),
    k.api.call("GET", `/admin/v1/multisig?gameIndex=${g}&${k.listQuery("multisig", PAGE_ROWS)}`),
    k.api.get(`/admin/v1/games/${g}/contracts?${k.listQuery("contracts", PAGE_ROWS)}`),
    k.api.call("GET", `/admin/v1/games/${g}/transactions?${k.listQuery("cursor", PAGE_ROWS, q)}`),
  ]);
  const base = gamePath(g, "blockchain");
  return k.page(
    "Blockchain",
    <>
      <h1>Blockchain</h1>
      <p class="sub">
        Wallets the service signs with, the game's contracts, and every app's transactions.
      </p>
      <h2>Wallets</h2>
      <WalletsTable result={wallets} base={base} query={k.query} param="wallets" />
      <h2>Multi-signature wallets</h2>
      <MultisigTable result={multisig} base={base} query={k.query} param="multisig" />
      <h2>Contracts</h2>
      <PagedTable
        label="Contracts"
        page={contracts}
        base={base}
        query={k.query}
        param="contracts"
        columns={[
          ["Name", (x) => x.name],
          ["Type", (x) => x.type],
          ["Network", (x) => x.network],
          ["Address", (x) => <LongId value={x.address} />],
          ["Owner", (x) => <LongId value={x.owner} />],
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
          <PagedTable
            label="Transactions"
            page={txs.body}
            base={base}
            query={k.query}
            param="cursor"
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
    </>,
    { gameIndex: g, section: "blockchain" },
  );
}

/** Registers the blockchain page. */
export function registerBlockchainPages(app: Hono<ConsoleEnv>, root: RootApp) {
  app.get("/console/g/:g/blockchain", (c) => chainPage(consoleOf(c, root), gameOf(c)));
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
