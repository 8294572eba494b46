/**
 * The cached authenticated read in process, without the network: `app.fetch` of the service
 * (`GET /items/v1/requests/{id}` with an API key, key and state cached, request lines at info to
 * /dev/null as the server writes them) beside bare Hono `/healthz`, the service's `/healthz` and
 * the floor of the read's work (bench/read_floor.ts, no framework and in a lean Hono app). This
 * is the JavaScript's share of a request; bench/http_load.ts measures the whole of it under wrk.
 * Each iteration builds a Request and reads the answer's text, as Deno.serve would. All apps run
 * in one isolate, so they share the JIT's feedback on Hono's code; compare the p75 columns.
 *
 *   deno bench -A bench/read_path_bench.ts
 */
import { Hono } from "hono";
import { appWith, testEnv } from "../tests/harness.ts";
import { seedItemRead, serverLogger } from "./served_app.ts";
import { readFloor } from "./read_floor.ts";

await testEnv();
const app = await appWith({ log: serverLogger() });
const { apiKey, transactionId } = await seedItemRead("read path bench", 1);
const url = `http://127.0.0.1/items/v1/requests/${transactionId}`;
const headers = { authorization: `Bearer ${apiKey}` };
const floor = readFloor(apiKey, transactionId, true);
const bare = new Hono();
bare.get("/healthz", (c) => c.json({ status: "ok" }));

// Every target answers what it should before it is timed (the floor: the service's bytes).
const expected = await (await app.fetch(new Request(url, { headers }))).text();
for (const [name, fetch] of [["raw", floor.raw], ["hono", floor.hono]] as const) {
  const got = await (await fetch(new Request(url, { headers }))).text();
  if (got !== expected) throw new Error(`floor ${name} answers ${got}, not ${expected}`);
}
if (!expected.includes('"code":0')) throw new Error(`the service answers ${expected}`);

const group = "cached item read, in process";
Deno.bench("bare Hono /healthz", { group, baseline: true }, async () => {
  await (await bare.fetch(new Request("http://127.0.0.1/healthz"))).text();
});
Deno.bench("the read's work alone, no framework (floor)", { group }, async () => {
  await floor.raw(new Request(url, { headers })).text();
});
Deno.bench("the read's work alone, lean Hono app (floor)", { group }, async () => {
  await (await floor.hono(new Request(url, { headers }))).text();
});
Deno.bench("service /healthz", { group }, async () => {
  await (await app.fetch(new Request("http://127.0.0.1/healthz"))).text();
});
Deno.bench("service GET /items/v1/requests/{id}, API key, cached", { group }, async () => {
  await (await app.fetch(new Request(url, { headers }))).text();
});
