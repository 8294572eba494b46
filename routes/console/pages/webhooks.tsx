/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
/**
 * Webhooks: the game's Standard Webhooks signing secret (when it was made, whether a replaced one
 * still signs), revealing it after a confirmation, rotating it, and how a receiver verifies.
 */
import type { Hono } from "hono";
import type { ConsoleEnv } from "../session.ts";
import type { RootApp } from "../api.ts";
import { type Console, consoleOf } from "../render.tsx";
import { Csrf, gamePath, plural, SecretOnce, when, whenText } from "../layout.tsx";
import { gameOf } from "./params.ts";

/** What the admin API answers with a secret. */
interface Revealed {
  secret: string;
  previousValidUntil: string | null;
}

interface Shown {
  title: string;
  secret: string;
  note: string;
}

function graceText(seconds: number): string {
  return seconds % 3600 === 0
    ? plural(seconds / 3600, "hour")
    : plural(Math.ceil(seconds / 60), "minute");
}

async function webhooksPage(
  k: Console,
  g: number,
  extra: { shown?: Shown; graceSeconds: number; error?: string },
) {
  const state = await k.api.get(`/admin/v1/games/${g}/webhook-secret`);
  const base = gamePath(g, "webhooks");
  const grace = graceText(extra.graceSeconds);
  return k.page(
    "Webhooks",
    <>
      <h1>Webhooks</h1>
      <p class="sub">
        The game's transaction callbacks, OTP direct-send callbacks and push webhooks are signed
        with one secret in the Standard Webhooks format (<code>webhook-id</code>,{" "}
        <code>webhook-timestamp</code>, <code>webhook-signature</code>).
      </p>
      {extra.shown && (
        <SecretOnce
          title={extra.shown.title}
          values={[["Signing secret", extra.shown.secret]]}
          note={extra.shown.note}
        />
      )}
      <h2>Signing secret</h2>
      <div class="panel">
        {state.exists
          ? (
            <p>
              Created or last rotated {when(state.rotatedAt)}.
              {state.previousValidUntil && (
                <>
                  {" "}The previous secret also signs until {when(state.previousValidUntil)}.
                </>
              )}
            </p>
          )
          : (
            <p>
              This game has no secret yet: one is made with its first callback, or when you reveal
              it below.
            </p>
          )}
        <div class="actions">
          <form
            method="post"
            action={`${base}/reveal`}
            data-confirm="Show the signing secret on screen? Anyone who sees it can sign callbacks your servers will accept. The reveal is logged."
          >
            <Csrf token={k.csrf} />
            <button type="submit" class="secondary">Reveal secret</button>
          </form>
          <form
            method="post"
            action={`${base}/rotate`}
            data-confirm={`Rotate the signing secret? The current secret keeps signing next to the new one for ${grace}; after that, receivers still verifying with it reject every callback and webhook of this game.`}
          >
            <Csrf token={k.csrf} />
            <button type="submit" class="danger">Rotate secret</button>
          </form>
        </div>
      </div>
      <h2>Verifying a message</h2>
      <p>
        With the <code>standardwebhooks</code>{" "}
        package (npm), verify the exact body before parsing it; a wrong signature or a timestamp
        more than 5 minutes off throws:
      </p>
      <pre class="masked"><code>{`import { Webhook } from "standardwebhooks";
const wh = new Webhook(process.env.WEBHOOK_SECRET); // "whsec_…"
const event = wh.verify(await request.text(), Object.fromEntries(request.headers));`}</code></pre>
    </>,
    { gameIndex: g, section: "webhooks", error: extra.error, status: extra.error ? 400 : 200 },
  );
}

/**
 * A console action on the secret: calls the admin API (`path` under the game's webhook-secret),
 * logs it, and shows the page with the secret it answered, described by `shown`.
 */
function secretAction(
  app: Hono<ConsoleEnv>,
  root: RootApp,
  action: {
    route: string;
    path: string;
    log: string;
    shown: (body: Revealed) => Omit<Shown, "secret">;
  },
) {
  app.post(action.route, async (c) => {
    const k = consoleOf(c, root);
    const g = gameOf(c);
    const graceSeconds = c.get("services").config.WEBHOOK_ROTATION_GRACE_SECONDS;
    const r = await k.api.call("POST", `/admin/v1/games/${g}/webhook-secret${action.path}`);
    if (!r.ok) return webhooksPage(k, g, { graceSeconds, error: r.message });
    k.log(action.log, { gameIndex: g });
    return webhooksPage(k, g, {
      graceSeconds,
      shown: { ...action.shown(r.body), secret: r.body.secret },
    });
  });
}

/** Registers the webhooks page. */
export function registerWebhookPages(app: Hono<ConsoleEnv>, root: RootApp) {
  app.get("/console/g/:g/webhooks", (c) =>
    webhooksPage(consoleOf(c, root), gameOf(c), {
      graceSeconds: c.get("services").config.WEBHOOK_ROTATION_GRACE_SECONDS,
    }));
  secretAction(app, root, {
    route: "/console/g/:g/webhooks/reveal",
    path: "/reveal",
    log: "revealed webhook secret",
    shown: () => ({
      title: "Signing secret",
      note: "Shown on request, and the reveal is logged. It stays off the page once you leave.",
    }),
  });
  secretAction(app, root, {
    route: "/console/g/:g/webhooks/rotate",
    path: "",
    log: "rotated webhook secret",
    shown: (body) => ({
      title: "New signing secret",
      note: body.previousValidUntil
        ? `Copy it now: it is shown only this once. The previous secret also signs until ${
          whenText(body.previousValidUntil)
        }; switch your receivers before then.`
        : "Copy it now: it is shown only this once.",
    }),
  });
}
