/**
 * Devices that receive pushes: registered per app with a token, platform, the player's
 * identifiers, country, time zone and language. The stored zone is the one localizing tasks use.
 */
import ct from "countries-and-timezones";
import { z } from "zod";
import type { Sql } from "../db/port.ts";
import { invalid } from "../errors.ts";
import { countryCode, pushLanguageOf } from "./reference.ts";
import { zonesOfCountry } from "./schedule.ts";
import { isTimeZone } from "../time/zones.ts";

const Long = z.union([z.number().int().nonnegative(), z.string().regex(/^\d{1,18}$/)]);

/** A device registration body. */
export const DeviceBody = z.object({
  appid: z.string().trim().min(1),
  token: z.string().trim().min(1).max(4096),
  platform: z.enum(["android", "ios"]),
  playerId: Long.optional(),
  vid: Long.optional(),
  uid: Long.optional(),
  did: Long.optional(),
  country: z.string().trim().min(1),
  timeZone: z.string().trim().min(1).optional(),
  language: z.string().trim().min(1).max(35).optional(),
});

// Where a multi-zone country's device gives no usable zone, its most populous zone.
const PRIMARY_ZONE: Record<string, string> = {
  US: "America/New_York",
  CA: "America/Toronto",
  BR: "America/Sao_Paulo",
  RU: "Europe/Moscow",
  AU: "Australia/Sydney",
  MX: "America/Mexico_City",
  ES: "Europe/Madrid",
  ID: "Asia/Jakarta",
  AR: "America/Argentina/Buenos_Aires",
  CL: "America/Santiago",
  KZ: "Asia/Almaty",
  CN: "Asia/Shanghai",
  DE: "Europe/Berlin",
  PT: "Europe/Lisbon",
  UA: "Europe/Kyiv",
  MN: "Asia/Ulaanbaatar",
  CD: "Africa/Kinshasa",
  NZ: "Pacific/Auckland",
  EC: "America/Guayaquil",
  PF: "Pacific/Tahiti",
};

/** The zone a device is scheduled in: its own when it is one of its country's zones. */
export function deviceZone(country: string, timeZone: string | undefined): string {
  const zones = zonesOfCountry(country);
  if (timeZone) {
    const canonical = ct.getTimezone(timeZone)?.aliasOf ?? timeZone;
    if (zones.includes(canonical)) return canonical;
  }
  const primary = PRIMARY_ZONE[country];
  return primary && zones.includes(primary) ? primary : zones[0];
}

/** Registers or refreshes a device (unique per appid and token); returns its id. */
export async function registerDevice(
  db: Sql,
  input: z.infer<typeof DeviceBody>,
  ctx: { gameIndex: number },
): Promise<{ id: number; zone: string; language: string | null }> {
  const country = countryCode(input.country);
  if (!country) throw invalid(`country ${input.country} is not a country code of the spec's table`);
  if (input.timeZone && !isTimeZone(input.timeZone)) {
    throw invalid(`timeZone ${input.timeZone} is not an IANA time zone`);
  }
  const zone = deviceZone(country, input.timeZone);
  const language = pushLanguageOf(input.language);
  const [row] = await db.query<{ id: string }>(
    `insert into push_devices
       (game_index, appid, token, platform, player_id, vid, uid, did, country, zone, language)
     select a.game_index, a.appid, $3, $4, $5::bigint, $6::bigint, $7::bigint, $8::bigint, $9, $10, $11
     from apps a where a.appid = $2 and a.game_index = $1
     on conflict (appid, token) do update set platform = excluded.platform,
       player_id = excluded.player_id, vid = excluded.vid, uid = excluded.uid,
       did = excluded.did, country = excluded.country, zone = excluded.zone,
       language = excluded.language, active = true, deactivated_at = null,
       deactivated_reason = null, updated_at = now()
     returning id`,
    [
      ctx.gameIndex,
      input.appid,
      input.token,
      input.platform,
      input.playerId?.toString(),
      input.vid?.toString(),
      input.uid?.toString(),
      input.did?.toString(),
      country,
      zone,
      language,
    ],
  );
  if (!row) throw invalid(`appid ${input.appid} is not an app of game ${ctx.gameIndex}`);
  return { id: Number(row.id), zone, language };
}
