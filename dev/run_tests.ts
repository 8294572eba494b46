/**
 * Runs one test tier and prints `<tier>: N passed, N failed` last.
 *
 *   deno run -A dev/run_tests.ts embedded [paths...]   PGlite + in-memory KV
 *   deno run -A dev/run_tests.ts real [paths...]       Neon + Upstash drivers -> local bridges -> PostgreSQL + Redis
 *   deno run -A dev/run_tests.ts real:tcp [paths...]   postgres.js + lib/kv/resp.ts straight to PostgreSQL + Redis
 *   deno run -A dev/run_tests.ts workers               wrangler bundle + `wrangler dev --local` smoke test,
 *                                                      through the bridges and through a Hyperdrive binding
 *   deno run -A dev/run_tests.ts browser [paths...]    the console in Debian's Chromium (playwright-core)
 *   deno run -A dev/run_tests.ts multi [paths...]      three server processes on one PostgreSQL and one
 *                                                      Redis, one killed in the middle of each scenario
 *
 * The real tiers, the workers tier and the multi tier create a fresh PostgreSQL database per run
 * and drop it afterwards.
 */
import pg from "pg";
import { startNeonBridge } from "./neon_bridge.ts";
import { startUpstashBridge } from "./upstash_bridge.ts";
import { generatePrivateJwk } from "../lib/auth/keys.ts";
import { pushFakesEnv, startPushFakes } from "./push_fakes.ts";

const PG_ADMIN_URL = Deno.env.get("TEST_PG_URL") ?? "postgres://postgres@127.0.0.1:5432/test";
const REDIS_URL = Deno.env.get("TEST_REDIS_URL") ?? "redis://127.0.0.1:6379";

interface Counts {
  passed: number;
  failed: number;
}

/** Runs a command, echoing its output, and sums every `N passed | N failed` summary it prints. */
async function runCounted(
  cmd: string[],
  env: Record<string, string>,
): Promise<Counts & { code: number }> {
  const child = new Deno.Command(cmd[0], {
    args: cmd.slice(1),
    env: { RUST_BACKTRACE: "0", NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const counts = { passed: 0, failed: 0 };
  let carry = "";
  const decoder = new TextDecoder();
  for await (const chunk of child.stdout) {
    await Deno.stdout.write(chunk);
    carry += decoder.decode(chunk, { stream: true });
    const lines = carry.split("\n");
    carry = lines.pop() ?? "";
    for (const line of lines) {
      const m = /^(?:ok|FAILED) \| (\d+) passed.*\| (\d+) failed/.exec(line.trim());
      if (m) {
        counts.passed += Number(m[1]);
        counts.failed += Number(m[2]);
      }
    }
  }
  const { code } = await child.status;
  // A crash before the summary still counts as a failure.
  if (code !== 0 && counts.failed === 0) counts.failed = 1;
  return { ...counts, code };
}

async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `gp_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  const base = new URL(PG_ADMIN_URL);
  base.pathname = `/${name}`;
  return {
    url: base.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/**
 * The settings that point the platform at one PostgreSQL and one Redis: the production drivers
 * (Neon HTTP, Upstash REST) through the local bridges.
 */
function storeEnv(
  db: { url: string },
  bridges: { neonEndpoint: string; upstashUrl: string; upstashToken: string },
): Record<string, string> {
  return {
    DATABASE_URL: db.url,
    NEON_FETCH_ENDPOINT: bridges.neonEndpoint,
    UPSTASH_REDIS_REST_URL: bridges.upstashUrl,
    UPSTASH_REDIS_REST_TOKEN: bridges.upstashToken,
  };
}

/** Starts a fresh database and both bridges; returns the env that points the drivers at them. */
async function realServers() {
  const db = await freshDatabase();
  const token = crypto.randomUUID();
  const neon = await startNeonBridge({});
  const upstash = await startUpstashBridge({ token, redisUrl: REDIS_URL });
  return {
    env: storeEnv(db, {
      neonEndpoint: neon.fetchEndpoint,
      upstashUrl: upstash.url,
      upstashToken: token,
    }),
    async close() {
      await Promise.allSettled([neon.close(), upstash.close()]);
      await db.drop().catch((err) => console.error(`could not drop test database: ${err}`));
    },
  };
}

/** A fresh database reached straight over TCP, and Redis over TCP: no bridge. */
async function tcpServers() {
  const db = await freshDatabase();
  return {
    env: {
      DATABASE_URL: db.url,
      DATABASE_DRIVER: "tcp",
      // Small pools: the machine's PostgreSQL is shared by every test process.
      DATABASE_POOL_MAX: "4",
      REDIS_URL,
    },
    close: () => db.drop().catch((err) => console.error(`could not drop test database: ${err}`)),
  };
}

function denoTest(paths: string[], ignore: string[]): string[] {
  const args = [Deno.execPath(), "test", "-A"];
  if (ignore.length) args.push(`--ignore=${ignore.join(",")}`);
  return [...args, ...(paths.length ? paths : ["tests/"])];
}

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

async function waitForHttp(url: string, timeoutMs: number, child: Deno.ChildProcess) {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  child.status.then(() => exited = true);
  while (Date.now() < deadline && !exited) {
    try {
      const res = await fetch(url);
      await res.body?.cancel();
      if (res.ok) return;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} did not come up${exited ? " (wrangler exited)" : ""}`);
}

const WRANGLER = "node_modules/.bin/wrangler";
const WRANGLER_QUIET = {
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  CI: "true",
};

/**
 * wrangler.toml plus a Hyperdrive binding named HYPERDRIVE, written beside it (wrangler resolves
 * `main` and the rules from the config's folder). Locally the binding connects to the database
 * named by CLOUDFLARE_HYPERDRIVE_LOCAL_CONNECTION_STRING_HYPERDRIVE.
 */
async function hyperdriveConfig(): Promise<string> {
  const path = `.wrangler-hyperdrive-${crypto.randomUUID().slice(0, 8)}.toml`;
  const base = await Deno.readTextFile("wrangler.toml");
  await Deno.writeTextFile(
    path,
    `${base}\n[[hyperdrive]]\nbinding = "HYPERDRIVE"\nid = "00000000000000000000000000000000"\n`,
  );
  return path;
}

async function bundle(config?: string): Promise<boolean> {
  const out = await new Deno.Command(WRANGLER, {
    args: ["deploy", "--dry-run", "--outdir", "dist", ...(config ? ["--config", config] : [])],
    env: WRANGLER_QUIET,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  return out.success;
}

/** Boots the Worker under `wrangler dev --local` with `vars` and runs tests/workers/ against it. */
async function smokeWorker(
  label: string,
  vars: Record<string, string>,
  options: { config?: string; env?: Record<string, string> } = {},
): Promise<Counts & { code: number }> {
  const port = freePort();
  const envFile = await Deno.makeTempFile({ suffix: ".env" });
  const adminToken = `workers-smoke-${crypto.randomUUID()}`;
  const all: Record<string, string> = {
    ...vars,
    ADMIN_TOKEN: adminToken,
    JWT_PRIVATE_JWK: await generatePrivateJwk(),
    KMS_MASTER_KEY: crypto.randomUUID() + crypto.randomUUID(),
    ALLOW_PRIVATE_OUTBOUND: "true",
  };
  await Deno.writeTextFile(
    envFile,
    // Single quotes: dotenv takes the value literally (the JWK is JSON with double quotes).
    Object.entries(all).map(([k, v]) => `${k}='${v}'`).join("\n") + "\n",
  );
  const child = new Deno.Command(WRANGLER, {
    args: [
      "dev",
      "--local",
      ...(options.config ? ["--config", options.config] : []),
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--env-file",
      envFile,
      "--show-interactive-dev-session=false",
      "--log-level",
      "warn",
      "--test-scheduled",
    ],
    env: { ...WRANGLER_QUIET, ...options.env },
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  try {
    const url = `http://127.0.0.1:${port}`;
    await waitForHttp(`${url}/healthz`, 120_000, child);
    console.log(`workers tier: the Worker ${label}`);
    return await runCounted(denoTest(["tests/workers/"], []), {
      WORKER_URL: url,
      WORKER_ADMIN_TOKEN: adminToken,
      WORKER_DATABASE: label,
      // The tests look the Worker's records up in PostgreSQL directly.
      WORKER_PG_URL: vars.DATABASE_URL ??
        options.env?.CLOUDFLARE_HYPERDRIVE_LOCAL_CONNECTION_STRING_HYPERDRIVE ?? "",
    });
  } catch (err) {
    console.error(`workers tier (${label}): ${(err as Error).message}`);
    return { passed: 0, failed: 1, code: 1 };
  } finally {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    await child.status;
    await Deno.remove(envFile).catch(() => {});
  }
}

/**
 * Bundles the Worker (as configured, and with a Hyperdrive binding), then boots it twice on one
 * fresh database: with DATABASE_URL through the Neon bridge, and with no DATABASE_URL at all but
 * the HYPERDRIVE binding (postgres.js over TCP). Upstash (through its bridge) serves both.
 */
async function workersTier(): Promise<Counts & { code: number }> {
  const config = await hyperdriveConfig();
  try {
    if (!await bundle() || !await bundle(config)) return { passed: 0, failed: 1, code: 1 };
    const servers = await realServers();
    try {
      const bridged = await smokeWorker("via the Neon bridge", servers.env);
      const { DATABASE_URL, NEON_FETCH_ENDPOINT: _, ...kv } = servers.env;
      // Miniflare insists on a password in the local connection string; trust auth ignores it.
      const local = new URL(DATABASE_URL);
      local.password ||= "unused";
      const hyperdrive = await smokeWorker("via Hyperdrive", kv, {
        config,
        env: { CLOUDFLARE_HYPERDRIVE_LOCAL_CONNECTION_STRING_HYPERDRIVE: local.toString() },
      });
      return {
        passed: bridged.passed + hyperdrive.passed,
        failed: bridged.failed + hyperdrive.failed,
        code: bridged.code || hyperdrive.code,
      };
    } finally {
      await servers.close();
    }
  } finally {
    await Deno.remove(config).catch(() => {});
  }
}

async function main() {
  const [tier, ...paths] = Deno.args;
  let result: Counts & { code: number };
  if (tier === "embedded") {
    // The push provider fakes (OAuth, FCM v1, APNs over HTTP/2) serve every tier's push tests.
    const fakes = await startPushFakes();
    try {
      result = await runCounted(
        denoTest(
          paths,
          paths.length ? [] : ["tests/dev", "tests/workers", "tests/browser", "tests/multi"],
        ),
        pushFakesEnv(fakes),
      );
    } finally {
      await fakes.close();
    }
  } else if (tier === "real" || tier === "real:tcp") {
    const servers = tier === "real" ? await realServers() : await tcpServers();
    const fakes = await startPushFakes();
    try {
      result = await runCounted(
        denoTest(paths, paths.length ? [] : ["tests/workers", "tests/browser", "tests/multi"]),
        { ...servers.env, ...pushFakesEnv(fakes) },
      );
    } finally {
      await fakes.close();
      await servers.close();
    }
  } else if (tier === "workers") {
    result = await workersTier();
  } else if (tier === "browser") {
    // Embedded services; screenshots land in CONSOLE_SCREENSHOTS (test-artifacts/console).
    const fakes = await startPushFakes();
    try {
      result = await runCounted(
        denoTest(paths.length ? paths : ["tests/browser/"], []),
        pushFakesEnv(fakes),
      );
    } finally {
      await fakes.close();
    }
  } else if (tier === "multi") {
    // Three server processes started by the tests on one PostgreSQL and one Redis over TCP (the
    // stores' settings come from tcpServers), with the push fakes; each scenario prints what it
    // counted.
    const servers = await tcpServers();
    const fakes = await startPushFakes({ keepMessages: false });
    try {
      result = await runCounted(
        denoTest(paths.length ? paths : ["tests/multi/"], []),
        { ...servers.env, ...pushFakesEnv(fakes) },
      );
    } finally {
      await fakes.close();
      await servers.close();
    }
  } else {
    console.error("usage: run_tests.ts embedded|real|real:tcp|workers|browser|multi [paths...]");
    Deno.exit(2);
  }
  console.log(`${tier}: ${result.passed} passed, ${result.failed} failed`);
  Deno.exit(result.code === 0 && result.failed === 0 ? 0 : 1);
}

await main();
