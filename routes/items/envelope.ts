/** Item service envelope: `{code:0, message, ...}` on success, `{code, message}` + HTTP status on failure. */
import type { Context } from "hono";
import type { AppEnv, Failure, Family } from "../env.ts";
import { statusOf } from "../env.ts";

/** Numeric codes of item-service failures by kind (documented in README). */
export const itemErrorCodes: Record<Failure["kind"], number> = {
  invalid: 4000,
  unauthorized: 4010,
  forbidden: 4030,
  not_found: 4040,
  conflict: 4090,
  rate_limited: 4290,
  internal: 5000,
  upstream: 5020,
  unavailable: 5030,
};

/** Renders a failure. */
export function renderItemsError(c: Context<AppEnv>, f: Failure): Response {
  // deno-lint-ignore no-explicit-any
  return c.json({ code: itemErrorCodes[f.kind], message: f.message }, statusOf(f) as any);
}

/** The items family. */
export const itemsFamily: Family = {
  name: "items",
  prefixes: ["/items/"],
  renderError: renderItemsError,
};
