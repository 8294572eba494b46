/**
 * Delivery to the providers for the devices of apps with credentials: every message is recorded
 * ('sending') before its request goes out and settled after, so a slice taken over after a crash
 * skips every device that already has a row; sends run with bounded concurrency per app; dead
 * tokens deactivate their device; a credential refusal stops that app's provider with a reason.
 */
import type { Services } from "../services.ts";
import type { PushDelivery } from "./sinks.ts";
import {
  type AppCredentials,
  CredentialError,
  openCredentials,
  stopProvider,
} from "./credentials.ts";
import { FCM_DEFAULT_ENDPOINT, FcmSender } from "./fcm.ts";
import { APNS_PRODUCTION, APNS_SANDBOX, ApnsSender } from "./apns.ts";
import { buildApnsRequest, buildFcmBody } from "./message.ts";
import { type RetryPolicy, Semaphore, type SendOutcome } from "./provider_http.ts";
import { assertOutboundUrl } from "../outbound/guard.ts";

/** An app's senders, kept per Services so tokens are reused across dispatcher runs. */
interface AppSenders {
  version: string;
  fcm: FcmSender | null;
  apns: ApnsSender | null;
  limit: Semaphore;
  /** Why a provider's sends stopped (credentials refused), per provider. */
  stopped: { fcm: string | null; apns: string | null };
}

const sendersOf = new WeakMap<Services, Map<string, AppSenders>>();

function policyOf(services: Services): RetryPolicy {
  const c = services.config;
  return {
    maxAttempts: c.PUSH_MAX_ATTEMPTS,
    baseMs: c.PUSH_RETRY_BASE_MS,
    maxMs: c.PUSH_RETRY_MAX_MS,
    timeoutMs: c.PUSH_TIMEOUT_MS,
  };
}

/** The senders of an app, built (and the endpoints checked by the outbound guard) once. */
async function sendersFor(services: Services, creds: AppCredentials): Promise<AppSenders> {
  let cache = sendersOf.get(services);
  if (!cache) sendersOf.set(services, cache = new Map());
  const known = cache.get(creds.appid);
  if (known && known.version === creds.version) return known;
  const policy = policyOf(services);
  const allow = services.config.allowPrivateOutbound;
  const http = services.pushHttp;
  let fcm: FcmSender | null = null;
  if (creds.fcm) {
    const endpoint = (services.config.FCM_ENDPOINT ?? FCM_DEFAULT_ENDPOINT).replace(/\/+$/, "");
    for (const url of [endpoint, creds.fcm.tokenUri]) {
      await services.outbound.assertPublicHost(assertOutboundUrl(url, allow).hostname);
    }
    fcm = new FcmSender(creds.fcm, { http, endpoint, policy });
  }
  let apns: ApnsSender | null = null;
  if (creds.apns && http.http2) {
    const endpoint = (services.config.APNS_ENDPOINT ??
      (creds.apns.production ? APNS_PRODUCTION : APNS_SANDBOX)).replace(/\/+$/, "");
    await services.outbound.assertPublicHost(assertOutboundUrl(endpoint, allow).hostname);
    apns = new ApnsSender(creds.apns, { http2: http.http2, endpoint, policy });
  }
  const senders: AppSenders = {
    version: creds.version,
    fcm,
    apns,
    limit: new Semaphore(services.config.PUSH_CONCURRENCY),
    stopped: { fcm: creds.fcmError, apns: creds.apnsError },
  };
  cache.set(creds.appid, senders);
  return senders;
}

/** Loads the credentials of a campaign's apps; apps without any use the configured sink. */
export async function providerApps(
  services: Services,
  appids: string[],
): Promise<Map<string, AppSenders>> {
  const creds = await openCredentials(services, appids);
  const out = new Map<string, AppSenders>();
  for (const [appid, c] of creds) out.set(appid, await sendersFor(services, c));
  return out;
}

/** Settled result of one message. */
export interface Settled {
  device_id: number;
  state: "sent" | "failed" | "invalid";
  attempts: number;
  detail: string | null;
}

async function sendOne(
  services: Services,
  app: AppSenders,
  appid: string,
  d: PushDelivery,
): Promise<SendOutcome> {
  const now = Math.floor(services.clock.now() / 1000);
  const ttl = services.config.PUSH_TTL_SECONDS;
  // iOS goes straight to APNs where the app has a key and the runtime speaks HTTP/2, otherwise
  // through FCM's apns block when the app has a service account.
  const provider = d.platform === "ios" && app.apns ? "apns" : app.fcm ? "fcm" : null;
  if (!provider) {
    return {
      state: "failed",
      attempts: 0,
      detail: d.platform === "ios"
        ? "no route to iOS: the app has no APNs key usable on this runtime and no FCM service account"
        : "the app has no FCM service account for Android devices",
    };
  }
  const stopped = app.stopped[provider];
  if (stopped) return { state: "failed", attempts: 0, detail: `${provider} stopped: ${stopped}` };
  try {
    return provider === "apns"
      ? await app.apns!.send(
        d.token,
        buildApnsRequest(d, {
          bundleId: "",
          expiresAt: now + ttl,
        }),
      )
      : await app.fcm!.send(buildFcmBody(d, { sendAt: now, ttlSeconds: ttl }));
  } catch (err) {
    if (err instanceof CredentialError) {
      if (!app.stopped[err.provider]) {
        app.stopped[err.provider] = err.message;
        await stopProvider(services, appid, err.provider, err.message);
      }
      return { state: "failed", attempts: 1, detail: err.message };
    }
    return { state: "failed", attempts: 1, detail: `error: ${(err as Error).message}` };
  }
}

/**
 * Records a batch of messages of one slice and starts their sends; only devices this call recorded
 * are sent (a row from an earlier run means the device was already handled).
 */
export async function deliverToProviders(
  services: Services,
  sliceId: string,
  batch: PushDelivery[],
  apps: Map<string, AppSenders>,
): Promise<{ done: Promise<Settled[]> }> {
  if (batch.length === 0) return { done: Promise.resolve([]) };
  const recorded = await services.db.query<{ device_id: string }>(
    // A plain insert: the slice's counts move at settle time, so concurrent records of queued
    // chunks never wait on the slice row's lock.
    `insert into push_deliveries (slice_id, device_id, campaign_id)
     select $1, t.x::bigint, $3 from jsonb_array_elements_text($2::jsonb) as t(x)
     on conflict do nothing returning device_id`,
    [sliceId, batch.map((d) => d.deviceId), batch[0].campaignId],
  );
  const mine = new Set(recorded.map((r) => Number(r.device_id)));
  const todo = batch.filter((d) => mine.has(d.deviceId));
  // Answers once recorded (a promise would be flattened); `done` settles when every send is done.
  const done = Promise.all(todo.map(async (d) => {
    const app = apps.get(d.appid)!;
    const outcome = await app.limit.run(() => sendOne(services, app, d.appid, d));
    return {
      device_id: d.deviceId,
      state: outcome.state,
      attempts: outcome.attempts,
      detail: outcome.detail ?? null,
    };
  }));
  return { done };
}

/**
 * Writes the outcomes of a batch in one statement: delivery rows, slice counts, deactivated
 * devices, and the lease extended to `leaseUntil` while it is still `heldUntil`. Answers whether
 * the slice is still ours and its campaign still sending.
 */
export async function settleBatch(
  services: Services,
  slice: { id: string; campaign_id: string },
  settled: Settled[],
  lease: { heldUntil: Date; leaseUntil: Date },
): Promise<{ keep: boolean }> {
  const lastError = settled.findLast((s) => s.state !== "sent")?.detail ?? null;
  const [row] = await services.db.query<{ lease_until: Date | null; status: number }>(
    `with o as (
       select * from jsonb_to_recordset($2::jsonb)
         as x(device_id bigint, state text, attempts int, detail text)),
     d as (update push_deliveries p set state = o.state, attempts = o.attempts,
             detail = o.detail, settled_at = now()
           from o where p.slice_id = $1 and p.device_id = o.device_id and p.state = 'sending'
           returning p.device_id, p.state, p.attempts, p.detail),
     inv as (update push_devices v set active = false, deactivated_at = now(),
               deactivated_reason = d.detail
             from d where v.id = d.device_id and d.state = 'invalid'),
     s as (update push_slices set
             targeted = targeted + (select count(*) from d),
             started_at = coalesce(started_at, now()),
             sent = sent + (select count(*) from d where d.state = 'sent'),
             failed = failed + (select count(*) from d where d.state = 'failed'),
             invalid = invalid + (select count(*) from d where d.state = 'invalid'),
             retried = retried + (select count(*) from d where d.attempts > 1),
             last_error = coalesce($3, last_error),
             lease_until = case when state = 'leased' and lease_until = $4 then $5
                           else lease_until end
           where id = $1
           returning state, lease_until)
     select (select lease_until from s where state = 'leased') as lease_until,
            (select status from push_campaigns where id = $6) as status`,
    [
      slice.id,
      settled,
      lastError,
      lease.heldUntil,
      lease.leaseUntil,
      slice.campaign_id,
    ],
  );
  const held = row?.lease_until?.getTime() === lease.leaseUntil.getTime();
  return { keep: held && row.status === 2 };
}

/**
 * Settles what a crashed run left 'sending' in a slice it no longer holds: the request may or may
 * not have reached the provider, and sending again could duplicate, so they count as failed
 * ('unconfirmed') and are not sent again.
 */
export async function settleInterrupted(services: Services, sliceId: string): Promise<number> {
  const [row] = await services.db.query<{ n: string }>(
    `with u as (
       update push_deliveries set state = 'unconfirmed', settled_at = now(),
         detail = 'interrupted before the provider answered; not sent again to avoid a duplicate'
       where slice_id = $1 and state = 'sending' returning 1),
     s as (update push_slices set targeted = targeted + (select count(*) from u),
             failed = failed + (select count(*) from u) where id = $1)
     select count(*) as n from u`,
    [sliceId],
  );
  return Number(row.n);
}
