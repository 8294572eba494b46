/**
 * The provider send pipeline of one slice: chunks of messages are recorded, sent and settled in
 * order, with up to `depth` chunks recorded and queued while earlier ones are still out (so the
 * per-app concurrency never idles at a chunk boundary or on a slow database round trip) and one
 * settle in flight at a time. What a crash can leave unconfirmed is bounded by `depth` chunks plus
 * the one settling.
 */
import type { Services } from "../services.ts";
import type { PushDelivery } from "./sinks.ts";
import { deliverToProviders, type providerApps, settleBatch, type Settled } from "./delivery.ts";

/** A slice stopped because its lease was taken over or its campaign cancelled. */
export class SliceStopped extends Error {
  override name = "SliceStopped";
  constructor(sliceId: string) {
    super(`slice ${sliceId} stopped: lease lost or campaign cancelled`);
  }
}

/** The claimed slice the pipeline sends for (its lease moves forward with each settle). */
export interface PipelineSlice {
  id: string;
  campaign_id: string;
  lease_until: Date;
}

/** Sends one slice's provider messages chunk by chunk. */
export class DeliveryPipeline {
  private readonly inflight: Promise<Settled[]>[] = [];
  private settling: Promise<void> = Promise.resolve();
  /** Messages the providers accepted so far. */
  sent = 0;

  constructor(
    private readonly services: Services,
    private readonly slice: PipelineSlice,
    private readonly apps: Awaited<ReturnType<typeof providerApps>>,
    private readonly depth = 4,
  ) {}

  /**
   * Records a chunk and starts its sends once recorded; waits while `depth` chunks are out. The
   * records of queued chunks run concurrently, so database latency stays off the senders' path.
   */
  async push(chunk: PushDelivery[]): Promise<void> {
    const out = deliverToProviders(this.services, this.slice.id, chunk, this.apps)
      .then((r) => r.done);
    // Awaited in order by settleOldest; this keeps an early rejection from going unhandled.
    out.catch(() => {});
    this.inflight.push(out);
    while (this.inflight.length >= this.depth) await this.settleOldest();
  }

  /** Settles everything still out; throws SliceStopped when the slice was lost meanwhile. */
  async drain(): Promise<void> {
    while (this.inflight.length > 0) await this.settleOldest();
    await this.settling;
  }

  private async settleOldest() {
    const settled = await this.inflight.shift()!;
    await this.settling;
    const leaseUntil = new Date(this.services.clock.now() + this.services.config.PUSH_LEASE_MS);
    this.settling = settleBatch(this.services, this.slice, settled, {
      heldUntil: this.slice.lease_until,
      leaseUntil,
    }).then(({ keep }) => {
      if (!keep) throw new SliceStopped(this.slice.id);
      this.slice.lease_until = leaseUntil;
    });
    // Awaited by the next settle or by drain; this keeps an early rejection from going unhandled.
    this.settling.catch(() => {});
    this.sent += settled.filter((s) => s.state === "sent").length;
  }
}
