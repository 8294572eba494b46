/**
 * Periodic work (item dispatch, health probes, transaction tracking, push tasks, expired chat
 * batch receipts): one function run by the Workers cron trigger and by an interval in the Deno
 * server.
 */
import type { Services } from "./services.ts";
import { pushDispatchJob } from "./push/dispatch.ts";
import { chainTrackerJob } from "./chain/tracker_job.ts";
import { itemDeliveryJob } from "./items/jobs.ts";
import { chatReceiptsJob } from "./moderation/chat_logs.ts";
import type { ScheduledJob } from "./scheduled_job.ts";

export type { ScheduledJob } from "./scheduled_job.ts";

/** Every periodic job; a feature with periodic work adds its job here. */
export const scheduledJobs: readonly ScheduledJob[] = [
  pushDispatchJob,
  chainTrackerJob,
  itemDeliveryJob,
  chatReceiptsJob,
];

/** Runs every job once; one job failing does not stop the others. */
export async function runScheduled(services: Services, nowMs = services.clock.now()) {
  const results = await Promise.allSettled(scheduledJobs.map(async (j) => {
    const started = performance.now();
    let outcome = "error";
    try {
      await j.run(services, nowMs);
      outcome = "ok";
    } finally {
      const seconds = (performance.now() - started) / 1000;
      services.metrics.schedulerRuns.observe({ job: j.name, outcome }, seconds);
    }
  }));
  results.forEach((r, i) => {
    if (r.status === "rejected") {
      services.log.error("scheduled job failed", { job: scheduledJobs[i].name, err: r.reason });
    }
  });
}
