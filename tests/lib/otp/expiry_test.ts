import assert from "node:assert/strict";
import { formatZonedExpiry } from "../../../lib/otp/expiry.ts";
import { isTimeZone, offsetSecondsAt } from "../../../lib/time/zones.ts";

Deno.test("expiry prints the spec's shape: local time, offset and zone name in brackets", () => {
  const ms = Date.UTC(2026, 10, 20, 23, 13, 25, 943);
  assert.equal(formatZonedExpiry(ms, "Asia/Seoul"), "2026-11-21T08:13:25.943+09:00[Asia/Seoul]");
});

Deno.test("expiry follows daylight saving and negative offsets", () => {
  const summer = Date.UTC(2026, 6, 1, 12, 0, 0, 5);
  const winter = Date.UTC(2026, 0, 15, 3, 30, 0, 0);
  assert.equal(
    formatZonedExpiry(summer, "America/New_York"),
    "2026-07-01T08:00:00.005-04:00[America/New_York]",
  );
  assert.equal(
    formatZonedExpiry(winter, "America/New_York"),
    "2026-01-14T22:30:00.000-05:00[America/New_York]",
  );
});

Deno.test("expiry handles half-hour offsets, zero offsets and day changes", () => {
  const ms = Date.UTC(2026, 11, 31, 20, 0, 0, 120);
  assert.equal(
    formatZonedExpiry(ms, "Asia/Kolkata"),
    "2027-01-01T01:30:00.120+05:30[Asia/Kolkata]",
  );
  assert.equal(formatZonedExpiry(ms, "UTC"), "2026-12-31T20:00:00.120Z[UTC]");
  assert.equal(formatZonedExpiry(ms, "Europe/London"), "2026-12-31T20:00:00.120Z[Europe/London]");
});

Deno.test("an offset with seconds prints them, like java.time", () => {
  // Liberia kept Monrovia mean time (-00:44:30) until 1972.
  const ms = Date.UTC(1960, 0, 1, 12, 0, 0, 0);
  assert.equal(
    formatZonedExpiry(ms, "Africa/Monrovia"),
    "1960-01-01T11:15:30.000-00:44:30[Africa/Monrovia]",
  );
});

Deno.test("midnight prints as 00, not 24", () => {
  const ms = Date.UTC(2026, 10, 20, 15, 0, 0, 0);
  assert.equal(formatZonedExpiry(ms, "Asia/Seoul"), "2026-11-21T00:00:00.000+09:00[Asia/Seoul]");
});

Deno.test("time zone names are checked with Intl", () => {
  assert.equal(isTimeZone("Asia/Seoul"), true);
  assert.equal(isTimeZone("Mars/Olympus"), false);
});

/** The expiry as Intl gives it for that very instant, nothing remembered. */
function direct(ms: number, zone: string): string {
  const offset = offsetSecondsAt(zone, ms);
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  const hm = `${String(Math.floor(abs / 3600)).padStart(2, "0")}:${
    String(Math.floor((abs % 3600) / 60)).padStart(2, "0")
  }`;
  const seconds = abs % 60 ? `:${String(abs % 60).padStart(2, "0")}` : "";
  const wall = new Date(ms + offset * 1000).toISOString().slice(0, 23);
  return `${wall}${offset === 0 ? "Z" : `${sign}${hm}${seconds}`}[${zone}]`;
}

Deno.test("expiries around offset changes, in any order, match Intl at each instant", () => {
  // Spring and autumn changes in New York, London, Lord Howe (half-hour DST), Chatham (+12:45),
  // and a zone without changes; instants step through the hours around each change.
  const changes: [string, number][] = [
    ["America/New_York", Date.UTC(2026, 2, 8, 7)],
    ["America/New_York", Date.UTC(2026, 10, 1, 6)],
    ["Europe/London", Date.UTC(2026, 2, 29, 1)],
    ["Europe/London", Date.UTC(2026, 9, 25, 1)],
    ["Australia/Lord_Howe", Date.UTC(2026, 3, 4, 15)],
    ["Australia/Lord_Howe", Date.UTC(2026, 9, 3, 15, 30)],
    ["Pacific/Chatham", Date.UTC(2026, 3, 4, 14)],
    ["Asia/Seoul", Date.UTC(2026, 5, 1)],
  ];
  const instants: [string, number][] = [];
  for (const [zone, at] of changes) {
    for (let ms = at - 3 * 3_600_000; ms <= at + 3 * 3_600_000; ms += 7 * 60_000 + 1_013) {
      instants.push([zone, ms], [zone, at - 1], [zone, at], [zone, at + 1]);
    }
  }
  // In order first (the remembered hour is used most), then shuffled (it is replaced often).
  const shuffled = [...instants].sort(() => Math.random() - 0.5);
  for (const [zone, ms] of [...instants, ...shuffled]) {
    assert.equal(formatZonedExpiry(ms, zone), direct(ms, zone), `${zone} ${ms}`);
  }
  // The changes are really there (the test would pass vacuously otherwise).
  for (const [zone, at] of changes.slice(0, 7)) {
    assert.notEqual(offsetSecondsAt(zone, at - 1), offsetSecondsAt(zone, at), zone);
  }
});

Deno.test("expiries formatted one after another, minutes reused, equal a fresh formatting of each", () => {
  /** The expiry formatted from nothing remembered: Intl's offset and a Date of the wall clock. */
  const fresh = (ms: number, zone: string) => {
    const offset = offsetSecondsAt(zone, ms);
    const wall = new Date(ms + offset * 1000).toISOString().slice(0, 23);
    const abs = Math.abs(offset);
    const text = offset === 0
      ? "Z"
      : `${offset < 0 ? "-" : "+"}${String(Math.floor(abs / 3600)).padStart(2, "0")}:${
        String(Math.floor(abs / 60) % 60).padStart(2, "0")
      }`;
    return `${wall}${text}[${zone}]`;
  };
  // Around New York's fall-back (01:00-02:00 local happens twice) and spring-forward, and within
  // the same minute of several zones, in an order that jumps between them.
  const fallBack = Date.UTC(2026, 10, 1, 6, 0, 0, 0);
  const springForward = Date.UTC(2026, 2, 8, 7, 0, 0, 0);
  const instants: number[] = [];
  for (const edge of [fallBack, springForward]) {
    for (let d = -3_700_000; d <= 3_700_000; d += 59_999) instants.push(edge + d, edge - d + 7);
  }
  for (let i = 0; i < 2_000; i++) instants.push(fallBack + Math.floor(Math.random() * 7_200_000));
  for (const ms of instants) {
    for (const zone of ["America/New_York", "Asia/Seoul", "UTC", "Asia/Kolkata"]) {
      assert.equal(formatZonedExpiry(ms, zone), fresh(ms, zone), `${ms} ${zone}`);
    }
  }
  // The same wall-clock minute twice with two offsets, back to back.
  const first = Date.UTC(2026, 10, 1, 5, 30, 15, 250); // 01:30:15.250-04:00
  const second = first + 3_600_000; // 01:30:15.250-05:00
  assert.equal(
    formatZonedExpiry(first, "America/New_York"),
    "2026-11-01T01:30:15.250-04:00[America/New_York]",
  );
  assert.equal(
    formatZonedExpiry(second, "America/New_York"),
    "2026-11-01T01:30:15.250-05:00[America/New_York]",
  );
});
