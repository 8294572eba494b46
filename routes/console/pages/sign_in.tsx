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

/** Wrong tokens allowed per client address in FAILURE_WINDOW_MS before sign-in is refused. */
const MAX_FAILURES = 10;
const FAILURE_WINDOW_MS = 15 * 60_000;

/** The client address the edge reports (Cloudflare, or a proxy's first X-Forwarded-For hop). */
function clientOf(c: Context): string | null {
  const ip = c.req.header("cf-connecting-ip") ??
    c.req.header("x-forwarded-for")?.split(",")[0]?.trim();
  return ip && /^[0-9A-Fa-f:.]{2,45}$/.test(ip) ? ip : null;
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
    // Without a reported address every client would share one counter, and anyone could lock
    // everyone out; the admin token's length is the defence there.
    const client = clientOf(c);
    const failures = client ? `console:signin-failures:${client}` : null;
    if (failures && Number(await s.kv.get(failures) ?? 0) >= MAX_FAILURES) {
      return signInPage(ctx, {
        next,
        error: "Too many wrong tokens from here. Wait 15 minutes and try again.",
        status: 429,
      });
    }
    if (!token || !(await adminTokenMatches(s, token))) {
      if (failures) await s.kv.incr(failures, { ttlMs: FAILURE_WINDOW_MS });
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
