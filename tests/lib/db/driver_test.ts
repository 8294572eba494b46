/**
 * Which adapters a configuration opens: DATABASE_DRIVER's rule for DATABASE_URL, REDIS_URL on the
 * Deno server, and what a runtime without TCP sockets refuses. Nothing here reaches a server:
 * the adapters connect on first use.
 */
import assert from "node:assert/strict";
import { ConfigError, loadConfig } from "../../../lib/config.ts";
import { databaseDriver } from "../../../lib/db/driver.ts";
import { boot } from "../../../lib/boot.ts";
import { generatePrivateJwk } from "../../../lib/auth/keys.ts";
import { openRedisKv } from "../../../lib/kv/tcp.ts";

Deno.test("DATABASE_DRIVER=auto: Neon's HTTP driver for Neon hosts or a fetch endpoint, TCP otherwise", () => {
  const auto = { DATABASE_DRIVER: "auto" as const, NEON_FETCH_ENDPOINT: undefined };
  const cases: [string, "neon" | "tcp"][] = [
    ["postgres://u:p@ep-cool-sky-123456.us-east-2.aws.neon.tech/db?sslmode=require", "neon"],
    ["postgresql://u:p@EP-X-POOLER.EU-CENTRAL-1.AWS.NEON.TECH/db", "neon"],
    ["postgres://u:p@neon.tech/db", "neon"],
    ["postgres://postgres@127.0.0.1:5432/test", "tcp"],
    ["postgres://u:p@db.example.com/app", "tcp"],
    ["postgres://u:p@neon.tech.example.com/app", "tcp"],
    ["postgres://u:p@notneon.tech/app", "tcp"],
    ["postgres://u:p@xyz.rds.amazonaws.com:5432/app?sslmode=verify-full", "tcp"],
  ];
  for (const [url, driver] of cases) assert.equal(databaseDriver(url, auto), driver, url);
  // A fetch endpoint (the local Neon bridge, a proxy) means Neon's protocol whatever the host.
  assert.equal(
    databaseDriver("postgres://postgres@127.0.0.1/test", {
      ...auto,
      NEON_FETCH_ENDPOINT: "http://127.0.0.1:4444/sql",
    }),
    "neon",
  );
  // An explicit choice wins over the host.
  const neonHost = "postgres://u:p@ep-x.neon.tech/db";
  assert.equal(databaseDriver(neonHost, { ...auto, DATABASE_DRIVER: "tcp" }), "tcp");
  assert.equal(
    databaseDriver("postgres://postgres@127.0.0.1/test", { ...auto, DATABASE_DRIVER: "neon" }),
    "neon",
  );
});

Deno.test("config: DATABASE_DRIVER and REDIS_URL are checked", () => {
  assert.throws(
    () => loadConfig({ DATABASE_DRIVER: "mysql" }),
    (err) => err instanceof ConfigError && /DATABASE_DRIVER/.test(err.message),
  );
  for (const bad of ["http://127.0.0.1:6379", "127.0.0.1:6379", "redis:/x"]) {
    assert.throws(
      () => loadConfig({ REDIS_URL: bad }),
      (err) =>
        err instanceof ConfigError &&
        /REDIS_URL: must be a redis:\/\/ or rediss:\/\//.test(err.message),
      bad,
    );
  }
  // Redis alone leaves embedded mode: the secrets must then be configured.
  assert.throws(
    () => loadConfig({ REDIS_URL: "redis://127.0.0.1:6379" }),
    (err) =>
      err instanceof ConfigError &&
      /ADMIN_TOKEN, JWT_PRIVATE_JWK, KMS_MASTER_KEY/.test(err.message),
  );
  assert.equal(loadConfig({}).DATABASE_DRIVER, "auto");
  assert.equal(loadConfig({}).DATABASE_POOL_MAX, 10);
});

async function configured(vars: Record<string, string>) {
  return loadConfig({
    ADMIN_TOKEN: "driver-test-admin-token",
    JWT_PRIVATE_JWK: await generatePrivateJwk(),
    KMS_MASTER_KEY: "k".repeat(48),
    MIGRATE_ON_START: "false",
    LOG_LEVEL: "silent",
    ...vars,
  });
}

Deno.test("boot: a self-hosted DATABASE_URL and REDIS_URL open the TCP adapters on the Deno server", async () => {
  const services = await boot(
    await configured({
      DATABASE_URL: "postgres://postgres@127.0.0.1:1/none",
      REDIS_URL: "redis://127.0.0.1:1",
      // Upstash set as well: on the Deno server REDIS_URL wins.
      UPSTASH_REDIS_REST_URL: "http://127.0.0.1:1",
      UPSTASH_REDIS_REST_TOKEN: "t",
    }),
    { openRedis: (url) => openRedisKv(url) },
  );
  try {
    assert.equal(services.db.kind, "tcp");
    assert.equal(services.kv.kind, "redis");
  } finally {
    await services.close();
  }
  const neon = await boot(
    await configured({ DATABASE_URL: "postgres://u:p@ep-x.us-east-2.aws.neon.tech/db" }),
    {},
  );
  assert.equal(neon.db.kind, "neon");
  assert.equal(neon.kv.kind, "memory");
  await neon.close();
});

Deno.test("boot: REDIS_URL without Upstash is refused where the runtime has no TCP Redis (Workers)", async () => {
  await assert.rejects(
    boot(
      await configured({
        DATABASE_URL: "postgres://postgres@127.0.0.1:1/none",
        REDIS_URL: "redis://127.0.0.1:1",
      }),
      {},
    ),
    (err) => err instanceof ConfigError && /REDIS_URL .* needs the Deno server/.test(err.message),
  );
});
