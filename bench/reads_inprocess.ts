/**
 * The cached reads in process, without the network: `app.fetch` of the service and of its lean
 * reference (bench/read_reference.ts, given the service's answers) for the polled item read and
 * the JWT transaction list, in alternating rounds of `--n` sequential requests each; medians of
 * the time per request. Both apps run in one isolate (they share the JIT's feedback on Hono's
 * code); this is the JavaScript's share of a request, bench/reads_load.ts measures the whole of
 * it under wrk.
 *
 *   deno run -A bench/reads_inprocess.ts [--rounds 7] [--n 20000] [--only name]
 */
import { cpuUsage } from "node:process";
import { decodeJwt } from "jose";
import { cliFlag } from "../dev/cli_flag.ts";
import { appWith, seedTenant, testEnv } from "../tests/harness.ts";
import { seedChainTxs } from "../tests/seed_rows.ts";
import { seedItemRead, serverLogger } from "./served_app.ts";
import { referenceApp } from "./read_reference.ts";
import { median } from "./real_tier.ts";

const rounds = Number(cliFlag("rounds") ?? 7);
const n = Number(cliFlag("n") ?? 20_000);
const only = cliFlag("only");

const { services } = await testEnv();
const app = await appWith({ log: serverLogger() });
const { tenant, apiKey, transactionId } = await seedItemRead("in-process reads", 1);
const txApp = await seedTenant("in-process tx");
await seedChainTxs(services.db, { appid: txApp.appid, gameIndex: txApp.gameIndex, rows: 100 });
const itemUrl = `http://127.0.0.1/items/v1/requests/${transactionId}`;
const itemHeaders = { authorization: `Bearer ${apiKey}` };
const txUrl = "http://127.0.0.1/service/v1/tx";
const body = async (f: (r: Request) => Response | Promise<Response>, url: string, h: HeadersInit) =>
  await (await f(new Request(url, { headers: h }))).text();
const ref = referenceApp({
  apiKey,
  keyId: String(decodeJwt(apiKey).jti),
  gameIndex: tenant.gameIndex,
  items: [[transactionId, await body(app.fetch, itemUrl, itemHeaders)]],
  accessToken: txApp.accessToken,
  appid: txApp.appid,
  chainGameIndex: txApp.gameIndex,
  txPage: await body(app.fetch, txUrl, txApp.chainHeaders),
});
const targets: [string, (r: Request) => Response | Promise<Response>, string, HeadersInit][] = [
  ["service: item read, polled", app.fetch, itemUrl, itemHeaders],
  ["reference: item read, polled", ref.fetch, itemUrl, itemHeaders],
  ["service: tx list, JWT", app.fetch, txUrl, txApp.chainHeaders],
  ["reference: tx list, JWT", ref.fetch, txUrl, txApp.chainHeaders],
];
if (only) targets.splice(0, targets.length, ...targets.filter(([name]) => name.includes(only)));
for (const [name, f, url, h] of targets) {
  const a = await body(f, url, h);
  const b = await body(targets[0][2] === url ? app.fetch : app.fetch, url, h);
  if (a !== b) throw new Error(`${name} answers ${a.slice(0, 200)}`);
}
const times = new Map<string, number[]>(targets.map(([name]) => [name, []]));
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? targets : [...targets].reverse();
  for (const [name, f, url, h] of order) {
    const started = cpuUsage();
    for (let i = 0; i < n; i++) await (await f(new Request(url, { headers: h }))).text();
    const used = cpuUsage(started);
    times.get(name)!.push((used.user + used.system) / n);
  }
}
const load = Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
console.log(`in process, ${rounds} rounds of ${n} requests, alternated; load ${load}`);
for (const [name, ts] of times) {
  console.log(
    `${name}: median ${median(ts).toFixed(2)} µs CPU/request (${
      ts.map((t) => t.toFixed(1)).join(", ")
    })`,
  );
}
Deno.exit(0);
