/** Bulk rows for plan tests and benchmarks, each table filled by one generate_series statement. */
import type { Sql } from "../lib/db/port.ts";

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
