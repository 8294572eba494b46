/**
 * Composition root for every runtime. Run by Deno it serves HTTP with Deno.serve and runs the
 * scheduled work on an interval; on Cloudflare Workers the default export handles fetch and cron.
 */
import { type Config, loadConfig } from "./lib/config.ts";
import { boot, type BootOptions } from "./lib/boot.ts";
import type { Services } from "./lib/services.ts";
import { createApp } from "./routes/mod.ts";
import { runScheduled } from "./lib/scheduled.ts";
import type { ExecutionContext } from "hono";

type WorkerEnv = Record<string, unknown>;

let ready: Promise<{ services: Services; app: ReturnType<typeof createApp> }> | undefined;

function workerState(env: WorkerEnv) {
  // One Services per isolate, built on the first event from the bindings.
  ready ??= (async () => {
    const vars: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries(env)) if (typeof v === "string") vars[k] = v;
    const services = await boot(loadConfig(vars));
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

async function embeddedHooks(): Promise<BootOptions["embedded"]> {
  // A computed specifier keeps bundlers for Workers from pulling in PGlite and file access.
  const path = "./lib/embedded.ts";
  const mod = await import(path) as typeof import("./lib/embedded.ts");
  return { database: mod.embeddedDatabase, secrets: mod.embeddedSecrets };
}

async function denoItemSocket() {
  // Computed like embeddedHooks: the direct TCP dialer uses Deno.connect and stays out of Workers.
  const path = "./lib/items/socket_deno.ts";
  const mod = await import(path) as typeof import("./lib/items/socket_deno.ts");
  return mod.createDenoItemSocket();
}

async function denoResolver() {
  // Computed like embeddedHooks: Deno.resolveDns stays out of Workers bundles.
  const path = "./lib/outbound/resolve_deno.ts";
  const mod = await import(path) as typeof import("./lib/outbound/resolve_deno.ts");
  return mod.createDenoResolver();
}

async function denoPushHttp() {
  // Computed like embeddedHooks: the HTTP/2 client for APNs uses Deno.createHttpClient.
  const path = "./lib/push/http_deno.ts";
  const mod = await import(path) as typeof import("./lib/push/http_deno.ts");
  return mod.createDenoPushHttp();
}

async function serveDeno(config: Config) {
  const services = await boot(config, {
    embedded: await embeddedHooks(),
    itemSocket: await denoItemSocket(),
    resolveHost: await denoResolver(),
    pushHttp: await denoPushHttp(),
  });
  const app = createApp(services);
  const log = services.log;
  if (config.embedded) {
    console.log(
      `embedded mode: PGlite and secrets under ${config.DATA_DIR}/, in-memory KV\n` +
        `admin token: ${services.secrets.adminToken}`,
    );
  }
  let timer: ReturnType<typeof setInterval> | undefined;
  if (config.SCHEDULER_INTERVAL_MS > 0) {
    let running = false;
    timer = setInterval(() => {
      if (running) return;
      running = true;
      runScheduled(services).finally(() => running = false);
    }, config.SCHEDULER_INTERVAL_MS);
  }
  const server = Deno.serve({
    hostname: config.HOST,
    port: config.PORT,
    onListen: ({ hostname, port }) => log.info("listening", { url: `http://${hostname}:${port}` }),
  }, app.fetch);
  const stop = async () => {
    clearInterval(timer);
    await server.shutdown();
    await services.close();
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
}

if (typeof Deno !== "undefined" && import.meta.main) {
  try {
    await serveDeno(loadConfig(Deno.env.toObject()));
  } catch (err) {
    console.error(`failed to start: ${(err as Error).message}`);
    Deno.exit(1);
  }
}
