/**
 * The push dispatcher, run from the scheduled trigger: claims due slices with a lease in one
 * statement (so two dispatchers never take the same slice), resolves each slice's audience from
 * its cursor on, picks each device's language, hands the messages to the providers or the sink
 * (pipeline.ts), and moves campaign statuses registered -> sending -> completed. A slice taken over
 * after its lease ran out first sends again what its last dispatcher may have left in flight.
 */
import type { Services } from "../services.ts";
import { configuredSink, type PushDelivery, type PushSink } from "./sinks.ts";
import type { PushMessageInput } from "./campaign_schema.ts";
import { providerApps } from "./delivery.ts";
import { type Outgoing, SliceRun, SliceStopped } from "./pipeline.ts";
import { deliveryCollapseId, RenderedMessages } from "./message.ts";

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
  cursor_id: string;
  holes: number[];
  window_id: string;
  resend_through: string;
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
  // A slice claimed again (its dispatcher died or stalled past the lease) sends its window again.
  return await services.db.query<ClaimedSlice>(
    `update push_slices s set state = 'leased', lease_until = $2, attempts = s.attempts + 1,
       resend_through = greatest(s.resend_through, s.window_id)
     where s.id in (
       select id from push_slices
       where ((state = 'pending' and send_at <= $1) or (state = 'leased' and lease_until <= $1))
         and campaign_id in (select id from push_campaigns where status in (1, 2))
       order by send_at, id
       limit $3
       for update skip locked)
     returning s.id, s.campaign_id, s.slice_index, s.slice_count, s.zones, s.lease_until,
       s.attempts, s.cursor_id, s.holes, s.window_id, s.resend_through`,
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
      const run = await sendSlice(services, sink, slice, campaigns.get(slice.campaign_id)!);
      await finishSlice(services, slice, run);
      result.slices++;
      result.messages += run.sent;
    } catch (err) {
      // The lease expires and a later run goes on from the slice's cursor; sink receivers
      // deduplicate on message id, devices on the collapse id.
      if (err instanceof SliceStopped) {
        services.log.info(err.message);
        continue;
      }
      result.failed++;
      services.log.error("push slice failed", { sliceId: slice.id, err });
    }
  }
}

/** Reads a page of the slice's audience above `after` (device ids), or the given `ids` only. */
async function audiencePage(
  services: Services,
  slice: ClaimedSlice,
  campaign: CampaignRow,
  from: { after: string } | { ids: number[] },
): Promise<DeviceRow[]> {
  // The audience is passed as values (not joined from the campaign row) so the planner walks the
  // (game_index, id) index in order and stops at the page size: a page costs the same at the
  // first and at the millionth device.
  const ids = "ids" in from ? from.ids : null;
  return await services.db.query<DeviceRow>(
    `select d.id, d.appid, d.token, d.platform, d.language
     from push_devices d
     where d.game_index = $1
       and d.active
       and d.id > $2
       and ($10::jsonb is null or d.id = any(array(select jsonb_array_elements_text($10::jsonb)::bigint)))
       and d.appid = any(array(select jsonb_array_elements_text($3::jsonb)))
       and d.country = any(array(select jsonb_array_elements_text($4::jsonb)))
       and ($5::jsonb is null or d.zone = any(array(select jsonb_array_elements_text($5::jsonb))))
       and d.id % $6 = $7
       and ($8::text = 'B' or exists (
         select 1 from push_targets t
         where t.targeting_id = $9 and t.appid = d.appid and (
           (t.kind = 'playerId' and t.value = d.player_id) or (t.kind = 'vid' and t.value = d.vid)
           or (t.kind = 'uid' and t.value = d.uid) or (t.kind = 'did' and t.value = d.did))))
     order by d.id
     limit $11`,
    [
      campaign.game_index,
      "after" in from ? from.after : "0",
      campaign.appids,
      campaign.countries,
      slice.zones,
      slice.slice_count,
      slice.slice_index,
      campaign.type,
      campaign.targeting_id,
      ids,
      PAGE,
    ],
  );
}

async function sendSlice(
  services: Services,
  sink: PushSink,
  slice: ClaimedSlice,
  campaign: CampaignRow,
): Promise<SliceRun> {
  // Apps with provider credentials go to FCM / APNs; the others to the configured sink.
  const apps = await providerApps(services, campaign.appids);
  const run = new SliceRun(services, slice, {
    apps,
    sink,
    rendered: new RenderedMessages(campaign.uuid),
    step: 2 * services.config.PUSH_CONCURRENCY,
  });
  const resendThrough = Number(slice.resend_through);
  const outgoing = (devices: DeviceRow[], hole: boolean): Outgoing[] => {
    const out: Outgoing[] = [];
    for (const d of devices) {
      const delivery = buildDelivery(slice, campaign, d);
      if (delivery) out.push({ delivery, resent: hole || delivery.deviceId <= resendThrough });
    }
    return out;
  };
  // What a dispatcher that lost the slice left in flight below its cursor goes first.
  const holes = (slice.holes ?? []).slice(0, PAGE);
  if (holes.length > 0) {
    await run.send(outgoing(await audiencePage(services, slice, campaign, { ids: holes }), true));
  }
  // Pages of the audience above the cursor; the next page is read while this one is sent, and
  // once it is read the window may reach into it.
  type Page = { size: number; lastId: string; out: Outgoing[] };
  const read = async (after: string): Promise<Page> => {
    const devices = await audiencePage(services, slice, campaign, { after });
    return {
      size: devices.length,
      lastId: devices.at(-1)?.id ?? after,
      out: outgoing(devices, false),
    };
  };
  let next: Promise<Page> | null = read(slice.cursor_id);
  while (next) {
    const page: Page = await next;
    if (page.size === 0) break;
    let ahead: Outgoing[] = [];
    next = page.size === PAGE ? read(page.lastId) : null;
    // Keeps a failed read of the next page from going unhandled while this one is sent.
    next?.then((p) => ahead = p.out, () => {});
    await run.send(page.out, () => ahead);
  }
  await run.finish();
  return run;
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
    collapseId: deliveryCollapseId(row.uuid, Number(device.id)),
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

async function finishSlice(services: Services, slice: ClaimedSlice, run: SliceRun) {
  // Marked sent only while the lease is still ours; the campaign completes with its last slice.
  await services.db.transaction([
    {
      text: `update push_slices set state = 'sent', sent_at = now(), holes = '[]',
               delivered = delivered + $2
             where id = $1 and state = 'leased' and lease_until = $3`,
      params: [slice.id, run.sent, run.leaseUntil],
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
