/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
// Rendered once on the server: keys matter only to client-side reconciliation.
// deno-lint-ignore-file jsx-key
/** CPA: the game's campaigns (achievement code -> items) and registering one. */
import type { Hono } from "hono";
import type { ConsoleEnv } from "../session.ts";
import type { RootApp } from "../api.ts";
import { type Console, consoleOf } from "../render.tsx";
import { Choice, Csrf, Empty, Field, gamePath, PagedTable, when } from "../layout.tsx";
import { gameOf } from "./params.ts";
import { PAGE_ROWS } from "./games.tsx";
import { PROMOTION_SUB_REASON_MEANINGS, PROMOTION_SUB_REASONS } from "../../../lib/items/record.ts";

function subReasonText(code: string): string {
  const meaning = (PROMOTION_SUB_REASON_MEANINGS as Record<string, string>)[code];
  return meaning ? `${code} — ${meaning}` : code;
}

async function cpaPage(k: Console, g: number, error?: string) {
  const [campaigns, apps] = await Promise.all([
    k.api.get(`/admin/v1/games/${g}/cpa?${k.listQuery("cursor", PAGE_ROWS)}`),
    k.api.get(`/admin/v1/games/${g}/apps?limit=200`),
  ]);
  return k.page(
    "CPA",
    <>
      <h1>CPA campaigns</h1>
      <p class="sub">
        A player who reaches an achievement (POST /api/cpa) receives the campaign's items once.
      </p>
      <PagedTable
        label="CPA campaigns"
        page={campaigns}
        base={gamePath(g, "cpa")}
        query={k.query}
        param="cursor"
        columns={[
          ["App", (x) => <code>{x.appid}</code>],
          ["CPA code", (x) => <code>{x.cpaCode}</code>],
          ["Sub reason", (x) => subReasonText(x.subReason)],
          [
            "Items",
            (x) =>
              x.detail.map((d: { assetCode: string; amount: number }) =>
                `${d.assetCode} × ${d.amount}`
              )
                .join(", "),
          ],
          ["Rewarded players", (x) => x.rewarded],
          ["Registered", (x) => when(x.createdAt)],
        ]}
        empty={
          <Empty
            title="No CPA campaigns yet"
            next="Register one below; rewards are sent to the game server's item endpoint."
          />
        }
      />
      <h2>Register a campaign</h2>
      {apps.items.length === 0
        ? (
          <div class="empty">
            <strong>Register an app first</strong>
            <a href={gamePath(g, "apps")}>Apps</a> hold the campaigns.
          </div>
        )
        : (
          <div class="panel">
            <form method="post" action={`${gamePath(g, "cpa")}`} class="row">
              <Csrf token={k.csrf} />
              <Field id="cpa-app" label="App">
                <Choice
                  id="cpa-app"
                  name="appid"
                  complete={apps.nextCursor === null}
                  options={apps.items.map((a: { appid: string }) => [a.appid, a.appid])}
                />
              </Field>
              <Field id="cpa-code" label="CPA code">
                <input id="cpa-code" name="cpaCode" required />
              </Field>
              <Field id="cpa-sub" label="Sub reason">
                <select id="cpa-sub" name="subReason">
                  {PROMOTION_SUB_REASONS.map((s) => <option value={s}>{subReasonText(s)}</option>)}
                </select>
              </Field>
              <Field id="cpa-asset" label="Item code">
                <input id="cpa-asset" name="assetCode" required size={10} />
              </Field>
              <Field id="cpa-amount" label="Amount">
                <input
                  id="cpa-amount"
                  name="amount"
                  inputmode="numeric"
                  value="1"
                  size={5}
                  required
                />
              </Field>
              <button type="submit">Register campaign</button>
            </form>
          </div>
        )}
    </>,
    { gameIndex: g, section: "cpa", error, status: error ? 400 : 200 },
  );
}

/** Registers the CPA pages. */
export function registerCpaPages(app: Hono<ConsoleEnv>, root: RootApp) {
  app.get("/console/g/:g/cpa", (c) => cpaPage(consoleOf(c, root), gameOf(c)));
  app.post("/console/g/:g/cpa", async (c) => {
    const k = consoleOf(c, root);
    const g = gameOf(c);
    const f = k.form;
    const amount = /^\d{1,10}$/.test(f.amount ?? "") ? Number(f.amount) : f.amount;
    const r = await k.api.call("POST", `/admin/v1/games/${g}/cpa`, {
      appid: f.appid ?? "",
      cpaCode: f.cpaCode ?? "",
      subReason: f.subReason ?? "",
      detail: [{ action: "send", assetCode: f.assetCode ?? "", amount }],
    });
    if (!r.ok) return cpaPage(k, g, r.message);
    k.log("registered CPA campaign", { gameIndex: g, appid: f.appid, cpaCode: f.cpaCode });
    return k.redirect(gamePath(g, "cpa"), `Campaign ${r.body.cpaCode} registered.`);
  });
}
