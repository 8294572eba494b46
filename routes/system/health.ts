/** GET /healthz (process up) and GET /readyz (database and KV reachable). */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv, JsonResponse } from "../env.ts";
import { jsonResponse } from "../env.ts";

const healthz = createRoute({
  method: "get",
  path: "/healthz",
  tags: ["system"],
  summary: "Liveness: the process is up",
  responses: { 200: jsonResponse(z.object({ status: z.literal("ok") }), "up") },
});

const Ready = z.object({
  status: z.enum(["ready", "unavailable"]),
  checks: z.object({ database: z.string(), kv: z.string() }),
});

const readyz = createRoute({
  method: "get",
  path: "/readyz",
  tags: ["system"],
  summary: "Readiness: database and KV reachable",
  responses: {
    200: jsonResponse(Ready, "ready"),
    503: jsonResponse(Ready, "a dependency is unreachable; `checks` says which"),
  },
});

async function probe(fn: () => Promise<unknown>, timeoutMs: number): Promise<string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      fn(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return "ok";
  } catch {
    // Details go to the log only: driver messages can name hosts.
    return "unreachable";
  } finally {
    clearTimeout(timer);
  }
}

/** Registers the health routes. */
export function registerHealth(app: OpenAPIHono<AppEnv>) {
  app.openapi(healthz, (c) => c.json({ status: "ok" as const }, 200) as JsonResponse);
  app.openapi(readyz, async (c) => {
    const s = c.get("services");
    const [database, kv] = await Promise.all([
      probe(() => s.db.query("select 1"), 3000),
      probe(() => s.kv.ping(), 3000),
    ]);
    const ok = database === "ok" && kv === "ok";
    if (!ok) s.log.warn("not ready", { database, kv, db: s.db.kind, kvKind: s.kv.kind });
    return c.json(
      { status: ok ? "ready" : "unavailable", checks: { database, kv } },
      ok ? 200 : 503,
    ) as JsonResponse;
  });
}
