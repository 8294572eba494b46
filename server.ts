/**
 * The Deno server: Deno.serve plus the scheduled work, on a laptop, a VM or Deno Deploy. Every
 * import is a literal specifier, so Deno Deploy can analyse and load the whole graph (embedded
 * mode, the TCP item dialer and the DNS resolver included). Workers use main.ts instead.
 *
 * Scheduling (SCHEDULER): `auto` uses Deno.cron where the runtime has it (Deno Deploy, or
 * `--unstable-cron`) and an interval of SCHEDULER_INTERVAL_MS otherwise; `cron`, `interval` and
 * `off` force one. Deno Deploy parks idle isolates, which stops intervals but not Deno.cron.
 */
import { type Config, ConfigError, loadConfig } from "./lib/config.ts";
import { boot } from "./lib/boot.ts";
import { createApp } from "./routes/mod.ts";
import { runScheduled } from "./lib/scheduled.ts";
import type { Services } from "./lib/services.ts";
import { embeddedDatabase, embeddedSecrets } from "./lib/embedded.ts";
import { createDenoItemSocket } from "./lib/items/socket_deno.ts";
import { createDenoResolver } from "./lib/outbound/resolve_deno.ts";
import { createDenoPushHttp } from "./lib/push/http_deno.ts";
import { openRedisKv } from "./lib/kv/tcp.ts";
import { batchedLines, createLogger, writeAll } from "./lib/log.ts";

/** Deno.cron's shape (an unstable API outside Deno Deploy, so not in every type library). */
type CronFn = (name: string, schedule: string, handler: () => Promise<void>) => Promise<void>;

/** How the scheduled work is driven in this process. */
export function schedulerMode(config: Config, hasCron: boolean): "cron" | "interval" | "off" {
  if (config.SCHEDULER === "off") return "off";
  if (config.SCHEDULER === "cron") {
    if (!hasCron) {
      throw new ConfigError("SCHEDULER=cron needs Deno.cron (Deno Deploy or --unstable-cron)");
    }
    return "cron";
  }
  if (config.SCHEDULER === "interval" || !hasCron) {
    return config.SCHEDULER_INTERVAL_MS > 0 ? "interval" : "off";
  }
  return "cron";
}

function startScheduler(services: Services): () => void {
  const config = services.config;
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await runScheduled(services);
    } finally {
      running = false;
    }
  };
  const cron = (Deno as unknown as { cron?: CronFn }).cron;
  const mode = schedulerMode(config, typeof cron === "function");
  services.log.info("scheduler", {
    mode,
    ...(mode === "cron" ? { schedule: config.SCHEDULER_CRON } : {}),
    ...(mode === "interval" ? { intervalMs: config.SCHEDULER_INTERVAL_MS } : {}),
  });
  if (mode === "cron") {
    cron!("scheduled work", config.SCHEDULER_CRON, tick);
    return () => {};
  }
  if (mode === "interval") {
    const timer = setInterval(tick, config.SCHEDULER_INTERVAL_MS);
    return () => clearInterval(timer);
  }
  return () => {};
}

/** Boots services, serves HTTP and runs the scheduled work until SIGINT or SIGTERM. */
export async function serveDeno(config: Config) {
  // Log lines go to stdout in batches, one write per turn of the event loop rather than per line.
  const stdout = batchedLines((chunk) => writeAll((b) => Deno.stdout.writeSync(b), chunk));
  globalThis.addEventListener("unload", stdout.flush);
  const services = await boot(config, {
    log: createLogger(config.LOG_LEVEL, stdout.sink),
    embedded: { database: embeddedDatabase, secrets: embeddedSecrets },
    itemSocket: createDenoItemSocket(),
    resolveHost: createDenoResolver(),
    pushHttp: createDenoPushHttp(),
    openRedis: (url) => openRedisKv(url),
  });
  const app = createApp(services);
  const log = services.log;
  services.log.info("stores", { database: services.db.kind, kv: services.kv.kind });
  if (config.embedded) {
    // A generated token (kept in DATA_DIR) is shown so a new user can sign in; one the operator
    // configured is theirs already and never goes to a log.
    console.log(
      `embedded mode: PGlite and secrets under ${config.DATA_DIR}/, in-memory KV\n` +
        (config.ADMIN_TOKEN
          ? "admin token: set by ADMIN_TOKEN (not printed)"
          : `admin token: ${services.secrets.adminToken}`),
    );
  }
  const stopScheduler = startScheduler(services);
  const server = Deno.serve({
    hostname: config.HOST,
    port: config.PORT,
    onListen: ({ hostname, port }) => log.info("listening", { url: `http://${hostname}:${port}` }),
  }, app.fetch);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    const started = performance.now();
    log.info("shutting down: draining requests and background work");
    stopScheduler();
    await server.shutdown();
    await services.close();
    log.info("drained", { ms: Math.round(performance.now() - started) });
    stdout.flush();
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGINT", stop);
  // Windows has no SIGTERM.
  if (Deno.build.os !== "windows") Deno.addSignalListener("SIGTERM", stop);
}

if (import.meta.main) {
  try {
    await serveDeno(loadConfig(Deno.env.toObject()));
  } catch (err) {
    console.error(`failed to start: ${(err as Error).message}`);
    Deno.exit(1);
  }
}
