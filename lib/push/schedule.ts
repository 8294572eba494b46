/**
 * Campaign schedules: which dates send, and at which instants. A localizing campaign groups its
 * audience countries' IANA zones by their UTC offset on each sending date, so every group gets its
 * own task at the campaign's local time and daylight-saving changes inside the period are kept.
 */
import ct from "countries-and-timezones";
import { offsetSecondsAt, type WallTime, wallTimeToInstant } from "../time/zones.ts";

/** The schedule-relevant part of a validated campaign. */
export interface ScheduleInput {
  localizing: boolean;
  startDate: string;
  endDate: string;
  /** `HH:mm` or `HH:mm:ss`. */
  time: string;
  repeat: boolean;
  /** ISO weekdays, 1 = Monday .. 7 = Sunday; empty means every day. */
  weekday: number[];
  skip: string[];
  distribution: { enable: boolean; interval: number; count: number };
  /** Audience country codes. */
  countries: string[];
}

/** One sending of the campaign: an instant and the zones it reaches. */
export interface PushTask {
  /** Unix seconds of the first slice. */
  startTime: number;
  /** Unix seconds of the last slice. */
  endTime: number;
  /** Local wall-clock time of the sending, `HH:mm:ss`. */
  time: string;
  /** Local sending date, `YYYY-MM-DD`. */
  date: string;
  /** UTC offset of the zones in seconds. */
  gmtOffset: number;
  /** IANA zones sent at this instant. */
  zones: string[];
  /** Distribution slices: count, and minutes between them. */
  slices: number;
  interval: number;
}

/** Tasks keyed by sending instant (`YYYY-MM-DDTHH:mm:ssZ`), in time order. */
export type PushTasks = Record<string, PushTask>;

const DAY_MS = 86_400_000;

/** Parses `YYYY-MM-DD` into a UTC-midnight epoch ms, or null when it is not a real date. */
export function parseDate(value: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return new Date(ms).toISOString().slice(0, 10) === value ? ms : null;
}

/** Parses `HH:mm` or `HH:mm:ss` into [h, m, s], or null. */
export function parseTime(value: string): [number, number, number] | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/.exec(value);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : null;
}

/** ISO weekday (1 = Monday .. 7 = Sunday) of a UTC-midnight date. */
export function isoWeekday(dateMs: number): number {
  const d = new Date(dateMs).getUTCDay();
  return d === 0 ? 7 : d;
}

/** The sending dates: repeat selects period dates by weekday, otherwise only startDate; skip removes. */
export function sendingDates(input: ScheduleInput): string[] {
  const start = parseDate(input.startDate)!;
  const end = parseDate(input.endDate)!;
  const skip = new Set(input.skip);
  const dates: string[] = [];
  const last = input.repeat ? end : start;
  for (let d = start; d <= last; d += DAY_MS) {
    if (input.repeat && input.weekday.length > 0 && !input.weekday.includes(isoWeekday(d))) {
      continue;
    }
    const iso = new Date(d).toISOString().slice(0, 10);
    if (!skip.has(iso)) dates.push(iso);
  }
  return dates;
}

const zonesByCountry = new Map<string, string[]>();

/** IANA zones of a country (canonical names, from countries-and-timezones). */
export function zonesOfCountry(code: string): string[] {
  let zones = zonesByCountry.get(code);
  if (!zones) {
    zones = ct.getCountry(code)?.timezones ?? [];
    zonesByCountry.set(code, zones);
  }
  return zones;
}

/** The distinct zones of a set of countries, sorted. */
export function audienceZones(countries: string[]): string[] {
  const set = new Set<string>();
  for (const c of countries) for (const z of zonesOfCountry(c)) set.add(z);
  return [...set].sort();
}

function wallOf(date: string, hms: [number, number, number]): WallTime {
  const [year, month, day] = date.split("-").map(Number);
  return { year, month, day, hour: hms[0], minute: hms[1], second: hms[2] };
}

function instantKey(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** Computes the campaign's tasks; `baseTimeZone` is used when the campaign does not localize. */
export function computeTasks(input: ScheduleInput, options: { baseTimeZone: string }): PushTasks {
  const hms = parseTime(input.time)!;
  const time = hms.map((n) => String(n).padStart(2, "0")).join(":");
  const dist = input.distribution.enable
    ? { slices: input.distribution.count, interval: input.distribution.interval }
    : { slices: 1, interval: 0 };
  const spanS = (dist.slices - 1) * dist.interval * 60;
  const found: { at: number; task: PushTask }[] = [];
  const zones = input.localizing ? audienceZones(input.countries) : [options.baseTimeZone];
  const lastOffset = new Map<string, number>();
  for (const date of sendingDates(input)) {
    const wall = wallOf(date, hms);
    // Zones whose clocks show the wall time at the same instant share an offset on that date
    // (grouping by instant also keeps a zone inside a spring-forward gap apart).
    const groups = new Map<number, { at: number; gmtOffset: number; zones: string[] }>();
    for (const zone of zones) {
      const at = wallTimeToInstant(wall, zone, lastOffset.get(zone));
      const group = groups.get(at);
      if (group) {
        group.zones.push(zone);
        lastOffset.set(zone, group.gmtOffset);
      } else {
        const gmtOffset = offsetSecondsAt(zone, at);
        groups.set(at, { at, gmtOffset, zones: [zone] });
        lastOffset.set(zone, gmtOffset);
      }
    }
    for (const g of groups.values()) {
      const gmtOffset = g.gmtOffset;
      const startTime = Math.floor(g.at / 1000);
      found.push({
        at: g.at,
        task: {
          startTime,
          endTime: startTime + spanS,
          time,
          date,
          gmtOffset,
          zones: g.zones,
          ...dist,
        },
      });
    }
  }
  found.sort((a, b) => a.at - b.at || b.task.gmtOffset - a.task.gmtOffset);
  const tasks: PushTasks = {};
  for (const { at, task } of found) {
    const key = instantKey(at);
    // Two dates can meet at one instant only when offsets differ by 24 h (UTC+14 and UTC-10).
    tasks[key in tasks ? `${key}/${task.gmtOffset}` : key] = task;
  }
  return tasks;
}
