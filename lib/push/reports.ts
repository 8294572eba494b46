/**
 * What the push service reports: campaigns of a game (paged), one campaign with its tasks, their
 * slices and delivery counts, a targeting record, and one device's state.
 */
import type { Services } from "../services.ts";
import { invalid, notFound } from "../errors.ts";
import { STATUS_NAME } from "./campaign_rules.ts";
import { findTargeting, type TargetingRecord } from "./targeting.ts";

/** Delivery counts of a slice, a task or a campaign. */
export interface DeliveryCounts {
  targeted: number;
  sent: number;
  failed: number;
  invalid: number;
  retried: number;
  /** Messages sent again after a crash because their first copy may have reached the provider. */
  resent: number;
}

const COUNT_SUMS = `coalesce(sum(s.targeted), 0)::int as targeted,
  coalesce(sum(s.sent), 0)::int as sent, coalesce(sum(s.failed), 0)::int as failed,
  coalesce(sum(s.invalid), 0)::int as invalid, coalesce(sum(s.retried), 0)::int as retried,
  coalesce(sum(s.resent), 0)::int as resent`;

function countsOf(r: DeliveryCounts): DeliveryCounts {
  return {
    targeted: r.targeted,
    sent: r.sent,
    failed: r.failed,
    invalid: r.invalid,
    retried: r.retried,
    resent: r.resent,
  };
}

/** One campaign in a list. */
export interface CampaignSummary {
  id: number;
  uuid: string;
  status: number;
  statusName: string;
  type: string;
  description: string;
  createdAt: string;
  updatedAt: string;
  lastEndTime: number | null;
  counts: DeliveryCounts;
}

/** Filters and page of GET /push/campaigns. */
export interface CampaignQuery {
  status?: number;
  /** Registered on or after this date (YYYY-MM-DD, UTC). */
  from?: string;
  /** Registered on or before this date (YYYY-MM-DD, UTC). */
  to?: string;
  limit: number;
  /** The `next` of the previous page: campaigns with a smaller id. */
  cursor?: number;
}

type SummaryRow = DeliveryCounts & {
  id: string;
  uuid: string;
  status: number;
  type: string;
  campaign: { description?: string; lastEndTime?: number | null };
  created_at: Date;
  updated_at: Date;
};

function dateBound(value: string | undefined, field: string, endOfDay: boolean): Date | null {
  if (value === undefined) return null;
  const ms = Date.parse(`${value}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(ms)) {
    throw invalid(`${field} must be a date YYYY-MM-DD`);
  }
  return new Date(endOfDay ? ms + 86_400_000 : ms);
}

/** A game's campaigns, newest first, keyset-paged by id. */
export async function listCampaigns(
  services: Services,
  gameIndex: number,
  q: CampaignQuery,
): Promise<{ campaigns: CampaignSummary[]; next: number | null }> {
  const from = dateBound(q.from, "from", false);
  const to = dateBound(q.to, "to", true);
  const rows = await services.db.query<SummaryRow>(
    `select c.id, c.uuid, c.status, c.type, c.campaign, c.created_at, c.updated_at, ${COUNT_SUMS}
     from (select * from push_campaigns
           where game_index = $1 and ($2::int is null or status = $2)
             and ($3::timestamptz is null or created_at >= $3)
             and ($4::timestamptz is null or created_at < $4)
             and ($5::bigint is null or id < $5)
           order by id desc limit $6) c
     left join push_slices s on s.campaign_id = c.id
     group by c.id, c.uuid, c.status, c.type, c.campaign, c.created_at, c.updated_at
     order by c.id desc`,
    [gameIndex, q.status ?? null, from, to, q.cursor ?? null, q.limit + 1],
  );
  const page = rows.slice(0, q.limit);
  return {
    campaigns: page.map((r) => ({
      id: Number(r.id),
      uuid: r.uuid,
      status: r.status,
      statusName: STATUS_NAME[r.status],
      type: r.type,
      description: r.campaign.description ?? "",
      createdAt: r.created_at.toISOString(),
      updatedAt: r.updated_at.toISOString(),
      lastEndTime: r.campaign.lastEndTime ?? null,
      counts: countsOf(r),
    })),
    next: rows.length > q.limit ? Number(page[page.length - 1].id) : null,
  };
}

type SliceRow = DeliveryCounts & {
  id: string;
  task_key: string;
  slice_index: number;
  send_at: Date;
  state: string;
  started_at: Date | null;
  sent_at: Date | null;
  last_error: string | null;
};

function taskState(states: string[]): string {
  if (states.every((s) => s === "cancelled")) return "cancelled";
  if (states.every((s) => s === "sent" || s === "cancelled")) return "sent";
  if (states.some((s) => s === "leased")) return "sending";
  return states.some((s) => s === "sent") ? "sending" : "pending";
}

/** The campaign as registered, its status, and per task the slices' states and counts. */
export async function campaignReport(services: Services, id: number, gameIndex: number) {
  const [c] = await services.db.query<{
    id: string;
    status: number;
    campaign: Record<string, unknown> & { tasks?: Record<string, Record<string, unknown>> };
    created_at: Date;
    updated_at: Date;
  }>(
    `select id, status, campaign, created_at, updated_at from push_campaigns
     where id = $1 and game_index = $2`,
    [id, gameIndex],
  );
  if (!c) throw notFound(`campaign ${id} not found`, "CAMPAIGN_NOT_FOUND");
  const slices = await services.db.query<SliceRow>(
    `select id, task_key, slice_index, send_at, state, started_at, sent_at, last_error,
       targeted, sent, failed, invalid, retried, resent
     from push_slices where campaign_id = $1 order by send_at, slice_index`,
    [id],
  );
  const zero = (): DeliveryCounts => ({
    targeted: 0,
    sent: 0,
    failed: 0,
    invalid: 0,
    retried: 0,
    resent: 0,
  });
  const total = zero();
  const tasks: Record<string, Record<string, unknown>> = {};
  const byTask = new Map<string, SliceRow[]>();
  for (const s of slices) byTask.set(s.task_key, [...(byTask.get(s.task_key) ?? []), s]);
  for (const [key, list] of byTask) {
    const counts = zero();
    for (const s of list) {
      for (const k of Object.keys(counts) as (keyof DeliveryCounts)[]) {
        counts[k] += s[k];
        total[k] += s[k];
      }
    }
    const started = list.map((s) => s.started_at).filter((d): d is Date => d !== null);
    const finished = list.map((s) => s.sent_at).filter((d): d is Date => d !== null);
    const state = taskState(list.map((s) => s.state));
    tasks[key] = {
      ...(c.campaign.tasks?.[key] ?? {}),
      state,
      counts,
      startedAt: started.length ? new Date(Math.min(...started.map(Number))).toISOString() : null,
      finishedAt: state === "sent" && finished.length
        ? new Date(Math.max(...finished.map(Number))).toISOString()
        : null,
      slices: list.map((s) => ({
        index: s.slice_index,
        sendAt: s.send_at.toISOString(),
        state: s.state === "leased" ? "sending" : s.state,
        counts: countsOf(s),
        startedAt: s.started_at?.toISOString() ?? null,
        finishedAt: s.sent_at?.toISOString() ?? null,
        lastError: s.last_error,
      })),
    };
  }
  return {
    ...c.campaign,
    id: Number(c.id),
    status: c.status,
    statusName: STATUS_NAME[c.status],
    createdAt: c.created_at.toISOString(),
    updatedAt: c.updated_at.toISOString(),
    counts: total,
    tasks,
  };
}

/** A targeting record of the game with the number of targets it holds. */
export async function targetingReport(
  services: Services,
  id: number,
  gameIndex: number,
): Promise<TargetingRecord & { targets: number }> {
  const record = await findTargeting(services.db, id, gameIndex);
  if (!record) throw notFound(`targeting ${id} not found`, "TARGETING_NOT_FOUND");
  const [row] = await services.db.query<{ n: number }>(
    "select count(*)::int as n from push_targets where targeting_id = $1",
    [id],
  );
  return { ...record, targets: row.n };
}

/** One device of the game by app and token: its state and its latest messages that were not sent. */
export async function deviceReport(
  services: Services,
  appid: string,
  token: string,
  gameIndex: number,
) {
  const [d] = await services.db.query<{
    id: string;
    appid: string;
    platform: string;
    country: string;
    zone: string;
    language: string | null;
    active: boolean;
    deactivated_at: Date | null;
    deactivated_reason: string | null;
    updated_at: Date;
  }>(
    `select id, appid, platform, country, zone, language, active, deactivated_at,
       deactivated_reason, updated_at
     from push_devices where appid = $1 and token = $2 and game_index = $3`,
    [appid, token, gameIndex],
  );
  if (!d) throw notFound(`no device with that token in app ${appid}`, "DEVICE_NOT_FOUND");
  const deliveries = await services.db.query<{
    campaign_id: string;
    state: string;
    attempts: number;
    detail: string | null;
    created_at: Date;
    settled_at: Date | null;
  }>(
    `select campaign_id, state, attempts, detail, created_at, settled_at from push_deliveries
     where device_id = $1 order by created_at desc limit 20`,
    [d.id],
  );
  return {
    id: Number(d.id),
    appid: d.appid,
    platform: d.platform,
    country: d.country,
    zone: d.zone,
    language: d.language,
    active: d.active,
    deactivatedAt: d.deactivated_at?.toISOString() ?? null,
    deactivatedReason: d.deactivated_reason,
    updatedAt: d.updated_at.toISOString(),
    deliveries: deliveries.map((x) => ({
      campaignId: Number(x.campaign_id),
      state: x.state,
      attempts: x.attempts,
      detail: x.detail,
      at: x.created_at.toISOString(),
      settledAt: x.settled_at?.toISOString() ?? null,
    })),
  };
}
