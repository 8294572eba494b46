/**
 * Configuration: parsed once from the environment by one zod schema. Nothing else reads env.
 */
import { z } from "zod";
import { parseTrustedProxies } from "./proxy_trust.ts";

const bool = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");
const int = (def: number, min = 0) => z.coerce.number().int().min(min).default(def);
const optionalText = z.string().trim().min(1).optional();

const schema = z.object({
  PORT: int(8787, 0),
  HOST: z.string().default("127.0.0.1"),
  DATA_DIR: z.string().default(".data"),
  PUBLIC_BASE_URL: optionalText,
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  LOG_REQUEST_SAMPLE: z.coerce.number().min(0).max(1).default(1),
  LOG_SLOW_MS: int(1_000, 1),
  METRICS_TOKEN: z.string().min(16, "METRICS_TOKEN must be at least 16 characters").optional(),
  MAX_BODY_BYTES: int(1_048_576, 1024),
  MAX_BATCH_BODY_BYTES: int(8_388_608, 1024),
  CHAT_BATCH_DEDUP_SECONDS: int(86_400, 0),
  ADMIN_TOKEN: z.string().min(16, "ADMIN_TOKEN must be at least 16 characters").optional(),
  DATABASE_URL: optionalText,
  DATABASE_DRIVER: z.enum(["auto", "neon", "tcp"]).default("auto"),
  DATABASE_POOL_MAX: int(10, 1),
  NEON_FETCH_ENDPOINT: optionalText,
  REDIS_URL: z.string().trim().regex(/^rediss?:\/\/\S+$/, "must be a redis:// or rediss:// URL")
    .optional(),
  UPSTASH_REDIS_REST_URL: optionalText,
  UPSTASH_REDIS_REST_TOKEN: optionalText,
  JWT_PRIVATE_JWK: optionalText,
  JWT_PREVIOUS_PUBLIC_JWKS: optionalText,
  KMS_MASTER_KEY: optionalText,
  WEBHOOK_SIGNING_SECRET: optionalText,
  WEBHOOK_ROTATION_GRACE_SECONDS: int(86_400, 0),
  POLYGON_RPC_URL: optionalText,
  POLYGON_CHAIN_ID: int(137, 1),
  POLYGON_MAX_FEE_GWEI: z.coerce.number().positive().optional(),
  POLYGON_RPC_TIMEOUT_MS: int(10_000, 1),
  POLYGON_RPC_URLS: optionalText,
  POLYGON_CONFIRMATIONS: z.coerce.number().int().min(0).max(10_000).optional(),
  POLYGON_MIN_TIP_GWEI: z.coerce.number().min(0).optional(),
  POLYGON_LOW_BALANCE_POL: z.coerce.number().min(0).default(1),
  TX_STUCK_AFTER_MS: z.coerce.number().int().min(1).optional(),
  OPS_WEBHOOK_URL: z.string().url().optional(),
  IDEMPOTENCY_TTL_HOURS: int(24, 24),
  POLYGON_SAFE_SINGLETON: optionalText,
  POLYGON_SAFE_PROXY_FACTORY: optionalText,
  POLYGON_SAFE_FALLBACK_HANDLER: optionalText,
  SAFE_NONCE_HOLD_MS: int(3_600_000, 0),
  TX_DROP_AFTER_MS: int(600_000, 1),
  CALLBACK_MAX_ATTEMPTS: int(8, 1),
  CALLBACK_RETRY_BASE_MS: int(5_000, 1),
  CALLBACK_RETRY_MAX_MS: int(600_000, 1),
  XPLA_LCD_URL: optionalText,
  XPLA_LCD_URLS: optionalText,
  XPLA_CHAIN_ID: z.string().default("dimension_37-1"),
  XPLA_GAS_PRICE: z.string().regex(/^\d+(\.\d+)?$/, "must be a decimal number").optional(),
  XPLA_GAS_ADJUSTMENT: z.coerce.number().min(1).max(10).default(1.3),
  XPLA_LCD_TIMEOUT_MS: int(10_000, 1),
  XPLA_TIMEOUT_BLOCKS: int(50, 1),
  SIDECAR_URL: optionalText,
  SIDECAR_TOKEN: optionalText,
  ALLOW_PRIVATE_OUTBOUND: bool.optional(),
  SCHEDULER_INTERVAL_MS: int(15_000, 0),
  SCHEDULER: z.enum(["auto", "cron", "interval", "off"]).default("auto"),
  SCHEDULER_CRON: z.string().trim().min(9).default("* * * * *"),
  MIGRATE_ON_START: bool.default(true),
  OUTBOUND_TIMEOUT_MS: int(10_000, 1),
  ITEM_ATTEMPT_TIMEOUT_MS: int(10_000, 1),
  ITEM_RETRY_BASE_MS: int(2_000, 1),
  ITEM_RETRY_MAX_MS: int(600_000, 1),
  ITEM_MAX_ATTEMPTS: int(12, 1),
  ITEM_STATE_CACHE_MS: int(1_000, 0),
  TX_LIST_CACHE_MS: int(1_000, 0),
  OTP_COOLDOWN_SECONDS: int(30, 0),
  OTP_RECEIVER_PER_DAY: int(10, 1),
  OTP_TOPIC_PER_MINUTE: int(600, 1),
  OTP_SMS_PROVIDER: z.enum(["log", "twilio"]).default("log"),
  OTP_EMAIL_PROVIDER: z.enum(["log", "sendgrid"]).default("log"),
  OTP_DELIVERY_TIMEOUT_MS: int(5_000, 1),
  OTP_DELIVERY_RETRIES: int(2, 0),
  OTP_LOG_OUTBOX_SIZE: int(100, 1),
  TWILIO_API_BASE_URL: z.string().url().default("https://api.twilio.com"),
  TWILIO_ACCOUNT_SID: optionalText,
  TWILIO_AUTH_TOKEN: optionalText,
  TWILIO_FROM: optionalText,
  TWILIO_MESSAGING_SERVICE_SID: optionalText,
  SENDGRID_API_BASE_URL: z.string().url().default("https://api.sendgrid.com"),
  SENDGRID_API_KEY: optionalText,
  PUSH_COMPANIES: z.string().default("com2us,gamevil,gcp"),
  PUSH_BASE_TIME_ZONE: z.string().default("Asia/Seoul"),
  PUSH_SINK: z.enum(["log", "webhook"]).default("log"),
  PUSH_WEBHOOK_URL: z.string().url().optional(),
  FCM_ENDPOINT: z.string().url().optional(),
  APNS_ENDPOINT: z.string().url().optional(),
  PUSH_CONCURRENCY: int(64, 1),
  PUSH_MAX_ATTEMPTS: int(4, 1),
  PUSH_RETRY_BASE_MS: int(1_000, 1),
  PUSH_RETRY_MAX_MS: int(60_000, 1),
  PUSH_TIMEOUT_MS: int(10_000, 1),
  PUSH_TTL_SECONDS: int(86_400, 0),
  PUSH_LEASE_MS: int(300_000, 1_000),
  ADMIN_AUTH_MAX_FAILURES: int(10, 1),
  ADMIN_AUTH_WINDOW_SECONDS: int(300, 1),
  TRUSTED_PROXIES: optionalText,
});

/** Parsed configuration; `embedded` is true when no database and no Redis are configured. */
export type Config = z.infer<typeof schema> & {
  embedded: boolean;
  allowPrivateOutbound: boolean;
  pushCompanies: string[];
  /** POLYGON_RPC_URLS split at commas, else POLYGON_RPC_URL as a list of one, else empty. */
  polygonRpcUrls: string[];
};

/** Raised when the environment does not describe a runnable configuration. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Parses the environment once; unknown keys are ignored, empty strings count as unset. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const cleaned: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = env[key];
    if (typeof value === "string" && value.trim() !== "") cleaned[key] = value;
  }
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`invalid configuration: ${lines.join("; ")}`);
  }
  const c = parsed.data;
  if (Boolean(c.UPSTASH_REDIS_REST_URL) !== Boolean(c.UPSTASH_REDIS_REST_TOKEN)) {
    throw new ConfigError(
      "UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN must be set together",
    );
  }
  const embedded = !c.DATABASE_URL && !c.UPSTASH_REDIS_REST_URL && !c.REDIS_URL;
  if (
    c.OTP_SMS_PROVIDER === "twilio" &&
    (!c.TWILIO_ACCOUNT_SID || !c.TWILIO_AUTH_TOKEN ||
      !(c.TWILIO_FROM || c.TWILIO_MESSAGING_SERVICE_SID))
  ) {
    throw new ConfigError(
      "OTP_SMS_PROVIDER=twilio needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID",
    );
  }
  if (c.OTP_EMAIL_PROVIDER === "sendgrid" && !c.SENDGRID_API_KEY) {
    throw new ConfigError("OTP_EMAIL_PROVIDER=sendgrid needs SENDGRID_API_KEY");
  }
  if (!embedded) {
    const missing = (["ADMIN_TOKEN", "JWT_PRIVATE_JWK", "KMS_MASTER_KEY"] as const)
      .filter((k) => !c[k]);
    if (missing.length > 0) {
      throw new ConfigError(
        `${missing.join(", ")} must be set when DATABASE_URL or Redis is configured`,
      );
    }
  }
  if (c.PUSH_SINK === "webhook" && !c.PUSH_WEBHOOK_URL) {
    throw new ConfigError("PUSH_WEBHOOK_URL must be set when PUSH_SINK is webhook");
  }
  for (const url of polygonRpcUrls(c)) {
    if (!URL.canParse(url)) {
      throw new ConfigError(`POLYGON_RPC_URLS: ${url.slice(0, 40)}... is not a URL`);
    }
  }
  try {
    parseTrustedProxies(c.TRUSTED_PROXIES);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  try {
    new Intl.DateTimeFormat("en", { timeZone: c.PUSH_BASE_TIME_ZONE });
  } catch {
    throw new ConfigError(`PUSH_BASE_TIME_ZONE: unknown time zone ${c.PUSH_BASE_TIME_ZONE}`);
  }
  return {
    ...c,
    embedded,
    allowPrivateOutbound: c.ALLOW_PRIVATE_OUTBOUND ?? embedded,
    pushCompanies: c.PUSH_COMPANIES.split(",").map((s) => s.trim()).filter(Boolean),
    polygonRpcUrls: polygonRpcUrls(c),
  };
}

function polygonRpcUrls(c: { POLYGON_RPC_URLS?: string; POLYGON_RPC_URL?: string }): string[] {
  const list = c.POLYGON_RPC_URLS ?? c.POLYGON_RPC_URL ?? "";
  return list.split(",").map((u) => u.trim()).filter(Boolean);
}
