/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
// Rendered once on the server: keys matter only to client-side reconciliation.
// deno-lint-ignore-file jsx-key
/** The console's page shell and shared pieces: navigation, tables, empty states, secrets. */
import type { Child, FC, PropsWithChildren } from "hono/jsx";

/** A game as the shell names it. */
export interface GameRef {
  gameIndex: number;
  name: string;
}

/** What every signed-in page knows. */
export interface PageContext {
  csrf: string;
  /** The newest games, offered as the switcher's suggestions. */
  recent: GameRef[];
  /** The game the page belongs to. */
  game?: GameRef;
  section?: string;
  flash?: { kind: "ok" | "error"; text: string } | null;
}

const SECTIONS: [string, string][] = [
  ["overview", "Overview"],
  ["apps", "Apps"],
  ["keys", "Keys"],
  ["webhooks", "Webhooks"],
  ["moderation", "Moderation"],
  ["items", "Items"],
  ["cpa", "CPA"],
  ["blockchain", "Blockchain"],
  ["otp", "OTP"],
  ["push", "Push"],
];

/** The URL of a game's section. */
export function gamePath(gameIndex: number, section = "overview"): string {
  return section === "overview" ? `/console/g/${gameIndex}` : `/console/g/${gameIndex}/${section}`;
}

/** A hidden input with the session's CSRF token; every form has one. */
export const Csrf: FC<{ token: string }> = ({ token }) => (
  <input type="hidden" name="_csrf" value={token} />
);

/** The HTML document around a page. */
export const Document: FC<PropsWithChildren<{ title: string }>> = ({ title, children }) => (
  <html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="referrer" content="same-origin" />
      <title>{title} · Game Platform console</title>
      <link rel="stylesheet" href="/console/assets/console.css" />
      <script src="/console/assets/console.js" defer></script>
    </head>
    <body>{children}</body>
  </html>
);

/** A signed-in page: top bar with the game switcher and sign-out, section navigation, content. */
export const Shell: FC<PropsWithChildren<{ title: string; ctx: PageContext }>> = (
  { title, ctx, children },
) => (
  <Document title={title}>
    <a class="skip" href="#main">Skip to content</a>
    <header class="top">
      <a class="brand" href="/console">
        Game Platform <span>console</span>
      </a>
      <form method="get" action="/console/go" class="switch" role="search">
        <label for="game-switch">Game</label>
        <input
          id="game-switch"
          name="q"
          type="search"
          list="game-suggestions"
          placeholder="name or #index"
          autocomplete="off"
          value={ctx.game ? `#${ctx.game.gameIndex} ${ctx.game.name}` : ""}
        />
        <datalist id="game-suggestions">
          {ctx.recent.map((g) => <option value={`#${g.gameIndex} ${g.name}`}></option>)}
        </datalist>
        <button type="submit">Open</button>
      </form>
      <span class="spacer"></span>
      <a href="/console/games">All games</a>
      <a href="/docs">API docs</a>
      <form method="post" action="/console/sign-out">
        <Csrf token={ctx.csrf} />
        <button type="submit">Sign out</button>
      </form>
    </header>
    <div class="frame">
      <nav class="side" aria-label="Sections">
        {ctx.game
          ? (
            <>
              <h2 class="game-name">
                {ctx.game.name} <span>#{ctx.game.gameIndex}</span>
              </h2>
              {SECTIONS.map(([key, label]) => (
                <a
                  href={gamePath(ctx.game!.gameIndex, key)}
                  aria-current={ctx.section === key ? "page" : undefined}
                >
                  {label}
                </a>
              ))}
            </>
          )
          : (
            <>
              <h2>Console</h2>
              <a href="/console/games" aria-current={ctx.section === "games" ? "page" : undefined}>
                Games
              </a>
            </>
          )}
      </nav>
      <main id="main">
        {ctx.flash && (
          <div
            class={`flash ${ctx.flash.kind}`}
            role={ctx.flash.kind === "error" ? "alert" : "status"}
          >
            {ctx.flash.text}
          </div>
        )}
        {children}
      </main>
    </div>
  </Document>
);

// Rows are admin API JSON; each page knows the fields of its own listing.
// deno-lint-ignore no-explicit-any
type Row = any;

/** A table with a header row; shows the empty state instead when there are no rows. */
export function Table(props: {
  label: string;
  rows: Row[];
  columns: [string, (row: Row) => Child][];
  empty: Child;
}) {
  if (props.rows.length === 0) return <div class="empty">{props.empty}</div>;
  return (
    <div class="tablewrap">
      <table aria-label={props.label}>
        <thead>
          <tr>{props.columns.map(([h]) => <th scope="col">{h}</th>)}</tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr>{props.columns.map(([h, cell]) => <td data-label={h}>{cell(row)}</td>)}</tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** An empty state: what is missing and what to do next. */
export const Empty: FC<{ title: string; next: Child }> = ({ title, next }) => (
  <>
    <strong>{title}</strong>
    {next}
  </>
);

/** A secret shown once, with a copy button. */
export const SecretOnce: FC<{ title: string; values: [string, string][]; note?: string }> = (
  { title, values, note },
) => (
  <section class="secret" aria-live="polite" data-secret-once>
    <strong>{title}</strong>
    <p class="muted">
      {note ?? "Copy it now: it is shown only this once and is stored only as a hash or sealed."}
    </p>
    {values.map(([label, value], i) => (
      <div class="value">
        <span>{label}:</span>
        <code id={`secret-${i}`}>{value}</code>
        <button type="button" class="secondary small" data-copy={`secret-${i}`}>Copy</button>
      </div>
    ))}
  </section>
);

/** A labelled form field. */
export const Field: FC<PropsWithChildren<{ id: string; label: string; hint?: string }>> = (
  { id, label, hint, children },
) => (
  <div class="field">
    <label for={id}>{label}</label>
    {children}
    {hint && <span class="hint" id={`${id}-hint`}>{hint}</span>}
  </div>
);

/**
 * A long identifier in monospace (an on-chain address) that wraps, when its column is narrow, at
 * its middle rather than at any character, and breaks elsewhere only when even half does not fit;
 * copying it still yields one string.
 */
export const LongId: FC<{ value: string }> = ({ value }) => {
  const half = Math.ceil(value.length / 2);
  return (
    <code class="longid">
      {value.slice(0, half)}
      <wbr />
      {value.slice(half)}
    </code>
  );
};

/** A status badge coloured by meaning. */
export const Badge: FC<{ value: string | null | undefined }> = ({ value }) => {
  const v = value ?? "unknown";
  const kind =
    /^(DELIVERED|SUCCESS|DEPLOYED|healthy|sent|completed|active|available|clean|held)$/.test(v)
      ? "ok"
      : /^(FAILED|unhealthy|revoked|cancelled|forbidden)$/.test(v)
      ? "bad"
      : /^(RETRYING|PENDING|WAITING|REGISTERED|CREATING|sending|registered|pending|leased)$/.test(v)
      ? "warn"
      : "";
  return <span class={`badge ${kind}`}>{v}</span>;
};

/** A timestamp as text in UTC, short ("2026-05-01 10:04 UTC"), for attributes and titles. */
export function whenText(iso: string | null | undefined): string {
  if (!iso) return "—";
  return iso.replace("T", " ").replace(/\.\d+Z$/, "Z").replace(/:\d\dZ$/, " UTC");
}

/** Unix seconds as text in UTC, short. */
export function whenUnixText(seconds: number | null | undefined): string {
  return seconds == null ? "—" : whenText(new Date(seconds * 1000).toISOString());
}

/**
 * A timestamp: UTC on the page; the script adds the viewer's local time beside it and, for
 * events within a week, how long ago or from now (the server does not know the viewer's zone).
 */
export function when(iso: string | null | undefined): Child {
  if (!iso) return <span class="muted">—</span>;
  return <time datetime={iso} data-when title={iso}>{whenText(iso)}</time>;
}

/** Unix seconds as a timestamp (see `when`). */
export function whenUnix(seconds: number | null | undefined): Child {
  return seconds == null ? when(null) : when(new Date(seconds * 1000).toISOString());
}

/** The noun for a count: "app" for 1, "apps" otherwise. */
export function noun(n: number, one: string, many = `${one}s`): string {
  return n === 1 ? one : many;
}

/** "1 app", "3 apps": a count with its noun. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en-US")} ${noun(n, one, many)}`;
}

/** The query of the page being shown (a GET's own; a form's answer starts from none). */
export type PageQuery = URLSearchParams;

/** The URL of a list page with one of its parameters set (or removed when `value` is null). */
export function withParam(base: string, query: PageQuery, name: string, value: string | null) {
  const q = new URLSearchParams(query);
  if (value === null) q.delete(name);
  else q.set(name, value);
  const text = q.toString();
  return text ? `${base}?${text}` : base;
}

/**
 * The links under a list: its next page (the admin API's cursor in the list's own parameter,
 * every other parameter of the page kept: filters, other lists' pages) and back to its first.
 */
export function Pager(props: {
  label: string;
  base: string;
  query: PageQuery;
  param: string;
  next: string | null;
}) {
  const here = props.query.get(props.param);
  if (!props.next && !here) return null;
  const anchor = `#${props.param}-list`;
  return (
    <nav class="pager" aria-label={`${props.label} pages`}>
      {here && (
        <a
          class="button secondary small"
          href={withParam(props.base, props.query, props.param, null) + anchor}
        >
          First page
        </a>
      )}
      {props.next
        ? (
          <a
            class="button secondary small"
            rel="next"
            href={withParam(props.base, props.query, props.param, props.next) + anchor}
          >
            Next page
          </a>
        )
        : <span class="muted">Last page</span>}
    </nav>
  );
}

/** A page of an admin list, as the admin API answers it. */
export interface ListPage {
  items: Row[];
  nextCursor: string | null;
}

/** A table of one page of a list with its pager; `param` names the list's cursor in the URL. */
export function PagedTable(props: {
  label: string;
  page: ListPage;
  columns: [string, (row: Row) => Child][];
  empty: Child;
  base: string;
  query: PageQuery;
  param: string;
}) {
  return (
    <div id={`${props.param}-list`} class="list">
      <Table
        label={props.label}
        rows={props.page.items}
        columns={props.columns}
        empty={props.empty}
      />
      <Pager
        label={props.label}
        base={props.base}
        query={props.query}
        param={props.param}
        next={props.page.nextCursor}
      />
    </div>
  );
}

/**
 * A choice among a list's items for a form: a select while the whole list fits on one page, else
 * a text field suggesting the newest (any other is typed: the list is longer than a page).
 */
export function Choice(props: {
  id: string;
  name: string;
  options: [string, string][];
  complete: boolean;
  empty?: string;
}) {
  if (props.complete) {
    return (
      <select id={props.id} name={props.name}>
        {props.empty !== undefined && <option value="">{props.empty}</option>}
        {props.options.map(([value, label]) => <option value={value}>{label}</option>)}
      </select>
    );
  }
  return (
    <>
      <input
        id={props.id}
        name={props.name}
        list={`${props.id}-options`}
        autocomplete="off"
        aria-describedby={`${props.id}-more`}
      />
      <datalist id={`${props.id}-options`}>
        {props.options.map(([value, label]) => <option value={value}>{label}</option>)}
      </datalist>
      <span class="hint" id={`${props.id}-more`}>
        The newest {props.options.length} are suggested; type any other.
      </span>
    </>
  );
}
