/** Transaction records of an app: the paged list and registering the hash of a WAITING request. */
import type { Sql } from "../db/port.ts";
import { DbError } from "../db/port.ts";
import { DomainError } from "../errors.ts";
import { type PageMeta, pageMeta } from "../contracts.ts";
import { type CachedPage, cachedTxList, readTxList, txRecordsChanged } from "./tx_list_cache.ts";

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
  } finally {
    // Also after a failure: the update may have committed before its answer was lost.
    txRecordsChanged(db, q.appid);
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

/**
 * A filtered list (player or dates) counts at most this many records for totalItems; past it
 * `meta.totalCapped` is true. The unfiltered list's total is exact (kept per app and network).
 */
export const TX_COUNT_CAP = 1_000;

/** The page of a list continued from a cursor, and the cursor of the next page. */
export interface TxPageMeta extends PageMeta {
  /**
   * True when a filtered list matches more records than TX_COUNT_CAP (totalItems is the cap);
   * always false without filters.
   */
  totalCapped: boolean;
  /** Pass as `cursor` to get the next page (null on the last page). */
  nextCursor: string | null;
}

/** The position after a record: its creation time (µs since the epoch) and request id. */
function encodeCursor(createdUs: string, requestId: string): string {
  const bytes = new TextEncoder().encode(`${createdUs}:${requestId}`);
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_")
    .replace(/=+$/, "");
}

function decodeCursor(cursor: string): { createdUs: string; requestId: string } {
  try {
    const bin = atob(cursor.replaceAll("-", "+").replaceAll("_", "/"));
    const text = new TextDecoder("utf-8", { fatal: true }).decode(
      Uint8Array.from(bin, (ch) => ch.charCodeAt(0)),
    );
    const m = /^(\d{1,19}):(.+)$/s.exec(text);
    if (m) return { createdUs: m[1], requestId: m[2] };
  } catch { /* falls through to the error */ }
  throw new DomainError("invalid", "VALIDATION_FAILED", "cursor is not a cursor this list gave");
}

/** What a page of the transaction list is asked for with. */
export interface TxListQuery {
  appid: string;
  network: string;
  playerId?: string;
  startDate?: string;
  endDate?: string;
  page: number;
  limit: number;
  cursor?: string;
}

/** The page's name in the list cache: every parameter that shapes it besides the app. */
export function txPageKey(q: Omit<TxListQuery, "appid">): string {
  return JSON.stringify([
    q.network,
    q.playerId ?? null,
    q.startDate ?? null,
    q.endDate ?? null,
    q.cursor ?? null,
    q.page,
    q.limit,
  ]);
}

/**
 * The page listTransactionsJson would answer from this instance's cache at `nowMs`, without
 * waiting for anything (its text is the wrapped answer); undefined when it must be read.
 */
export function cachedTransactionsJson(
  db: Sql,
  q: TxListQuery,
  nowMs: number,
): CachedPage | undefined {
  return cachedTxList(db, q.appid, txPageKey(q), nowMs);
}

/**
 * The page `listTransactions` gives, as JSON text, reused per instance for `ttlMs` (see
 * tx_list_cache.ts for the bounds). With `wrap` the text kept and returned is `wrap(page)` (the
 * route's whole answer, rendered once per page read rather than once per request); the cache does
 * not tell wraps apart, so every caller passes the same one.
 */
export async function listTransactionsJson(
  db: Sql,
  q: TxListQuery,
  options: { ttlMs: number; wrap?: (json: string) => string },
): Promise<string> {
  const wrap = options.wrap ?? ((json: string) => json);
  return await readTxList(
    db,
    q.appid,
    txPageKey(q),
    async () => wrap(JSON.stringify(await listTransactions(db, q))),
    options,
  );
}

/**
 * Lists the app's records on one network, newest first; dates are inclusive UTC days. Pages by
 * key: with `cursor` (the previous page's meta.nextCursor) the page starts after that record, so
 * every page costs the same however deep; `page` alone still works (the spec's page numbers: the
 * page's first row is found by skipping index entries only, then the page is read by key). One
 * statement returns the page and its total: without filters the app's exact record count on the
 * network (one row of `chain_tx_counts`, kept by triggers on every insert and delete), with filters
 * a count capped at TX_COUNT_CAP; page and capped count are served by the (appid, network[,
 * player_id], created_at, request_id) indexes.
 */
export async function listTransactions(
  db: Sql,
  q: TxListQuery,
): Promise<{ transactions: TxRecord[]; meta: TxPageMeta }> {
  const start = q.startDate ? new Date(`${q.startDate}T00:00:00.000Z`) : null;
  const end = q.endDate ? new Date(Date.parse(`${q.endDate}T00:00:00.000Z`) + 86_400_000) : null;
  const after = q.cursor ? decodeCursor(q.cursor) : null;
  // Only the filters given become conditions, so the planner sees the exact shape and serves
  // the page and the capped count from one index (index-only for the count).
  const params: unknown[] = [q.appid, q.network];
  const where = ["appid = $1", "network = $2"];
  const param = (value: unknown) => `$${params.push(value)}`;
  if (q.playerId !== undefined) where.push(`player_id = ${param(q.playerId)}`);
  if (start) where.push(`created_at >= ${param(start)}`);
  if (end) where.push(`created_at < ${param(end)}`);
  const filter = where.join(" and ");
  const skip = after ? 0 : (q.page - 1) * q.limit;
  // A page number past the first finds its first row by walking the list index alone (index
  // columns only, no row fetched), then reads its rows from there by key like a cursor page.
  const position = after
    ? `and (created_at, request_id) < (timestamptz 'epoch' + ${
      param(after.createdUs)
    }::bigint * interval '1 microsecond', ${param(after.requestId)}::text)`
    : skip > 0
    ? `and (created_at, request_id) <= (
         select created_at, request_id from chain_txs where ${filter}
          order by created_at desc, request_id desc limit 1 offset ${param(skip)})`
    : "";
  const limit = param(q.limit);
  const filtered = where.length > 2;
  // The order makes the capped count walk the list index like the page does.
  const count = filtered
    ? `(select count(*)::int from (
          select 1 from chain_txs where ${filter}
           order by created_at desc, request_id desc limit ${param(TX_COUNT_CAP + 1)}
        ) capped)`
    : "coalesce((select n::int from chain_tx_counts where appid = $1 and network = $2), 0)";
  const [result] = await db.query<{
    total: number;
    rows: {
      appid: string;
      player_id: string;
      from_address: string;
      contract: string;
      request_id: string;
      request_params: Record<string, unknown>;
      tx_type: string;
      status: string;
      tx_hash: string | null;
      created_at: string;
      updated_at: string;
      created_us: string;
    }[] | null;
  }>(
    `with page as (
       select appid, player_id, from_address, contract, request_id, request_params, tx_type,
              status, tx_hash, created_at, updated_at,
              (extract(epoch from created_at) * 1000000)::bigint::text as created_us
         from chain_txs
        where ${filter} ${position}
        order by created_at desc, request_id desc
        limit ${limit})
     select ${count} as total,
            (select json_agg(page order by created_at desc, request_id desc) from page) as rows`,
    params,
  );
  const rows = result.rows ?? [];
  const totalCapped = filtered && result.total > TX_COUNT_CAP;
  const total = filtered ? Math.min(result.total, TX_COUNT_CAP) : result.total;
  const last = rows.at(-1);
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
      createdAt: new Date(r.created_at).toISOString(),
      updatedAt: new Date(r.updated_at).toISOString(),
    })),
    meta: {
      ...pageMeta(total, rows.length, q.limit, q.page),
      totalCapped,
      nextCursor: last && rows.length === q.limit
        ? encodeCursor(last.created_us, last.request_id)
        : null,
    },
  };
}
