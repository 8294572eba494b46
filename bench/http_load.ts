/**
 * End-to-end HTTP load with wrk (50 connections), side by side with a bare Hono /healthz in the
 * same run (and with the floor of a cached read, bench/read_floor.ts): rounds alternate between the targets and the medians are reported, with each
 * target's share of bare Hono's req/s. The service runs in this process (as `deno run main.ts`
 * would), bare Hono in its own; on the real tier PostgreSQL and Redis are reached through the
 * production drivers and the local Neon and Upstash bridges (each in its own process), on
 * real:tcp over TCP (postgres.js, lib/kv/resp.ts), and real:both measures the item reads and their
 * floor through both, on one database, in the same rounds ("TCP:" marks the TCP ones).
 *
 *   deno run -A bench/http_load.ts embedded|real|real:tcp|real:both [--rounds 3] [--seconds 10]
 *     [--only name,...] [--no-request-lines]
 *
 * Needs `wrk` (Debian: apt-get install -y wrk).
 */
import { Hono } from "hono";
import { cliFlag } from "../dev/cli_flag.ts";
import {
  atFinish,
  freePort,
  median,
  runScript,
  spawnDeno,
  tcpStores,
  tierArg,
  useTier,
} from "./real_tier.ts";
import type { Sql } from "../lib/db/port.ts";
import { type Run, type Target, wrk as runWrk } from "./wrk.ts";
import { seedTenant, testEnv } from "../tests/harness.ts";
import { seedItemRead, serveApp } from "./served_app.ts";
import { seedChainTxs } from "../tests/seed_rows.ts";

const tier = tierArg();
const rounds = Number(cliFlag("rounds") ?? 3);
const seconds = Number(cliFlag("seconds") ?? 10);
const only = cliFlag("only")?.split(",");
const noLines = Deno.args.includes("--no-request-lines");
async function main() {
  await useTier(tier);
  const { services } = await testEnv();
  // The measured app is alone in its process but for the database-bound variant below (a second
  // app exercised in the same isolate slows the first one's request path by up to 20 %).
  // `--no-request-lines` serves it with LOG_REQUEST_SAMPLE=0, to weigh the request line.
  const base = await serveApp(noLines ? { LOG_REQUEST_SAMPLE: 0 } : {});
  // The same app with the read caches off: every read asks the database.
  const uncached = await serveApp({ ITEM_STATE_CACHE_MS: 0, TX_LIST_CACHE_MS: 0 });
  const barePort = freePort();
  await spawnDeno(["bench/bare_hono.ts", String(barePort)]);
  const framedPort = freePort();
  await spawnDeno(["bench/bare_hono.ts", String(framedPort), "framed"]);
  const { tenant: t, apiKey, transactionId, transactionIds } = await seedItemRead(
    "http bench",
    1_000,
  );
  // The floor of the cached item read: its work alone, without a framework and in a lean Hono
  // app (bench/read_floor.ts), with request lines as the service has them.
  const floorReads: Record<string, string> = {};
  for (const mode of ["raw", "hono"]) {
    const port = freePort();
    await spawnDeno([
      "bench/read_floor.ts",
      String(port),
      mode,
      apiKey,
      transactionId,
      ...(noLines ? ["--no-request-lines"] : []),
    ]);
    floorReads[mode] = `http://127.0.0.1:${port}/items/v1/requests/${transactionId}`;
  }
  // Two apps of one game: one with 100 transaction records, one with 100,000.
  const small = await seedTenant("tx 100");
  const large = await seedTenant("tx 100000");
  await seedChainTxs(services.db, { appid: small.appid, gameIndex: small.gameIndex, rows: 100 });
  await seedChainTxs(services.db, {
    appid: large.appid,
    gameIndex: large.gameIndex,
    rows: 100_000,
  });
  // The database floor: a bare Hono route in this process running the item read's one SELECT
  // through the same driver, pool and database, without authentication, logging or validation.
  const serveFloor = (db: Sql) => {
    const floor = new Hono();
    floor.get("/item/:id", async (c) => {
      const rows = await db.query(
        `select status, attempts, last_code, last_message, delivered_at from item_requests
          where game_index = $1 and transaction_id = $2`,
        [t.gameIndex, c.req.param("id")],
      );
      return c.json(rows[0]);
    });
    const port = freePort();
    const server = Deno.serve({ hostname: "127.0.0.1", port, onListen: () => {} }, floor.fetch);
    atFinish(() => server.shutdown());
    return `http://127.0.0.1:${port}`;
  };
  const floorUrl = serveFloor(services.db);
  // real:both: the same reads once more over the TCP adapters, on the same database.
  const tcpTargets: Target[] = [];
  if (tier === "real:both") {
    const stores = tcpStores();
    const tcpBase = await serveApp(noLines ? { LOG_REQUEST_SAMPLE: 0 } : {}, stores);
    const tcpUncached = await serveApp({ ITEM_STATE_CACHE_MS: 0, TX_LIST_CACHE_MS: 0 }, stores);
    const key = { authorization: `Bearer ${apiKey}` };
    tcpTargets.push(
      {
        name: "TCP: bare Hono + the item read's SELECT (floor)",
        url: `${serveFloor(stores.db)}/item/${transactionId}`,
      },
      {
        name: "TCP: GET /items/v1/requests/{id} (API key)",
        url: `${tcpBase}/items/v1/requests/${transactionId}`,
        headers: key,
      },
      {
        name: "TCP: GET /items/v1/requests/{id} (API key), state cache off",
        url: `${tcpUncached}/items/v1/requests/${transactionId}`,
        headers: key,
      },
    );
  }
  const targets: Target[] = [
    { name: "bare Hono /healthz", url: `http://127.0.0.1:${barePort}/healthz` },
    {
      name: "bare Hono + a middleware setting X-Request-Id",
      url: `http://127.0.0.1:${framedPort}/healthz`,
    },
    { name: "service /healthz", url: `${base}/healthz` },
    {
      name: "bare Hono + the item read's SELECT (floor)",
      url: `${floorUrl}/item/${transactionId}`,
    },
    { name: "GET /service/v1/tx (bearer)", url: `${base}/service/v1/tx`, headers: t.chainHeaders },
    {
      name: "GET /service/v1/tx (bearer), list cache off",
      url: `${uncached}/service/v1/tx`,
      headers: t.chainHeaders,
    },
    {
      name: "GET /items/v1/requests/{id} (API key)",
      url: `${base}/items/v1/requests/${transactionId}`,
      headers: { authorization: `Bearer ${apiKey}` },
    },
    {
      name: "the cached item read's work alone, no framework (floor)",
      url: floorReads.raw,
      headers: { authorization: `Bearer ${apiKey}` },
    },
    {
      name: "the cached item read's work alone, in a lean Hono app (floor)",
      url: floorReads.hono,
      headers: { authorization: `Bearer ${apiKey}` },
    },
    {
      name: "GET /items/v1/requests/{id} (API key), 1,000 ids at random",
      url: `${base}/items/v1/requests/${transactionId}`,
      headers: { authorization: `Bearer ${apiKey}` },
      paths: transactionIds.map((id) => `/items/v1/requests/${id}`),
    },
    {
      name: "GET /items/v1/requests/{id} (API key), state cache off",
      url: `${uncached}/items/v1/requests/${transactionId}`,
      headers: { authorization: `Bearer ${apiKey}` },
    },
    {
      name: "GET /service/v1/tx, 100 rows, first page polled",
      url: `${base}/service/v1/tx`,
      headers: small.chainHeaders,
    },
    // The list's depth in history is measured on the database read (list cache off).
    {
      name: "GET /service/v1/tx, 100 rows",
      url: `${uncached}/service/v1/tx`,
      headers: small.chainHeaders,
    },
    {
      name: "GET /service/v1/tx, 100,000 rows",
      url: `${uncached}/service/v1/tx`,
      headers: large.chainHeaders,
    },
    {
      name: "GET /service/v1/tx, 100,000 rows, page 200",
      url: `${uncached}/service/v1/tx?page=200`,
      headers: large.chainHeaders,
    },
    ...tcpTargets,
  ].filter((x) => !only || x.name === "bare Hono /healthz" || only.some((o) => x.name.includes(o)));
  // Warm up every target once (JIT, caches) before measuring. The floor of the item read must
  // answer the service's bytes, or it would not be the same work.
  const itemRead = await fetch(`${base}/items/v1/requests/${transactionId}`, {
    headers: { authorization: `Bearer ${apiKey}` },
  }).then((res) => res.text());
  for (const target of targets) {
    const res = await fetch(target.url, { headers: target.headers });
    const body = await res.text();
    if (!res.ok) throw new Error(`${target.name}: ${res.status} ${body.slice(0, 200)}`);
    if (target.url === floorReads.raw || target.url === floorReads.hono) {
      if (body !== itemRead) throw new Error(`${target.name} answers ${body}, not ${itemRead}`);
    }
  }
  const results = new Map<string, Run[]>(targets.map((x) => [x.name, []]));
  for (let r = 0; r < rounds; r++) {
    for (const target of targets) results.get(target.name)!.push(await runWrk(target, seconds));
  }
  const bareRps = median(results.get("bare Hono /healthz")!.map((x) => x.rps));
  console.log(
    `\n${tier} tier${
      noLines ? " (request lines off)" : ""
    }, wrk -t2 -c50 -d${seconds}s, ${rounds} rounds alternated, medians`,
  );
  console.log("| target | req/s | p50 ms | p99 ms | share of bare Hono | non-2xx |");
  console.log("|---|---|---|---|---|---|");
  for (const target of targets) {
    const runs = results.get(target.name)!;
    const rps = median(runs.map((x) => x.rps));
    console.log(
      `| ${target.name} | ${Math.round(rps)} | ${median(runs.map((x) => x.p50)).toFixed(2)} | ${
        median(runs.map((x) => x.p99)).toFixed(2)
      } | ${(rps / bareRps).toFixed(2)} | ${runs.reduce((a, x) => a + x.non2xx, 0)} |`,
    );
  }
}

await runScript(main);
