/**
 * Keyset paging for the admin lists: a page is `limit` rows after the cursor, and the cursor is
 * the sort key of the last row shown (opaque base64url text), so pages stay stable while rows
 * are added and no page costs more than its own rows.
 */
import type { Sql } from "../db/port.ts";
import { invalid } from "../errors.ts";
import { requireGame } from "../tenancy.ts";

/** What a list call asks for. */
export interface PageRequest {
  limit: number;
  cursor?: string;
}

/** A page of a list. */
export interface Page<T> {
  items: T[];
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}

/** Largest page size. */
export const MAX_PAGE = 200;

const CURSOR_PARTS = /^[0-9]{1,20}$/;

/** Encodes a sort key (a time in microseconds or an id, then a tie-breaking text key). */
export function encodeCursor(parts: [string, string]): string {
  const bytes = new TextEncoder().encode(JSON.stringify(parts));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_")
    .replace(/=+$/, "");
}

/** Decodes a cursor of this listing, or throws a validation error naming `cursor`. */
export function decodeCursor(cursor: string | undefined): [string, string] | null {
  if (cursor === undefined || cursor === "") return null;
  const bad = () => invalid("cursor is not a cursor from this listing");
  if (cursor.length > 1024 || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw bad();
  let parsed: unknown;
  try {
    const text = atob(cursor.replaceAll("-", "+").replaceAll("_", "/"));
    parsed = JSON.parse(new TextDecoder().decode(Uint8Array.from(text, (c) => c.charCodeAt(0))));
  } catch {
    throw bad();
  }
  if (
    !Array.isArray(parsed) || parsed.length !== 2 || typeof parsed[0] !== "string" ||
    typeof parsed[1] !== "string" || !CURSOR_PARTS.test(parsed[0]) ||
    BigInt(parsed[0]) >= 2n ** 63n
  ) throw bad();
  return [parsed[0], parsed[1]];
}

/** Builds a page from `limit + 1` rows (the extra row only says that more follow). */
export function pageOf<R, T>(
  rows: R[],
  limit: number,
  map: (row: R) => T,
  keyOf: (row: R) => [string, string],
): Page<T> {
  const shown = rows.slice(0, limit);
  const more = rows.length > limit && shown.length > 0;
  return {
    items: shown.map(map),
    nextCursor: more ? encodeCursor(keyOf(shown[shown.length - 1])) : null,
  };
}

/**
 * How a list is ordered, always newest first: by a timestamp column with a text tie-breaker
 * (the cursor holds the time in whole microseconds and the key), or by one bigint column.
 */
export type KeysetOrder = { time: string; key: string } | { id: string };

/** One keyset list: what to select from where, its order, the page asked for, and the view. */
export interface KeysetQuery<R, T> {
  /** The select list (the cursor's two columns are added to it). */
  select: string;
  /** The from clause, with any alias the other parts use. */
  from: string;
  /** The list's own conditions over `params` as $1..$n. */
  where: string;
  params: unknown[];
  order: KeysetOrder;
  page: PageRequest;
  /** A game whose absence, not an empty list, explains an empty page (404 GAME_NOT_FOUND). */
  gameIndex?: number;
  map: (row: R) => T;
}

/**
 * Reads one page of a list: `limit + 1` rows after the cursor in the list's order, and the cursor
 * of the last row shown. The game is looked up only when the page is empty.
 */
export async function keysetPage<R, T>(db: Sql, q: KeysetQuery<R, T>): Promise<Page<T>> {
  const after = decodeCursor(q.page.cursor);
  const n = q.params.length;
  const o = q.order;
  const byId = "id" in o;
  const cursorColumns = byId
    ? `(${o.id})::text as cursor_a, '' as cursor_b`
    : `${microsOf(o.time)} as cursor_a, ${o.key} as cursor_b`;
  const afterSql = byId
    ? `($${n + 1}::bigint is null or ${o.id} < $${n + 1}::bigint)`
    : `($${n + 1}::bigint is null or (${o.time}, ${o.key}) <
        (timestamptz 'epoch' + $${n + 1}::bigint * interval '1 microsecond', $${n + 2}::text))`;
  const orderSql = byId ? `${o.id} desc` : `${o.time} desc, ${o.key} desc`;
  const cursorParams = byId ? [after?.[0] ?? null] : [after?.[0] ?? null, after?.[1] ?? null];
  const rows = await db.query<R & { cursor_a: string; cursor_b: string }>(
    `select ${q.select}, ${cursorColumns} from ${q.from}
      where (${q.where}) and ${afterSql}
      order by ${orderSql} limit $${n + cursorParams.length + 1}`,
    [...q.params, ...cursorParams, q.page.limit + 1],
  );
  if (rows.length === 0 && q.gameIndex !== undefined) await requireGame(db, q.gameIndex);
  return pageOf(rows, q.page.limit, q.map, (r) => [r.cursor_a, r.cursor_b]);
}

/** SQL selecting a timestamp as whole microseconds since the epoch (exact, unlike a Date). */
function microsOf(column: string): string {
  return `(extract(epoch from ${column}) * 1000000)::bigint::text`;
}

/** ISO text of a timestamp column value, or null. */
export function iso(value: Date | string | null | undefined): string | null {
  return value == null ? null : new Date(value).toISOString();
}
