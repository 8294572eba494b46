/**
 * The push dispatcher, run from the scheduled trigger: claims due slices with a lease in one
 * statement (so two dispatchers never take the same slice), resolves each slice's audience,
 * picks each device's language, hands the messages to the sink, and moves campaign statuses
 * registered -> sending -> completed.
 */
import type { Services } from "../services.ts";
import { configuredSink, type PushDelivery, type PushSink } from "./sinks.ts";
import type { PushMessageInput } from "./campaign_schema.ts";
import { providerApps, settleInterrupted } from "./delivery.ts";
import { DeliveryPipeline, SliceStopped } from "./pipeline.ts";

/** How long a claimed slice stays ours before another dispatcher may take it over (default). */
export const SLICE_LEASE_MS = 5 * 60_000;
/** Devices read and delivered per batch. */
const PAGE = 1_000;

type ClaimedSlice = {
  id: string;
  campaign_id: string;
  slice_index: number;
  slice_count: number;
  zones: string[] | null;
  lease_until: Date;
  attempts: number;
};

type CampaignRow = {
  id: string;
  uuid: string;
  game_index: number;
  type: string;
  targeting_id: string | null;
  appids: string[];
  countries: string[];
  campaign: {
    defaultLanguage: string;
    notification: Record<string, PushMessageInput>;
    option?: Record<string, unknown>;
    notice?: boolean;
  };
};

type DeviceRow = {
  id: string;
  appid: string;
  token: string;
  platform: "android" | "ios";
  language: string | null;
};

/** What one dispatcher run did. */
export interface DispatchResult {
  slices: number;
  messages: number;
  failed: number;
}

/** Claims up to `limit` due slices (pending and due, or leased with an expired lease). */
async function claimDueSlices(services: Services, nowMs: number, limit = 20) {
  return await services.db.query<ClaimedSlice>(
    `update push_slices s set state = 'leased', lease_until = $2, attempts = s.attempts + 1
     where s.id in (
       select id from push_slices
       where ((state = 'pending' and send_at <= $1) or (state = 'leased' and lease_until <= $1))
         and campaign_id in (select id from push_campaigns where status in (1, 2))
       order by send_at, id
       limit $3
       for update skip locked)
     returning s.id, s.campaign_id, s.slice_index, s.slice_count, s.zones, s.lease_until,
       s.attempts`,
    [new Date(nowMs), new Date(nowMs + services.config.PUSH_LEASE_MS), limit],
  );
}

/** Rounds of claims one dispatcher run makes at most, so one run drains a burst of due slices. */
const MAX_ROUNDS = 10;

/** Sends every due slice once; the sink defaults to the configured one. */
export async function dispatchDuePushes(
  services: Services,
  nowMs: number,
  options: { sink?: PushSink; limit?: number } = {},
): Promise<DispatchResult> {
  const sink = options.sink ?? configuredSink(services);
  const limit = options.limit ?? 20;
  const result: DispatchResult = { slices: 0, messages: 0, failed: 0 };
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const claimed = await claimDueSlices(services, nowMs, limit);
    if (claimed.length > 0) await sendClaimed(services, sink, claimed, result);
    if (claimed.length < limit) break;
  }
  return result;
}

async function sendClaimed(
  services: Services,
  sink: PushSink,
  claimed: ClaimedSlice[],
  result: DispatchResult,
) {
  const campaignIds = [...new Set(claimed.map((s) => s.campaign_id))];
  // One round trip: the CTE marks registered campaigns as sending, the select reads them (it
  // sees the rows as before the update, which is fine: status is not read).
  const campaigns = new Map(
    (await services.db.query<CampaignRow>(
      `with started as (
         update push_campaigns set status = 2, updated_at = now()
         where status = 1 and id in (select (jsonb_array_elements_text($1::jsonb))::bigint))
       select id, uuid, game_index, type, targeting_id, appids, countries, campaign
       from push_campaigns
       where id in (select (jsonb_array_elements_text($1::jsonb))::bigint)`,
      [campaignIds],
    )).map((c) => [c.id, c]),
  );
  for (const slice of claimed) {
    try {
      const sent = await sendSlice(services, sink, slice, campaigns.get(slice.campaign_id)!);
      await finishSlice(services, slice, sent);
      result.slices++;
      result.messages += sent;
    } catch (err) {
      // The lease expires and a later run retries the slice; receivers deduplicate on message id,
      // provider sends on the delivery rows.
      if (err instanceof SliceStopped) {
        services.log.info(err.message);
        continue;
      }
      result.failed++;
      services.log.error("push slice failed", { sliceId: slice.id, err });
    }
  }
}

async function sendSlice(
  services: Services,
  sink: PushSink,
  slice: ClaimedSlice,
  campaign: CampaignRow,
): Promise<number> {
  // Apps with provider credentials go to FCM / APNs; the others to the configured sink.
  const apps = await providerApps(services, campaign.appids);
  // A slice taken over after its lease ran out: settle what the previous run left in flight.
  if (slice.attempts > 1) await settleInterrupted(services, slice.id);
  // Provider sends go in chunks of PUSH_CONCURRENCY, each recorded before and settled after.
  const pipeline = new DeliveryPipeline(services, slice, apps);
  const chunk = services.config.PUSH_CONCURRENCY;
  let after = "0";
  let sent = 0;
  for (;;) {
    // The audience is passed as values (not joined from the campaign row) so the planner walks
    // the (game_index, id) index in order and stops at the page size: a page costs the same at the
    // first and at the millionth device.
    const devices = await services.db.query<DeviceRow>(
      `select d.id, d.appid, d.token, d.platform, d.language
       from push_devices d
       where d.game_index = $1
         and d.active
         and d.id > $2
         and d.appid = any(array(select jsonb_array_elements_text($3::jsonb)))
         and d.country = any(array(select jsonb_array_elements_text($4::jsonb)))
         and ($5::jsonb is null or d.zone = any(array(select jsonb_array_elements_text($5::jsonb))))
         and d.id % $6 = $7
         and ($8::text = 'B' or exists (
           select 1 from push_targets t
           where t.targeting_id = $9 and t.appid = d.appid and (
             (t.kind = 'playerId' and t.value = d.player_id) or (t.kind = 'vid' and t.value = d.vid)
             or (t.kind = 'uid' and t.value = d.uid) or (t.kind = 'did' and t.value = d.did))))
         and not exists (
           select 1 from push_deliveries x where x.slice_id = $10 and x.device_id = d.id)
       order by d.id
       limit $11`,
      [
        campaign.game_index,
        after,
        campaign.appids,
        campaign.countries,
        slice.zones,
        slice.slice_count,
        slice.slice_index,
        campaign.type,
        campaign.targeting_id,
        slice.id,
        PAGE,
      ],
    );
    if (devices.length === 0) break;
    const batch = devices.map((d) => buildDelivery(slice, campaign, d))
      .filter((d): d is PushDelivery => d !== null);
    const viaProviders = batch.filter((d) => apps.has(d.appid));
    const viaSink = batch.filter((d) => !apps.has(d.appid));
    if (viaSink.length > 0) {
      await sink.deliver(viaSink);
      await services.db.query(
        `update push_slices set targeted = targeted + $2, sent = sent + $2,
           started_at = coalesce(started_at, now()) where id = $1`,
        [slice.id, viaSink.length],
      );
      sent += viaSink.length;
    }
    for (let i = 0; i < viaProviders.length; i += chunk) {
      await pipeline.push(viaProviders.slice(i, i + chunk));
    }
    after = devices[devices.length - 1].id;
    if (devices.length < PAGE) break;
  }
  await pipeline.drain();
  return sent + pipeline.sent;
}

/** The device's language when the campaign has a message for its platform in it, else the default. */
function pickLanguage(
  notification: Record<string, PushMessageInput>,
  defaultLanguage: string,
  deviceLanguage: string | null,
  platform: "android" | "ios",
): string | null {
  if (deviceLanguage && notification[deviceLanguage]?.[platform]) return deviceLanguage;
  return notification[defaultLanguage]?.[platform] ? defaultLanguage : null;
}

function buildDelivery(
  slice: ClaimedSlice,
  row: CampaignRow,
  device: DeviceRow,
): PushDelivery | null {
  const c = row.campaign;
  const language = pickLanguage(
    c.notification,
    c.defaultLanguage,
    device.language,
    device.platform,
  );
  // A campaign without a message for the device's platform has nothing to send it.
  if (!language) return null;
  return {
    id: `${slice.id}:${device.id}`,
    campaignId: Number(row.id),
    campaignUuid: row.uuid,
    sliceId: Number(slice.id),
    deviceId: Number(device.id),
    appid: device.appid,
    platform: device.platform,
    token: device.token,
    language,
    notice: c.notice ?? false,
    message: c.notification[language][device.platform]!,
    option: c.option ?? null,
  };
}

async function finishSlice(services: Services, slice: ClaimedSlice, delivered: number) {
  // Marked sent only while the lease is still ours; the campaign completes with its last slice.
  await services.db.transaction([
    {
      text: `update push_slices set state = 'sent', sent_at = now(), delivered = $2
             where id = $1 and state = 'leased' and lease_until = $3`,
      params: [slice.id, delivered, slice.lease_until],
    },
    {
      text: `update push_campaigns set status = 3, updated_at = now()
             where id = $1 and status = 2 and not exists (
               select 1 from push_slices where campaign_id = $1 and state in ('pending', 'leased'))`,
      params: [slice.campaign_id],
    },
  ]);
}

/** The scheduled job that runs the dispatcher. */
export const pushDispatchJob = {
  name: "push-dispatch",
  run: (services: Services, nowMs: number) => dispatchDuePushes(services, nowMs),
};
