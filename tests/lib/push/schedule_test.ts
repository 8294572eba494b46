import assert from "node:assert/strict";
import {
  computeTasks,
  isoWeekday,
  parseDate,
  type ScheduleInput,
  sendingDates,
} from "../../../lib/push/schedule.ts";
import { offsetSecondsAt, wallTimeToInstant } from "../../../lib/time/zones.ts";

function input(patch: Partial<ScheduleInput> = {}): ScheduleInput {
  return {
    localizing: false,
    startDate: "2027-05-03",
    endDate: "2027-05-16",
    time: "10:00",
    repeat: true,
    weekday: [],
    skip: [],
    distribution: { enable: false, interval: 0, count: 1 },
    countries: ["KR"],
    ...patch,
  };
}

function taskOn(tasks: ReturnType<typeof computeTasks>, date: string, zone: string) {
  const found = Object.entries(tasks).find(([, t]) => t.date === date && t.zones.includes(zone));
  assert.ok(found, `no task on ${date} for ${zone}`);
  return { key: found[0], ...found[1] };
}

Deno.test("ISO weekday encoding: 2027-05-03 is a Monday (1), 2027-05-09 a Sunday (7)", () => {
  assert.equal(isoWeekday(parseDate("2027-05-03")!), 1);
  assert.equal(isoWeekday(parseDate("2027-05-09")!), 7);
});

Deno.test("repeat with weekday selects period dates, skip removes them", () => {
  const dates = sendingDates(input({ weekday: [1, 3], skip: ["2027-05-05"] }));
  assert.deepEqual(dates, ["2027-05-03", "2027-05-10", "2027-05-12"]);
  assert.equal(sendingDates(input()).length, 14, "no weekday means every day");
  assert.deepEqual(sendingDates(input({ repeat: false, weekday: [3] })), ["2027-05-03"]);
});

Deno.test("without localizing every date has one task at time in the base zone", () => {
  const tasks = computeTasks(input({ endDate: "2027-05-04" }), { baseTimeZone: "Asia/Seoul" });
  assert.deepEqual(Object.keys(tasks), ["2027-05-03T01:00:00Z", "2027-05-04T01:00:00Z"]);
  const t = tasks["2027-05-03T01:00:00Z"];
  assert.equal(t.gmtOffset, 9 * 3600);
  assert.deepEqual(t.zones, ["Asia/Seoul"]);
  assert.equal(t.startTime, Date.UTC(2027, 4, 3, 1) / 1000);
  assert.equal(t.time, "10:00:00");
});

Deno.test("localizing groups zones by their offset on each date across DST changes in March", () => {
  const tasks = computeTasks(
    input({
      localizing: true,
      startDate: "2027-03-12",
      endDate: "2027-03-30",
      time: "09:00:00",
      countries: ["US", "DE", "GB"],
    }),
    { baseTimeZone: "Asia/Seoul" },
  );
  // US clocks move on 2027-03-14, the EU's on 2027-03-28.
  const ny13 = taskOn(tasks, "2027-03-13", "America/New_York");
  const ny15 = taskOn(tasks, "2027-03-15", "America/New_York");
  assert.equal(ny13.gmtOffset, -5 * 3600);
  assert.equal(ny13.key, "2027-03-13T14:00:00Z");
  assert.equal(ny15.gmtOffset, -4 * 3600);
  assert.equal(ny15.key, "2027-03-15T13:00:00Z");
  const berlin27 = taskOn(tasks, "2027-03-27", "Europe/Berlin");
  const berlin29 = taskOn(tasks, "2027-03-29", "Europe/Berlin");
  assert.equal(berlin27.gmtOffset, 3600);
  assert.equal(berlin27.key, "2027-03-27T08:00:00Z");
  assert.equal(berlin29.gmtOffset, 7200);
  assert.equal(berlin29.key, "2027-03-29T07:00:00Z");
  assert.ok(berlin29.zones.includes("Europe/Zurich"), "zones with one offset share a task");
  const london27 = taskOn(tasks, "2027-03-27", "Europe/London");
  const london29 = taskOn(tasks, "2027-03-29", "Europe/London");
  assert.equal(london27.gmtOffset, 0);
  assert.equal(london29.gmtOffset, 3600);
  assert.equal(london29.key, "2027-03-29T08:00:00Z");
  // Between the two changes New York is 4 h behind London's 0 offset: its 09:00 is 13:00Z.
  assert.equal(taskOn(tasks, "2027-03-20", "America/New_York").key, "2027-03-20T13:00:00Z");
  // Arizona keeps standard time all year.
  assert.equal(taskOn(tasks, "2027-03-29", "America/Phoenix").gmtOffset, -7 * 3600);
  for (const t of Object.values(tasks)) assert.equal(t.time, "09:00:00");
  const keys = Object.keys(tasks);
  assert.deepEqual(keys, [...keys].sort(), "tasks are in time order");
});

Deno.test("distribution spreads each task over count slices interval minutes apart", () => {
  const tasks = computeTasks(
    input({ repeat: false, distribution: { enable: true, interval: 30, count: 3 } }),
    { baseTimeZone: "Asia/Seoul" },
  );
  const [t] = Object.values(tasks);
  assert.equal(t.slices, 3);
  assert.equal(t.interval, 30);
  assert.equal(t.endTime - t.startTime, 60 * 60);
});

Deno.test("a wall time inside the spring-forward gap is read with the pre-change offset", () => {
  const at = wallTimeToInstant(
    { year: 2027, month: 3, day: 14, hour: 2, minute: 30, second: 0 },
    "America/New_York",
  );
  assert.equal(new Date(at).toISOString(), "2027-03-14T07:30:00.000Z");
  assert.equal(offsetSecondsAt("America/New_York", at), -4 * 3600);
  const ambiguous = wallTimeToInstant(
    { year: 2027, month: 11, day: 7, hour: 1, minute: 30, second: 0 },
    "America/New_York",
  );
  assert.equal(new Date(ambiguous).toISOString(), "2027-11-07T05:30:00.000Z", "first occurrence");
});
