/**
 * Rows for plan tests and benchmarks: bulk tables each filled by one generate_series statement,
 * and single item requests registered as the API does.
 */
import type { Sql } from "../lib/db/port.ts";
import { registerItemRequest } from "../lib/items/register.ts";

/** Inserts `rows` polygon transaction records of an app, one per second back from now. */
export async function seedChainTxs(
  db: Sql,
  input: { appid: string; gameIndex: number; rows: number; network?: string },
): Promise<void> {
  await db.query(
    `insert into chain_txs (request_id, appid, game_index, network, chain_id, player_id, tx_type,
       status, from_address, contract, tx_hash, request_params, created_at, updated_at)
     select $1 || '-' || i, $2, $3, $5, 137, 'player-' || (i % 1000), 'mint',
            case when i % 10 = 0 then 'PENDING' else 'SUCCESS' end,
            '0x00000000000000000000000000000000000000aa',
            '0x00000000000000000000000000000000000000bb',
            '0x' || md5($1 || i::text) || md5(i::text),
            jsonb_build_object('tokenId', i::text),
            now() - make_interval(secs => i), now() - make_interval(secs => i)
       from generate_series(1, $4::int) as i`,
    [
      `seed-${crypto.randomUUID().slice(0, 8)}`,
      input.appid,
      input.gameIndex,
      input.rows,
      input.network ?? "polygon",
    ],
  );
}

/** Inserts `rows` old DELIVERED item requests of a game (`old-1`...), one per second back. */
export async function seedDeliveredItems(
  db: Sql,
  input: { gameIndex: number; rows: number },
): Promise<void> {
  await db.query(
    `insert into item_requests (game_index, transaction_id, body, body_hash, source, status,
       attempts, last_code, next_attempt_at, created_at, updated_at, delivered_at)
     select $1, 'old-' || i, '{}', md5(i::text), 'api', 'DELIVERED', 1, 20000,
            now() - make_interval(secs => i), now() - make_interval(secs => i),
            now() - make_interval(secs => i), now() - make_interval(secs => i)
       from generate_series(1, $2::int) as i`,
    [input.gameIndex, input.rows],
  );
}

/**
 * Registers one small item request of a game, as the API does (with `transactionId`, or a new
 * one); returns its key.
 */
export async function registerSampleItem(
  db: Sql,
  input: { gameIndex: number; nowMs: number; transactionId?: string },
): Promise<{ gameIndex: number; transactionId: string }> {
  const item = await registerItemRequest(db, {
    gameIndex: input.gameIndex,
    transactionId: input.transactionId,
    idCategory: "vid",
    id: "sample-user",
    detail: [{ action: "send", assetCode: "gold", amount: 1 }],
    reason: "e",
    serverId: "s1",
  }, { nowMs: input.nowMs });
  return { gameIndex: input.gameIndex, transactionId: item.transactionId };
}
