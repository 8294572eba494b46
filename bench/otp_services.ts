/** What the OTP benchmarks send and verify with: a topic, and just the services they use. */
import { loadConfig } from "../lib/config.ts";
import type { Services } from "../lib/services.ts";
import type { Kv } from "../lib/kv/port.ts";
import type { Sql } from "../lib/db/port.ts";
import { createOutbound } from "../lib/outbound/mod.ts";
import { createOtpProviders } from "../lib/otp/delivery/mod.ts";
import type { OtpTopic } from "../lib/otp/topics.ts";
import { systemClock } from "../lib/clock.ts";
import { createLogger } from "../lib/log.ts";
import { createMetrics } from "../lib/metrics.ts";

/** A topic sending through the `log` provider (no provider latency). */
export function benchTopic(name: string): OtpTopic {
  return {
    gameIndex: 1,
    topic: name,
    serviceName: "Bench",
    mode: "provider",
    callbackUrl: null,
    expirySeconds: 180,
    timeZone: "Asia/Seoul",
    codeLength: 6,
  };
}

/** The services send and verify use, around a given KV, with limits out of the way. */
export function servicesOver(kv: Kv): Services {
  const config = loadConfig({
    LOG_LEVEL: "silent",
    OTP_TOPIC_PER_MINUTE: "1000000000",
    OTP_RECEIVER_PER_DAY: "1000000",
  });
  return {
    config,
    kv,
    clock: systemClock,
    log: createLogger("silent"),
    outbound: createOutbound({ allowPrivate: true, defaultTimeoutMs: 5_000 }),
    secrets: {
      adminToken: "bench-admin-token-000000",
      jwtPrivateJwk: "",
      kmsMasterKey: "bench-master-key",
      webhookSecret: "bench-webhook",
    },
    otpProviders: createOtpProviders(config),
    // Counters only; the database gauges are never rendered here.
    metrics: createMetrics({} as Sql),
  } as unknown as Services;
}
