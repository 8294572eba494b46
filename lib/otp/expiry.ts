/**
 * Expiry times as the spec shows them: ISO 8601 with the zone's offset and its name in brackets,
 * e.g. `2026-11-21T08:13:25.943+09:00[Asia/Seoul]`. Built with Intl because Temporal is missing
 * on Workers.
 */
import { isTimeZone, offsetSecondsAt } from "../time/zones.ts";

/** True when Intl knows the IANA time zone name. */
export const isKnownTimeZone = isTimeZone;

function pad(n: number, width = 2): string {
  return String(Math.abs(n)).padStart(width, "0");
}

function formatOffset(offsetSeconds: number): string {
  // Like java.time: a zero offset prints as Z, seconds only when the offset has them.
  if (offsetSeconds === 0) return "Z";
  const sign = offsetSeconds < 0 ? "-" : "+";
  const abs = Math.abs(offsetSeconds);
  const hh = pad(Math.floor(abs / 3600));
  const mm = pad(Math.floor((abs % 3600) / 60));
  const ss = abs % 60;
  return `${sign}${hh}:${mm}${ss ? `:${pad(ss)}` : ""}`;
}

/** Formats epoch milliseconds in a time zone, e.g. `2026-11-21T08:13:25.943+09:00[Asia/Seoul]`. */
export function formatZonedExpiry(epochMs: number, timeZone: string): string {
  const offsetSeconds = offsetSecondsAt(timeZone, epochMs);
  // The wall clock is the instant shifted by the offset, read as UTC.
  const wall = new Date(epochMs + offsetSeconds * 1000);
  const date = wall.toISOString().slice(0, 23);
  return `${date}${formatOffset(offsetSeconds)}[${timeZone}]`;
}
