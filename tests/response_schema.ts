/**
 * Test-only check that every successful JSON response matches the schema its route declares in
 * the OpenAPI registry, so a handler drifting from its documented contract fails the suite.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { z } from "zod";

interface Declared {
  method: string;
  pattern: RegExp;
  path: string;
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

const cache = new WeakMap<object, Declared[]>();

// deno-lint-ignore no-explicit-any
function declaredRoutes(app: OpenAPIHono<any>): Declared[] {
  let routes = cache.get(app);
  if (!routes) {
    routes = [];
    for (const def of app.openAPIRegistry.definitions) {
      if (def.type !== "route") continue;
      const { method, path, responses } = def.route;
      const pattern = new RegExp(
        "^" + path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+") + "$",
      );
      routes.push({ method: method.toUpperCase(), pattern, path, responses: responses as never });
    }
    cache.set(app, routes);
  }
  return routes;
}

/** Throws when a 2xx JSON response does not match its route's declared response schema. */
export async function assertDeclaredResponse(
  // deno-lint-ignore no-explicit-any
  app: OpenAPIHono<any>,
  request: { method: string; path: string },
  res: Response,
): Promise<void> {
  if (res.status < 200 || res.status > 299) return;
  if (!/application\/json/.test(res.headers.get("content-type") ?? "")) return;
  const path = new URL(request.path, "http://x").pathname;
  const method = request.method.toUpperCase();
  const route = declaredRoutes(app).find((r) => r.method === method && r.pattern.test(path));
  if (!route) return;
  const declared = route.responses[String(res.status)];
  const schema = declared?.content?.["application/json"]?.schema as z.ZodType | undefined;
  if (!declared) {
    throw new Error(`${method} ${route.path} answered ${res.status}, which it does not declare`);
  }
  if (!schema || typeof (schema as { safeParse?: unknown }).safeParse !== "function") return;
  const body = await res.clone().json();
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 3).map((i) =>
      `${i.path.join(".") || "body"}: ${i.message}`
    ).join("; ");
    throw new Error(
      `${method} ${route.path} ${res.status} does not match its declared schema: ${issues}`,
    );
  }
}
