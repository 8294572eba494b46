/** Admin reads of OTP topics and of push campaigns (tasks per zone), targetings and devices. */
import type { Sql } from "../db/port.ts";
import { notFound } from "../errors.ts";
import { requireGame } from "../tenancy.ts";
import { STATUS_NAME } from "../push/campaign_rules.ts";
import type { PushTask } from "../push/schedule.ts";
import { type OtpTopic, TOPIC_COLUMNS, topicOfRow, type TopicRow } from "../otp/topics.ts";
import { iso, keysetPage, type Page, type PageRequest } from "./page.ts";

/** An OTP topic as the admin API shows it: its settings and when they last changed. */
export interface TopicView extends OtpTopic {
  updatedAt: string;
}

/** The game's OTP topics, newest first. */
export async function listTopics(
  db: Sql,
  gameIndex: number,
  q: PageRequest,
): Promise<Page<TopicView>> {
  return await keysetPage(db, {
    select: `${TOPIC_COLUMNS}, updated_at`,
    from: "otp_topics",
    where: "game_index = $1",
    params: [gameIndex],
    order: { time: "created_at", key: "topic" },
    page: q,
    gameIndex,
    map: (r: TopicRow & { updated_at: Date }) => ({
      ...topicOfRow(r),
      updatedAt: iso(r.updated_at)!,
    }),
  });
}

/** A push campaign in the list. */
export interface CampaignSummary {
  id: number;
  uuid: string;
  status: number;
  statusName: string;
  type: string;
  targetingId: number | null;
  countries: string[];
  appids: string[];
  description: string | null;
  /** Unix seconds of the next pending sending, or null. */
  nextSendAt: number | null;
  slices: { pending: number; sent: number; cancelled: number; other: number };
  delivered: number;
  createdAt: string;
  updatedAt: string;
}

type CampaignRow = {
  id: string;
  uuid: string;
  status: number;
  type: string;
  targeting_id: string | null;
  countries: string[];
  appids: string[];
  campaign: Record<string, unknown>;
  next_send: Date | null;
  pending: string;
  sent: string;
  cancelled: string;
  other: string;
  delivered: string;
  created_at: Date;
  updated_at: Date;
};

function campaignSummary(r: CampaignRow): CampaignSummary {
  return {
    id: Number(r.id),
    uuid: r.uuid,
    status: r.status,
    statusName: STATUS_NAME[r.status] ?? "unknown",
    type: r.type,
    targetingId: r.targeting_id === null ? null : Number(r.targeting_id),
    countries: r.countries,
    appids: r.appids,
    description: typeof r.campaign.description === "string" ? r.campaign.description : null,
    nextSendAt: r.next_send ? Math.floor(new Date(r.next_send).getTime() / 1000) : null,
    slices: {
      pending: Number(r.pending),
      sent: Number(r.sent),
      cancelled: Number(r.cancelled),
      other: Number(r.other),
    },
    delivered: Number(r.delivered),
    createdAt: iso(r.created_at)!,
    updatedAt: iso(r.updated_at)!,
  };
}

const CAMPAIGN_COLUMNS = `c.id, c.uuid, c.status, c.type, c.targeting_id, c.countries,
    c.appids, c.campaign, c.created_at, c.updated_at,
    (select min(s.send_at) from push_slices s where s.campaign_id = c.id
      and s.state = 'pending') as next_send,
    (select count(*) from push_slices s where s.campaign_id = c.id and s.state = 'pending')
      as pending,
    (select count(*) from push_slices s where s.campaign_id = c.id and s.state = 'sent') as sent,
    (select count(*) from push_slices s where s.campaign_id = c.id and s.state = 'cancelled')
      as cancelled,
    (select count(*) from push_slices s where s.campaign_id = c.id
      and s.state not in ('pending', 'sent', 'cancelled')) as other,
    (select coalesce(sum(s.delivered), 0) from push_slices s where s.campaign_id = c.id)
      as delivered`;

/** The game's push campaigns, newest first, optionally with one status. */
export async function listCampaigns(
  db: Sql,
  gameIndex: number,
  q: PageRequest & { status?: number },
): Promise<Page<CampaignSummary>> {
  return await keysetPage(db, {
    select: CAMPAIGN_COLUMNS,
    from: "push_campaigns c",
    where: "c.game_index = $1 and ($2::int is null or c.status = $2)",
    params: [gameIndex, q.status ?? null],
    order: { id: "c.id" },
    page: q,
    gameIndex,
    map: campaignSummary,
  });
}

/** One sending of a campaign with the zones it reaches and how its slices went. */
export interface CampaignTaskView extends Partial<Omit<PushTask, "zones" | "slices">> {
  key: string;
  /** Unix seconds of the first slice. */
  sendAt: number;
  zones: string[] | null;
  slices: {
    index: number;
    sendAt: number;
    state: string;
    delivered: number;
    sentAt: string | null;
  }[];
}

/** A campaign with its stored request and its tasks per time zone. */
export interface CampaignDetail extends CampaignSummary {
  campaign: Record<string, unknown>;
  tasks: CampaignTaskView[];
}

/** One campaign of the game with its tasks and slices, or not_found. */
export async function getCampaign(
  db: Sql,
  gameIndex: number,
  id: number,
): Promise<CampaignDetail> {
  await requireGame(db, gameIndex);
  const [row] = await db.query<CampaignRow>(
    `select ${CAMPAIGN_COLUMNS} from push_campaigns c where c.game_index = $1 and c.id = $2`,
    [gameIndex, id],
  );
  if (!row) throw notFound(`campaign ${id} not found`, "CAMPAIGN_NOT_FOUND");
  const slices = await db.query<{
    task_key: string;
    send_at: Date;
    slice_index: number;
    zones: string[] | null;
    state: string;
    delivered: number;
    sent_at: Date | null;
  }>(
    `select task_key, send_at, slice_index, zones, state, delivered, sent_at from push_slices
      where campaign_id = $1 order by send_at, task_key, slice_index limit 5000`,
    [id],
  );
  const stored = (row.campaign.tasks ?? {}) as Record<string, PushTask>;
  const tasks = new Map<string, CampaignTaskView>();
  for (const s of slices) {
    const sendAt = Math.floor(new Date(s.send_at).getTime() / 1000);
    let task = tasks.get(s.task_key);
    if (!task) {
      const { zones, slices: _slices, ...schedule } = stored[s.task_key] ?? {};
      // A task of a campaign that does not localize has no zone filter (zones null): it
      // reaches every audience zone at once; the stored schedule still names them.
      task = { ...schedule, key: s.task_key, sendAt, zones: s.zones ?? zones ?? null, slices: [] };
      tasks.set(s.task_key, task);
    }
    task.slices.push({
      index: s.slice_index,
      sendAt,
      state: s.state,
      delivered: s.delivered,
      sentAt: iso(s.sent_at),
    });
  }
  const { tasks: _tasks, ...campaign } = row.campaign;
  return { ...campaignSummary(row), campaign, tasks: [...tasks.values()] };
}

/** A targeting record with how many targets it holds. */
export interface TargetingView {
  id: number;
  company: string;
  companyIndex: number;
  description: string;
  registrant: { id: string; name?: string };
  available: boolean;
  targets: number;
  createdAt: string;
}

/** The game's targeting records, newest first. */
export async function listTargetings(
  db: Sql,
  gameIndex: number,
  q: PageRequest,
): Promise<Page<TargetingView>> {
  return await keysetPage(db, {
    select: `t.id, t.company, t.company_index, t.description, t.registrant, t.available,
        t.created_at, (select count(*) from push_targets x where x.targeting_id = t.id) as targets`,
    from: "push_targetings t",
    where: "t.game_index = $1",
    params: [gameIndex],
    order: { id: "t.id" },
    page: q,
    gameIndex,
    map: (r: {
      id: string;
      company: string;
      company_index: number;
      description: string;
      registrant: { id: string; name?: string };
      available: boolean;
      targets: string;
      created_at: Date;
    }) => ({
      id: Number(r.id),
      company: r.company,
      companyIndex: r.company_index,
      description: r.description,
      registrant: r.registrant,
      available: r.available,
      targets: Number(r.targets),
      createdAt: iso(r.created_at)!,
    }),
  });
}

/** A device as the admin API shows it: the push token only as a short prefix. */
export interface DeviceView {
  id: number;
  appid: string;
  platform: string;
  tokenPrefix: string;
  playerId: string | null;
  country: string;
  zone: string;
  language: string | null;
  updatedAt: string;
}

/** The game's devices, most recently updated first, optionally of one app or country. */
export async function listDevices(
  db: Sql,
  gameIndex: number,
  q: PageRequest & { appid?: string; country?: string },
): Promise<Page<DeviceView>> {
  return await keysetPage(db, {
    select: `id, appid, platform, left(token, 8) as prefix, player_id, country, zone, language,
        updated_at`,
    from: "push_devices",
    where: `game_index = $1 and ($2::text is null or appid = $2)
        and ($3::text is null or country = $3)`,
    params: [gameIndex, q.appid ?? null, q.country?.toUpperCase() ?? null],
    order: { time: "updated_at", key: "lpad(id::text, 20, '0')" },
    page: q,
    gameIndex,
    map: (r: {
      id: string;
      appid: string;
      platform: string;
      prefix: string;
      player_id: string | null;
      country: string;
      zone: string;
      language: string | null;
      updated_at: Date;
    }) => ({
      id: Number(r.id),
      appid: r.appid,
      platform: r.platform,
      tokenPrefix: r.prefix,
      playerId: r.player_id === null ? null : String(r.player_id),
      country: r.country,
      zone: r.zone,
      language: r.language,
      updatedAt: iso(r.updated_at)!,
    }),
  });
}
