/**
 * Serves the production-configured app (info logging to /dev/null) and puts wrk load on one
 * target, so that `--cpu-prof` records the request path alone (no seeding in the profile window
 * beyond one tenant and one item request).
 *
 *   deno run -A --cpu-prof --cpu-prof-dir=prof bench/profile_serve.ts embedded|real \
 *     healthz|item|tx [--seconds 8]
 */
import { cliFlag } from "../dev/cli_flag.ts";
import { runScript, tierArg, useTier } from "./real_tier.ts";
import { seedItemRead, serveApp } from "./served_app.ts";

const tier = tierArg();
const what = Deno.args[1] ?? "healthz";
const seconds = Number(cliFlag("seconds") ?? 8);

async function main() {
  await useTier(tier);
  const base = await serveApp();
  const { tenant: t, apiKey, transactionId } = await seedItemRead("profile");
  const target = what === "item"
    ? {
      url: `${base}/items/v1/requests/${transactionId}`,
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

await runScript(main);
