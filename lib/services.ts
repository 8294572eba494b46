/**
 * Services: every dependency a handler may use, built once by main.ts (or the test harness)
 * and handed to createApp. Handlers reach them through `c.get("services")`.
 */
import type { Config } from "./config.ts";
import type { Sql } from "./db/port.ts";
import type { Kv } from "./kv/port.ts";
import { type Clock, systemClock } from "./clock.ts";
import { createLogger, type Logger } from "./log.ts";
import { createOutbound, type HostResolver, type Outbound } from "./outbound/mod.ts";
import { loadSigningKey, type SigningKey } from "./auth/keys.ts";
import { sha256Hex } from "./crypto/hashing.ts";
import { createPolygonChain, type PolygonChain } from "./chain/polygon.ts";
import { createLocalKms, type Kms } from "./chain/kms.ts";
import { createXplaChain, type XplaChain } from "./chain/xpla/lcd.ts";
import { type ItemSocket, missingItemSocket } from "./items/socket.ts";
import { createSidecarSocket } from "./items/sidecar_client.ts";
import { createOtpProviders, type OtpProviders } from "./otp/delivery/mod.ts";
import { type AnalyticsDataset, createMetrics, type Metrics } from "./metrics.ts";
import { fetchOnlyPushHttp, type PushHttp } from "./push/provider_http.ts";

/** Secrets the process needs at run time (from config, or generated in embedded mode). */
export interface RuntimeSecrets {
  adminToken: string;
  jwtPrivateJwk: string;
  kmsMasterKey: string;
  webhookSecret: string;
}

/** Everything handlers and background jobs use. */
export interface Services {
  config: Config;
  db: Sql;
  kv: Kv;
  clock: Clock;
  log: Logger;
  /** Prometheus metrics of this instance (GET /metrics). */
  metrics: Metrics;
  /** Workers Analytics Engine dataset receiving one data point per request, when bound. */
  analytics?: AnalyticsDataset;
  outbound: Outbound;
  signingKey: SigningKey;
  secrets: RuntimeSecrets;
  /** The Polygon chain client (absent when POLYGON_RPC_URLS / POLYGON_RPC_URL is unset); tests may replace it. */
  chain?: PolygonChain;
  /** The XPLA chain client (absent when XPLA_LCD_URL(S) is unset); tests may replace it. */
  xpla?: XplaChain;
  /** Wallet key management (keys sealed under the KMS master key). */
  kms: Kms;
  /** TCP exchanges with game servers (the sidecar when SIDECAR_URL is set, else a direct dialer). */
  itemSocket: ItemSocket;
  /** OTP SMS and e-mail providers (OTP_SMS_PROVIDER, OTP_EMAIL_PROVIDER) and the log outbox. */
  otpProviders: OtpProviders;
  /** HTTP clients of the push providers (HTTP/2 for APNs only where the runtime has it). */
  pushHttp: PushHttp;
  /** SHA-256 of the admin token, compared in constant time. */
  adminTokenHash: string;
  /** Runs work after the response (waitUntil on Workers, tracked promise on Deno). */
  defer(work: Promise<unknown>): void;
  /** Resolves when all deferred work has settled. */
  idle(): Promise<void>;
  /** Waits for background work, then closes the database and the KV connection. */
  close(): Promise<void>;
}

/** What a runtime provides to build Services. */
export interface ServiceParts {
  config: Config;
  db: Sql;
  kv: Kv;
  secrets: RuntimeSecrets;
  clock?: Clock;
  log?: Logger;
  fetch?: typeof fetch;
  /** Replaces the chain client built from POLYGON_RPC_URL. */
  chain?: PolygonChain;
  /** Replaces the XPLA chain client built from XPLA_LCD_URL. */
  xpla?: XplaChain;
  /** Replaces the database-backed KMS (e.g. a cloud KMS). */
  kms?: Kms;
  /** Resolves host names for the outbound guard where the runtime can (Deno). */
  resolveHost?: HostResolver;
  /** A direct TCP dialer where the runtime has one (Deno); SIDECAR_URL takes precedence. */
  itemSocket?: ItemSocket;
  /** Replaces the OTP providers built from configuration. */
  otpProviders?: OtpProviders;
  /** A Workers Analytics Engine binding (METRICS_DATASET). */
  analytics?: AnalyticsDataset;
  /** Push provider HTTP clients; the default is the global fetch without HTTP/2 (Workers). */
  pushHttp?: PushHttp;
}

/** Builds Services from runtime parts. */
export async function createServices(parts: ServiceParts): Promise<Services> {
  const clock = parts.clock ?? systemClock;
  const log = parts.log ?? createLogger(parts.config.LOG_LEVEL);
  const pending = new Set<Promise<unknown>>();
  const metrics = createMetrics(parts.db);
  const services: Services = {
    config: parts.config,
    db: parts.db,
    kv: parts.kv,
    clock,
    log,
    metrics,
    analytics: parts.analytics,
    outbound: createOutbound({
      log,
      metrics,
      allowPrivate: parts.config.allowPrivateOutbound,
      defaultTimeoutMs: parts.config.OUTBOUND_TIMEOUT_MS,
      fetch: parts.fetch,
      now: () => clock.now(),
      resolve: parts.resolveHost,
    }),
    signingKey: await loadSigningKey(
      parts.secrets.jwtPrivateJwk,
      parts.config.JWT_PREVIOUS_PUBLIC_JWKS,
    ),
    secrets: parts.secrets,
    chain: parts.chain ?? (parts.config.polygonRpcUrls.length > 0
      ? createPolygonChain({
        rpcUrls: parts.config.polygonRpcUrls,
        chainId: parts.config.POLYGON_CHAIN_ID,
        maxFeeGwei: parts.config.POLYGON_MAX_FEE_GWEI,
        minTipGwei: parts.config.POLYGON_MIN_TIP_GWEI,
        confirmations: parts.config.POLYGON_CONFIRMATIONS,
        stuckAfterMs: parts.config.TX_STUCK_AFTER_MS,
        timeoutMs: parts.config.POLYGON_RPC_TIMEOUT_MS,
        observer: { log, metrics },
      })
      : undefined),
    xpla: parts.xpla ?? (parts.config.XPLA_LCD_URLS ?? parts.config.XPLA_LCD_URL
      ? createXplaChain({
        lcdUrl: parts.config.XPLA_LCD_URLS ?? parts.config.XPLA_LCD_URL,
        chainId: parts.config.XPLA_CHAIN_ID,
        gasPrice: parts.config.XPLA_GAS_PRICE,
        gasAdjustment: parts.config.XPLA_GAS_ADJUSTMENT,
        timeoutMs: parts.config.XPLA_LCD_TIMEOUT_MS,
        timeoutBlocks: parts.config.XPLA_TIMEOUT_BLOCKS,
        fetch: parts.fetch,
        observer: { log, metrics },
      })
      : undefined),
    kms: parts.kms ?? createLocalKms(parts.db, parts.secrets.kmsMasterKey),
    otpProviders: parts.otpProviders ?? createOtpProviders(parts.config),
    pushHttp: parts.pushHttp ?? fetchOnlyPushHttp(parts.fetch),
    itemSocket: parts.config.SIDECAR_URL && parts.config.SIDECAR_TOKEN
      ? createSidecarSocket({
        url: parts.config.SIDECAR_URL,
        token: parts.config.SIDECAR_TOKEN,
        fetch: parts.fetch,
      })
      : parts.itemSocket ?? missingItemSocket,
    adminTokenHash: await sha256Hex(parts.secrets.adminToken),
    defer(work) {
      const tracked = work.catch((err) => log.error("deferred work failed", { err }))
        .finally(() => pending.delete(tracked));
      pending.add(tracked);
    },
    async idle() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    async close() {
      await services.idle();
      await Promise.all([parts.db.close(), parts.kv.close()]);
    },
  };
  return services;
}
