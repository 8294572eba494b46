/**
 * Campaign rules beyond shape: dates and times, weekday encoding (ISO 1 = Monday .. 7 = Sunday),
 * language and country codes, the API key's game and apps, and the targeting record.
 */
import type { Sql } from "../db/port.ts";
import { invalid } from "../errors.ts";
import type { CampaignInput } from "./campaign_schema.ts";
import { continentName, CONTINENTS, countryCode, PUSH_LANGUAGES } from "./reference.ts";
import { parseDate, parseTime, type ScheduleInput } from "./schedule.ts";
import { appsOfGame, assertCompanyAndGame, type PushCaller } from "./ownership.ts";

/** Campaign statuses (the spec leaves them undefined): stored and shown as integers. */
export const CAMPAIGN_STATUS = { registered: 1, sending: 2, completed: 3, cancelled: 4 } as const;

/** Status number -> name, for messages. */
export const STATUS_NAME: Record<number, string> = Object.fromEntries(
  Object.entries(CAMPAIGN_STATUS).map(([name, status]) => [status, name]),
);

/** Bounds of distributed sending. */
export const DISTRIBUTION_LIMITS = { maxCount: 100, maxIntervalMinutes: 1440 } as const;
/** Longest sending period, in days (start and end included). */
export const MAX_PERIOD_DAYS = 366;

/** A campaign that passed every rule, with its audience resolved. */
export interface ValidCampaign {
  input: CampaignInput;
  schedule: ScheduleInput;
  /** Audience country codes (countries plus continent entries), sorted. */
  countries: string[];
  appids: string[];
  targetingId: number | null;
}

/** Applies every rule; throws a 400-kind DomainError naming the field. */
export async function validateCampaign(
  db: Sql,
  input: CampaignInput,
  ctx: PushCaller,
): Promise<ValidCampaign> {
  if (input.id !== undefined && input.status === undefined) {
    throw invalid("status is required when editing a campaign (id given)");
  }
  if (input.status !== undefined && input.id === undefined) {
    throw invalid("id is required when editing a campaign (status given)");
  }
  if (input.status !== undefined && !(input.status in STATUS_NAME)) {
    throw invalid("status must be 1 (registered), 2 (sending), 3 (completed) or 4 (cancelled)");
  }
  assertCompanyAndGame(input, ctx);
  const schedule = validateReservation(input);
  const countries = resolveAudience(input);
  validateLanguages(input);
  const appids = await validateApps(db, input, ctx.gameIndex);
  const targetingId = await validateTargeting(db, input, ctx.gameIndex);
  return { input, schedule: { ...schedule, countries }, countries, appids, targetingId };
}

function validateReservation(input: CampaignInput): Omit<ScheduleInput, "countries"> {
  const r = input.reservation;
  const start = parseDate(r.startDate);
  if (start === null) throw invalid("reservation.startDate must be a date YYYY-MM-DD");
  const end = parseDate(r.endDate);
  if (end === null) throw invalid("reservation.endDate must be a date YYYY-MM-DD");
  if (start > end) throw invalid("reservation.startDate must not be after reservation.endDate");
  if ((end - start) / 86_400_000 + 1 > MAX_PERIOD_DAYS) {
    throw invalid(`reservation: the period must not exceed ${MAX_PERIOD_DAYS} days`);
  }
  if (!parseTime(r.time)) throw invalid("reservation.time must be HH:mm or HH:mm:ss");
  const weekday = r.weekday ?? [];
  weekday.forEach((d, i) => {
    if (d < 1 || d > 7) {
      throw invalid(`reservation.weekday[${i}] must be 1 (Monday) to 7 (Sunday), got ${d}`);
    }
  });
  const skip = r.skip ?? [];
  skip.forEach((s, i) => {
    const d = parseDate(s);
    if (d === null) throw invalid(`reservation.skip[${i}] must be a date YYYY-MM-DD`);
    if (d < start || d > end) {
      throw invalid(
        `reservation.skip[${i}] ${s} is outside the period ${r.startDate}..${r.endDate}`,
      );
    }
  });
  const dist = input.distribution;
  let distribution = { enable: false, interval: 0, count: 1 };
  if (dist?.enable) {
    const { interval, count } = dist;
    if (interval === undefined) throw invalid("distribution.interval is required when enabled");
    if (count === undefined) throw invalid("distribution.count is required when enabled");
    if (interval < 1 || interval > DISTRIBUTION_LIMITS.maxIntervalMinutes) {
      throw invalid(
        `distribution.interval must be 1 to ${DISTRIBUTION_LIMITS.maxIntervalMinutes} minutes`,
      );
    }
    if (count < 1 || count > DISTRIBUTION_LIMITS.maxCount) {
      throw invalid(`distribution.count must be 1 to ${DISTRIBUTION_LIMITS.maxCount}`);
    }
    distribution = { enable: true, interval, count };
  }
  return {
    localizing: r.localizing,
    startDate: r.startDate,
    endDate: r.endDate,
    time: r.time,
    repeat: r.repeat,
    weekday: [...new Set(weekday)].sort((a, b) => a - b),
    skip,
    distribution,
  };
}

function resolveAudience(input: CampaignInput): string[] {
  const audience = new Set<string>();
  input.continents.forEach((entry, i) => {
    const given = entry.continent ?? entry.name;
    if (given === undefined) throw invalid(`continents[${i}].continent is required`);
    const continent = continentName(given);
    if (!continent) {
      throw invalid(
        `continents[${i}].continent ${given} must be one of ${Object.keys(CONTINENTS).join(", ")}`,
      );
    }
    const members = CONTINENTS[continent];
    // An entry without a country list stands for the whole continent.
    if (!entry.countries) members.forEach((c) => audience.add(c));
    entry.countries?.forEach((value, j) => {
      const code = countryCode(value);
      if (!code) throw invalid(`continents[${i}].countries[${j}] ${value} is not a known country`);
      if (!members.includes(code)) {
        throw invalid(`continents[${i}].countries[${j}] ${value} is not in ${continent}`);
      }
      audience.add(code);
    });
  });
  input.countries.forEach((value, i) => {
    const code = countryCode(value);
    if (!code) throw invalid(`countries[${i}] ${value} is not a country code of the spec's table`);
    audience.add(code);
  });
  if (audience.size === 0) throw invalid("countries: the campaign names no audience country");
  return [...audience].sort();
}

function validateLanguages(input: CampaignInput) {
  const languages = PUSH_LANGUAGES as readonly string[];
  if (!languages.includes(input.defaultLanguage)) {
    throw invalid(`defaultLanguage must be one of ${languages.join(", ")}`);
  }
  const notification = input.notification;
  if (!notification || Object.keys(notification).length === 0) {
    throw invalid("notification is required: a message keyed by language code");
  }
  for (const [lang, message] of Object.entries(notification)) {
    if (!languages.includes(lang)) {
      throw invalid(`notification.${lang}: ${lang} is not a language code of the spec's list`);
    }
    if (!message.android && !message.ios && !message.facebook) {
      throw invalid(`notification.${lang} must hold an android, ios or facebook message`);
    }
  }
  if (!(input.defaultLanguage in notification)) {
    throw invalid(`notification must hold the defaultLanguage ${input.defaultLanguage}`);
  }
}

async function validateApps(db: Sql, input: CampaignInput, gameIndex: number): Promise<string[]> {
  const appids = [...new Set(input.game.apps.map((a) => a.appid))];
  const known = await appsOfGame(db, gameIndex, appids);
  input.game.apps.forEach((app, i) => {
    if (!known.has(app.appid)) {
      throw invalid(`game.apps[${i}].appid ${app.appid} is not an app of game ${gameIndex}`);
    }
  });
  return appids;
}

async function validateTargeting(
  db: Sql,
  input: CampaignInput,
  gameIndex: number,
): Promise<number | null> {
  const id = input.targetingId ?? null;
  if (input.type === "B") {
    if (id !== null) throw invalid("targetingId is only allowed with type T");
    return null;
  }
  if (id === null) throw invalid("targetingId is required for a targeting campaign (type T)");
  const [row] = await db.query(
    "select id from push_targetings where id = $1 and game_index = $2",
    [id, gameIndex],
  );
  if (!row) throw invalid(`targetingId ${id} is not a targeting record of game ${gameIndex}`);
  return id;
}
