/** Push envelope: HTTP status plus `{error:{reason}}`; every response carries a fresh `UUID` header. */
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv, Failure, Family } from "../env.ts";
import { statusOf } from "../env.ts";

/** Renders a failure. */
export function renderPushError(c: Context<AppEnv>, f: Failure): Response {
  // The spec's push statuses: 400 bad request, 401 key problems, 403 wrong scheme, 404, 5xx.
  const status = f.kind === "invalid" ? 400 : statusOf(f);
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
