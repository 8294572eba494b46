/**
 * Schedule computation for a localizing push campaign: every country of the spec's table
 * (all their IANA zones), 31 sending dates across the March DST changes. Baseline: the same
 * grouping done naively, building a fresh Intl.DateTimeFormat for every offset lookup.
 */
import { computeTasks, type ScheduleInput } from "../lib/push/schedule.ts";
import { audienceZones } from "../lib/push/schedule.ts";
import { PUSH_COUNTRIES } from "../lib/push/reference.ts";

const input: ScheduleInput = {
  localizing: true,
  startDate: "2027-03-01",
  endDate: "2027-03-31",
  time: "09:00",
  repeat: true,
  weekday: [],
  skip: [],
  distribution: { enable: true, interval: 10, count: 3 },
  countries: [...PUSH_COUNTRIES],
};

function naiveOffset(zone: string, ms: number): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(ms));
  const get = (t: string) => Number(parts.find((p) => p.type === t)!.value);
  const asUtc = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"));
  return Math.round((asUtc - ms) / 60_000) * 60;
}

function naiveTasks(): number {
  const zones = audienceZones(input.countries);
  const groups = new Map<number, string[]>();
  for (let day = 1; day <= 31; day++) {
    const naive = Date.UTC(2027, 2, day, 9, 0, 0);
    for (const zone of zones) {
      const first = naive - naiveOffset(zone, naive) * 1000;
      const at = naive - naiveOffset(zone, first) * 1000;
      const list = groups.get(at) ?? [];
      list.push(zone);
      groups.set(at, list);
    }
  }
  return groups.size;
}

const zoneCount = audienceZones(input.countries).length;
const taskCount = Object.keys(computeTasks(input, { baseTimeZone: "Asia/Seoul" })).length;
console.log(
  `push schedule: ${input.countries.length} countries, ${zoneCount} zones, 31 dates -> ${taskCount} tasks`,
);

Deno.bench({
  name: "push schedule: computeTasks, all countries, 31 dates (cached formatters)",
  group: "push-schedule",
  baseline: true,
  fn() {
    computeTasks(input, { baseTimeZone: "Asia/Seoul" });
  },
});

Deno.bench({
  name: "push schedule: naive grouping, new Intl.DateTimeFormat per lookup",
  group: "push-schedule",
  fn() {
    naiveTasks();
  },
});
