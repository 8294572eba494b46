/**
 * EXPLAIN ANALYZE of the transaction list's query on 100,000 records of one app (beside 100 of
 * another, 5,000 of a third and one each of 2,000 more), unfiltered (the exact total from the per-app count) and filtered (the capped count),
 * on a fresh PostgreSQL database (dropped at the end), and the time of each over repeated runs.
 *
 *   deno run -A bench/tx_list_explain.ts [--rows 100000] [--runs 200]
 */
import { cliFlag } from "../dev/cli_flag.ts";
import { median, runScript, useTier } from "./real_tier.ts";
import { openTcp } from "../lib/db/tcp.ts";
import { migrate } from "../lib/db/migrate.ts";
import type { Row, Sql } from "../lib/db/port.ts";
import { listTransactions, type TxListQuery } from "../lib/chain/tx_records.ts";
import { seedChainTxs } from "../tests/seed_rows.ts";

const ROWS = Number(cliFlag("rows") ?? 100_000);
const RUNS = Number(cliFlag("runs") ?? 200);

/** A Sql whose list query is run under EXPLAIN ANALYZE and its plan printed. */
function explaining(db: Sql, label: string): Sql {
  return {
    ...db,
    async query<T = Row>(text: string, params?: unknown[]) {
      const plan = await db.query<{ "QUERY PLAN": string }>(
        `explain (analyze, costs off, timing off, summary on) ${text}`,
        params,
      );
      console.log(
        `\n#### ${label}\n\n\`\`\`\n${plan.map((r) => r["QUERY PLAN"]).join("\n")}\n\`\`\``,
      );
      return await db.query<T>(text, params);
    },
  };
}

await runScript(async () => {
  await useTier("real:tcp");
  const db = openTcp(Deno.env.get("DATABASE_URL")!);
  try {
    await migrate(db);
    await db.query("insert into games (game_index, name) values (1, 'g'), (2, 'h')");
    await seedChainTxs(db, { appid: "small", gameIndex: 1, rows: 100 });
    await seedChainTxs(db, { appid: "large", gameIndex: 1, rows: ROWS });
    await seedChainTxs(db, { appid: "other", gameIndex: 2, rows: 5_000 });
    // 2,000 more apps with a record each, so the counts table is not a single page.
    await db.query(
      `insert into chain_txs (request_id, appid, game_index, network, chain_id, player_id, tx_type,
         status, from_address, contract, request_params, created_at, updated_at)
       select 'many-' || i, 'app-' || i, 2, 'polygon', 137, 'p', 'mint', 'SUCCESS', '0xa', '0xb',
              '{}'::jsonb, now(), now()
         from generate_series(1, 2000) as i`,
    );
    await db.query("analyze");
    const forms: [string, TxListQuery][] = [
      ["100 rows, first page", { appid: "small", network: "polygon", page: 1, limit: 20 }],
      [`${ROWS} rows, first page`, { appid: "large", network: "polygon", page: 1, limit: 20 }],
      [`${ROWS} rows, by player`, {
        appid: "large",
        network: "polygon",
        page: 1,
        limit: 20,
        playerId: "player-7",
      }],
      [`${ROWS} rows, by dates`, {
        appid: "large",
        network: "polygon",
        page: 1,
        limit: 20,
        startDate: "2000-01-01",
        endDate: "2999-12-31",
      }],
    ];
    for (const [label, q] of forms) {
      const page = await listTransactions(explaining(db, label), q);
      console.log(`totalItems ${page.meta.totalItems}, totalCapped ${page.meta.totalCapped}`);
    }
    // Alternate the forms, RUNS times each.
    const times = new Map<string, number[]>(forms.map(([label]) => [label, []]));
    for (let i = 0; i < RUNS; i++) {
      for (const [label, q] of forms) {
        const t = performance.now();
        await listTransactions(db, q);
        times.get(label)!.push(performance.now() - t);
      }
    }
    console.log(
      `\n| list query (postgres.js, one at a time, ${RUNS} runs alternated) | median ms |`,
    );
    console.log("|---|---|");
    for (const [label, xs] of times) console.log(`| ${label} | ${median(xs).toFixed(3)} |`);
  } finally {
    await db.close();
  }
});
