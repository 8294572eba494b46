/**
 * CPA rewards: operators register a campaign (appid + cpa code -> subReason and items); a game
 * server notifies an achievement and the user is rewarded once through an item request with
 * reason `p`. The achievement and its item request are written by one statement.
 */
import { z } from "zod";
import type { Sql } from "../db/port.ts";
import { DomainError } from "../errors.ts";
import { sha256Hex } from "../crypto/hashing.ts";
import { findApp, requireGame } from "../tenancy.ts";
import {
  buildItemRecord,
  itemDetailSchema,
  itemRecordBody,
  PROMOTION_SUB_REASONS,
} from "../items/record.ts";

/** A campaign as registered by the operator. */
export const cpaCampaignSchema = z.object({
  appid: z.string().trim().min(1).max(128),
  cpaCode: z.string().trim().min(1).max(128),
  subReason: z.enum(PROMOTION_SUB_REASONS),
  detail: z.array(itemDetailSchema).min(1).max(100),
});

/** A validated campaign. */
export type CpaCampaign = z.infer<typeof cpaCampaignSchema>;

/** Registers (or replaces) a campaign of an app of the game. */
export async function registerCpaCampaign(
  db: Sql,
  gameIndex: number,
  campaign: CpaCampaign,
): Promise<CpaCampaign & { gameIndex: number }> {
  await requireGame(db, gameIndex);
  const app = await findApp(db, campaign.appid);
  if (!app || app.gameIndex !== gameIndex) {
    throw new DomainError(
      "not_found",
      "APP_NOT_FOUND",
      `appid ${campaign.appid} is not an app of game ${gameIndex}`,
    );
  }
  await db.query(
    `insert into cpa_campaigns (appid, cpa_code, game_index, sub_reason, detail)
     values ($1, $2, $3, $4, $5::jsonb)
     on conflict (appid, cpa_code) do update set sub_reason = excluded.sub_reason,
       detail = excluded.detail`,
    [campaign.appid, campaign.cpaCode, gameIndex, campaign.subReason, campaign.detail],
  );
  return { ...campaign, gameIndex };
}

const idText = z.union([z.string(), z.number()]).transform((v) => String(v).trim())
  .pipe(z.string().min(1).max(128));

/** The body of POST /api/cpa (field names of the spec). */
export const cpaNotificationSchema = z.object({
  appid: z.string().trim().min(1).max(128),
  vid: idText.optional(),
  uid: idText.optional(),
  server_id: idText,
  cpa_code: z.string().trim().min(1).max(128),
  cpa_date: z.string().trim().optional(),
}).superRefine((v, ctx) => {
  if ((v.vid === undefined) === (v.uid === undefined)) {
    ctx.addIssue({
      code: "custom",
      path: ["vid"],
      message: "exactly one of vid and uid is required",
    });
  }
  if (v.cpa_date !== undefined && v.cpa_date !== "" && parseKstDateTime(v.cpa_date) === null) {
    ctx.addIssue({
      code: "custom",
      path: ["cpa_date"],
      message: "must be a Korea Standard Time date and time YYYY-MM-DD HH:mm:ss",
    });
  }
});

/** A validated notification. */
export type CpaNotification = z.infer<typeof cpaNotificationSchema>;

const KST_OFFSET_MS = 9 * 3_600_000;

/** Parses `YYYY-MM-DD HH:mm:ss` as Korea Standard Time (UTC+9, no DST); null when invalid. */
export function parseKstDateTime(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/.exec(text);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number);
  const utc = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(utc);
  if (
    back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d ||
    h > 23 || mi > 59 || s > 59
  ) return null;
  return utc - KST_OFFSET_MS;
}

/** The outcome of a notification. */
export interface CpaResult {
  transactionId: string;
  gameIndex: number;
  /** False when the achievement was already rewarded (nothing new is sent). */
  rewarded: boolean;
}

/**
 * Records an achievement and registers its reward. `callerGame` is the game of the API key when
 * one was presented; it must own the app.
 */
export async function notifyCpaAchievement(
  db: Sql,
  input: CpaNotification,
  options: { nowMs: number; callerGame?: number },
): Promise<CpaResult> {
  const app = await findApp(db, input.appid);
  if (!app) throw new DomainError("not_found", "UNKNOWN_APPID", `appid ${input.appid} is unknown`);
  if (options.callerGame !== undefined && options.callerGame !== app.gameIndex) {
    throw new DomainError(
      "forbidden",
      "SCOPE_MISSING",
      "API key does not belong to this app's game",
    );
  }
  const [campaign] = await db.query<{ sub_reason: string; detail: CpaCampaign["detail"] }>(
    "select sub_reason, detail from cpa_campaigns where appid = $1 and cpa_code = $2",
    [input.appid, input.cpa_code],
  );
  if (!campaign) {
    throw new DomainError(
      "not_found",
      "UNKNOWN_CPA_CODE",
      `cpa_code ${input.cpa_code} is not registered for ${input.appid}`,
    );
  }
  const kind = input.vid !== undefined ? "vid" : "uid";
  const user = (input.vid ?? input.uid)!;
  const achievedMs = input.cpa_date ? parseKstDateTime(input.cpa_date)! : options.nowMs;
  // Deterministic: a repeated notification names the same item transaction.
  const transactionId = "cpa-" +
    (await sha256Hex([input.appid, kind, user, input.cpa_code].join("\n"))).slice(0, 40);
  const body = itemRecordBody(buildItemRecord({
    transactionId,
    gameIndex: app.gameIndex,
    idCategory: kind,
    id: user,
    detail: campaign.detail,
    reason: "p",
    subReason: campaign.sub_reason,
    serverId: input.server_id,
  }));
  const now = new Date(options.nowMs);
  const [row] = await db.query<{ rewarded: number }>(
    `with ach as (
       insert into cpa_achievements (appid, user_kind, user_id, cpa_code, server_id, achieved_at,
         game_index, transaction_id, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       on conflict do nothing
       returning transaction_id),
     req as (
       insert into item_requests (game_index, transaction_id, body, body_hash, source, status,
         next_attempt_at, created_at, updated_at)
       select $7, transaction_id, $10, $11, 'cpa', 'REGISTERED', $9, $9, $9 from ach
       on conflict (game_index, transaction_id) do nothing
       returning transaction_id)
     select (select count(*) from req)::int as rewarded`,
    [
      input.appid,
      kind,
      user,
      input.cpa_code,
      input.server_id,
      new Date(achievedMs),
      app.gameIndex,
      transactionId,
      now,
      body,
      await sha256Hex(body),
    ],
  );
  return { transactionId, gameIndex: app.gameIndex, rewarded: (row?.rewarded ?? 0) > 0 };
}
