/**
 * The delivery log page the console shows, on a game with 20,000 item requests: the first page
 * and a page 19,000 rows deep. "keyset" is listDeliveries (the admin API's cursor paging); the
 * baseline is the same query paged with OFFSET, as a page-number API would do it.
 *
 *   deno bench -A bench/admin_reads_bench.ts
 */
import { testEnv } from "../tests/harness.ts";
import { seedTenant } from "../tests/harness.ts";
import { listDeliveries } from "../lib/reads/items.ts";
import { encodeCursor } from "../lib/reads/page.ts";

const ROWS = 20_000;
const PAGE = 50;
const DEEP = 19_000;
const { services } = await testEnv();
const { gameIndex } = await seedTenant("reads bench");
await services.db.query(
  `insert into item_requests (game_index, transaction_id, body, body_hash, source, status,
     attempts, next_attempt_at, created_at, updated_at)
   select $1, 'tx-' || lpad(i::text, 6, '0'), '{"id":"p","detail":[]}', 'h', 'api', 'DELIVERED', 1,
     now(), timestamptz '2026-01-01' + i * interval '1 second', now()
   from generate_series(1, $2) as i`,
  [gameIndex, ROWS],
);
// The cursor of the row before the deep page (newest first: row DEEP from the top).
const [deepRow] = await services.db.query<{ us: string; transaction_id: string }>(
  `select (extract(epoch from created_at) * 1000000)::bigint::text as us, transaction_id
     from item_requests where game_index = $1
    order by created_at desc, transaction_id desc offset $2 limit 1`,
  [gameIndex, DEEP - 1],
);
const deepCursor = encodeCursor([deepRow.us, deepRow.transaction_id]);

async function offsetPage(offset: number) {
  return await services.db.query(
    `select transaction_id, game_index, status, source, attempts, last_code, last_message,
        next_attempt_at, delivered_at, created_at, updated_at, body from item_requests
      where game_index = $1 order by created_at desc, transaction_id desc limit $2 offset $3`,
    [gameIndex, PAGE + 1, offset],
  );
}

Deno.bench("first page: keyset (listDeliveries)", { group: "first", baseline: true }, async () => {
  await listDeliveries(services.db, gameIndex, { limit: PAGE });
});
Deno.bench("first page: OFFSET 0", { group: "first" }, async () => {
  await offsetPage(0);
});
Deno.bench(
  "page at row 19,000: keyset (listDeliveries)",
  { group: "deep", baseline: true },
  async () => {
    const page = await listDeliveries(services.db, gameIndex, { limit: PAGE, cursor: deepCursor });
    if (page.items[0].transactionId !== `tx-${String(ROWS - DEEP).padStart(6, "0")}`) {
      throw new Error("keyset page starts at the wrong row");
    }
  },
);
Deno.bench("page at row 19,000: OFFSET 19,000", { group: "deep" }, async () => {
  const rows = await offsetPage(DEEP);
  if (
    (rows[0] as { transaction_id: string }).transaction_id !==
      `tx-${String(ROWS - DEEP).padStart(6, "0")}`
  ) {
    throw new Error("offset page starts at the wrong row");
  }
});
