/**
 * The /metrics exposition of a fixed set of observations, in a canonical form: HELP and TYPE lines
 * as they are, each sample line with its labels sorted by name (the order of labels inside the
 * braces carries no meaning in the text format). `metrics_golden.txt` holds this form as rendered
 * when the service used prom-client; the exposition test compares today's rendering to it.
 */
import { createMetrics, type Metrics } from "../../lib/metrics.ts";
import type { Sql } from "../../lib/db/port.ts";

/** Label values that need escaping in the text format: backslash, double quote and newline. */
export const awkward = 'a\\b "quoted"\nnext';

/** A database whose scrape-time queries answer fixed rows (one gauge's query fails). */
export function fakeDb(): Sql {
  const answers: [RegExp, Record<string, unknown>[]][] = [
    [/from item_requests/, [{ k: "DELIVERED", n: "3" }, { k: "PENDING", n: 1 }]],
    [/callback_state/, [{ k: "done", n: "2" }, { k: awkward, n: "1" }]],
    [/from chain_txs group/, [{ k: "confirmed", n: "5" }]],
    [/chain_wallet_balances/, [{ k: "0xAbC", n: 0.25 }]],
    [/from push_log_messages/, [{ n: "7" }]],
  ];
  return {
    kind: "pglite",
    query<T>(text: string): Promise<T[]> {
      if (text.includes("push_slices")) return Promise.reject(new Error("relation is gone"));
      const hit = answers.find(([re]) => re.test(text));
      return Promise.resolve((hit?.[1] ?? []) as T[]);
    },
    transaction: () => Promise.reject(new Error("not used")),
    close: () => Promise.resolve(),
  };
}

/** Records the same observations on every metric. */
export function exercise(m: Metrics): void {
  m.http.observe("items", "/items/v1/requests/:id", "GET", 200, 0.004);
  m.http.observe("items", "/items/v1/requests/:id", "GET", 200, 0.25);
  m.http.observe("items", "/items/v1/requests/:id", "GET", 404, 45);
  m.http.observe("admin", awkward, "BREW", 500, 0.5);
  m.outboundCalls.inc({ purpose: "item", host: "game.example:8443", outcome: "ok" });
  m.outboundCalls.inc({ purpose: "item", host: "game.example:8443", outcome: "ok" });
  m.outboundCalls.inc({ purpose: "callback", host: awkward, outcome: "http_503" });
  m.outboundDuration.observe({ purpose: "item", outcome: "ok" }, 0.01);
  m.outboundDuration.observe({ purpose: "item", outcome: "ok" }, 0.75);
  m.outboundDuration.observe({ purpose: "callback", outcome: "http_503" }, 31);
  m.itemAttempts.inc({ outcome: "delivered" });
  m.itemAttempts.inc({ outcome: "retry" }, 2);
  m.itemAttemptDuration.observe({ outcome: "delivered" }, 0.125);
  m.chainSettled.inc({ status: "confirmed" });
  m.chainConfirmation.observe({ status: "confirmed" }, 14.5);
  m.chainConfirmation.observe({ status: "failed" }, 4000);
  m.callbacks.inc({ kind: "otp", outcome: "done" });
  m.pushMessages.inc({ provider: "fcm", outcome: "sent" }, 3);
  m.pushMessages.inc({ provider: "apns", outcome: "retried" });
  m.otpSends.inc({ channel: "sms", outcome: "sent" });
  m.otpVerifications.inc({ outcome: "valid" });
  m.schedulerRuns.observe({ job: "sweep", outcome: "ok" }, 0.5);
  m.schedulerRuns.observe({ job: "sweep", outcome: "ok" }, 0);
}

/** The canonical form of an exposition (see the module comment). */
export function canonical(text: string): string {
  return text.split("\n").map((line) => {
    if (line === "" || line.startsWith("#")) return line;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not an exposition line: ${JSON.stringify(line)}`);
    if (m[2] === undefined) return line;
    const pairs = [...m[2].matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((p) => p[0]);
    if (pairs.join(",") !== m[2].replace(/,$/, "")) throw new Error(`odd labels: ${line}`);
    return `${m[1]}{${pairs.sort().join(",")}} ${m[3]}`;
  }).join("\n");
}

/** The canonical exposition of the fixed observations, with the answer's content type. */
export async function goldenRendering(): Promise<{ text: string; contentType: string }> {
  const metrics = createMetrics(fakeDb());
  exercise(metrics);
  return { text: canonical(await metrics.render()), contentType: metrics.contentType };
}
