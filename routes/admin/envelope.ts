/** Admin envelope: resource JSON on success, `{error:{code, message}}` + HTTP status on failure. */
import type { Context } from "hono";
import type { AppEnv, Failure, Family } from "../env.ts";
import { statusOf } from "../env.ts";

/** Renders a failure. */
export function renderAdminError(c: Context<AppEnv>, f: Failure): Response {
  // deno-lint-ignore no-explicit-any
  return c.json({ error: { code: f.code, message: f.message } }, statusOf(f) as any);
}

/** The admin family; also the fallback for paths no other family owns. */
export const adminFamily: Family = {
  name: "admin",
  prefixes: ["/admin/"],
  renderError: renderAdminError,
};
