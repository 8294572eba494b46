/**
 * The service for bench/reads_load.ts, in its own process like the lean reference it is measured
 * against (bench/read_reference.ts): the production-configured app (request lines at info to
 * /dev/null, bench/served_app.ts) over the tier's stores (the parent's DATABASE_URL etc. when it
 * set them, else embedded), seeded with one game holding an items API key and `ids` item requests
 * and one app with 100 transaction records. Writes what the load needs (base URL, key, ids,
 * the app's headers) as JSON to the file named by its second argument, then prints `ready`.
 *
 *   deno run -A bench/serve_reads.ts <ids> <out.json> [uncached]
 */
import { seedTenant, testEnv } from "../tests/harness.ts";
import { seedChainTxs } from "../tests/seed_rows.ts";
import { Hono } from "hono";
import { seedItemRead, serveApp } from "./served_app.ts";
import { freePort } from "./real_tier.ts";

/** What the service process reports. */
export interface ServedReads {
  base: string;
  apiKey: string;
  gameIndex: number;
  transactionIds: string[];
  chainHeaders: Record<string, string>;
  appid: string;
  chainGameIndex: number;
}

/**
 * `uncached` mode (issue item: an uncached read against a bare Hono route running its one query
 * on the same pool): the app with the read caches off, and beside it in this process a bare
 * Hono app whose one route runs the item read's SELECT on the service's own database handle
 * (pool), without authentication, validation or logging.
 */
async function serveUncached(out: string) {
  const { services } = await testEnv();
  const { tenant, apiKey, transactionIds } = await seedItemRead("reads bench uncached", 1);
  const base = await serveApp({ ITEM_STATE_CACHE_MS: 0, TX_LIST_CACHE_MS: 0 });
  const floor = new Hono();
  floor.get("/item/:id", async (c) => {
    const rows = await services.db.query(
      `select status, attempts, last_code, last_message, delivered_at from item_requests
        where game_index = $1 and transaction_id = $2`,
      [tenant.gameIndex, c.req.param("id")],
    );
    return c.json(rows[0]);
  });
  const port = freePort();
  Deno.serve({ hostname: "127.0.0.1", port, onListen: () => {} }, floor.fetch);
  await Deno.writeTextFile(
    out,
    JSON.stringify({ base, floor: `http://127.0.0.1:${port}`, apiKey, transactionIds }),
  );
  console.log("ready");
}

if (import.meta.main && Deno.args[2] === "uncached") {
  Deno.addSignalListener("SIGTERM", () => Deno.exit(0));
  await serveUncached(Deno.args[1]);
} else if (import.meta.main) {
  const [count, out] = Deno.args;
  const { services } = await testEnv();
  const { tenant, apiKey, transactionIds } = await seedItemRead("reads bench", Number(count));
  const txApp = await seedTenant("reads bench tx 100");
  await seedChainTxs(services.db, { appid: txApp.appid, gameIndex: txApp.gameIndex, rows: 100 });
  const base = await serveApp();
  const served: ServedReads = {
    base,
    apiKey,
    gameIndex: tenant.gameIndex,
    transactionIds,
    chainHeaders: txApp.chainHeaders,
    appid: txApp.appid,
    chainGameIndex: txApp.gameIndex,
  };
  await Deno.writeTextFile(out, JSON.stringify(served));
  console.log("ready");
  // Stopped by the parent (SIGTERM).
  Deno.addSignalListener("SIGTERM", () => Deno.exit(0));
}
