/**
 * Metrics in the Prometheus text format (the registry of ./prometheus.ts, which runs the same on
 * Deno and on Workers). Counters and histograms count what this instance did; the outbox, transaction
 * and push gauges are read from Postgres at scrape time, so they are the same on every instance.
 */
import {
  bucketLabels,
  type Collector,
  Counter,
  Gauge,
  header,
  Histogram,
  labelText,
  Registry,
  renderHistogram,
} from "./prometheus.ts";
import type { Sql } from "./db/port.ts";

/** The request latency histogram's bounds, in seconds. */
export const latencyBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const slowBuckets = [0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1800];

/**
 * A Workers Analytics Engine dataset binding (only `writeDataPoint` is used). On Workers a scrape
 * reaches one isolate, so each request is also written as a data point there when bound.
 */
export interface AnalyticsDataset {
  writeDataPoint(point: { blobs?: string[]; doubles?: number[]; indexes?: string[] }): void;
}

/** Every metric the service records, and the registry that renders them. */
export interface Metrics {
  registry: Registry;
  /** Request latency and the request count by family, route, method and status. */
  http: HttpLatency;
  outboundCalls: Counter<"purpose" | "host" | "outcome">;
  outboundDuration: Histogram<"purpose" | "outcome">;
  itemAttempts: Counter<"outcome">;
  itemAttemptDuration: Histogram<"outcome">;
  chainSettled: Counter<"status">;
  chainConfirmation: Histogram<"status">;
  callbacks: Counter<"kind" | "outcome">;
  /**
   * Push messages by provider (fcm, apns) and outcome: sent, invalid_token, failed, and retried
   * (messages that needed more than one attempt, also counted in their final outcome).
   */
  pushMessages: Counter<"provider" | "outcome">;
  otpSends: Counter<"channel" | "outcome">;
  otpVerifications: Counter<"outcome">;
  otpLimitRefusals: Counter<"limit">;
  schedulerRuns: Histogram<"job" | "outcome">;
  /** Renders the text exposition, refreshing the database gauges first. */
  render(): Promise<string>;
  contentType: string;
}

/** Creates a registry with every metric; `db` feeds the gauges read at scrape time. */
export function createMetrics(db: Sql): Metrics {
  const registry = new Registry();
  const counter = <L extends string>(name: string, help: string, labelNames: L[]) =>
    registry.register(new Counter<L>({ name, help, labelNames }));
  const histogram = <L extends string>(
    name: string,
    help: string,
    labelNames: L[],
    buckets = latencyBuckets,
  ) => registry.register(new Histogram<L>({ name, help, labelNames, buckets }));
  const gauge = <L extends string = never>(name: string, help: string, labelNames: L[] = []) =>
    registry.register(new Gauge<L>({ name, help, labelNames }));

  const itemOutbox = gauge("gp_item_outbox_requests", "Item requests in the outbox by status", [
    "status",
  ]);
  const chainTxs = gauge("gp_chain_transactions", "Recorded blockchain transactions by status", [
    "status",
  ]);
  const chainCallbacks = gauge("gp_chain_callbacks", "Transaction callbacks by delivery state", [
    "state",
  ]);
  const lowWallets = gauge(
    "gp_chain_wallet_low_balance_pol",
    "Native balance (POL) of service wallets below POLYGON_LOW_BALANCE_POL at their last check; a wallet is listed only while low",
    ["address"],
  );
  const pushSlices = gauge("gp_push_slices", "Push campaign slices by state", ["state"]);
  const pushLogged = gauge("gp_push_messages_logged", "Push messages accepted by the log sink");

  async function refreshGauges() {
    const grouped = async <L extends string>(gauge: Gauge<L>, label: L, sql: string) => {
      const rows = await db.query<{ k: string; n: string | number }>(sql);
      gauge.reset();
      for (const r of rows) gauge.set({ [label]: r.k } as Record<L, string>, Number(r.n));
    };
    // A gauge whose query fails keeps its last value; the counters still render.
    await Promise.allSettled([
      grouped(
        itemOutbox,
        "status",
        "select status as k, count(*) as n from item_requests group by status",
      ),
      grouped(chainTxs, "status", "select status as k, count(*) as n from chain_txs group by 1"),
      grouped(
        chainCallbacks,
        "state",
        "select callback_state as k, count(*) as n from chain_txs group by 1",
      ),
      grouped(
        lowWallets,
        "address",
        `select address as k, (balance_wei / 1e18)::float8 as n from chain_wallet_balances
          where low`,
      ),
      grouped(pushSlices, "state", "select state as k, count(*) as n from push_slices group by 1"),
      db.query<{ n: string | number }>("select count(*) as n from push_log_messages")
        .then((rows) => pushLogged.setValue(Number(rows[0]?.n ?? 0))),
    ]);
  }

  const http = new HttpLatency(latencyBuckets);
  registry.register(http.histogramMetric(
    "gp_http_request_duration_seconds",
    "HTTP request latency",
  ));
  registry.register(
    http.counterMetric("gp_http_requests_total", "HTTP requests by route and status"),
  );

  return {
    registry,
    contentType: registry.contentType,
    http,
    outboundCalls: counter("gp_outbound_calls_total", "Outbound HTTP calls by outcome", [
      "purpose",
      "host",
      "outcome",
    ]),
    outboundDuration: histogram("gp_outbound_call_duration_seconds", "Outbound call latency", [
      "purpose",
      "outcome",
    ]),
    itemAttempts: counter("gp_item_delivery_attempts_total", "Item delivery attempts", [
      "outcome",
    ]),
    itemAttemptDuration: histogram(
      "gp_item_delivery_attempt_duration_seconds",
      "Item delivery attempt latency",
      ["outcome"],
    ),
    chainSettled: counter("gp_chain_transactions_settled_total", "Transactions settled", [
      "status",
    ]),
    chainConfirmation: histogram(
      "gp_chain_confirmation_seconds",
      "Time from sending a transaction to its settlement",
      ["status"],
      slowBuckets,
    ),
    callbacks: counter("gp_callbacks_total", "Callbacks and webhooks sent, by outcome", [
      "kind",
      "outcome",
    ]),
    pushMessages: counter(
      "gp_push_messages_total",
      "Push messages sent to a provider, by provider and outcome",
      ["provider", "outcome"],
    ),
    otpSends: counter("gp_otp_sends_total", "OTP send requests by channel and outcome", [
      "channel",
      "outcome",
    ]),
    otpVerifications: counter("gp_otp_verifications_total", "OTP verifications by outcome", [
      "outcome",
    ]),
    otpLimitRefusals: counter("gp_otp_limit_refusals_total", "OTP sends refused by a limit", [
      "limit",
    ]),
    schedulerRuns: histogram(
      "gp_scheduler_job_duration_seconds",
      "Scheduled job run durations",
      ["job", "outcome"],
      slowBuckets,
    ),
    async render() {
      await refreshGauges();
      return registry.metrics();
    },
  };
}

/** The methods counted under their own name; any other method is counted as OTHER. */
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * The method as a metric label: a client may send any token as a method, and every distinct one
 * would add series, so only the standard methods keep their name.
 */
export function methodLabel(method: string): string {
  return KNOWN_METHODS.has(method) ? method : "OTHER";
}

interface Series {
  /** The series' label text, escaped once: `family="…",route="…",method="…",status="…"`. */
  labels: string;
  /** Observations per bucket (not cumulative); the last slot is above every bound. */
  buckets: Float64Array;
  sum: number;
  count: number;
}

/**
 * The per-request latency histogram and request counter. A request is counted with a few map
 * lookups and no allocation (after the first of its label set); both metrics are rendered at
 * scrape time from the same counts.
 */
export class HttpLatency {
  readonly #series = new Map<string, Map<string, Map<string, Map<number, Series>>>>();
  readonly #bounds: number[];
  readonly #le: string[];

  /** A histogram over `bounds` (seconds, ascending). */
  constructor(bounds: number[]) {
    this.#bounds = bounds;
    this.#le = bucketLabels(bounds);
  }

  /** Counts one request that took `seconds` (a method outside the standard ones as OTHER). */
  observe(family: string, route: string, rawMethod: string, status: number, seconds: number): void {
    const method = methodLabel(rawMethod);
    const byRoute = this.#level(this.#series, family);
    const byMethod = this.#level(byRoute, route);
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, byStatus = new Map());
    let series = byStatus.get(status);
    if (!series) {
      series = {
        labels: labelText(HTTP_LABELS, [family, route, method, String(status)]),
        buckets: new Float64Array(this.#bounds.length + 1),
        sum: 0,
        count: 0,
      };
      byStatus.set(status, series);
    }
    const bounds = this.#bounds;
    let i = 0;
    while (i < bounds.length && seconds > bounds[i]) i++;
    series.buckets[i]++;
    series.sum += seconds;
    series.count++;
  }

  #level<V>(map: Map<string, Map<string, V>>, key: string): Map<string, V> {
    let next = map.get(key);
    if (!next) map.set(key, next = new Map());
    return next;
  }

  *#all(): Generator<Series> {
    for (const byRoute of this.#series.values()) {
      for (const byMethod of byRoute.values()) {
        for (const byStatus of byMethod.values()) yield* byStatus.values();
      }
    }
  }

  /** The histogram as a metric family (cumulative buckets, sum and count per label set). */
  histogramMetric(name: string, help: string): Collector {
    return {
      name,
      render: () => {
        let text = header(name, help, "histogram");
        for (const s of this.#all()) {
          text += "\n" + renderHistogram(name, s.labels, this.#le, s.buckets, s.sum, s.count);
        }
        return text;
      },
    };
  }

  /** The request counter as a metric family (the histogram's count per label set). */
  counterMetric(name: string, help: string): Collector {
    return {
      name,
      render: () => {
        let text = header(name, help, "counter");
        for (const s of this.#all()) text += `\n${name}{${s.labels}} ${s.count}`;
        return text;
      },
    };
  }
}

const HTTP_LABELS = ["family", "route", "method", "status"];
