/** Shared route plumbing: the Hono env type, route families, and the failure model they render. */
import type { Context, TypedResponse } from "hono";
import { HTTPException } from "hono/http-exception";
import { OpenAPIHono } from "@hono/zod-openapi";
import type { z } from "zod";
import type { Services } from "../lib/services.ts";
import type { AppPrincipal } from "../lib/auth/tokens.ts";
import type { ApiKeyPrincipal } from "../lib/auth/api_keys.ts";
import { DomainError, type ErrorKind, kindStatus } from "../lib/errors.ts";
import { DbError } from "../lib/db/port.ts";
import { KvError } from "../lib/kv/port.ts";
import { formatIssues } from "./validation.ts";

/** Blockchain networks a request can target. */
export type Network = "polygon" | "xpla";

/** Context variables set by middleware. */
export interface AppVariables {
  services: Services;
  requestId: string;
  /** Set by the blockchain token middleware. */
  app: AppPrincipal;
  /** Set by the blockchain token middleware. */
  network: Network;
  /** Set by the API-key middleware. */
  apiKey: ApiKeyPrincipal;
  /** Set by the Idempotency-Key middleware: the request id the key stands for. */
  idempotentRequestId: string;
  /** The failure code a response rendered, for the request log. */
  errorCode: string;
  /** Why an unexpected error or outage happened (log only, never the response). */
  errorCause: string;
}

/** The Hono environment of every route. */
export type AppEnv = { Variables: AppVariables };

/** A failure ready to render: what went wrong, in words safe to show. */
export interface Failure {
  kind: ErrorKind;
  code: string;
  message: string;
  /** Overrides the kind's default status. */
  status?: number;
  /** Seconds a client should wait before trying again (sent as Retry-After). */
  retryAfterS?: number;
  details?: Record<string, unknown>;
}

/** A route family renders every failure under its paths in its own envelope. */
export interface Family {
  name: string;
  /** Path prefixes owned by this family. */
  prefixes: string[];
  renderError(c: Context<AppEnv>, failure: Failure): Response | Promise<Response>;
}

/** The default HTTP status for a failure. */
export function statusOf(f: Failure): number {
  return f.status ?? kindStatus[f.kind];
}

function describeCause(err: unknown): string {
  return (err instanceof Error ? `${err.name}: ${err.message}` : String(err)).slice(0, 300);
}

/** Retry-After sent with a 503 for a store outage. */
export const UNAVAILABLE_RETRY_AFTER_S = 5;

/** Converts anything thrown into a Failure; unexpected errors are logged and hidden. */
export function toFailure(c: Context<AppEnv>, err: unknown): Failure {
  if (err instanceof DomainError) {
    if (err.cause !== undefined) c.set("errorCause", describeCause(err.cause));
    const retryAfterS = err.details?.retryAfterS;
    return {
      kind: err.kind,
      code: err.code,
      message: err.message,
      details: err.details,
      retryAfterS: typeof retryAfterS === "number" ? retryAfterS : undefined,
    };
  }
  if (err instanceof HTTPException) {
    const status = err.status;
    if (status === 413) {
      return { kind: "invalid", code: "BODY_TOO_LARGE", message: "request body too large", status };
    }
    const message = /malformed json/i.test(err.message)
      ? "request body is not valid JSON"
      : /content-type|unsupported media type/i.test(err.message)
      ? "Content-Type must be application/json"
      : err.message || "bad request";
    return { kind: status >= 500 ? "internal" : "invalid", code: "BAD_REQUEST", message, status };
  }
  const log = c.get("services")?.log;
  c.set("errorCause", describeCause(err));
  if (err instanceof DbError && err.unavailable) {
    log?.error("database unavailable", { err, requestId: c.get("requestId") });
    return {
      kind: "unavailable",
      code: "DATABASE_UNAVAILABLE",
      message: "database unavailable",
      retryAfterS: UNAVAILABLE_RETRY_AFTER_S,
    };
  }
  if (err instanceof KvError && err.unavailable) {
    log?.error("key-value store unavailable", { err, requestId: c.get("requestId") });
    return {
      kind: "unavailable",
      code: "SERVICE_UNAVAILABLE",
      message: "key-value store unavailable",
      retryAfterS: UNAVAILABLE_RETRY_AFTER_S,
    };
  }
  if (err instanceof DbError && err.unstorableText) {
    // Request text reached the database with a NUL character: the client's input, not a fault.
    return {
      kind: "invalid",
      code: "VALIDATION_FAILED",
      message: "text must not contain NUL (U+0000) characters",
    };
  }
  log?.error("unexpected error", { err, path: c.req.path, requestId: c.get("requestId") });
  return { kind: "internal", code: "INTERNAL", message: "internal error" };
}

/** A validation failure built from zod issues. */
export function validationFailure(error: z.ZodError): Failure {
  return { kind: "invalid", code: "VALIDATION_FAILED", message: formatIssues(error.issues) };
}

/** An OpenAPIHono sub-app whose validation failures render in the family's envelope. */
export function createFamilyApp(family: Family): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      if (!result.success) {
        const failure = validationFailure(result.error);
        c.set("errorCode", failure.code);
        return family.renderError(c as Context<AppEnv>, failure);
      }
    },
  });
}

/** OpenAPI request body helper: a required JSON body (so a wrong content type is refused). */
export function jsonBody<T extends z.ZodType>(schema: T, description?: string) {
  return {
    required: true as const,
    description,
    content: { "application/json": { schema } },
  };
}

/** OpenAPI response helper for a JSON body. */
export function jsonResponse<T extends z.ZodType>(schema: T, description: string) {
  return { description, content: { "application/json": { schema } } };
}

/**
 * A JSON response whose body type is not tracked. Success renderers return it so handlers of
 * routes with declared response schemas type-check without repeating the schema.
 */
// deno-lint-ignore no-explicit-any
export type JsonResponse = Response & TypedResponse<any, any, "json">;
