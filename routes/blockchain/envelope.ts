/** The blockchain envelope: `{code:0, message, data}` on success, `{code, message}` on failure. */
import type { Context } from "hono";
import type { AppEnv, Failure, Family, JsonResponse } from "../env.ts";
import { catalogEntry } from "./codes.ts";

/** Renders a success. */
export function renderChainOk(
  c: Context<AppEnv>,
  data?: unknown,
  message = "success",
): JsonResponse {
  return c.json(
    data === undefined ? { code: 0, message } : { code: 0, message, data },
    200,
  ) as JsonResponse;
}

/** The success envelope's text around `data` already rendered as JSON text (a cached page). */
export function chainOkJsonText(dataJson: string): string {
  return `{"code":0,"message":"success","data":${dataJson}}`;
}

/** Renders a failure with its catalog code and status. */
export function renderChainError(c: Context<AppEnv>, f: Failure): Response {
  const entry = catalogEntry(f.code, f.kind);
  // deno-lint-ignore no-explicit-any
  return c.json({ code: entry.code, message: f.message }, (f.status ?? entry.status) as any);
}

/** The blockchain family. */
export const blockchainFamily: Family = {
  name: "blockchain",
  prefixes: ["/v2/", "/service/v1/", "/core/v1/"],
  renderError: renderChainError,
};
