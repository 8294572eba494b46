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

const HOUR_MS = 3_600_000;

/** Per zone, the last UTC hour found to have one offset throughout (both its ends agree). */
const steadyHours = new Map<string, { from: number; offsetSeconds: number }>();

/**
 * The zone's offset at an instant. Expiries of one topic fall within minutes of each other, so
 * the offset is remembered for the UTC hour around the instant when the hour starts and ends with
 * the same offset (no zone changes its offset twice within an hour); only the first expiry in
 * each hour asks Intl.
 */
function offsetAt(timeZone: string, epochMs: number): number {
  const steady = steadyHours.get(timeZone);
  if (steady && epochMs >= steady.from && epochMs < steady.from + HOUR_MS) {
    return steady.offsetSeconds;
  }
  const offsetSeconds = offsetSecondsAt(timeZone, epochMs);
  const from = Math.floor(epochMs / HOUR_MS) * HOUR_MS;
  if (
    offsetSecondsAt(timeZone, from) === offsetSeconds &&
    offsetSecondsAt(timeZone, from + HOUR_MS - 1) === offsetSeconds
  ) {
    // One remembered hour per zone: the map stays as small as the set of topic zones.
    steadyHours.set(timeZone, { from, offsetSeconds });
  }
  return offsetSeconds;
}

/** Formats epoch milliseconds in a time zone, e.g. `2026-11-21T08:13:25.943+09:00[Asia/Seoul]`. */
export function formatZonedExpiry(epochMs: number, timeZone: string): string {
  const offsetSeconds = offsetAt(timeZone, epochMs);
  // The wall clock is the instant shifted by the offset, read as UTC.
  const wall = new Date(epochMs + offsetSeconds * 1000);
  const date = wall.toISOString().slice(0, 23);
  return `${date}${isoOffset(offsetSeconds)}[${timeZone}]`;
}
