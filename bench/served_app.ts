/**
 * The app as server.ts serves it, for load scripts: over the test services (seeded through the
 * harness), with request lines at info written in batches as server.ts writes them to stdout,
 * here to /dev/null. (The harness's own app captures and scans every line at debug for secrets,
 * which is a test cost, not the product's.)
 */
import { appWith, seedTenant, testEnv } from "../tests/harness.ts";
import { batchedLines, createLogger, type Logger, writeAll } from "../lib/log.ts";
import { registerSampleItem } from "../tests/seed_rows.ts";
import { atFinish, freePort } from "./real_tier.ts";
import type { Config } from "../lib/config.ts";
import type { Sql } from "../lib/db/port.ts";
import type { Kv } from "../lib/kv/port.ts";

/** A logger as server.ts makes it (info, lines batched per turn), writing to /dev/null. */
export function serverLogger(): Logger {
  const devNull = Deno.openSync("/dev/null", { write: true });
  const lines = batchedLines((chunk) => writeAll((b) => devNull.writeSync(b), chunk));
  return createLogger("info", lines.sink);
}

/**
 * Serves the production-configured app on a free loopback port (with `config` changed and the
 * database or KV replaced, if given); returns its base URL.
 */
export async function serveApp(
  config: Partial<Config> = {},
  stores: { db?: Sql; kv?: Kv } = {},
): Promise<string> {
  const app = await appWith({ log: serverLogger(), config, ...stores });
  const port = freePort();
  const server = Deno.serve({ hostname: "127.0.0.1", port, onListen: () => {} }, app.fetch);
  atFinish(() => server.shutdown());
  return `http://127.0.0.1:${port}`;
}

/**
 * A tenant with an items API key and registered item requests to read back (`count`, default 1;
 * `transactionId` is the first).
 */
export async function seedItemRead(name: string, count = 1) {
  const { services } = await testEnv();
  const tenant = await seedTenant(name);
  const { apiKey } = await tenant.apiKey(["items", "otp"]);
  const transactionIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const item = await registerSampleItem(services.db, {
      gameIndex: tenant.gameIndex,
      nowMs: services.clock.now(),
    });
    transactionIds.push(item.transactionId);
  }
  return { tenant, apiKey, transactionId: transactionIds[0], transactionIds };
}
