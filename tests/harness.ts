/**
 * Test harness: one Services per test process (one PGlite, or a real tier's drivers when
 * dev/run_tests.ts sets DATABASE_URL and UPSTASH_* or REDIS_URL: Neon HTTP and Upstash REST
 * through the local bridges, or postgres.js and the built-in Redis client straight over TCP), the app around it,
 * and helpers that seed a fresh tenant per test so tests never depend on each other.
 */
import { loadConfig } from "../lib/config.ts";
import { boot } from "../lib/boot.ts";
import type { Services } from "../lib/services.ts";
import { TestClock } from "../lib/clock.ts";
import { createLogger } from "../lib/log.ts";
import { openPglite } from "../lib/db/pglite.ts";
import { generatePrivateJwk } from "../lib/auth/keys.ts";
import { randomToken } from "../lib/crypto/hashing.ts";
import { createApp } from "../routes/mod.ts";
import type { ApiScope } from "../lib/auth/api_keys.ts";
import { createDenoItemSocket } from "../lib/items/socket_deno.ts";
import { assertDeclaredResponse } from "./response_schema.ts";
import { createDenoPushHttp } from "../lib/push/http_deno.ts";
import { openRedisKv } from "../lib/kv/tcp.ts";

/** The admin token every test process uses. */
export const ADMIN_TOKEN = "test-admin-token-0123456789abcdef";

/** What the harness hands a test. */
export interface TestEnv {
  services: Services;
  app: ReturnType<typeof createApp>;
  clock: TestClock;
  /** "embedded" (PGlite + memory KV) or "real" (real PostgreSQL and Redis, bridged or over TCP). */
  tier: "embedded" | "real";
}

let shared: Promise<TestEnv> | undefined;

const capturedLines: string[] = [];
const knownSecrets = new Set<string>();
const leaks: string[] = [];
// Lines are printed only when the run asks for them (LOG_LEVEL set in the environment).
const printLogs = Boolean(Deno.env.get("LOG_LEVEL"));

/** Records a secret the test created; a log line containing it fails the next call. */
export function rememberSecret(...values: (string | undefined)[]) {
  for (const v of values) if (v && v.length >= 8) knownSecrets.add(v);
}

/** Every log line the services wrote so far in this test process. */
export function capturedLogs(): readonly string[] {
  return capturedLines;
}

function captureLine(line: string) {
  capturedLines.push(line);
  for (const secret of knownSecrets) {
    if (line.includes(secret)) {
      leaks.push(`${secret.slice(0, 4)}… (${secret.length} chars) in ${line.slice(0, 300)}`);
    }
  }
  if (printLogs) console.log(line);
}

/** Throws when a log line contained a remembered secret (call() checks after every request). */
export function assertNoLeakedSecrets() {
  if (leaks.length > 0) throw new Error(`a secret appeared in a log line: ${leaks[0]}`);
}

/**
 * The only process variables a test run reads: the ones dev/run_tests.ts (or a test's own
 * fakes) set to pick the tier and its local stand-ins (real PostgreSQL and Redis through the
 * bridges, the push provider fakes). A developer's own shell settings (a POLYGON_RPC_URL, a
 * provider key) never leak into the suite.
 */
export const TIER_VARIABLES = [
  "DATABASE_URL",
  "DATABASE_DRIVER",
  "DATABASE_POOL_MAX",
  "NEON_FETCH_ENDPOINT",
  "UPSTASH_REDIS_REST_URL",
  "UPSTASH_REDIS_REST_TOKEN",
  "REDIS_URL",
  "FCM_ENDPOINT",
  "APNS_ENDPOINT",
  "PUSH_FAKES_CA",
] as const;

/** The test configuration's variables: the tier's, then fixed test values. */
export function testEnvVars(): Record<string, string | undefined> {
  const tier: Record<string, string | undefined> = {};
  for (const name of TIER_VARIABLES) tier[name] = Deno.env.get(name);
  return {
    ...tier,
    ADMIN_TOKEN,
    KMS_MASTER_KEY: "test-master-key-" + "k".repeat(32),
    WEBHOOK_SIGNING_SECRET: "test-webhook-secret-" + "w".repeat(16),
    ALLOW_PRIVATE_OUTBOUND: "true",
    LOG_LEVEL: "silent",
    SCHEDULER_INTERVAL_MS: "0",
    // Tests send wrong admin tokens on purpose, all from one (unknown) address; the failure
    // limit has its own test with its own setting.
    ADMIN_AUTH_MAX_FAILURES: "1000000",
  };
}

/**
 * The one way to vary services in a test: an app over the shared services with some parts or
 * settings replaced (the database, KV and logs stay shared).
 */
export async function appWith(
  overrides: Partial<Omit<Services, "config">> & { config?: Partial<Services["config"]> } = {},
) {
  const { services } = await testEnv();
  const { config, ...parts } = overrides;
  return createApp({ ...services, ...parts, config: { ...services.config, ...config } });
}

/** Returns the process-wide test environment, building it on first use. */
export function testEnv(): Promise<TestEnv> {
  shared ??= (async () => {
    const clock = new TestClock();
    const vars = testEnvVars();
    vars.JWT_PRIVATE_JWK = vars.JWT_PRIVATE_JWK ?? await generatePrivateJwk();
    const config = loadConfig(vars);
    const jwk = JSON.parse(vars.JWT_PRIVATE_JWK!) as { d?: string };
    rememberSecret(ADMIN_TOKEN, vars.KMS_MASTER_KEY, vars.WEBHOOK_SIGNING_SECRET, jwk.d);
    const services = await boot(config, {
      clock,
      // Everything is captured (and scanned for secrets); printing follows LOG_LEVEL.
      log: createLogger("debug", captureLine),
      itemSocket: createDenoItemSocket(),
      openRedis: (url) => openRedisKv(url),
      // Trusts the CA of the APNs fake (dev/push_fakes.ts) when the test runner started it.
      pushHttp: createDenoPushHttp({
        caCerts: vars.PUSH_FAKES_CA ? [await Deno.readTextFile(vars.PUSH_FAKES_CA)] : undefined,
      }),
      embedded: {
        database: () => openPglite(),
        secrets: () => {
          throw new Error("tests configure every secret");
        },
      },
    });
    const tier = config.DATABASE_URL ? "real" : "embedded";
    // Close the database when the test process ends (PGlite keeps the process alive otherwise).
    globalThis.addEventListener("unload", () => {
      void services.db.close();
      void services.kv.close();
    });
    return { services, app: createApp(services), clock, tier };
  })();
  return shared;
}

/** Options for a request. */
export interface CallOptions {
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
}

/** Calls the app in-process and returns the response. */
export async function call(
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Response> {
  const { app } = await testEnv();
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers["content-type"] ??= "application/json";
  }
  const res = await app.request(path, { method, headers, body });
  assertNoLeakedSecrets();
  await assertDeclaredResponse(app, { method, path }, res);
  return res;
}

/** Calls the app and parses the JSON body (null for an empty body). */
// deno-lint-ignore no-explicit-any
export async function callJson<T = any>(
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<{ status: number; body: T; headers: Headers }> {
  const res = await call(method, path, options);
  const text = await res.text();
  const body = text ? JSON.parse(text) : null;
  rememberSecretFields(body);
  return { status: res.status, body, headers: res.headers };
}

// Field names that hold secrets in this API (a name like tokenAddress holds none).
const SECRET_FIELD =
  /^(secret|secretKey|clientSecret|webhookSecret|apiKey|accessToken|refreshToken|vendorWord|privateKey|password|authToken)$/i;

/** Remembers every secret-named string field of a body (any depth). */
function rememberSecretFields(value: unknown, depth = 0) {
  if (depth > 6 || !value || typeof value !== "object") return;
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === "string" && SECRET_FIELD.test(k)) rememberSecret(v);
    else rememberSecretFields(v, depth + 1);
  }
}

/**
 * Admin-authenticated JSON call. Secret-named fields an operator sends (a vendor word) are
 * remembered too; other requests' fields are not, since probes send junk in them on purpose.
 */
export function admin(method: string, path: string, json?: unknown) {
  rememberSecretFields(json);
  return callJson(method, path, { json, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
}

/** A freshly seeded tenant: a game, one app with client credentials and a token pair. */
export interface Tenant {
  gameIndex: number;
  appid: string;
  clientId: string;
  clientSecret: string;
  accessToken: string;
  refreshToken: string;
  /** Headers for /service/v1 calls (bearer, x-network polygon, x-appid). */
  chainHeaders: Record<string, string>;
  /** Issues an API key with the scopes; returns its id and token. */
  apiKey(scopes: ApiScope[]): Promise<{ keyId: string; apiKey: string }>;
}

/** Creates a new game, app and token pair through the admin and auth endpoints. */
export async function seedTenant(name = "test game"): Promise<Tenant> {
  const game = await admin("POST", "/admin/v1/games", { name });
  if (game.status !== 201) throw new Error(`seed game failed: ${JSON.stringify(game.body)}`);
  const gameIndex = game.body.gameIndex as number;
  const appid = `app-${randomToken(6)}`;
  const app = await admin("POST", `/admin/v1/games/${gameIndex}/apps`, { appid });
  if (app.status !== 201) throw new Error(`seed app failed: ${JSON.stringify(app.body)}`);
  const tok = await callJson("POST", "/v2/auth-token", {
    json: { clientId: app.body.clientId, clientSecret: app.body.clientSecret },
  });
  if (tok.body?.code !== 0) throw new Error(`seed token failed: ${JSON.stringify(tok.body)}`);
  rememberSecret(app.body.clientSecret, tok.body.data.accessToken, tok.body.data.refreshToken);
  return {
    gameIndex,
    appid,
    clientId: app.body.clientId,
    clientSecret: app.body.clientSecret,
    accessToken: tok.body.data.accessToken,
    refreshToken: tok.body.data.refreshToken,
    chainHeaders: {
      authorization: `Bearer ${tok.body.data.accessToken}`,
      "x-network": "polygon",
      "x-appid": appid,
    },
    async apiKey(scopes) {
      const key = await admin("POST", `/admin/v1/games/${gameIndex}/api-keys`, { scopes });
      if (key.status !== 201) throw new Error(`seed key failed: ${JSON.stringify(key.body)}`);
      rememberSecret(key.body.apiKey);
      return key.body;
    },
  };
}
