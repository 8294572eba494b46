/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
// Rendered once on the server: keys matter only to client-side reconciliation.
// deno-lint-ignore-file jsx-key
/** The console's page shell and shared pieces: navigation, tables, empty states, secrets. */
import type { Child, FC, PropsWithChildren } from "hono/jsx";

/** What every signed-in page knows. */
export interface PageContext {
  csrf: string;
  games: { gameIndex: number; name: string }[];
  gameIndex?: number;
  section?: string;
  flash?: { kind: "ok" | "error"; text: string } | null;
}

const SECTIONS: [string, string][] = [
  ["overview", "Overview"],
  ["apps", "Apps"],
  ["keys", "Keys"],
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
      {ctx.games.length > 0 && (
        <form method="get" action="/console/go">
          <label for="game-switch">Game</label>
          <select id="game-switch" name="game">
            {ctx.games.map((g) => (
              <option value={String(g.gameIndex)} selected={g.gameIndex === ctx.gameIndex}>
                {g.name} (#{g.gameIndex})
              </option>
            ))}
          </select>
          <button type="submit">Open</button>
        </form>
      )}
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
        {ctx.gameIndex !== undefined
          ? (
            <>
              <h2>Game #{ctx.gameIndex}</h2>
              {SECTIONS.map(([key, label]) => (
                <a
                  href={gamePath(ctx.gameIndex!, key)}
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
          {props.rows.map((row) => <tr>{props.columns.map(([, cell]) => <td>{cell(row)}</td>)}
          </tr>)}
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

/** A status badge coloured by meaning. */
export const Badge: FC<{ value: string | null | undefined }> = ({ value }) => {
  const v = value ?? "unknown";
  const kind = /^(DELIVERED|SUCCESS|healthy|sent|completed|active|available|clean)$/.test(v)
    ? "ok"
    : /^(FAILED|unhealthy|revoked|cancelled|forbidden)$/.test(v)
    ? "bad"
    : /^(RETRYING|PENDING|WAITING|REGISTERED|sending|registered|pending|leased)$/.test(v)
    ? "warn"
    : "";
  return <span class={`badge ${kind}`}>{v}</span>;
};

/** A timestamp shown in UTC, short. */
export function when(iso: string | null | undefined): string {
  if (!iso) return "—";
  return iso.replace("T", " ").replace(/\.\d+Z$/, "Z").replace(/:\d\dZ$/, " UTC");
}

/** Unix seconds shown in UTC, short. */
export function whenUnix(seconds: number | null | undefined): string {
  return seconds == null ? "—" : when(new Date(seconds * 1000).toISOString());
}
