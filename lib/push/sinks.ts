/**
 * Push sinks: where a dispatched message goes. `log` keeps the messages in Postgres (readable at
 * GET /admin/v1/push/outbox) and logs a line per batch; `webhook` POSTs each batch to PUSH_WEBHOOK_URL,
 * signed in the Standard Webhooks format with the campaign's game secret. FCM and APNs sinks implement the same interface later.
 */
import type { Services } from "../services.ts";
import type { Sql } from "../db/port.ts";
import { DomainError } from "../errors.ts";
import { webhookSigner } from "../webhooks.ts";

/** One message for one device. */
export interface PushDelivery {
  /** Stable per slice and device (`<sliceId>:<deviceId>`): receivers deduplicate on it. */
  id: string;
  /**
   * Stable per campaign and device (`<campaignUuid>.<deviceId>`): the provider collapse id of the
   * message, so a copy sent again after a crash replaces the first on the device.
   */
  collapseId: string;
  campaignId: number;
  campaignUuid: string;
  sliceId: number;
  deviceId: number;
  appid: string;
  platform: "android" | "ios";
  token: string;
  language: string;
  notice: boolean;
  message: Record<string, unknown>;
  option: Record<string, unknown> | null;
}

/** A destination for push messages; deliver throws when the batch was not accepted. */
export interface PushSink {
  name: string;
  deliver(batch: PushDelivery[]): Promise<void>;
}

/** The sink that stores messages for inspection (embedded dev and tests). */
function logSink(services: Services): PushSink {
  return {
    name: "log",
    async deliver(batch) {
      if (batch.length === 0) return;
      await services.db.query(
        `insert into push_log_messages (slice_id, device_id, campaign_id, message)
         select x.slice_id, x.device_id, x.campaign_id, x.message
         from jsonb_to_recordset($1::jsonb)
           as x(slice_id bigint, device_id bigint, campaign_id bigint, message jsonb)
         on conflict (slice_id, device_id) do nothing`,
        [batch.map((d) => ({
          slice_id: d.sliceId,
          device_id: d.deviceId,
          campaign_id: d.campaignId,
          message: d,
        }))],
      );
      services.log.info("push messages delivered to the log sink", {
        campaignId: batch[0].campaignId,
        sliceId: batch[0].sliceId,
        count: batch.length,
      });
    },
  };
}

/** The sink that POSTs `{messages:[...]}` with an X-Signature header to a URL. */
export function webhookSink(services: Services, url: string): PushSink {
  return {
    name: "webhook",
    async deliver(batch) {
      if (batch.length === 0) return;
      const body = JSON.stringify({ messages: batch });
      const game = await services.db.query<{ game_index: number }>(
        "select game_index from push_campaigns where id = $1",
        [batch[0].campaignId],
      );
      // The id is stable for the batch, so a receiver deduplicates a retried delivery.
      const id = `push_${batch[0].sliceId}_${batch[0].deviceId}_${batch.length}`;
      const res = await services.outbound.send({
        url,
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
        retries: 2,
        signWith: services.secrets.webhookSecret,
        sign: game[0] ? await webhookSigner(services, game[0].game_index, id) : undefined,
        purpose: "push-webhook",
      });
      const ok = res.status >= 200 && res.status < 300;
      services.metrics.callbacks.inc({ kind: "push", outcome: ok ? "done" : "failed" });
      if (!ok) {
        throw new DomainError(
          "upstream",
          "PUSH_WEBHOOK_REFUSED",
          `push webhook answered ${res.status}`,
        );
      }
    },
  };
}

/** The sink the configuration names (PUSH_SINK). */
export function configuredSink(services: Services): PushSink {
  const { PUSH_SINK, PUSH_WEBHOOK_URL } = services.config;
  if (PUSH_SINK === "webhook" && PUSH_WEBHOOK_URL) return webhookSink(services, PUSH_WEBHOOK_URL);
  return logSink(services);
}

/** The newest messages the log sink stored, newest first. */
export async function recentLogMessages(db: Sql, limit: number) {
  const rows = await db.query<{ id: string; message: PushDelivery; created_at: Date }>(
    "select id, message, created_at from push_log_messages order by id desc limit $1",
    [limit],
  );
  return rows.map((r) => ({ ...r.message, storedAt: r.created_at.toISOString() }));
}
