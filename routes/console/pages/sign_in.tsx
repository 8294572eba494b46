/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
/** Sign-in with the admin token, and sign-out. */
import type { Context, Hono } from "hono";
import { deleteCookie, getCookie } from "hono/cookie";
import { Document } from "../layout.tsx";
import {
  adminTokenMatches,
  type ConsoleEnv,
  csrfMatches,
  endSession,
  readSession,
  SIGN_IN_COOKIE,
  signInCsrf,
  startSession,
} from "../session.ts";
import type { AppEnv } from "../../env.ts";
import { DomainError } from "../../../lib/errors.ts";
import { assertAdminTokenAttemptAllowed, countAdminTokenFailure } from "../../auth.ts";

/** "5 minutes", "1 minute" or "40 seconds". */
function waitText(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

function safeNext(next: unknown): string {
  return typeof next === "string" && /^\/console(\/[A-Za-z0-9/_\-.%]*)?$/.test(next)
    ? next
    : "/console";
}

function signInPage(
  c: Context<AppEnv>,
  options: { next: string; error?: string; status?: number },
) {
  const csrf = signInCsrf(c);
  return c.html(
    <Document title="Sign in">
      <main class="signin" id="main">
        <h1>Game Platform console</h1>
        <p class="sub">Sign in with the service's admin token.</p>
        {options.error && <div class="flash error" role="alert">{options.error}</div>}
        <div class="panel">
          <form method="post" action="/console/sign-in" class="stack">
            <input type="hidden" name="_csrf" value={csrf} />
            <input type="hidden" name="next" value={options.next} />
            <div class="field">
              <label for="token">Admin token</label>
              <input
                id="token"
                name="token"
                type="password"
                autocomplete="current-password"
                required
                autofocus
                aria-describedby="token-hint"
              />
              <span class="hint" id="token-hint">
                ADMIN_TOKEN of this deployment; in embedded mode it is printed at start-up.
              </span>
            </div>
            <button type="submit">Sign in</button>
          </form>
        </div>
      </main>
    </Document>,
    // deno-lint-ignore no-explicit-any
    (options.status ?? 200) as any,
  );
}

/** Registers GET/POST /console/sign-in and POST /console/sign-out. */
export function registerSignIn(app: Hono<ConsoleEnv>) {
  app.get("/console/sign-in", async (c) => {
    const ctx = c as unknown as Context<AppEnv>;
    if (await readSession(ctx)) return c.redirect("/console", 303);
    return signInPage(ctx, { next: safeNext(c.req.query("next")) });
  });
  app.post("/console/sign-in", async (c) => {
    const ctx = c as unknown as Context<AppEnv>;
    const form = await c.req.parseBody();
    const next = safeNext(form.next);
    if (!csrfMatches(form._csrf, getCookie(c, SIGN_IN_COOKIE))) {
      throw new DomainError(
        "forbidden",
        "CSRF_REJECTED",
        "This sign-in form did not come from this console (missing or wrong CSRF token). Reload the page and try again.",
      );
    }
    const token = typeof form.token === "string" ? form.token : "";
    const s = c.get("services");
    // The admin API's limit on wrong admin tokens, counted per client address: a wrong token
    // here counts there too, and an address the admin API refuses cannot sign in either.
    try {
      await assertAdminTokenAttemptAllowed(ctx);
    } catch (err) {
      if (!(err instanceof DomainError) || err.kind !== "rate_limited") throw err;
      const retryAfterS = Number(err.details?.retryAfterS ?? 60);
      c.header("Retry-After", String(retryAfterS));
      return signInPage(ctx, {
        next,
        error: `Too many wrong tokens from here. Try again in ${waitText(retryAfterS)}.`,
        status: 429,
      });
    }
    if (!token || !(await adminTokenMatches(s, token))) {
      await countAdminTokenFailure(ctx);
      s.log.warn("console sign-in refused", { requestId: c.get("requestId") });
      return signInPage(ctx, { next, error: "That admin token is not right.", status: 401 });
    }
    deleteCookie(c, SIGN_IN_COOKIE, { path: "/console" });
    const session = await startSession(ctx);
    s.log.info("console action", {
      actor: `console session ${session.sid.slice(0, 8)}`,
      action: "signed in",
      requestId: c.get("requestId"),
    });
    return c.redirect(next, 303);
  });
  app.post("/console/sign-out", async (c) => {
    const ctx = c as unknown as Context<AppEnv>;
    const session = await readSession(ctx);
    const form = await c.req.parseBody();
    if (session) {
      if (!csrfMatches(form._csrf, session.csrf)) {
        throw new DomainError(
          "forbidden",
          "CSRF_REJECTED",
          "This form did not come from your console session (missing or wrong CSRF token).",
        );
      }
      await endSession(ctx, session);
      c.get("services").log.info("console action", {
        actor: `console session ${session.sid.slice(0, 8)}`,
        action: "signed out",
        requestId: c.get("requestId"),
      });
    }
    return c.redirect("/console/sign-in", 303);
  });
}
