/** The periodic item work: probe due endpoints, then send every due request. */
import type { ScheduledJob } from "../scheduled_job.ts";
import { probeDueEndpoints } from "./probe.ts";
import { dispatchDueItems } from "./dispatcher.ts";

/** Scheduled job: health probes, then the dispatcher (safe to run on several instances). */
export const itemDeliveryJob: ScheduledJob = {
  name: "item-delivery",
  async run(services) {
    await probeDueEndpoints(services);
    return await dispatchDueItems(services);
  },
};
