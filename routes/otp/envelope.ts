/** OTP envelope: `{error:{code, reason}}` with the codes and statuses fixed in the OTP issue. */
import type { Context } from "hono";
import type { AppEnv, Failure, Family } from "../env.ts";

/** OTP error codes and their HTTP statuses. */
export const otpErrors = {
  VALIDATION_FAIL: 422,
  INVALID_PHONE_NUMBER: 422,
  NO_TOPIC: 400,
  DUPLICATE_OTP_EXISTS: 409,
  SMS_LIMIT_EXCEEDED: 429,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  PROVIDER_ERROR: 502,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

/** One OTP error code. */
export type OtpErrorCode = keyof typeof otpErrors;

function codeOf(f: Failure): OtpErrorCode {
  if (f.code in otpErrors) return f.code as OtpErrorCode;
  switch (f.kind) {
    case "unauthorized":
      return "UNAUTHORIZED";
    case "forbidden":
      return "FORBIDDEN";
    case "not_found":
      return "NOT_FOUND";
    case "rate_limited":
      return "SMS_LIMIT_EXCEEDED";
    case "conflict":
      return "DUPLICATE_OTP_EXISTS";
    case "upstream":
      return "PROVIDER_ERROR";
    case "unavailable":
      return "SERVICE_UNAVAILABLE";
    case "internal":
      return "INTERNAL_ERROR";
    default:
      return "VALIDATION_FAIL";
  }
}

/** Renders a failure. */
export function renderOtpError(c: Context<AppEnv>, f: Failure): Response {
  const code = codeOf(f);
  // deno-lint-ignore no-explicit-any
  return c.json({ error: { code, reason: f.message } }, otpErrors[code] as any);
}

/** The OTP family. */
export const otpFamily: Family = {
  name: "otp",
  prefixes: ["/otp/"],
  renderError: renderOtpError,
};
