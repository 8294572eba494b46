/**
 * Delivery to the providers for the devices of apps with credentials: the senders of each app
 * (built once per credentials version, their calls observed like every outbound call), one
 * message sent with its outcome counted per provider, and the progress write of a slice: its
 * cursor, holes and window, its counts, a row per message that was not sent, dead tokens
 * deactivated, and the lease extended, in one statement.
 */
import type { Services } from "../services.ts";
import type { PushDelivery } from "./sinks.ts";
import { type AppCredentials, openCredentials, stopProvider } from "./credentials.ts";
import { FCM_DEFAULT_ENDPOINT, FcmSender } from "./fcm.ts";
import { APNS_PRODUCTION, APNS_SANDBOX, ApnsSender } from "./apns.ts";
import type { RenderedMessages } from "./message.ts";
import {
  CredentialError,
  observedProviderCall,
  type RetryPolicy,
  Semaphore,
  type SendOutcome,
} from "./provider_http.ts";
import { assertOutboundUrl } from "../outbound/guard.ts";
import type { DeliveryCounts } from "./reports.ts";

/** An app's senders, kept per Services so tokens are reused across dispatcher runs. */
export interface AppSenders {
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
  const observer = { log: services.log, metrics: services.metrics };
  let fcm: FcmSender | null = null;
  if (creds.fcm) {
    const endpoint = (services.config.FCM_ENDPOINT ?? FCM_DEFAULT_ENDPOINT).replace(/\/+$/, "");
    for (const url of [endpoint, creds.fcm.tokenUri]) {
      await services.outbound.assertPublicHost(assertOutboundUrl(url, allow).hostname);
    }
    fcm = new FcmSender(creds.fcm, {
      call: observedProviderCall(http.fetch, observer, "push-fcm"),
      tokenCall: observedProviderCall(http.fetch, observer, "push-oauth"),
      endpoint,
      policy,
    });
  }
  let apns: ApnsSender | null = null;
  if (creds.apns && http.http2) {
    const endpoint = (services.config.APNS_ENDPOINT ??
      (creds.apns.production ? APNS_PRODUCTION : APNS_SANDBOX)).replace(/\/+$/, "");
    await services.outbound.assertPublicHost(assertOutboundUrl(endpoint, allow).hostname);
    apns = new ApnsSender(creds.apns, {
      http2: observedProviderCall(http.http2, observer, "push-apns"),
      endpoint,
      policy,
    });
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

/** The label of an outcome in gp_push_messages_total. */
const OUTCOME_LABEL = { sent: "sent", invalid: "invalid_token", failed: "failed" } as const;

/**
 * Sends one message to its provider (never rejects): iOS goes straight to APNs where the app has a
 * key and the runtime speaks HTTP/2, otherwise through FCM's apns block when the app has a service
 * account. The message is taken from `rendered` (the campaign's messages, rendered once). The
 * outcome is counted per provider; a credential refusal stops that provider for the app with its
 * reason.
 */
export function sendToProvider(
  services: Services,
  app: AppSenders,
  d: PushDelivery,
  rendered: RenderedMessages,
): Promise<SendOutcome> {
  const provider = d.platform === "ios" && app.apns ? "apns" : app.fcm ? "fcm" : null;
  if (!provider) {
    return Promise.resolve({
      state: "failed",
      attempts: 0,
      detail: d.platform === "ios"
        ? "no route to iOS: the app has no APNs key usable on this runtime and no FCM service account"
        : "the app has no FCM service account for Android devices",
    });
  }
  const stopped = app.stopped[provider];
  if (stopped) {
    return Promise.resolve({
      state: "failed",
      attempts: 0,
      detail: `${provider} stopped: ${stopped}`,
    });
  }
  const count = (outcome: SendOutcome) => {
    const counter = services.metrics.pushMessages;
    if (outcome.attempts > 0) counter.inc(outcomeLabels[provider][outcome.state]);
    if (outcome.attempts > 1) counter.inc(outcomeLabels[provider].retried);
    return outcome;
  };
  return sendVia(services, app, provider, d, rendered).then(
    count,
    (err) => notSent(services, app, d, err).then(count),
  );
}

/** The label sets of gp_push_messages_total, made once. */
const outcomeLabels = {
  fcm: labelsOf("fcm"),
  apns: labelsOf("apns"),
};

function labelsOf(provider: "fcm" | "apns") {
  return {
    sent: { provider, outcome: OUTCOME_LABEL.sent },
    invalid: { provider, outcome: OUTCOME_LABEL.invalid },
    failed: { provider, outcome: OUTCOME_LABEL.failed },
    retried: { provider, outcome: "retried" },
  };
}

function sendVia(
  services: Services,
  app: AppSenders,
  provider: "fcm" | "apns",
  d: PushDelivery,
  rendered: RenderedMessages,
): Promise<SendOutcome> {
  try {
    const now = Math.floor(services.clock.now() / 1000);
    const ttl = services.config.PUSH_TTL_SECONDS;
    return provider === "apns"
      ? app.apns!.send(d.token, rendered.apnsRequest(d, { expiresAt: now + ttl }))
      : app.fcm!.send(rendered.fcmText(d, { sendAt: now, ttlSeconds: ttl }));
  } catch (err) {
    // Rendering threw: the message fails like a send that threw.
    return Promise.reject(err);
  }
}

/** The outcome of a send that threw: a credential refusal stops the provider for the app. */
async function notSent(
  services: Services,
  app: AppSenders,
  d: PushDelivery,
  err: unknown,
): Promise<SendOutcome> {
  if (err instanceof CredentialError) {
    if (!app.stopped[err.provider]) {
      app.stopped[err.provider] = err.message;
      await stopProvider(services, d.appid, err.provider, err.message);
    }
    return { state: "failed", attempts: 1, detail: err.message };
  }
  return { state: "failed", attempts: 1, detail: `error: ${(err as Error).message}` };
}

/** Counts of settled messages, added to the slice's (the report shows their sums). */
export type ProgressCounts = DeliveryCounts;

/** A message that was not sent: it gets a row in push_deliveries. */
export interface UnsentMessage {
  device_id: number;
  state: "failed" | "invalid";
  attempts: number;
  detail: string;
}

/** What one progress write records. */
export interface Progress {
  /** Every device up to it is settled, except the holes. */
  cursor: number;
  holes: number[];
  /** No message above it has been handed over. */
  window: number;
  counts: ProgressCounts;
  unsent: UnsentMessage[];
  /** The lease as this dispatcher holds it, and how far to extend it. */
  heldUntil: Date;
  leaseUntil: Date;
}

/**
 * Writes a slice's progress in one statement, only while the lease is still `heldUntil` (a
 * dispatcher that lost its slice writes no counts): cursor, holes, window, counts, the lease
 * extended; plus a row per unsent message and dead tokens deactivated. Answers whether the slice
 * is still ours and its campaign still sending.
 */
export async function writeProgress(
  services: Services,
  slice: { id: string; campaign_id: string },
  p: Progress,
): Promise<{ keep: boolean }> {
  const c = p.counts;
  const lastError = p.unsent.at(-1)?.detail ?? null;
  // Most writes have no unsent message: a statement without their parts is cheaper to plan.
  const [row] = await services.db.query<{ held: number; status: number }>(
    p.unsent.length === 0 ? PROGRESS_ONLY : PROGRESS_AND_UNSENT,
    [
      slice.id,
      p.unsent,
      slice.campaign_id,
      c.targeted,
      c.sent,
      c.failed,
      c.invalid,
      c.retried,
      c.resent,
      p.cursor,
      p.holes,
      p.window,
      lastError,
      p.heldUntil,
      p.leaseUntil,
    ],
  );
  return { keep: row.held === 1 && row.status === 2 };
}

/** The slice's progress: counts, cursor, holes, window and lease, while the lease is held. */
const UPDATE_SLICE = `update push_slices set
         targeted = targeted + $4, sent = sent + $5, failed = failed + $6, invalid = invalid + $7,
         retried = retried + $8, resent = resent + $9,
         cursor_id = $10, holes = $11::jsonb, window_id = greatest(window_id, $12::bigint),
         started_at = coalesce(started_at, now()), last_error = coalesce($13, last_error),
         lease_until = $15
       where id = $1 and state = 'leased' and lease_until = $14
       returning id`;

/**
 * A progress write with no unsent message ($2, the empty list, is only typed: every parameter
 * must be).
 */
const PROGRESS_ONLY = `with s as (${UPDATE_SLICE})
     select (select count(*) from s)::int as held,
            (select status from push_campaigns where id = $3) as status,
            $2::jsonb is null as no_list`;

/** A progress write with a row per unsent message and dead tokens deactivated. */
const PROGRESS_AND_UNSENT = `with s as (${UPDATE_SLICE}),
     u as (select * from jsonb_to_recordset($2::jsonb)
             as x(device_id bigint, state text, attempts int, detail text)
           where exists (select 1 from s)),
     rows as (insert into push_deliveries
                (slice_id, device_id, campaign_id, state, attempts, detail, settled_at)
              select $1, u.device_id, $3, u.state, u.attempts, u.detail, now() from u
              on conflict (slice_id, device_id) do update set state = excluded.state,
                attempts = excluded.attempts, detail = excluded.detail,
                settled_at = excluded.settled_at),
     inv as (update push_devices v set active = false, deactivated_at = now(),
               deactivated_reason = u.detail
             from u where v.id = u.device_id and u.state = 'invalid')
     select (select count(*) from s)::int as held,
            (select status from push_campaigns where id = $3) as status`;
