/**
 * Registering and editing campaigns: validate, compute the schedule, and store the campaign with
 * one row per distribution slice (the unit the dispatcher claims). dryRun stores nothing.
 */
import type { Services } from "../services.ts";
import { DomainError, invalid, notFound } from "../errors.ts";
import type { CampaignInput } from "./campaign_schema.ts";
import {
  CAMPAIGN_STATUS,
  STATUS_NAME,
  validateCampaign,
  type ValidCampaign,
} from "./campaign_rules.ts";
import { computeTasks, type PushTasks } from "./schedule.ts";

/** The campaign response body: the campaign echoed plus schedule and bookkeeping fields. */
export type CampaignResponse = Record<string, unknown> & {
  id: number | null;
  status: number;
  uuid: string;
  modify: boolean;
  lastEndTime: number | null;
  tasks: PushTasks;
  timestamp: { date: string; time: number };
  dryRun: boolean;
  debug: boolean;
};

type StoredCampaign = {
  id: string;
  status: number;
  uuid: string;
};

/** Registers a campaign, or edits the one named by `id` when `id` and `status` are given. */
export async function saveCampaign(
  services: Services,
  input: CampaignInput,
  options: { gameIndex: number },
): Promise<CampaignResponse> {
  const { db, config } = services;
  const valid = await validateCampaign(db, input, {
    gameIndex: options.gameIndex,
    companies: config.pushCompanies,
  });
  const nowMs = services.clock.now();
  const editing = input.id !== undefined;
  const existing = editing ? await loadForEdit(services, input, options.gameIndex) : null;
  const cancelling = input.status === CAMPAIGN_STATUS.cancelled;
  const tasks = cancelling ? {} : futureTasks(valid, config.PUSH_BASE_TIME_ZONE, nowMs);
  const { id: _id, status: _status, dryRun, debug, ...echo } = input;
  const response: CampaignResponse = {
    id: existing ? Number(existing.id) : null,
    status: cancelling ? CAMPAIGN_STATUS.cancelled : CAMPAIGN_STATUS.registered,
    ...echo,
    uuid: existing?.uuid ?? crypto.randomUUID(),
    modify: editing,
    lastEndTime: lastEndTime(tasks),
    tasks,
    timestamp: { date: new Date(nowMs).toISOString(), time: nowMs },
    dryRun: dryRun ?? false,
    debug: debug ?? false,
  };
  if (response.dryRun) return response;
  if (!existing) {
    response.id = await insertCampaign(services, valid, response, options.gameIndex);
  } else if (cancelling) {
    await cancelCampaign(services, existing, options.gameIndex);
  } else {
    await replaceCampaign(services, valid, response, existing, options.gameIndex);
  }
  return response;
}

async function loadForEdit(
  services: Services,
  input: CampaignInput,
  gameIndex: number,
): Promise<StoredCampaign> {
  const [row] = await services.db.query<StoredCampaign>(
    "select id, status, uuid from push_campaigns where id = $1 and game_index = $2",
    [input.id, gameIndex],
  );
  if (!row) throw notFound(`campaign ${input.id} not found`, "CAMPAIGN_NOT_FOUND");
  const wanted = input.status!;
  if (wanted === CAMPAIGN_STATUS.sending || wanted === CAMPAIGN_STATUS.completed) {
    throw invalid(
      `status ${wanted} (${
        STATUS_NAME[wanted]
      }) is set by the dispatcher; an edit sends 1 (registered) or 4 (cancelled)`,
    );
  }
  refuseEdit(row, wanted);
  return row;
}

function refuseEdit(row: StoredCampaign, wanted: number) {
  const name = STATUS_NAME[row.status];
  if (row.status === CAMPAIGN_STATUS.completed || row.status === CAMPAIGN_STATUS.cancelled) {
    throw new DomainError(
      "conflict",
      "CAMPAIGN_CLOSED",
      `campaign ${row.id} is ${name} and cannot be edited`,
    );
  }
  if (row.status === CAMPAIGN_STATUS.sending && wanted !== CAMPAIGN_STATUS.cancelled) {
    throw new DomainError(
      "conflict",
      "CAMPAIGN_SENDING",
      `campaign ${row.id} is sending; only cancelling it (status 4) is allowed`,
    );
  }
}

/** Most slices one campaign may schedule (tasks x distribution count). */
export const MAX_SLICES = 20_000;

function futureTasks(valid: ValidCampaign, baseTimeZone: string, nowMs: number): PushTasks {
  const all = computeTasks(valid.schedule, { baseTimeZone });
  const tasks: PushTasks = {};
  for (const [key, task] of Object.entries(all)) {
    if (task.startTime * 1000 >= nowMs) tasks[key] = task;
  }
  const slices = Object.values(tasks).reduce((n, t) => n + t.slices, 0);
  if (slices > MAX_SLICES) {
    throw invalid(
      `reservation: the schedule has ${slices} sendings (tasks x distribution.count); at most ${MAX_SLICES}`,
    );
  }
  if (Object.keys(tasks).length === 0) {
    throw invalid(
      "reservation: no sending time remains in the future (check startDate, endDate, time, weekday and skip)",
    );
  }
  return tasks;
}

function lastEndTime(tasks: PushTasks): number | null {
  const ends = Object.values(tasks).map((t) => t.endTime);
  return ends.length ? Math.max(...ends) : null;
}

/** One row per slice: k-th slice of a task sends interval*k minutes after its start. */
function sliceRows(valid: ValidCampaign, tasks: PushTasks) {
  const rows = [];
  for (const [key, task] of Object.entries(tasks)) {
    for (let k = 0; k < task.slices; k++) {
      rows.push({
        task_key: key,
        send_at: task.startTime + k * task.interval * 60,
        slice_index: k,
        slice_count: task.slices,
        zones: valid.schedule.localizing ? task.zones : null,
      });
    }
  }
  return rows;
}

// The slices of the campaign row `c`, from parameter $8 (see campaignParams).
const SLICE_INSERT = `insert into push_slices
    (campaign_id, task_key, send_at, slice_index, slice_count, zones)
  select c.id, x.task_key, to_timestamp(x.send_at), x.slice_index, x.slice_count, x.zones
  from c, jsonb_to_recordset($8::jsonb)
    as x(task_key text, send_at bigint, slice_index int, slice_count int, zones jsonb)`;

/** Parameters $3..$8 of the insert and the replace: the campaign's columns and its slices. */
function campaignParams(valid: ValidCampaign, response: CampaignResponse) {
  const { id: _id, status: _status, ...stored } = response;
  return [
    valid.input.type,
    valid.targetingId,
    valid.countries,
    valid.appids,
    stored,
    sliceRows(valid, response.tasks),
  ];
}

async function insertCampaign(
  services: Services,
  valid: ValidCampaign,
  response: CampaignResponse,
  gameIndex: number,
): Promise<number> {
  const [row] = await services.db.query<{ id: string }>(
    `with c as (
       insert into push_campaigns
         (game_index, uuid, status, type, targeting_id, countries, appids, campaign)
       values ($1, $2, 1, $3, $4, $5::jsonb, $6::jsonb, $7::jsonb) returning id),
     s as (${SLICE_INSERT})
     select id from c`,
    [gameIndex, response.uuid, ...campaignParams(valid, response)],
  );
  return Number(row.id);
}

async function replaceCampaign(
  services: Services,
  valid: ValidCampaign,
  response: CampaignResponse,
  existing: StoredCampaign,
  gameIndex: number,
) {
  // Only a campaign still registered is replaced; the status check and the slice swap are one
  // statement, so a dispatcher that starts sending meanwhile makes the edit fail, not half-apply.
  const rows = await services.db.query(
    `with c as (
       update push_campaigns set type = $3, targeting_id = $4, countries = $5::jsonb,
         appids = $6::jsonb, campaign = $7::jsonb, updated_at = now()
       where id = $1 and game_index = $2 and status = 1 returning id),
     d as (delete from push_slices where campaign_id in (select id from c)),
     s as (${SLICE_INSERT})
     select id from c`,
    [existing.id, gameIndex, ...campaignParams(valid, response)],
  );
  if (rows.length === 0) await explainRefusal(services, existing, CAMPAIGN_STATUS.registered);
}

async function cancelCampaign(services: Services, existing: StoredCampaign, gameIndex: number) {
  const rows = await services.db.query(
    `with c as (
       update push_campaigns set status = 4, updated_at = now()
       where id = $1 and game_index = $2 and status in (1, 2) returning id),
     s as (update push_slices set state = 'cancelled'
       where campaign_id in (select id from c) and state in ('pending', 'leased'))
     select id from c`,
    [existing.id, gameIndex],
  );
  if (rows.length === 0) await explainRefusal(services, existing, CAMPAIGN_STATUS.cancelled);
}

/** Cancels a registered or sending campaign of the game (POST /push/campaigns/{id}/cancel). */
export async function cancelCampaignById(
  services: Services,
  id: number,
  gameIndex: number,
): Promise<void> {
  const [row] = await services.db.query<StoredCampaign>(
    "select id, status, uuid from push_campaigns where id = $1 and game_index = $2",
    [id, gameIndex],
  );
  if (!row) throw notFound(`campaign ${id} not found`, "CAMPAIGN_NOT_FOUND");
  refuseEdit(row, CAMPAIGN_STATUS.cancelled);
  await cancelCampaign(services, row, gameIndex);
}

async function explainRefusal(services: Services, existing: StoredCampaign, wanted: number) {
  const [row] = await services.db.query<StoredCampaign>(
    "select id, status, uuid from push_campaigns where id = $1",
    [existing.id],
  );
  refuseEdit(row, wanted);
  throw new DomainError(
    "conflict",
    "CAMPAIGN_CHANGED",
    `campaign ${existing.id} changed meanwhile`,
  );
}
