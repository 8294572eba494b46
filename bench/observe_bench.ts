/**
 * Cost of the request log and request metrics per request: the same Hono route with and without
 * the observe middleware (log line serialised into a discarding sink, counter and histogram
 * updated), in one run. `deno bench -A bench/observe_bench.ts`
 */
import { Hono } from "hono";
import { loadConfig } from "../lib/config.ts";
import { createLogger } from "../lib/log.ts";
import { createMetrics } from "../lib/metrics.ts";
import type { Sql } from "../lib/db/port.ts";
import type { Services } from "../lib/services.ts";
import type { AppEnv } from "../routes/env.ts";
import { observeRequests } from "../routes/observe.ts";
import { familyOf } from "../routes/mod.ts";

const db = { query: () => Promise.resolve([]) } as unknown as Sql;
const services = {
  config: loadConfig({}),
  log: createLogger("info", () => {}),
  metrics: createMetrics(db),
} as unknown as Services;

function build(observed: boolean) {
  const app = new Hono<AppEnv>();
  app.use("*", async (c, next) => {
    c.set("services", services);
    c.set("requestId", "bench");
    await next();
  });
  if (observed) app.use("*", observeRequests(familyOf));
  app.get(
    "/service/v1/contract/owner/:owner",
    (c) => c.json({ code: 0, message: "success", data: { contracts: [] } }),
  );
  return app;
}

const bare = build(false);
const observed = build(true);
const path = "/service/v1/contract/owner/0xabc";

Deno.bench(
  { name: "route without request log/metrics", group: "observe", baseline: true },
  async () => {
    await (await bare.request(path)).text();
  },
);
Deno.bench({ name: "route with request log + metrics", group: "observe" }, async () => {
  await (await observed.request(path)).text();
});
