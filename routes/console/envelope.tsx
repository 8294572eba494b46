/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
/** Console failures render as a readable HTML page with the message, never a stack trace. */
import type { Context } from "hono";
import type { AppEnv, Failure, Family } from "../env.ts";
import { statusOf } from "../env.ts";
import { Document } from "./layout.tsx";

/** Renders a failure as a page. */
export function renderConsoleError(c: Context<AppEnv>, f: Failure): Response | Promise<Response> {
  const status = statusOf(f);
  const signIn = status === 401;
  const title = status === 404
    ? "Not found"
    : status === 403
    ? "Refused"
    : signIn
    ? "Sign in again"
    : status >= 500
    ? "Something went wrong"
    : "That did not work";
  return c.html(
    <Document title={title}>
      <div class="signin">
        <div class="panel" role="alert">
          <h1>{title}</h1>
          <p>{f.message}</p>
          <p class="muted">Code {f.code} · request {c.get("requestId")}</p>
          <p>
            {signIn
              ? <a class="button" href="/console/sign-in">Sign in</a>
              : <a class="button" href="/console">Back to the console</a>}
          </p>
        </div>
      </div>
    </Document>,
    // deno-lint-ignore no-explicit-any
    status as any,
  );
}

/** The console family: HTML failures under /console. */
export const consoleFamily: Family = {
  name: "console",
  prefixes: ["/console"],
  renderError: renderConsoleError,
};
