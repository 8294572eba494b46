/**
 * Composition root for every runtime. On Cloudflare Workers the default export handles fetch and
 * cron; run by Deno it starts the Deno server (server.ts: Deno.serve, Deno.cron or an interval).
 */
import { type Config, loadConfig } from "./lib/config.ts";
import { boot } from "./lib/boot.ts";
import type { Services } from "./lib/services.ts";
import { createApp } from "./routes/mod.ts";
import { runScheduled } from "./lib/scheduled.ts";
import type { ExecutionContext } from "hono";
import type { AnalyticsDataset } from "./lib/metrics.ts";

type WorkerEnv = Record<string, unknown>;

let ready: Promise<{ services: Services; app: ReturnType<typeof createApp> }> | undefined;

function workerState(env: WorkerEnv) {
  // One Services per isolate, built on the first event from the bindings.
  ready ??= (async () => {
    const vars: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries(env)) if (typeof v === "string") vars[k] = v;
    const dataset = env.METRICS_DATASET as AnalyticsDataset | undefined;
    const services = await boot(loadConfig(vars), {
      analytics: typeof dataset?.writeDataPoint === "function" ? dataset : undefined,
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
  async fetch(request: Request, env: WorkerEnv, ctx: ExecutionContext): Promise<Response> {
    const { services, app } = await workerState(env);
    const response = await app.fetch(request, env, ctx);
    ctx.waitUntil(services.idle());
    return response;
  },
  async scheduled(event: { scheduledTime: number }, env: WorkerEnv, ctx: ExecutionContext) {
    const { services } = await workerState(env);
    ctx.waitUntil(runScheduled(services, event.scheduledTime).then(() => services.idle()));
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
