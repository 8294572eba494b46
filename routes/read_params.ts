/**
 * Hot read routes that check their own parameters. `app.openapi` puts a validator middleware in
 * front of a route for each parameter source (an async step and an async schema parse on every
 * request); a read polled tens of thousands of times a second checks its few parameters in the
 * handler instead, synchronously, with the same schema and the same failure: the route is
 * documented exactly as `app.openapi` documents it, and a bad parameter gets the same
 * VALIDATION_FAILED answer in the family's envelope.
 */
import type { OpenAPIHono, RouteConfig } from "@hono/zod-openapi";
import type { Context, Handler } from "hono";
import type { z } from "zod";
import type { AppEnv } from "./env.ts";
import { DomainError } from "../lib/errors.ts";
import { formatIssues } from "./validation.ts";

/**
 * Registers a GET route documented by `route` (as `app.openapi` would) whose handler validates
 * its own parameters (readParams, readQuery).
 */
export function registerRead(
  app: OpenAPIHono<AppEnv>,
  route: RouteConfig & { method: "get" },
  handler: Handler<AppEnv>,
): void {
  app.openAPIRegistry.registerPath(route);
  app.get(route.path.replaceAll(/\/{(.+?)}/g, "/:$1"), handler);
}

/** `input` parsed by `schema`, or the validation failure the validator middleware would raise. */
export function parseOrFail<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (!result.success) {
    throw new DomainError("invalid", "VALIDATION_FAILED", formatIssues(result.error.issues));
  }
  return result.data;
}

/**
 * The query as the validator middleware reads it: a key given once is a string, a key given
 * more than once an array of its values.
 */
export function queryInput(c: Context): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, values] of Object.entries(c.req.queries())) {
    out[key] = values.length === 1 ? values[0] : values;
  }
  return out;
}

/**
 * The query parsed by `schema`; a request without a query string is parsed once per schema (its
 * defaults), not once per request.
 */
export function readQuery<T extends z.ZodType>(c: Context, schema: T): z.output<T> {
  if (c.req.url.indexOf("?") === -1) {
    let empty = emptyQueries.get(schema);
    if (!empty) emptyQueries.set(schema, empty = { value: Object.freeze(parseOrFail(schema, {})) });
    return empty.value as z.output<T>;
  }
  return parseOrFail(schema, queryInput(c));
}

const emptyQueries = new WeakMap<z.ZodType, { value: unknown }>();
