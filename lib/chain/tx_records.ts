/** Transaction records of an app: the paged list and registering the hash of a WAITING request. */
import type { Sql } from "../db/port.ts";
import { DbError } from "../db/port.ts";
import { DomainError } from "../errors.ts";
import { type PageMeta, pageMeta } from "../contracts.ts";

/** A transaction record as the list shows it. */
export interface TxRecord {
  appid: string;
  playerId: number | string;
  address: string;
  contract: string;
  requestId: string;
  requestParams: Record<string, unknown>;
  txType: string;
  txStatus: string;
  txHash: string | null;
  createdAt: string;
  updatedAt: string;
}

// Polygon hashes are 0x + 64 hex; XPLA (Cosmos) hashes are 64 hex, shown uppercase.
const TX_HASH = /^(?:0x)?[0-9a-fA-F]{64}$/;

/** Attaches a hash to a WAITING (or re-sent PENDING) request of the app; it becomes PENDING. */
export async function registerTxHash(db: Sql, q: {
  appid: string;
  requestId: string;
  txHash: string;
  now: Date;
}) {
  if (!TX_HASH.test(q.txHash)) {
    throw new DomainError(
      "invalid",
      "VALIDATION_FAILED",
      "txHash must be 64 hex digits (0x-prefixed on polygon)",
    );
  }
  const digits = q.txHash.replace(/^0x/, "");
  let rows: { request_id: string }[];
  try {
    // The stored form is the network's own: 0x + lowercase on polygon, uppercase on xpla.
    rows = await db.query<{ request_id: string }>(
      `with h as (
         select case network when 'xpla' then upper($3) else '0x' || lower($3) end as hash
           from chain_txs where request_id = $1 and appid = $2)
       update chain_txs set tx_hash = h.hash, status = 'PENDING', updated_at = $4, sent_at = $4
         from h
        where request_id = $1 and appid = $2 and status in ('WAITING', 'PENDING')
          and (tx_hash is null or tx_hash = h.hash)
        returning request_id`,
      [q.requestId, q.appid, digits, q.now],
    );
  } catch (err) {
    if (err instanceof DbError && err.uniqueViolation) {
      throw new DomainError(
        "conflict",
        "TX_HASH_TAKEN",
        "txHash is already registered for another request",
      );
    }
    throw err;
  }
  if (rows.length > 0) return;
  const [existing] = await db.query<{ status: string }>(
    "select status from chain_txs where request_id = $1 and appid = $2",
    [q.requestId, q.appid],
  );
  if (!existing) {
    throw new DomainError("not_found", "REQUEST_NOT_FOUND", `requestId ${q.requestId} not found`);
  }
  throw new DomainError(
    "conflict",
    "TX_HASH_TAKEN",
    `requestId ${q.requestId} already has a different txHash (status ${existing.status})`,
  );
}

/** Lists the app's records on one network, newest first; dates are inclusive UTC days. */
export async function listTransactions(db: Sql, q: {
  appid: string;
  network: string;
  playerId?: string;
  startDate?: string;
  endDate?: string;
  page: number;
  limit: number;
}): Promise<{ transactions: TxRecord[]; meta: PageMeta }> {
  const start = q.startDate ? new Date(`${q.startDate}T00:00:00.000Z`) : null;
  const end = q.endDate ? new Date(Date.parse(`${q.endDate}T00:00:00.000Z`) + 86_400_000) : null;
  const rows = await db.query<{
    appid: string;
    player_id: string;
    from_address: string;
    contract: string;
    request_id: string;
    request_params: Record<string, unknown>;
    tx_type: string;
    status: string;
    tx_hash: string | null;
    created_at: Date;
    updated_at: Date;
    total: string;
  }>(
    `select appid, player_id, from_address, contract, request_id, request_params, tx_type, status,
            tx_hash, created_at, updated_at, count(*) over () as total
       from chain_txs
      where appid = $1 and network = $7 and ($2::text is null or player_id = $2)
        and ($3::timestamptz is null or created_at >= $3)
        and ($4::timestamptz is null or created_at < $4)
      order by created_at desc, request_id
      limit $5 offset $6`,
    [q.appid, q.playerId ?? null, start, end, q.limit, (q.page - 1) * q.limit, q.network],
  );
  const total = rows.length > 0 ? Number(rows[0].total) : await countAll(db, q, start, end);
  return {
    transactions: rows.map((r) => ({
      appid: r.appid,
      playerId: /^\d{1,15}$/.test(r.player_id) ? Number(r.player_id) : r.player_id,
      address: r.from_address,
      contract: r.contract,
      requestId: r.request_id,
      requestParams: r.request_params,
      txType: r.tx_type,
      txStatus: r.status,
      txHash: r.tx_hash,
      createdAt: r.created_at.toISOString(),
      updatedAt: r.updated_at.toISOString(),
    })),
    meta: pageMeta(total, rows.length, q.limit, q.page),
  };
}

// A page past the end has no rows to carry the window count, so count separately.
async function countAll(
  db: Sql,
  q: { appid: string; network: string; playerId?: string; page: number },
  start: Date | null,
  end: Date | null,
): Promise<number> {
  if (q.page === 1) return 0;
  const [row] = await db.query<{ n: string }>(
    `select count(*) as n from chain_txs
      where appid = $1 and network = $5 and ($2::text is null or player_id = $2)
        and ($3::timestamptz is null or created_at >= $3)
        and ($4::timestamptz is null or created_at < $4)`,
    [q.appid, q.playerId ?? null, start, end, q.network],
  );
  return Number(row.n);
}
