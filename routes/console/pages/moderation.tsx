/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
/**
 * Moderation: text-detection projects and their word lists (editor, live test box that
 * highlights matches and shows the masked text), and recent flagged chat logs.
 */
import type { Hono } from "hono";
import type { Child } from "hono/jsx";
import type { ConsoleEnv } from "../session.ts";
import type { RootApp } from "../api.ts";
import { type Console, consoleOf } from "../render.tsx";
import {
  Badge,
  Csrf,
  Empty,
  Field,
  gamePath,
  PagedTable,
  plural,
  SecretOnce,
  when,
} from "../layout.tsx";
import { gameOf, lines, seg } from "./params.ts";
import { PAGE_ROWS } from "./games.tsx";

type Span = { start: number; end: number; text: string };
type TestResult = {
  forbidden: boolean;
  words: string[];
  labels?: { word: string; category: string; severity: number }[];
  masked: string;
  matches: Span[];
  spam: string | null;
};

/** The lowest severity that counts and the intensifier choice (create and edit forms). */
function SeverityFields(
  { id, minSeverity = 1, countIntensifiers = false }: {
    id: string;
    minSeverity?: number;
    countIntensifiers?: boolean;
  },
) {
  return (
    <div class="actions">
      <Field
        id={`${id}-severity`}
        label="Lowest severity that counts"
        hint="Matches below it are neither flagged nor masked."
      >
        <select id={`${id}-severity`} name="minSeverity" aria-describedby={`${id}-severity-hint`}>
          {[[1, "1 mild (every match)"], [2, "2 moderate"], [3, "3 strong"], [4, "4 severe"]].map((
            [v, label],
          ) => <option key={v} value={String(v)} selected={v === minSeverity}>{label}</option>)}
        </select>
      </Field>
      <label>
        <input type="checkbox" name="countIntensifiers" value="1" checked={countIntensifiers} />
        {" "}
        Count intensifiers (존나 좋아, fucking great)
      </label>
    </div>
  );
}

/** The severity settings of a submitted form, as the admin API takes them. */
function severityOf(form: Record<string, string | undefined>) {
  return {
    minSeverity: Number(form.minSeverity ?? "1"),
    countIntensifiers: form.countIntensifiers === "1",
  };
}

/** The tested text with each match marked. */
function Highlighted({ text, matches }: { text: string; matches: Span[] }) {
  const chars = Array.from(text);
  const parts: Child[] = [];
  let at = 0;
  for (const m of matches) {
    if (m.start > at) parts.push(chars.slice(at, m.start).join(""));
    parts.push(<mark>{chars.slice(m.start, m.end).join("")}</mark>);
    at = m.end;
  }
  if (at < chars.length) parts.push(chars.slice(at).join(""));
  return <div class="masked" data-highlighted>{parts}</div>;
}

/** The result block of the test box (also returned alone for the live update). */
function TestOutcome({ text, result }: { text: string; result: TestResult }) {
  return (
    <div data-test-result>
      <p>
        <Badge value={result.forbidden ? "forbidden" : "clean"} /> {result.forbidden
          ? `Matched: ${
            (result.labels ?? []).map((l) => `${l.word} (${l.category} ${l.severity})`).join(", ")
          }`
          : "No forbidden word matched."}
        {result.spam && (
          <>
            · spam rule: <strong>{result.spam}</strong>
          </>
        )}
      </p>
      <div class="grid2">
        <div>
          <h3 class="muted">Matches in the text</h3>
          <Highlighted text={text} matches={result.matches} />
        </div>
        <div>
          <h3 class="muted">Masked text</h3>
          <div class="masked" data-masked>{result.masked}</div>
        </div>
      </div>
    </div>
  );
}

async function listPage(
  k: Console,
  g: number,
  extra: { secret?: [string, string][]; error?: string } = {},
) {
  const [projects, flagged] = await Promise.all([
    k.api.get(`/admin/v1/games/${g}/tads/projects?${k.listQuery("cursor", PAGE_ROWS)}`),
    k.api.get(`/admin/v1/games/${g}/chat-logs?${k.listQuery("chat", 20, { flagged: "true" })}`),
  ]);
  const base = gamePath(g, "moderation");
  return k.page(
    "Moderation",
    <>
      <h1>Moderation</h1>
      <p class="sub">
        Word lists screen chat logs and texts; changes take effect on the next request.
      </p>
      {extra.secret && <SecretOnce title="Project created" values={extra.secret} />}
      <h2>Text-detection projects</h2>
      <PagedTable
        label="Projects"
        page={projects}
        base={base}
        query={k.query}
        param="cursor"
        columns={[
          [
            "Project",
            (p) => <a href={`${gamePath(g, "moderation")}/${seg(p.projectKey)}`}>{p.name}</a>,
          ],
          ["Key", (p) => <code>{p.projectKey}</code>],
          ["Words", (p) => `${p.forbiddenWords} forbidden, ${p.allowWords} allowed`],
          ["Version", (p) => p.version],
          ["Changed", (p) => (
            <>
              {when(p.updatedAt)}
              {p.updatedBy ? ` by ${p.updatedBy}` : ""}
            </>
          )],
        ]}
        empty={<Empty title="No projects yet" next="Create one below with the words to detect." />}
      />
      <h2>Create a project</h2>
      <div class="panel">
        <form method="post" action={`/console/g/${g}/moderation`} class="stack">
          <Csrf token={k.csrf} />
          <Field id="p-name" label="Project name">
            <input id="p-name" name="name" required maxlength={200} />
          </Field>
          <Field id="p-words" label="Forbidden words" hint="One word or phrase per line.">
            <textarea id="p-words" name="forbiddenWords" aria-describedby="p-words-hint"></textarea>
          </Field>
          <Field
            id="p-allow"
            label="Allowed words"
            hint="Words that contain a forbidden word but are fine (e.g. assassin)."
          >
            <textarea id="p-allow" name="allowWords" aria-describedby="p-allow-hint"></textarea>
          </Field>
          <SeverityFields id="p" />
          <div class="actions">
            <label>
              <input type="checkbox" name="masking" value="1" checked /> Mask matches
            </label>
            <Field id="p-char" label="Mask character">
              <input id="p-char" name="maskChar" value="*" maxlength={2} size={2} />
            </Field>
          </div>
          <button type="submit">Create project</button>
        </form>
      </div>
      <h2>Recent flagged chat logs</h2>
      <PagedTable
        label="Flagged chat logs"
        page={flagged}
        base={base}
        query={k.query}
        param="chat"
        columns={[
          ["Received", (m) => when(m.receivedAt)],
          ["User", (m) => <code>{m.channelUserId}</code>],
          ["Room", (m) => m.roomNum],
          ["Message", (m) => m.chatMsg],
          [
            "Why",
            (m) =>
              m.forbidden ? `words: ${(m.matchedWords ?? []).join(", ")}` : `spam: ${m.spamRule}`,
          ],
        ]}
        empty={
          <Empty
            title="No flagged chat yet"
            next="Chat logs sent with a game key whose project lists match, or that look like spam, appear here."
          />
        }
      />
    </>,
    { gameIndex: g, section: "moderation", error: extra.error, status: extra.error ? 400 : 200 },
  );
}

async function projectPage(
  k: Console,
  g: number,
  key: string,
  extra: { test?: { text: string; result: TestResult }; secret?: string; error?: string } = {},
) {
  const p = await k.api.get(`/admin/v1/games/${g}/tads/projects/${seg(key)}`);
  const base = `${gamePath(g, "moderation")}/${seg(key)}`;
  return k.page(
    p.name,
    <>
      <p>
        <a href={gamePath(g, "moderation")}>← Moderation</a>
      </p>
      <h1>{p.name}</h1>
      <p class="sub">
        Project <code>{p.projectKey}</code> · version {p.version} · changed {when(p.updatedAt)}
        {p.updatedBy ? ` by ${p.updatedBy}` : ""} · masking{" "}
        {p.masking.enabled ? `on (${p.masking.char})` : "off"} · built-in lexicons{" "}
        {p.builtinLexicon
          ? (p.builtinLanguages ? p.builtinLanguages.join(", ") : "all languages")
          : "off"} · counts severity {p.minSeverity} and up, intensifiers{" "}
        {p.countIntensifiers ? "counted" : "not counted"}
      </p>
      {extra.secret && (
        <SecretOnce
          title="New project secret"
          values={[["Secret key", extra.secret]]}
          note="The old secret stopped working. Copy the new one now: it is shown only this once."
        />
      )}
      <h2>Test a text</h2>
      <div class="panel">
        <form method="post" action={`${base}/test`} class="stack">
          <Csrf token={k.csrf} />
          <Field
            id="test-text"
            label="Text to test"
            hint="Runs through the current lists as text detection would; updates as you type."
          >
            <textarea
              id="test-text"
              name="text"
              data-live-test="test-out"
              aria-describedby="test-text-hint"
            >
              {extra.test?.text ?? ""}
            </textarea>
          </Field>
          <button type="submit">Test</button>
        </form>
        <div id="test-out" aria-live="polite">
          {extra.test && <TestOutcome text={extra.test.text} result={extra.test.result} />}
        </div>
      </div>
      <h2>Word lists</h2>
      <div class="panel">
        <form method="post" action={`${base}/words`} class="stack">
          <Csrf token={k.csrf} />
          <div class="grid2">
            <Field
              id="w-forbidden"
              label={`Forbidden words (${p.forbiddenWords.length})`}
              hint="One per line."
            >
              <textarea id="w-forbidden" name="forbiddenWords" rows={12}>
                {p.forbiddenWords.join("\n")}
              </textarea>
            </Field>
            <Field
              id="w-allow"
              label={`Allowed words (${p.allowWords.length})`}
              hint="One per line."
            >
              <textarea id="w-allow" name="allowWords" rows={12}>
                {p.allowWords.join("\n")}
              </textarea>
            </Field>
          </div>
          <SeverityFields
            id="w"
            minSeverity={p.minSeverity}
            countIntensifiers={p.countIntensifiers}
          />
          <button type="submit">Save word lists</button>
        </form>
      </div>
      <h2>Secret</h2>
      <form
        method="post"
        action={`${base}/rotate`}
        data-confirm="Issue a new project secret? The current one stops working at once: text detection calls made with it are refused until the callers use the new one."
      >
        <Csrf token={k.csrf} />
        <button type="submit" class="secondary">Rotate project secret</button>
      </form>
    </>,
    { gameIndex: g, section: "moderation", error: extra.error, status: extra.error ? 400 : 200 },
  );
}

/** Registers the moderation pages. */
export function registerModerationPages(app: Hono<ConsoleEnv>, root: RootApp) {
  app.get("/console/g/:g/moderation", (c) => listPage(consoleOf(c, root), gameOf(c)));
  app.post("/console/g/:g/moderation", async (c) => {
    const k = consoleOf(c, root);
    const g = gameOf(c);
    const r = await k.api.call("POST", "/admin/v1/tads/projects", {
      name: k.form.name ?? "",
      gameIndex: g,
      forbiddenWords: lines(k.form.forbiddenWords),
      allowWords: lines(k.form.allowWords),
      ...severityOf(k.form),
      masking: { enabled: k.form.masking === "1", char: k.form.maskChar || "*" },
    });
    if (!r.ok) return listPage(k, g, { error: r.message });
    k.log("created project", { gameIndex: g, projectKey: r.body.projectKey });
    return listPage(k, g, {
      secret: [["Project key", r.body.projectKey], ["Secret key", r.body.secretKey]],
    });
  });
  app.get(
    "/console/g/:g/moderation/:p",
    (c) => projectPage(consoleOf(c, root), gameOf(c), c.req.param("p")),
  );
  app.post("/console/g/:g/moderation/:p/words", async (c) => {
    const k = consoleOf(c, root);
    const g = gameOf(c);
    const key = c.req.param("p");
    const body = {
      forbiddenWords: lines(k.form.forbiddenWords),
      allowWords: lines(k.form.allowWords),
      ...severityOf(k.form),
    };
    const r = await k.api.call("PUT", `/admin/v1/games/${g}/tads/projects/${seg(key)}/words`, body);
    if (!r.ok) return projectPage(k, g, key, { error: r.message });
    k.log("updated word lists", { gameIndex: g, projectKey: key, version: r.body.version });
    return k.redirect(
      `${gamePath(g, "moderation")}/${seg(key)}`,
      `Saved: version ${r.body.version}, ${r.body.forbiddenWords} forbidden and ${
        plural(r.body.allowWords, "allowed word")
      }.`,
    );
  });
  app.post("/console/g/:g/moderation/:p/test", async (c) => {
    const k = consoleOf(c, root);
    const g = gameOf(c);
    const key = c.req.param("p");
    const text = k.form.text ?? "";
    const r = await k.api.call("POST", `/admin/v1/games/${g}/tads/projects/${seg(key)}/test`, {
      text,
    });
    if (c.req.query("fragment") === "1") {
      return c.html(
        r.ok
          ? <TestOutcome text={text} result={r.body} />
          : <div class="flash error" role="alert">{r.message}</div>,
      );
    }
    if (!r.ok) return projectPage(k, g, key, { error: r.message });
    return projectPage(k, g, key, { test: { text, result: r.body } });
  });
  app.post("/console/g/:g/moderation/:p/rotate", async (c) => {
    const k = consoleOf(c, root);
    const g = gameOf(c);
    const key = c.req.param("p");
    const r = await k.api.call(
      "POST",
      `/admin/v1/games/${g}/tads/projects/${seg(key)}/rotate-secret`,
    );
    if (!r.ok) return projectPage(k, g, key, { error: r.message });
    k.log("rotated project secret", { gameIndex: g, projectKey: key });
    return projectPage(k, g, key, { secret: r.body.secretKey });
  });
}
