/**
 * Expiry times as the spec shows them: ISO 8601 with the zone's offset and its name in brackets,
 * e.g. `2026-11-21T08:13:25.943+09:00[Asia/Seoul]`. Built with Intl because Temporal is missing
 * on Workers.
 */
import { formatOffset, offsetSecondsAt } from "../time/zones.ts";

function isoOffset(offsetSeconds: number): string {
  // Like java.time: a zero offset prints as Z, seconds only when the offset has them.
  if (offsetSeconds === 0) return "Z";
  const seconds = Math.abs(offsetSeconds) % 60;
  return formatOffset(offsetSeconds) + (seconds ? `:${String(seconds).padStart(2, "0")}` : "");
}

/** Formats epoch milliseconds in a time zone, e.g. `2026-11-21T08:13:25.943+09:00[Asia/Seoul]`. */
export function formatZonedExpiry(epochMs: number, timeZone: string): string {
  const offsetSeconds = offsetSecondsAt(timeZone, epochMs);
  // The wall clock is the instant shifted by the offset, read as UTC.
  const wall = new Date(epochMs + offsetSeconds * 1000);
  const date = wall.toISOString().slice(0, 23);
  return `${date}${isoOffset(offsetSeconds)}[${timeZone}]`;
}
