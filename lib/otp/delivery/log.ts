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
  const entries: { entry: OutboxEntry; expiresAtMs: number }[] = [];
  function keep(entry: OutboxEntry, expiresAtMs: number) {
    entries.push({ entry, expiresAtMs });
    if (entries.length > size) entries.splice(0, entries.length - size);
  }
  return {
    sms: {
      name: "LOG",
      send(ctx, m) {
        keep({
          channel: "sms",
          to: m.to,
          text: m.text,
          lang: m.lang,
          retry: m.retry,
          sentAt: new Date(ctx.nowMs).toISOString(),
          expiresAt: new Date(m.expiresAtMs).toISOString(),
        }, m.expiresAtMs);
        return Promise.resolve();
      },
    },
    email: {
      name: "LOG",
      send(ctx, m) {
        keep({
          channel: "email",
          to: m.to,
          subject: m.subject,
          text: m.text,
          lang: m.lang,
          sentAt: new Date(ctx.nowMs).toISOString(),
          expiresAt: new Date(m.expiresAtMs).toISOString(),
        }, m.expiresAtMs);
        return Promise.resolve();
      },
    },
    outbox: {
      list(nowMs) {
        // Nothing about a code outlives it, not even in the dev outbox.
        for (let i = entries.length - 1; i >= 0; i--) {
          if (entries[i].expiresAtMs <= nowMs) entries.splice(i, 1);
        }
        return entries.map((e) => e.entry).reverse();
      },
    },
  };
}
