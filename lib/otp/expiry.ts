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

/** Per zone, the text of the last wall-clock minute formatted and the text after the seconds. */
const minutes = new Map<
  string,
  { start: number; offsetSeconds: number; head: string; tail: string }
>();

const pad2 = (n: number) => (n < 10 ? "0" : "") + n;
const pad3 = (n: number) => (n < 10 ? "00" : n < 100 ? "0" : "") + n;

/** Formats epoch milliseconds in a time zone, e.g. `2026-11-21T08:13:25.943+09:00[Asia/Seoul]`. */
export function formatZonedExpiry(epochMs: number, timeZone: string): string {
  const offsetSeconds = offsetAt(timeZone, epochMs);
  // The wall clock is the instant shifted by the offset, read as UTC (whole milliseconds, as a
  // Date keeps them).
  const wall = Math.trunc(epochMs) + offsetSeconds * 1000;
  const start = Math.floor(wall / 60_000) * 60_000;
  let minute = minutes.get(timeZone);
  // A wall-clock minute can repeat with another offset (clocks turned back), hence both checks.
  if (!minute || minute.start !== start || minute.offsetSeconds !== offsetSeconds) {
    // Expiries of a zone mostly fall within one minute of each other: the date, hour and minute
    // (and the offset, constant within the minute) are formatted once per minute.
    minute = {
      start,
      offsetSeconds,
      head: new Date(start).toISOString().slice(0, 17),
      tail: `${isoOffset(offsetSeconds)}[${timeZone}]`,
    };
    minutes.set(timeZone, minute);
  }
  const ms = wall - start;
  return `${minute.head}${pad2(Math.floor(ms / 1000))}.${pad3(ms % 1000)}${minute.tail}`;
}
