/**
 * Composition root for every runtime. On Cloudflare Workers the default export handles fetch and
 * cron; run by Deno it starts the Deno server (server.ts: Deno.serve, Deno.cron or an interval).
 *
 * Workers: a Hyperdrive binding named HYPERDRIVE wins over DATABASE_URL (PostgreSQL over TCP
 * through Hyperdrive's pool). A Worker's sockets belong to the request that opened them, so each
 * request (or cron event) gets its own database client, closed once its work has settled.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { type Config, loadConfig } from "./lib/config.ts";
import { boot } from "./lib/boot.ts";
import type { Services } from "./lib/services.ts";
import { createApp } from "./routes/mod.ts";
import { runScheduled } from "./lib/scheduled.ts";
import type { ExecutionContext } from "hono";
import type { AnalyticsDataset } from "./lib/metrics.ts";
import type { RequestScope } from "./lib/db/tcp.ts";

type WorkerEnv = Record<string, unknown>;

/** What one request or cron event opened, closed when its work has settled. */
class RequestResources {
  readonly values = new Map<object, unknown>();
  readonly closers: (() => Promise<void>)[] = [];
  async close() {
    await Promise.allSettled(this.closers.splice(0).map((close) => close()));
    this.values.clear();
  }
}

const requestResources = new AsyncLocalStorage<RequestResources>();

const requestScope: RequestScope = {
  use(key, make, close) {
    const resources = requestResources.getStore();
    if (!resources) return undefined;
    if (!resources.values.has(key)) {
      const value = make();
      resources.values.set(key, value);
      resources.closers.push(() => close(value));
    }
    return resources.values.get(key) as ReturnType<typeof make>;
  },
};

/** Runs one event's work with its own resources; they close after `settled` (its waitUntil work). */
async function withRequestResources<T>(
  ctx: ExecutionContext,
  work: () => Promise<{ result: T; settled: Promise<unknown> }>,
): Promise<T> {
  const resources = new RequestResources();
  try {
    const { result, settled } = await requestResources.run(resources, work);
    ctx.waitUntil(settled.finally(() => resources.close()));
    return result;
  } catch (err) {
    ctx.waitUntil(resources.close());
    throw err;
  }
}

let ready: Promise<{ services: Services; app: ReturnType<typeof createApp> }> | undefined;

function workerState(env: WorkerEnv) {
  // One Services per isolate, built on the first event from the bindings.
  ready ??= (async () => {
    const vars: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries(env)) if (typeof v === "string") vars[k] = v;
    const hyperdrive = env.HYPERDRIVE as { connectionString?: unknown } | undefined;
    if (typeof hyperdrive?.connectionString === "string") {
      vars.DATABASE_URL = hyperdrive.connectionString;
      vars.DATABASE_DRIVER = "tcp";
    }
    const dataset = env.METRICS_DATASET as AnalyticsDataset | undefined;
    const services = await boot(loadConfig(vars), {
      analytics: typeof dataset?.writeDataPoint === "function" ? dataset : undefined,
      requestScope,
    });
    return { services, app: createApp(services) };
  })().catch((err) => {
    ready = undefined;
    throw err;
  });
  return ready;
}

/** Workers entry: fetch and the cron trigger. */
export default {
  fetch(request: Request, env: WorkerEnv, ctx: ExecutionContext): Promise<Response> {
    return withRequestResources(ctx, async () => {
      const { services, app } = await workerState(env);
      const response = await app.fetch(request, env, ctx);
      return { result: response, settled: services.idle() };
    });
  },
  scheduled(event: { scheduledTime: number }, env: WorkerEnv, ctx: ExecutionContext) {
    return withRequestResources(ctx, async () => {
      const { services } = await workerState(env);
      const settled = runScheduled(services, event.scheduledTime).then(() => services.idle());
      return { result: undefined, settled };
    });
  },
};

if (typeof Deno !== "undefined" && import.meta.main) {
  // A computed specifier keeps Workers bundlers from pulling in the Deno server (PGlite, files,
  // TCP); Deno Deploy uses server.ts as its entry, whose imports are all literal.
  const path = "./server.ts";
  const { serveDeno } = await import(path) as { serveDeno(config: Config): Promise<void> };
  try {
    await serveDeno(loadConfig(Deno.env.toObject()));
  } catch (err) {
    console.error(`failed to start: ${(err as Error).message}`);
    Deno.exit(1);
  }
}
