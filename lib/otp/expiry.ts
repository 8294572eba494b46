/**
 * Expiry times as the spec shows them: ISO 8601 with the zone's offset and its name in brackets,
 * e.g. `2026-11-21T08:13:25.943+09:00[Asia/Seoul]`. Built with Intl because Temporal is missing
 * on Workers.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** True when Intl knows the IANA time zone name. */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

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
  const parts: Record<string, string> = {};
  for (const p of formatterFor(timeZone).formatToParts(new Date(epochMs))) parts[p.type] = p.value;
  const year = Number(parts.year);
  const month = Number(parts.month);
  const day = Number(parts.day);
  const hour = Number(parts.hour);
  const minute = Number(parts.minute);
  const second = Number(parts.second);
  const ms = ((epochMs % 1000) + 1000) % 1000;
  // The offset is the wall clock read as UTC minus the instant, both at whole seconds.
  const wallAsUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  const offsetSeconds = Math.round((wallAsUtc - (epochMs - ms)) / 1000);
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}.${
    pad(ms, 3)
  }${formatOffset(offsetSeconds)}[${timeZone}]`;
}
