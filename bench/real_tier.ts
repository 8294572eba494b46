/**
 * Load scripts' set-up: on a real tier, a fresh PostgreSQL database and, where the tier uses
 * them, the Neon and Upstash bridges (each in its own process), wired into the environment the
 * test harness reads.
 */
import pg from "pg";
import type { Sql } from "../lib/db/port.ts";
import type { Kv } from "../lib/kv/port.ts";
import { openTcp } from "../lib/db/tcp.ts";
import { openRedisKv } from "../lib/kv/tcp.ts";

const PG_ADMIN_URL = Deno.env.get("TEST_PG_URL") ?? "postgres://postgres@127.0.0.1:5432/test";
const children: Deno.ChildProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];

/** A TCP port that was free a moment ago. */
export function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/** Spawns a Deno script (stopped by finish) and returns the first line it prints. */
export async function spawnDeno(args: string[], cwd?: string): Promise<string> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ...args],
    cwd,
    stdout: "piped",
    stderr: "inherit",
    env: { RUST_BACKTRACE: "0" },
  }).spawn();
  children.push(child);
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const { value } = await reader.read();
  reader.releaseLock();
  return value ?? "";
}

/** Registers work to run at finish (last registered runs first). */
export function atFinish(cleanup: () => Promise<void>): void {
  cleanups.push(cleanup);
}

/**
 * Where a load script's stores are: `embedded` (PGlite, memory), `real` (PostgreSQL and Redis
 * through the Neon and Upstash drivers and bridges), `real:tcp` (the same servers over TCP with
 * postgres.js and the built-in Redis client, no bridge) or `real:both` (the bridged drivers in the harness, and
 * `tcpStores()` opens the TCP adapters on the same database beside them).
 */
export type Tier = "embedded" | "real" | "real:tcp" | "real:both";

/** The tier named by the script's first argument (embedded unless it names another). */
export function tierArg(): Tier {
  const arg = Deno.args[0];
  return arg === "real" || arg === "real:tcp" || arg === "real:both" ? arg : "embedded";
}

const REDIS_URL = Deno.env.get("TEST_REDIS_URL") ?? "redis://127.0.0.1:6379";

/** On a real tier: a fresh database, and the bridges where the tier uses them, set in the env. */
export async function useTier(tier: Tier): Promise<void> {
  if (tier === "embedded") return;
  const name = `gp_bench_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  atFinish(async () => {
    const c = new pg.Client({ connectionString: PG_ADMIN_URL });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  });
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  Deno.env.set("DATABASE_URL", url.toString());
  if (tier === "real:tcp") {
    Deno.env.set("DATABASE_DRIVER", "tcp");
    Deno.env.set("REDIS_URL", REDIS_URL);
    return;
  }
  const neon = JSON.parse(await spawnDeno(["dev/neon_bridge.ts"]));
  const token = crypto.randomUUID();
  const upstash = JSON.parse(await spawnDeno(["dev/upstash_bridge.ts", "--token", token]));
  Deno.env.set("NEON_FETCH_ENDPOINT", neon.fetchEndpoint);
  Deno.env.set("UPSTASH_REDIS_REST_URL", upstash.url);
  Deno.env.set("UPSTASH_REDIS_REST_TOKEN", token);
}

/** The TCP adapters (postgres.js, lib/kv/resp.ts) on the tier's database and Redis, closed at finish. */
export function tcpStores(): { db: Sql; kv: Kv } {
  const db = openTcp(Deno.env.get("DATABASE_URL")!);
  const kv = openRedisKv(REDIS_URL);
  atFinish(async () => {
    await db.close();
    await kv.close();
  });
  return { db, kv };
}

/** Stops spawned processes, runs the cleanups and exits. */
export async function finish(): Promise<never> {
  for (const child of children) {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
  }
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  Deno.exit(0);
}

/** Median of numbers. */
export function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
}

/** Runs a load script's main, prints what it threw, then stops everything it started and exits. */
export async function runScript(main: () => Promise<void>): Promise<never> {
  try {
    await main();
  } catch (err) {
    console.error(err);
  }
  return await finish();
}
