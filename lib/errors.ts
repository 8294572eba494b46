/** Typed domain errors: lib/ throws these, each route family renders them in its own envelope. */

/** Broad classes of failure; each family maps them to its own codes and HTTP statuses. */
export type ErrorKind =
  | "invalid" // the request is wrong (400/422)
  | "unauthorized" // no or bad credentials (401)
  | "forbidden" // credentials fine, not allowed (403)
  | "not_found" // named thing does not exist (404)
  | "conflict" // state does not allow it (409)
  | "rate_limited" // too many (429)
  | "unavailable" // a dependency is down (503)
  | "upstream" // a dependency answered wrongly (502)
  | "internal"; // a bug (500)

/** A failure with a stable code (e.g. "CONTRACT_NOT_FOUND") and a message safe to show. */
export class DomainError extends Error {
  override name = "DomainError";
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    options?: ErrorOptions & { details?: Record<string, unknown> },
  ) {
    super(message, options);
    this.details = options?.details;
  }
  readonly details?: Record<string, unknown>;
}

/** Shorthand for a validation failure naming the field. */
export function invalid(message: string, code = "VALIDATION_FAILED"): DomainError {
  return new DomainError("invalid", code, message);
}

/** Shorthand for a missing resource. */
export function notFound(message: string, code = "NOT_FOUND"): DomainError {
  return new DomainError("not_found", code, message);
}

/** Default HTTP status of each kind. */
export const kindStatus: Record<ErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  rate_limited: 429,
  unavailable: 503,
  upstream: 502,
  internal: 500,
};
