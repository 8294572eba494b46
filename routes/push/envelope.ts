/** Push envelope: HTTP status plus `{error:{reason}}`; every response carries a fresh `UUID` header. */
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv, Failure, Family } from "../env.ts";
import { statusOf } from "../env.ts";

/** Renders a failure. */
export function renderPushError(c: Context<AppEnv>, f: Failure): Response {
  // The spec's push statuses: 400 bad request, 401 key problems (including a key without the
  // push permission), 403 only for a scheme other than Bearer, 404, 5xx.
  const status = f.kind === "invalid" && f.status !== 413
    ? 400
    : f.code === "SCOPE_MISSING"
    ? 401
    : statusOf(f);
  c.header("UUID", crypto.randomUUID());
  // deno-lint-ignore no-explicit-any
  return c.json({ error: { reason: f.message } }, status as any);
}

/** Adds a fresh UUID header to every push response. */
export const pushUuidHeader: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (!c.res.headers.has("UUID")) c.header("UUID", crypto.randomUUID());
};

/** The push family. */
export const pushFamily: Family = {
  name: "push",
  prefixes: ["/push/"],
  renderError: renderPushError,
};

/** The API key answers every push route documents. */
export const pushKeyResponses = {
  401: { description: "API key missing, invalid, revoked or without the push scope" },
  403: { description: "authorization scheme is not Bearer" },
};
