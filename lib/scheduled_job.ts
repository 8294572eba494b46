/** The shape of a periodic job (a leaf module, so jobs need not import the job list). */
import type { Services } from "./services.ts";

/** A periodic job; it must be safe to run concurrently with itself on another instance. */
export interface ScheduledJob {
  name: string;
  run(services: Services, nowMs: number): Promise<unknown>;
}
