/**
 * Several platform servers (`server.ts` processes) on one PostgreSQL and one Redis, for the
 * many-instances tier (`deno run -A dev/run_tests.ts multi`). The tier passes the stores' settings
 * in the environment (TCP: DATABASE_URL, DATABASE_DRIVER, REDIS_URL; the load scripts pass the
 * bridges' settings the same way); every instance gets the same secrets,
 * so any instance can serve any request, and each can be killed and started again.
 */
import { generatePrivateJwk } from "../../lib/auth/keys.ts";
import { randomToken } from "../../lib/crypto/hashing.ts";
import { type ServerProcess, startServerProcess } from "../server_process.ts";

/** The settings that name the shared stores, as the tier passed them to this process. */
export const STORE_VARIABLES = [
  "DATABASE_URL",
  "DATABASE_DRIVER",
  "DATABASE_POOL_MAX",
  "NEON_FETCH_ENDPOINT",
  "UPSTASH_REDIS_REST_URL",
  "UPSTASH_REDIS_REST_TOKEN",
  "REDIS_URL",
];

/** A JSON answer. */
// deno-lint-ignore no-explicit-any
export type Answer = { status: number; body: any; headers: Headers };

/** Running instances. */
export interface Cluster {
  adminToken: string;
  /** The base URL of instance `i`. */
  url(i: number): string;
  /** Whether instance `i` is running. */
  up(i: number): boolean;
  /** A JSON call to instance `i`. */
  call(
    i: number,
    method: string,
    path: string,
    options?: { json?: unknown; headers?: Record<string, string> },
  ): Promise<Answer>;
  /** An admin call to instance `i`. */
  admin(i: number, method: string, path: string, json?: unknown): Promise<Answer>;
  /** SIGKILLs instance `i`. */
  kill(i: number): Promise<void>;
  /** Starts instance `i` again. */
  restart(i: number): Promise<void>;
  /** The last output lines of every instance (for failure messages). */
  tails(): string;
  stop(): Promise<void>;
}

/** Starts `count` instances with the tier's stores and `extra` settings. */
export async function startCluster(
  count: number,
  extra: Record<string, string>,
): Promise<Cluster> {
  const stores: Record<string, string> = {};
  for (const name of STORE_VARIABLES) {
    const value = Deno.env.get(name);
    if (value) stores[name] = value;
  }
  if (!stores.DATABASE_URL) {
    throw new Error("the many-instances tier needs DATABASE_URL: run dev/run_tests.ts multi");
  }
  const adminToken = `multi-admin-${randomToken(16)}`;
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "",
    HOME: Deno.env.get("HOME") ?? "/tmp",
    DENO_DIR: Deno.env.get("DENO_DIR") ?? "",
    ...stores,
    ADMIN_TOKEN: adminToken,
    JWT_PRIVATE_JWK: await generatePrivateJwk(),
    KMS_MASTER_KEY: `multi-master-${randomToken(24)}`,
    ALLOW_PRIVATE_OUTBOUND: "true",
    SCHEDULER: "interval",
    SCHEDULER_INTERVAL_MS: "500",
    LOG_LEVEL: "info",
    LOG_REQUEST_SAMPLE: "0",
    ...extra,
  };
  if (!env.DENO_DIR) delete env.DENO_DIR;
  const servers: (ServerProcess | null)[] = await Promise.all(
    Array.from({ length: count }, (_, i) => startServerProcess(env, { name: `instance ${i}` })),
  );
  const live = (i: number) => {
    const s = servers[i];
    if (!s) throw new Error(`instance ${i} is not running`);
    return s;
  };
  const cluster: Cluster = {
    adminToken,
    url: (i) => live(i).url,
    up: (i) => servers[i] !== null,
    async call(i, method, path, options = {}) {
      const res = await fetch(`${live(i).url}${path}`, {
        method,
        headers: {
          ...(options.json !== undefined ? { "content-type": "application/json" } : {}),
          ...options.headers,
        },
        body: options.json === undefined ? undefined : JSON.stringify(options.json),
      });
      const text = await res.text();
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : null;
      } catch { /* not JSON: kept as text */ }
      return { status: res.status, body, headers: res.headers };
    },
    admin: (i, method, path, json) =>
      cluster.call(i, method, path, { json, headers: { authorization: `Bearer ${adminToken}` } }),
    async kill(i) {
      const s = live(i);
      servers[i] = null;
      await s.kill("SIGKILL");
    },
    async restart(i) {
      if (servers[i]) return;
      servers[i] = await startServerProcess(env, { name: `instance ${i}` });
    },
    tails: () =>
      servers.map((s, i) => `--- instance ${i}${s ? "" : " (down)"}\n${s?.tail() ?? ""}`)
        .join("\n"),
    async stop() {
      await Promise.all(servers.map((s) => s?.kill("SIGKILL")));
      servers.fill(null);
    },
  };
  return cluster;
}
