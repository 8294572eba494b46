/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
// Rendered once on the server: keys matter only to client-side reconciliation.
// deno-lint-ignore-file jsx-key
/**
 * The blockchain page's wallet tables: the game's held wallets (both addresses, balance with its
 * unit, nonce, key, low-balance state per network) and its multi-signature wallets.
 */
import type { Child } from "hono/jsx";
import type { ApiResult } from "../api.ts";
import { Badge, Empty, LongId, PagedTable, type PageQuery, when } from "../layout.tsx";

/** A network's state of a wallet, as GET /admin/v1/wallets answers it. */
type NetworkState = Record<string, unknown> & { chainId: number | string; balance: string };

/** A wallet as GET /admin/v1/wallets answers it. */
interface Wallet {
  address: string;
  xplaAddress: string;
  keyHeld: boolean;
  createdAt: string | null;
  polygon: (NetworkState & { nonce: number }) | null;
  xpla: (NetworkState & { sequence: string; active: boolean }) | null;
}

/**
 * A decimal amount with grouped thousands and at most six decimals ("≈" when cut, "< 0.000001"
 * for dust); the exact amount is its title.
 */
export function amountText(decimal: string, unit: string): Child {
  const [whole, fraction = ""] = decimal.split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const shown = fraction.slice(0, 6).replace(/0+$/, "");
  const cut = fraction.replace(/0+$/, "").length > 6;
  const text = cut && !shown && /^0*$/.test(whole)
    ? `< 0.000001 ${unit}`
    : `${cut ? "≈ " : ""}${shown ? `${grouped}.${shown}` : grouped} ${unit}`;
  return <span class="amount" title={`${decimal} ${unit}`}>{text}</span>;
}

/**
 * Whether a network's balance is below the service's low-balance level. The admin wallet read
 * carries that as `lowBalance` (true or false) in the network's state once the gas watch reports
 * it; a read without the field shows "not reported" and nothing else changes.
 */
export function lowBalanceOf(state: Record<string, unknown> | null): "low" | "ok" | null {
  const reported = state?.lowBalance;
  return typeof reported === "boolean" ? (reported ? "low" : "ok") : null;
}

function LowBalance({ state }: { state: Record<string, unknown> | null }) {
  const level = lowBalanceOf(state);
  if (level === "low") return <span class="badge bad">low balance</span>;
  if (level === "ok") return <span class="badge ok">balance above the low level</span>;
  return <span class="muted small">low-balance level not reported</span>;
}

function NetworkCell(
  { state, unit, counter }: { state: NetworkState | null; unit: string; counter: Child },
) {
  if (!state) return <span class="muted">no node configured</span>;
  return (
    <div class="netstate">
      <strong>{amountText(state.balance, unit)}</strong>
      <span class="muted">
        {counter} · chain {String(state.chainId)}
      </span>
      <LowBalance state={state} />
    </div>
  );
}

/** A wallet listing's failure (no node, node down) said in place of the table. */
function Unavailable({ label, result }: { label: string; result: ApiResult }) {
  if (result.ok) return null;
  return (
    <div class="empty" role="status">
      <strong>{label} cannot be shown now</strong>
      <span>{result.message}</span>
    </div>
  );
}

/** The game's held wallets with their state on each network. */
export function WalletsTable(
  props: { result: ApiResult; base: string; query: PageQuery; param: string },
) {
  if (!props.result.ok) return <Unavailable label="Wallets" result={props.result} />;
  return (
    <PagedTable
      label="Wallets"
      page={props.result.body}
      base={props.base}
      query={props.query}
      param={props.param}
      columns={[
        ["Addresses", (w: Wallet) => (
          <div class="addresses">
            <span class="net">Polygon</span> <LongId value={w.address} />
            <span class="net">XPLA</span> <LongId value={w.xplaAddress} />
          </div>
        )],
        ["Polygon", (w: Wallet) => (
          <NetworkCell
            state={w.polygon}
            unit="POL"
            counter={w.polygon ? `nonce ${w.polygon.nonce}` : ""}
          />
        )],
        ["XPLA", (w: Wallet) => (
          <NetworkCell
            state={w.xpla}
            unit="XPLA"
            counter={w.xpla
              ? (w.xpla.active ? `sequence ${w.xpla.sequence}` : "not on chain yet")
              : ""}
          />
        )],
        ["Key", (w: Wallet) => <Badge value={w.keyHeld ? "held" : "not held"} />],
        ["Created", (w: Wallet) => when(w.createdAt)],
      ]}
      empty={
        <Empty
          title="No wallets yet"
          next={
            <span>
              Create one with <code>POST /admin/v1/wallets</code>{" "}
              and this game's index: the service keeps its key sealed and signs with it.
            </span>
          }
        />
      }
    />
  );
}

/** The game's multi-signature wallets. */
export function MultisigTable(
  props: { result: ApiResult; base: string; query: PageQuery; param: string },
) {
  if (!props.result.ok) {
    return <Unavailable label="Multi-signature wallets" result={props.result} />;
  }
  return (
    <PagedTable
      label="Multi-signature wallets"
      page={props.result.body}
      base={props.base}
      query={props.query}
      param={props.param}
      columns={[
        ["Network", (m) => (
          <>
            {m.network === "xpla" ? "XPLA" : "Polygon"}{" "}
            <span class="muted">chain {String(m.chainId)}</span>
          </>
        )],
        ["Address", (m) => <LongId value={m.address} />],
        ["Signatures", (m) => `${m.threshold} of ${m.owners.length}`],
        [
          "Owners",
          (m) => <div class="addrlist">{m.owners.map((o: string) => <LongId value={o} />)}</div>,
        ],
        ["State", (m) => <Badge value={m.state} />],
        ["Created", (m) => when(m.createdAt)],
        ["Deployed", (m) => when(m.deployedAt)],
      ]}
      empty={
        <Empty
          title="No multi-signature wallets yet"
          next={
            <span>
              An app creates one through the blockchain API (<code>POST /core/v1/multisig</code>
              {" "}
              with its access token); it shows here as CREATING until its creation is mined.
            </span>
          }
        />
      }
    />
  );
}
