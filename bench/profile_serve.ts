/**
 * Serves the production-configured app (info logging to /dev/null) and puts wrk load on one
 * target, so that `--cpu-prof` records the request path alone (no seeding in the profile window
 * beyond one tenant and one item request).
 *
 *   deno run -A --cpu-prof --cpu-prof-dir=prof bench/profile_serve.ts embedded|real \
 *     healthz|item|tx [--seconds 8]
 */
import { cliFlag } from "../dev/cli_flag.ts";
import { atFinish, finish, freePort, useTier } from "./real_tier.ts";
import { appWith, seedTenant, testEnv } from "../tests/harness.ts";
import { batchedLines, createLogger, writeAll } from "../lib/log.ts";
import { registerItemRequest } from "../lib/items/register.ts";

const tier = Deno.args[0] === "real" ? "real" : "embedded";
const what = Deno.args[1] ?? "healthz";
const seconds = Number(cliFlag("seconds") ?? 8);

async function main() {
  await useTier(tier);
  const { services } = await testEnv();
  const devNull = Deno.openSync("/dev/null", { write: true });
  const lines = batchedLines((chunk) => writeAll((b) => devNull.writeSync(b), chunk));
  const app = await appWith({ log: createLogger("info", lines.sink) });
  const port = freePort();
  const server = Deno.serve({ hostname: "127.0.0.1", port, onListen: () => {} }, app.fetch);
  atFinish(() => server.shutdown());
  const t = await seedTenant("profile");
  const { apiKey } = await t.apiKey(["items"]);
  const item = await registerItemRequest(services.db, {
    gameIndex: t.gameIndex,
    idCategory: "vid",
    id: "bench-user",
    detail: [{ action: "send", assetCode: "gold", amount: 1 }],
    reason: "e",
    serverId: "s1",
  }, { nowMs: services.clock.now() });
  const base = `http://127.0.0.1:${port}`;
  const target = what === "item"
    ? {
      url: `${base}/items/v1/requests/${item.transactionId}`,
      headers: { authorization: `Bearer ${apiKey}` },
    }
    : what === "tx"
    ? { url: `${base}/service/v1/tx`, headers: t.chainHeaders }
    : { url: `${base}/healthz`, headers: {} as Record<string, string> };
  const res = await fetch(target.url, { headers: target.headers });
  if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
  const args = ["-t2", "-c50", `-d${seconds}s`, "--latency"];
  for (const [k, v] of Object.entries(target.headers)) args.push("-H", `${k}: ${v}`);
  const out = await new Deno.Command("wrk", { args: [...args, target.url] }).output();
  console.log(new TextDecoder().decode(out.stdout));
}

try {
  await main();
} catch (err) {
  console.error(err);
} finally {
  await finish();
}
