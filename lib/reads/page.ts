/**
 * Keyset paging for the admin lists: a page is `limit` rows after the cursor, and the cursor is
 * the sort key of the last row shown (opaque base64url text), so pages stay stable while rows
 * are added and no page costs more than its own rows.
 */
import { invalid } from "../errors.ts";

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
 * SQL for "rows after the cursor" ordered by `timeColumn desc, keyColumn desc`, with the cursor's
 * microseconds and key as parameters $us and $key. Select `microsOf(timeColumn)` as `cursor_us`.
 */
export function afterCursor(timeColumn: string, keyColumn: string, us: number, key: number) {
  return `($${us}::bigint is null or (${timeColumn}, ${keyColumn}) <
    (timestamptz 'epoch' + $${us}::bigint * interval '1 microsecond', $${key}::text))`;
}

/** SQL selecting a timestamp as whole microseconds since the epoch (exact, unlike a Date). */
export function microsOf(column: string): string {
  return `(extract(epoch from ${column}) * 1000000)::bigint::text`;
}

/** ISO text of a timestamp column value, or null. */
export function iso(value: Date | string | null | undefined): string | null {
  return value == null ? null : new Date(value).toISOString();
}
