/**
 * One provider message per device, built from the campaign: the FCM HTTP v1 `message` for Android
 * devices (and for iOS devices routed through FCM's `apns` block), and the APNs request (headers
 * and `aps` payload) for iOS devices sent straight to APNs. The mapping is documented field by
 * field in README ("Push delivery to FCM and APNs").
 */
import type { PushDelivery } from "./sinks.ts";

/** APNs refuses payloads larger than this (bytes of the JSON body). */
export const APNS_MAX_PAYLOAD = 4096;
/** FCM refuses messages whose payload exceeds this (bytes). */
export const FCM_MAX_PAYLOAD = 4096;

type Option = {
  badge?: number;
  overwrite?: boolean;
  collapseKey?: string;
  groupKey?: string;
  engagement?: string;
  android?: { icon?: string; sound?: string };
  ios?: { sound?: string };
};

type AndroidText = {
  title: string;
  message: string;
  messageExpanded?: string;
  imageUrl?: string;
  ticker?: string;
  summaryText?: string;
};

type IosText = { title: string; message: string; mediaUrl?: string };

/** The APNs request for one device: headers besides authorization, and the JSON body. */
export interface ApnsRequest {
  headers: Record<string, string>;
  payload: Record<string, unknown>;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== "" ? value : undefined;
}

/** Data every message carries for open tracking (FCM data values must be strings). */
function trackingData(d: PushDelivery): Record<string, string> {
  const data: Record<string, string> = {
    campaignId: String(d.campaignId),
    campaignUuid: d.campaignUuid,
    notice: String(d.notice),
    language: d.language,
  };
  return data;
}

/** APNs refuses an `apns-collapse-id` longer than this (bytes). */
export const APNS_MAX_COLLAPSE_ID = 64;

/**
 * The collapse id of one campaign's message to one device (`<campaign uuid>.<device id>`, at most
 * 56 characters). Every message carries it, so a message sent again after a crash (its first copy
 * may have reached the provider) replaces the first copy on the device instead of showing twice.
 */
export function deliveryCollapseId(campaignUuid: string, deviceId: number): string {
  return `${campaignUuid}.${deviceId}`;
}

/**
 * The collapse identifier a message carries: the campaign's `collapseKey` when it asks to
 * overwrite earlier pushes (cut to 64 bytes), else the message's own collapse id.
 */
export function collapseIdOf(d: PushDelivery): string {
  const option = (d.option ?? {}) as Option;
  const key = option.overwrite ? nonEmpty(option.collapseKey) : undefined;
  return key ? cutToBytes(key, APNS_MAX_COLLAPSE_ID) : d.collapseId;
}

/** The longest prefix of `text` that fits `max` UTF-8 bytes, never splitting a character. */
function cutToBytes(text: string, max: number): string {
  const encoder = new TextEncoder();
  if (encoder.encode(text).byteLength <= max) return text;
  let out = "";
  for (const ch of text) {
    if (encoder.encode(out + ch).byteLength > max) break;
    out += ch;
  }
  return out;
}

/** APNs priority: 10 (immediately) for a notice, 5 (power-considerate) for other campaigns. */
function apnsPriority(d: PushDelivery): string {
  return d.notice ? "10" : "5";
}

/** The `aps` dictionary and custom keys of an iOS message. */
function apnsPayload(d: PushDelivery): Record<string, unknown> {
  const option = (d.option ?? {}) as Option;
  const text = d.message as IosText;
  const aps: Record<string, unknown> = {
    alert: { title: text.title, body: text.message },
    sound: nonEmpty(option.ios?.sound) ?? "default",
  };
  if (option.badge !== undefined) aps.badge = option.badge;
  const thread = nonEmpty(option.groupKey);
  if (thread) aps["thread-id"] = thread;
  const media = nonEmpty(text.mediaUrl);
  // A notification service extension downloads the media; it only runs with mutable-content.
  if (media) aps["mutable-content"] = 1;
  return { aps, ...trackingData(d), ...(media ? { mediaUrl: media } : {}) };
}

/** The APNs request for an iOS device. */
export function buildApnsRequest(
  d: PushDelivery,
  ctx: { bundleId: string; expiresAt: number },
): ApnsRequest {
  const headers: Record<string, string> = {
    "apns-topic": ctx.bundleId,
    "apns-push-type": "alert",
    "apns-priority": apnsPriority(d),
    "apns-expiration": String(ctx.expiresAt),
    "apns-collapse-id": collapseIdOf(d),
  };
  return { headers, payload: apnsPayload(d) };
}

/** The FCM v1 `message` for an Android device. */
function androidMessage(d: PushDelivery, ttlSeconds: number): Record<string, unknown> {
  const option = (d.option ?? {}) as Option;
  const text = d.message as AndroidText;
  const image = nonEmpty(text.imageUrl);
  const notification: Record<string, unknown> = {
    sound: nonEmpty(option.android?.sound) ?? "default",
  };
  const icon = nonEmpty(option.android?.icon);
  if (icon) notification.icon = icon;
  const ticker = nonEmpty(text.ticker);
  if (ticker) notification.ticker = ticker;
  if (option.badge !== undefined) notification.notification_count = option.badge;
  const collapse = collapseIdOf(d);
  // The tag makes a second copy replace the shown notification with the same tag; collapse_key
  // keeps only the newest of them while the device is offline.
  notification.tag = collapse;
  const data = trackingData(d);
  // Android's expanded (big text) style and summary line have no v1 notification field: the app
  // reads them from data when it builds the notification.
  if (nonEmpty(text.messageExpanded)) data.messageExpanded = text.messageExpanded!;
  if (nonEmpty(text.summaryText)) data.summaryText = text.summaryText!;
  if (nonEmpty(option.groupKey)) data.groupKey = option.groupKey!;
  const android: Record<string, unknown> = {
    priority: d.notice ? "HIGH" : "NORMAL",
    ttl: `${ttlSeconds}s`,
    collapse_key: collapse,
    notification,
  };
  return {
    token: d.token,
    notification: { title: text.title, body: text.message, ...(image ? { image } : {}) },
    android,
    data,
  };
}

/** The FCM v1 `message` for an iOS device routed through FCM (the `apns` block). */
function iosViaFcmMessage(
  d: PushDelivery,
  ctx: { expiresAt: number },
): Record<string, unknown> {
  const apns = buildApnsRequest(d, { bundleId: "", expiresAt: ctx.expiresAt });
  // FCM sets apns-topic itself from the registered app; the other headers pass through.
  const { "apns-topic": _topic, ...headers } = apns.headers;
  const text = d.message as IosText;
  const media = nonEmpty(text.mediaUrl);
  // The custom keys travel as FCM data (FCM copies data into the APNs payload).
  const data = trackingData(d);
  if (media) data.mediaUrl = media;
  return {
    token: d.token,
    notification: { title: text.title, body: text.message, ...(media ? { image: media } : {}) },
    apns: {
      headers,
      payload: { aps: apns.payload.aps },
      ...(media ? { fcm_options: { image: media } } : {}),
    },
    data,
  };
}

/** The FCM v1 request body `{message}` for a device of either platform. */
export function buildFcmBody(
  d: PushDelivery,
  ctx: { sendAt: number; ttlSeconds: number },
): { message: Record<string, unknown> } {
  const message = d.platform === "android"
    ? androidMessage(d, ctx.ttlSeconds)
    : iosViaFcmMessage(d, { expiresAt: ctx.sendAt + ctx.ttlSeconds });
  return { message };
}

/** The per-device values of a rendered message. */
type Slot = "token" | "collapse";

/** Printable ASCII without `"` and `\`: a JSON string carries it as it is. */
const JSON_PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** `value` as it stands between the quotes of a JSON string. */
function jsonInner(value: string): string {
  return JSON_PLAIN.test(value) ? value : JSON.stringify(value).slice(1, -1);
}

/**
 * A message's JSON text cut where the device's token and collapse id go: rendered once with
 * markers in their place, so each device costs two string joins instead of building and
 * serializing the message.
 */
class SplicedText {
  private readonly parts: string[] = [];
  private readonly slots: Slot[] = [];

  constructor(text: string, marks: Record<Slot, string>) {
    const pattern = new RegExp(`${marks.token}|${marks.collapse}`, "g");
    let from = 0;
    for (const m of text.matchAll(pattern)) {
      this.parts.push(text.slice(from, m.index));
      this.slots.push(m[0] === marks.token ? "token" : "collapse");
      from = m.index! + m[0].length;
    }
    this.parts.push(text.slice(from));
  }

  render(token: string, collapse: string): string {
    const { parts, slots } = this;
    let out = parts[0];
    for (let i = 0; i < slots.length; i++) {
      out += jsonInner(slots[i] === "token" ? token : collapse) + parts[i + 1];
    }
    return out;
  }
}

/** An APNs request ready to send: headers besides authorization and apns-topic, body, size. */
export interface PreparedApns {
  headers: Record<string, string>;
  body: string;
  /** UTF-8 bytes of the body. */
  size: number;
}

type RenderedApns = {
  at: number;
  headers: Record<string, string>;
  body: string;
  size: number;
  /** The campaign's own collapse key when it overwrites; else each device's collapse id. */
  collapse: string | null;
};

/**
 * The provider messages of one campaign, rendered once per platform and language (and again when
 * the second of their expiration moves): a device's message is the rendered text with its token
 * and collapse id put in, the same bytes `buildFcmBody` and `buildApnsRequest` make for it.
 */
export class RenderedMessages {
  private readonly fcm = new Map<string, { at: number; text: SplicedText }>();
  private readonly apns = new Map<string, RenderedApns>();
  private readonly marks: Record<Slot, string>;

  constructor(private readonly campaignUuid: string) {
    // Markers no campaign text contains: letters and digits only, so JSON keeps them as they are.
    const nonce = crypto.randomUUID().replace(/-/g, "");
    this.marks = { token: `T${nonce}T`, collapse: `C${nonce}C` };
  }

  private check(d: PushDelivery) {
    if (d.campaignUuid !== this.campaignUuid) {
      throw new Error(`rendered messages of campaign ${this.campaignUuid} asked for another`);
    }
  }

  /** The FCM v1 request body of `d`, as JSON text. */
  fcmText(d: PushDelivery, ctx: { sendAt: number; ttlSeconds: number }): string {
    this.check(d);
    const key = d.platform === "android" ? `a${d.language}` : `i${d.language}`;
    // Android messages carry a TTL, iOS ones an expiration time (sendAt + TTL).
    const at = d.platform === "android" ? ctx.ttlSeconds : ctx.sendAt + ctx.ttlSeconds;
    let hit = this.fcm.get(key);
    if (!hit || hit.at !== at) {
      const model = { ...d, token: this.marks.token, collapseId: this.marks.collapse };
      hit = { at, text: new SplicedText(JSON.stringify(buildFcmBody(model, ctx)), this.marks) };
      this.fcm.set(key, hit);
    }
    return hit.text.render(d.token, d.collapseId);
  }

  /** The APNs request of `d` (its payload holds neither the token nor the collapse id). */
  apnsRequest(d: PushDelivery, ctx: { expiresAt: number }): PreparedApns {
    this.check(d);
    let hit = this.apns.get(d.language);
    if (!hit || hit.at !== ctx.expiresAt) {
      const model = { ...d, collapseId: this.marks.collapse };
      const req = buildApnsRequest(model, { bundleId: "", expiresAt: ctx.expiresAt });
      const body = JSON.stringify(req.payload);
      const { "apns-topic": _topic, "apns-collapse-id": collapse, ...headers } = req.headers;
      hit = {
        at: ctx.expiresAt,
        headers,
        body,
        size: new TextEncoder().encode(body).byteLength,
        collapse: collapse === this.marks.collapse ? null : collapse,
      };
      this.apns.set(d.language, hit);
    }
    const headers = { ...hit.headers, "apns-collapse-id": hit.collapse ?? d.collapseId };
    return { headers, body: hit.body, size: hit.size };
  }
}
