/**
 * The sending of one slice: messages are handed over in device-id order, provider messages one by
 * one within each app's concurrency, sink messages in batches, and the slice's progress is
 * written every `step` settled messages (and whenever the window must move) in one statement:
 *
 * - cursor: the highest settled device id; every device below it is settled or a hole;
 * - holes: the devices below the cursor whose messages are still in flight;
 * - window: no message above it has been handed over. A message is handed over only once the
 *   window covering it is written. The window is reserved ahead of the senders by twice what
 *   they hand over while one write takes (at least 2 x `step`, at most 4 x `step` messages), and
 *   moved once half of it is used, so they rarely wait for it even when the database is slow and
 *   a write moving the window also carries the settled messages of about `step` sends.
 *
 * Nothing is written per message except the ones not sent. After a crash the next dispatcher sends
 * the holes and the devices in (cursor, window] again (their first copy may have reached the
 * provider: `resent`), and everything above the window for the first time. Every message carries
 * its collapse id, so a device that got both copies shows one notification.
 */
import type { Services } from "../services.ts";
import type { PushDelivery, PushSink } from "./sinks.ts";
import {
  type AppSenders,
  type ProgressCounts,
  sendToProvider,
  type UnsentMessage,
  writeProgress,
} from "./delivery.ts";
import type { SendOutcome } from "./provider_http.ts";
import type { RenderedMessages } from "./message.ts";

/** A slice stopped because its lease was taken over or its campaign cancelled. */
export class SliceStopped extends Error {
  override name = "SliceStopped";
  constructor(sliceId: string) {
    super(`slice ${sliceId} stopped: lease lost or campaign cancelled`);
  }
}

/** The claimed slice the run sends for, with the progress its last dispatcher wrote. */
export interface RunSlice {
  id: string;
  campaign_id: string;
  lease_until: Date;
  /** Progress as claimed (strings: bigint columns). */
  cursor_id: string;
  window_id: string;
  resend_through: string;
}

/** One message to hand over, and whether it is sent again after a takeover. */
export interface Outgoing {
  delivery: PushDelivery;
  resent: boolean;
}

function zeroCounts(): ProgressCounts {
  return { targeted: 0, sent: 0, failed: 0, invalid: 0, retried: 0, resent: 0 };
}

/** Sends one slice's messages and writes its progress. */
export class SliceRun {
  /** Messages the providers and the sink accepted in this run. */
  sent = 0;
  private highestDone: number;
  private readonly inflight = new Set<number>();
  private durableWindow: number;
  private wantWindow: number;
  private counts = zeroCounts();
  private unsent: UnsentMessage[] = [];
  private settledSinceWrite = 0;
  private lease: Date;
  private writing: Promise<void> | null = null;
  private writeAgain = false;
  private failure: unknown = null;
  private idle: (() => void) | null = null;
  /** Messages handed over so far, and how far ahead the window is reserved. */
  private handed = 0;
  private ahead: number;

  constructor(
    private readonly services: Services,
    private readonly slice: RunSlice,
    private readonly route: {
      apps: Map<string, AppSenders>;
      sink: PushSink;
      /** The campaign's provider messages, rendered once. */
      rendered: RenderedMessages;
      /** Messages reserved ahead and settled between progress writes. */
      step: number;
    },
  ) {
    this.highestDone = Number(slice.cursor_id);
    this.durableWindow = Math.max(Number(slice.window_id), this.highestDone);
    this.wantWindow = this.durableWindow;
    this.lease = slice.lease_until;
    this.ahead = 2 * route.step;
  }

  /** The lease as last extended (finishing the slice checks it). */
  get leaseUntil(): Date {
    return this.lease;
  }

  /**
   * Hands over a batch of messages in device-id order (ids above every earlier batch's, or holes
   * below the cursor); `ahead` gives the next batch once it is read, so the window can be reserved
   * across the boundary. Resolves when the last one is handed over, not answered.
   */
  async send(batch: Outgoing[], ahead: () => readonly Outgoing[] = () => []): Promise<void> {
    const idAt = (k: number) => {
      if (k < batch.length) return batch[k].delivery.deviceId;
      const next = ahead();
      return next.length > 0
        ? next[Math.min(k - batch.length, next.length - 1)].delivery.deviceId
        : batch[batch.length - 1].delivery.deviceId;
    };
    const rendered = this.route.rendered;
    let i = 0;
    while (i < batch.length) {
      this.check();
      const { delivery: d, resent } = batch[i];
      const app = this.route.apps.get(d.appid);
      if (!app) {
        // Consecutive messages of apps without credentials go to the sink as one batch.
        let j = i + 1;
        while (j < batch.length && !this.route.apps.has(batch[j].delivery.appid)) j++;
        await this.toSink(batch.slice(i, j));
        i = j;
        continue;
      }
      // Nothing is awaited while a slot is free and the window already covers the message.
      if (!app.limit.tryAcquire()) await app.limit.acquire();
      try {
        this.reserveAhead(i, idAt);
        if (this.durableWindow < d.deviceId) await this.windowCovers(d.deviceId);
      } catch (err) {
        app.limit.release();
        throw err;
      }
      this.inflight.add(d.deviceId);
      this.handed++;
      sendToProvider(this.services, app, d, rendered).then(
        (outcome) => {
          app.limit.release();
          this.settle(d.deviceId, outcome, resent);
        },
        (err) => {
          app.limit.release();
          this.settle(d.deviceId, {
            state: "failed",
            attempts: 1,
            detail: `error: ${(err as Error).message}`,
          }, resent);
        },
      );
      i++;
    }
  }

  /** Waits for every message in flight, then writes the final progress. */
  async finish(): Promise<void> {
    while (this.inflight.size > 0) {
      await new Promise<void>((resolve) => this.idle = resolve);
    }
    this.check();
    await this.write();
  }

  private check() {
    if (this.failure) throw this.failure;
  }

  /** Asks for the next reservation of the window once half of the current one is used. */
  private reserveAhead(i: number, idAt: (k: number) => number) {
    const step = this.ahead;
    if (idAt(i + (step >> 1)) > this.wantWindow) {
      this.wantWindow = Math.max(this.wantWindow, idAt(i + step - 1));
      this.write().catch(() => {});
    }
  }

  /** Waits until the window written covers `id`: no message is handed over above it. */
  private async windowCovers(id: number) {
    while (this.durableWindow < id) {
      await this.write();
      this.check();
    }
  }

  private async toSink(batch: Outgoing[]) {
    const last = batch[batch.length - 1].delivery.deviceId;
    if (last > this.durableWindow) {
      this.wantWindow = Math.max(this.wantWindow, last);
      while (this.durableWindow < last) await this.write();
    }
    for (const o of batch) this.inflight.add(o.delivery.deviceId);
    try {
      await this.route.sink.deliver(batch.map((o) => o.delivery));
    } catch (err) {
      // The slice fails; its lease runs out and a later run sends these again.
      this.failure ??= err;
      throw err;
    }
    for (const o of batch) {
      this.settle(o.delivery.deviceId, { state: "sent", attempts: 1 }, o.resent);
    }
  }

  private settle(deviceId: number, outcome: SendOutcome, resent: boolean) {
    this.inflight.delete(deviceId);
    if (deviceId > this.highestDone) this.highestDone = deviceId;
    const c = this.counts;
    c.targeted++;
    if (resent) c.resent++;
    if (outcome.attempts > 1) c.retried++;
    if (outcome.state === "sent") {
      c.sent++;
      this.sent++;
    } else {
      if (outcome.state === "invalid") c.invalid++;
      else c.failed++;
      this.unsent.push({
        device_id: deviceId,
        state: outcome.state,
        attempts: outcome.attempts,
        detail: outcome.detail,
      });
    }
    if (++this.settledSinceWrite >= this.route.step) this.write().catch(() => {});
    if (this.inflight.size === 0 && this.idle) {
      this.idle();
      this.idle = null;
    }
  }

  /** Writes the progress now, or once more after the write in progress; one write at a time. */
  private write(): Promise<void> {
    if (this.writing) {
      this.writeAgain = true;
      return this.writing;
    }
    this.writing = (async () => {
      try {
        do {
          this.writeAgain = false;
          await this.writeOnce();
        } while (this.writeAgain);
      } catch (err) {
        this.failure ??= err;
        throw err;
      } finally {
        this.writing = null;
      }
    })();
    return this.writing;
  }

  private async writeOnce() {
    this.check();
    // Taken synchronously, so the write describes one consistent moment.
    const cursor = this.highestDone;
    const holes = [...this.inflight].filter((id) => id < cursor);
    const window = Math.max(this.wantWindow, this.durableWindow, cursor);
    const counts = this.counts;
    const unsent = this.unsent;
    this.counts = zeroCounts();
    this.unsent = [];
    this.settledSinceWrite = 0;
    const leaseUntil = new Date(this.services.clock.now() + this.services.config.PUSH_LEASE_MS);
    const handedBefore = this.handed;
    const { keep } = await writeProgress(this.services, this.slice, {
      cursor,
      holes,
      window,
      counts,
      unsent,
      heldUntil: this.lease,
      leaseUntil,
    });
    if (!keep) throw new SliceStopped(this.slice.id);
    this.lease = leaseUntil;
    this.durableWindow = window;
    const step = this.route.step;
    this.ahead = Math.min(4 * step, Math.max(2 * step, 2 * (this.handed - handedBefore)));
  }
}
