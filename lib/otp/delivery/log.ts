/**
 * The `log` provider of embedded dev mode: nothing leaves the process; the last messages are
 * kept in memory for GET /admin/v1/otp/outbox, and each is forgotten when its code expires.
 */
import type { EmailProvider, SmsProvider } from "./provider.ts";

/** One message the log provider "sent". */
export interface OutboxEntry {
  channel: "sms" | "email";
  to: string;
  subject?: string;
  text: string;
  lang: string;
  retry?: boolean;
  sentAt: string;
  expiresAt: string;
}

/** The in-memory outbox of the log provider. */
export interface OtpOutbox {
  /** Live messages, newest first. */
  list(nowMs: number): OutboxEntry[];
}

/** Builds the log SMS and e-mail providers around one bounded outbox. */
export function createLogProviders(size: number): {
  sms: SmsProvider;
  email: EmailProvider;
  outbox: OtpOutbox;
} {
  /** A message as kept: the entry without its two times, which are formatted when listed. */
  type Kept = {
    entry: Omit<OutboxEntry, "sentAt" | "expiresAt">;
    sentAtMs: number;
    expiresAtMs: number;
  };
  // A ring of the last `size` messages: keeping one overwrites the oldest, moving nothing.
  const ring: (Kept | undefined)[] = new Array(size);
  let next = 0;
  function keep(entry: Kept["entry"], sentAtMs: number, expiresAtMs: number) {
    ring[next] = { entry, sentAtMs, expiresAtMs };
    next = next + 1 === size ? 0 : next + 1;
  }
  return {
    sms: {
      name: "LOG",
      send(ctx, m) {
        keep(
          {
            channel: "sms",
            to: m.to,
            text: m.text,
            lang: m.lang,
            retry: m.retry,
          },
          ctx.nowMs,
          m.expiresAtMs,
        );
        return Promise.resolve();
      },
    },
    email: {
      name: "LOG",
      send(ctx, m) {
        keep(
          {
            channel: "email",
            to: m.to,
            subject: m.subject,
            text: m.text,
            lang: m.lang,
          },
          ctx.nowMs,
          m.expiresAtMs,
        );
        return Promise.resolve();
      },
    },
    outbox: {
      list(nowMs) {
        const out: OutboxEntry[] = [];
        for (let i = 1; i <= size; i++) {
          const slot = (next - i + size) % size;
          const kept = ring[slot];
          if (!kept) continue;
          // Nothing about a code outlives it, not even in the dev outbox.
          if (kept.expiresAtMs <= nowMs) {
            ring[slot] = undefined;
            continue;
          }
          out.push({
            ...kept.entry,
            sentAt: new Date(kept.sentAtMs).toISOString(),
            expiresAt: new Date(kept.expiresAtMs).toISOString(),
          });
        }
        return out;
      },
    },
  };
}
