/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
/** OTP: the game's topics (sending information for the Topic header) and the log outbox. */
import type { Hono } from "hono";
import type { ConsoleEnv } from "../session.ts";
import type { RootApp } from "../api.ts";
import { type Console, consoleOf } from "../render.tsx";
import { Csrf, Empty, Field, gamePath, PagedTable, Table, when } from "../layout.tsx";
import { gameOf } from "./params.ts";
import { PAGE_ROWS } from "./games.tsx";

async function otpPage(k: Console, g: number, error?: string) {
  const [topics, outbox] = await Promise.all([
    k.api.get(`/admin/v1/games/${g}/otp-topics?${k.listQuery("cursor", PAGE_ROWS)}`),
    k.api.get("/admin/v1/otp/outbox"),
  ]);
  return k.page(
    "OTP",
    <>
      <h1>One-time passwords</h1>
      <p class="sub">A topic names the sending settings a request selects with its Topic header.</p>
      <PagedTable
        label="OTP topics"
        page={topics}
        base={gamePath(g, "otp")}
        query={k.query}
        param="cursor"
        columns={[
          ["Topic", (t) => <code>{t.topic}</code>],
          ["Service name", (t) => t.serviceName],
          ["Sending", (t) => t.mode === "direct" ? `direct to ${t.callbackUrl}` : "provider"],
          ["Valid for", (t) => `${t.expirySeconds} s`],
          ["Time zone", (t) => t.timeZone],
          ["Digits", (t) => t.codeLength],
          ["Changed", (t) => when(t.updatedAt)],
        ]}
        empty={
          <Empty
            title="No topics yet"
            next="Register one below; OTP requests name it in the Topic header."
          />
        }
      />
      <h2>Register or replace a topic</h2>
      <div class="panel">
        <form method="post" action={gamePath(g, "otp")} class="stack">
          <Csrf token={k.csrf} />
          <div class="actions">
            <Field id="t-topic" label="Topic">
              <input id="t-topic" name="topic" required maxlength={100} />
            </Field>
            <Field id="t-name" label="Service name" hint="Shown in the message.">
              <input
                id="t-name"
                name="serviceName"
                required
                maxlength={100}
                aria-describedby="t-name-hint"
              />
            </Field>
          </div>
          <div class="actions">
            <Field id="t-mode" label="Sending">
              <select id="t-mode" name="mode">
                <option value="provider">provider (SMS / e-mail)</option>
                <option value="direct">direct (callback URL)</option>
              </select>
            </Field>
            <Field id="t-cb" label="Callback URL (direct)">
              <input id="t-cb" name="callbackUrl" type="url" />
            </Field>
          </div>
          <div class="actions">
            <Field id="t-exp" label="Valid for (seconds)">
              <input id="t-exp" name="expirySeconds" inputmode="numeric" value="180" size={6} />
            </Field>
            <Field id="t-tz" label="Time zone">
              <input id="t-tz" name="timeZone" value="Asia/Seoul" />
            </Field>
            <Field id="t-len" label="Digits">
              <input id="t-len" name="codeLength" inputmode="numeric" value="6" size={3} />
            </Field>
          </div>
          <button type="submit">Save topic</button>
        </form>
      </div>
      <h2>Outbox</h2>
      <p class="muted">
        SMS provider <code>{outbox.sms}</code>, e-mail provider{" "}
        <code>{outbox.email}</code>. The log provider keeps messages here until they expire
        (embedded dev mode).
      </p>
      <Table
        label="OTP outbox"
        rows={outbox.messages}
        columns={[
          ["Sent", (m) => when(m.sentAt)],
          ["Channel", (m) => m.channel],
          ["To", (m) => m.to],
          ["Message", (m) => m.text],
          ["Expires", (m) => when(m.expiresAt)],
        ]}
        empty={
          <Empty
            title="The outbox is empty"
            next="Codes sent through the log provider appear here until they expire."
          />
        }
      />
    </>,
    { gameIndex: g, section: "otp", error, status: error ? 400 : 200 },
  );
}

function num(v: string | undefined): number | string | undefined {
  if (v === undefined || v === "") return undefined;
  return /^\d{1,9}$/.test(v) ? Number(v) : v;
}

/** Registers the OTP pages. */
export function registerOtpPages(app: Hono<ConsoleEnv>, root: RootApp) {
  app.get("/console/g/:g/otp", (c) => otpPage(consoleOf(c, root), gameOf(c)));
  app.post("/console/g/:g/otp", async (c) => {
    const k = consoleOf(c, root);
    const g = gameOf(c);
    const f = k.form;
    const r = await k.api.call("POST", `/admin/v1/games/${g}/otp-topics`, {
      topic: f.topic ?? "",
      serviceName: f.serviceName ?? "",
      mode: f.mode ?? "",
      callbackUrl: f.callbackUrl || undefined,
      expirySeconds: num(f.expirySeconds),
      timeZone: f.timeZone || undefined,
      codeLength: num(f.codeLength),
    });
    if (!r.ok) return otpPage(k, g, r.message);
    k.log("saved OTP topic", { gameIndex: g, topic: r.body.topic });
    return k.redirect(gamePath(g, "otp"), `Topic ${r.body.topic} saved.`);
  });
}
