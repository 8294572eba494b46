/**
 * The service for bench/reads_load.ts, in its own process like the lean reference it is measured
 * against (bench/read_reference.ts): the production-configured app (request lines at info to
 * /dev/null, bench/served_app.ts) over the tier's stores (the parent's DATABASE_URL etc. when it
 * set them, else embedded), seeded with one game holding an items API key and `ids` item requests
 * and one app with 100 transaction records. Writes what the load needs (base URL, key, ids,
 * the app's headers) as JSON to the file named by its second argument, then prints `ready`.
 *
 *   deno run -A bench/serve_reads.ts <ids> <out.json>
 */
import { seedTenant, testEnv } from "../tests/harness.ts";
import { seedChainTxs } from "../tests/seed_rows.ts";
import { seedItemRead, serveApp } from "./served_app.ts";

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

if (import.meta.main) {
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
