/**
 * Wall-clock arithmetic in IANA time zones using Intl only (no Temporal, so it runs on Workers).
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(zone, f);
  }
  return f;
}

/** True when the runtime knows the IANA zone. */
export function isTimeZone(zone: string): boolean {
  try {
    formatterFor(zone);
    return true;
  } catch {
    return false;
  }
}

/** The zone's UTC offset in seconds at an instant (east of Greenwich positive). */
export function offsetSecondsAt(zone: string, instantMs: number): number {
  // format() and one regex are several times cheaper than formatToParts() on V8.
  const m = /(\d+)\/(\d+)\/(\d+),? (\d+):(\d+):(\d+)/.exec(
    formatterFor(zone).format(new Date(instantMs)),
  )!;
  const asUtc = Date.UTC(+m[3], +m[1] - 1, +m[2], +m[4], +m[5], +m[6]);
  const wholeSecond = Math.floor(instantMs / 1000) * 1000;
  return Math.round((asUtc - wholeSecond) / 1000);
}

/** A calendar date and wall-clock time, as parsed from `YYYY-MM-DD` and `HH:mm[:ss]`. */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/**
 * The instant at which a zone's clocks show the wall time. In a spring-forward gap the time does
 * not exist; the result is then the same wall time read with the offset from before the change
 * (for example 02:30 becomes 03:30 local), which is what devices in that zone experience.
 */
export function wallTimeToInstant(wall: WallTime, zone: string, offsetGuess?: number): number {
  const naive = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  // With a guess (the zone's offset the day before) one lookup confirms the common case.
  if (offsetGuess !== undefined) {
    const guessed = naive - offsetGuess * 1000;
    if (offsetSecondsAt(zone, guessed) === offsetGuess) return guessed;
  }
  const first = naive - offsetSecondsAt(zone, naive) * 1000;
  const second = naive - offsetSecondsAt(zone, first) * 1000;
  if (second === first) return first;
  // The offsets disagree around a change; prefer the reading that round-trips.
  const third = naive - offsetSecondsAt(zone, second) * 1000;
  return third === second ? second : Math.max(first, second);
}

/** Formats an offset in seconds as `+09:00`. */
export function formatOffset(seconds: number): string {
  const sign = seconds < 0 ? "-" : "+";
  const abs = Math.abs(seconds);
  const h = String(Math.floor(abs / 3600)).padStart(2, "0");
  const m = String(Math.floor((abs % 3600) / 60)).padStart(2, "0");
  return `${sign}${h}:${m}`;
}
