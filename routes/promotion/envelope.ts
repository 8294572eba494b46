/**
 * CPA envelope: `{result_code, result_msg, result_message}` (both message names, because the
 * spec's table and sample disagree). result_code 0 is success; non-zero codes are documented
 * in README ("CPA result codes").
 */
import type { Context } from "hono";
import type { AppEnv, Failure, Family, JsonResponse } from "../env.ts";

/** CPA result codes. */
export const cpaCodes: Record<string, number> = {
  VALIDATION_FAILED: 1,
  BAD_REQUEST: 1,
  BODY_TOO_LARGE: 1,
  UNKNOWN_APPID: 2,
  UNKNOWN_CPA_CODE: 3,
  INVALID_API_KEY: 4,
  API_KEY_REVOKED: 4,
  SCOPE_MISSING: 4,
  UNAUTHORIZED: 4,
  FORBIDDEN: 4,
  INTERNAL: 9,
  DATABASE_UNAVAILABLE: 9,
};

/** Renders a CPA result. */
export function renderCpaResult(
  c: Context<AppEnv>,
  code: number,
  message: string,
  status = 200,
): JsonResponse {
  const body = { result_code: code, result_msg: message, result_message: message };
  // deno-lint-ignore no-explicit-any
  return c.json(body, status as any) as JsonResponse;
}

function codeOf(f: Failure): number {
  return cpaCodes[f.code] ?? (f.kind === "internal" || f.kind === "unavailable" ? 9 : 1);
}

/** The CPA family. */
export const cpaFamily: Family = {
  name: "cpa",
  prefixes: ["/api/cpa"],
  renderError: (c, f) => {
    const status = f.kind === "unauthorized" || f.kind === "forbidden"
      ? 401
      : f.kind === "internal"
      ? 500
      : f.kind === "unavailable"
      ? 503
      : 400;
    return renderCpaResult(
      c,
      codeOf(f),
      f.kind === "internal" ? "system error" : f.message,
      status,
    );
  },
};
