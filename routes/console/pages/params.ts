/** Path parameters of console pages, checked before any call (a bad one is a 404 page). */
import type { Context } from "hono";
import { notFound } from "../../../lib/errors.ts";

/** The `:g` game index of a console path. */
export function gameOf(c: Context): number {
  const raw = c.req.param("g") ?? "";
  const n = /^\d{1,10}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > 2_147_483_647) {
    throw notFound(`game ${raw} not found`, "GAME_NOT_FOUND");
  }
  return n;
}

/** A path segment for an admin API path. */
export function seg(value: string): string {
  return encodeURIComponent(value);
}

/** Splits a textarea into trimmed non-empty lines (word lists: one word per line). */
export function lines(text: string | undefined): string[] {
  return (text ?? "").split(/\r?\n/).map((l) => l.trim()).filter((l) => l.length > 0);
}
