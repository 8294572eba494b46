/** Builds Services for a runtime from parsed configuration; shared by main.ts and the tooling. */
import type { Config } from "./config.ts";
import { ConfigError } from "./config.ts";
import { createServices, type RuntimeSecrets, type Services } from "./services.ts";
import type { Sql } from "./db/port.ts";
import type { Kv } from "./kv/port.ts";
import { openDatabase } from "./db/driver.ts";
import type { RequestScope } from "./db/tcp.ts";
import { openUpstashKv } from "./kv/upstash.ts";
import { openMemoryKv } from "./kv/memory.ts";
import { migrate } from "./db/migrate.ts";
import type { Clock } from "./clock.ts";
import type { Logger } from "./log.ts";
import { hmacSha256Hex } from "./crypto/hashing.ts";
import type { HostResolver } from "./outbound/mod.ts";
import type { ItemSocket } from "./items/socket.ts";
import type { AnalyticsDataset } from "./metrics.ts";
import type { PushHttp } from "./push/provider_http.ts";

/** Runtime hooks: how to open the embedded database and secrets where a filesystem exists. */
export interface BootOptions {
  embedded?: {
    database(config: Config): Promise<Sql>;
    secrets(config: Config): Promise<RuntimeSecrets>;
  };
  clock?: Clock;
  log?: Logger;
  /** A direct TCP dialer for item delivery where the runtime has one (Deno). */
  itemSocket?: ItemSocket;
  /** Host-name resolver for the outbound guard (Deno). */
  resolveHost?: HostResolver;
  /** Workers Analytics Engine binding for per-request data points. */
  analytics?: AnalyticsDataset;
  /** Push provider HTTP clients with HTTP/2 for APNs where the runtime has it (Deno). */
  pushHttp?: PushHttp;
  /** Opens Redis over TCP for REDIS_URL where the runtime keeps sockets open (Deno). */
  openRedis?: (url: string) => Kv;
  /** Workers: database clients belong to one request (sockets may not cross requests). */
  requestScope?: RequestScope;
}

/** Secrets from configuration; all must be present outside embedded mode. */
export async function configuredSecrets(config: Config): Promise<RuntimeSecrets> {
  const { ADMIN_TOKEN, JWT_PRIVATE_JWK, KMS_MASTER_KEY } = config;
  if (!ADMIN_TOKEN || !JWT_PRIVATE_JWK || !KMS_MASTER_KEY) {
    throw new ConfigError("ADMIN_TOKEN, JWT_PRIVATE_JWK and KMS_MASTER_KEY must be set");
  }
  return {
    adminToken: ADMIN_TOKEN,
    jwtPrivateJwk: JWT_PRIVATE_JWK,
    kmsMasterKey: KMS_MASTER_KEY,
    // Callback signatures default to a key derived from the master key (HMAC with a fixed label),
    // so the master key itself never signs anything that leaves the service.
    webhookSecret: config.WEBHOOK_SIGNING_SECRET ??
      await hmacSha256Hex(KMS_MASTER_KEY, "webhook-signing-secret"),
  };
}

/**
 * The KV store: Redis over TCP for REDIS_URL where the runtime can (the Deno server; it wins over
 * Upstash there), else Upstash's REST API, else the in-memory store.
 */
function openKv(config: Config, options: BootOptions): Kv {
  if (config.REDIS_URL && options.openRedis) return options.openRedis(config.REDIS_URL);
  if (config.UPSTASH_REDIS_REST_URL && config.UPSTASH_REDIS_REST_TOKEN) {
    return openUpstashKv(config.UPSTASH_REDIS_REST_URL, config.UPSTASH_REDIS_REST_TOKEN);
  }
  return openMemoryKv(options.clock ? () => options.clock!.now() : undefined);
}

/** Opens database, KV and secrets as configured, applies migrations and builds Services. */
export async function boot(config: Config, options: BootOptions = {}): Promise<Services> {
  const hasSecrets = Boolean(config.ADMIN_TOKEN && config.JWT_PRIVATE_JWK && config.KMS_MASTER_KEY);
  // Without a filesystem (Workers) nothing can be generated or embedded: all must be configured.
  if ((!config.DATABASE_URL || !hasSecrets) && !options.embedded) {
    throw new ConfigError(
      "DATABASE_URL, ADMIN_TOKEN, JWT_PRIVATE_JWK and KMS_MASTER_KEY are required on this runtime",
    );
  }
  if (config.REDIS_URL && !options.openRedis && !config.UPSTASH_REDIS_REST_URL) {
    throw new ConfigError(
      "REDIS_URL (Redis over TCP) needs the Deno server; on this runtime use UPSTASH_REDIS_REST_URL",
    );
  }
  const db = config.DATABASE_URL
    ? openDatabase(config.DATABASE_URL, config, { scope: options.requestScope })
    : await options.embedded!.database(config);
  const kv = openKv(config, options);
  const secrets = hasSecrets
    ? await configuredSecrets(config)
    : await options.embedded!.secrets(config);
  // Migrations apply under a transaction-scoped advisory lock, so a burst of isolates does not
  // race; deployments that migrate in their release step (`deno task migrate`) turn this off.
  if (config.embedded || config.MIGRATE_ON_START) await migrate(db);
  const services = await createServices({
    config,
    db,
    kv,
    secrets,
    clock: options.clock,
    log: options.log,
    itemSocket: options.itemSocket,
    resolveHost: options.resolveHost,
    analytics: options.analytics,
    pushHttp: options.pushHttp,
  });
  if (
    !config.embedded &&
    (config.OTP_SMS_PROVIDER === "log" || config.OTP_EMAIL_PROVIDER === "log")
  ) {
    // The log providers keep messages in this instance's memory: fine on a laptop, a black hole
    // in production, so say so at start-up.
    services.log.warn("OTP messages go to the in-memory log provider, not to users", {
      sms: config.OTP_SMS_PROVIDER,
      email: config.OTP_EMAIL_PROVIDER,
    });
  }
  if (!config.embedded && config.polygonRpcUrls.length > 0 && !config.PUBLIC_BASE_URL) {
    // Token URIs go on chain for good; built from a request's Host header they follow whatever
    // address the caller used.
    services.log.warn("PUBLIC_BASE_URL is unset: NFT token URIs use the request's origin");
  }
  return services;
}
