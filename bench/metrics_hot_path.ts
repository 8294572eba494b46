/**
 * The metric work of one request, in process: the product's registry (lib/prometheus.ts and the
 * request histogram of lib/metrics.ts) against prom-client 15, same inputs, rounds alternated.
 *
 *   deno run -A bench/metrics_hot_path.ts --prom-client <dir> [--rounds 11] [--n 200000]
 *
 * `<dir>` is any checkout whose node_modules holds prom-client (the package is not a dependency
 * of the product). Scenarios, each per request:
 *   - inbound: the request counter and latency histogram (family, route, method, status);
 *     prom-client's Histogram.observe + Counter.inc with a label object against HttpLatency.observe;
 *   - delivery: an item delivery's outbound call counter and histogram and attempt counter and
 *     histogram (lib/outbound, lib/items/dispatcher), the same calls on both registries;
 *   - both: inbound + delivery, i.e. main before the change (HttpLatency + prom-client) against
 *     the product now (HttpLatency + the product's registry).
 * Prints ns per request, median over rounds, then the sample lines and the time of one scrape of
 * each registry.
 */
import { createRequire } from "node:module";
import { HttpLatency, latencyBuckets, methodLabel } from "../lib/metrics.ts";
import { Counter, Histogram, Registry } from "../lib/prometheus.ts";

function flag(name: string, fallback?: string): string | undefined {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Deno.args[i + 1] : fallback;
}
const promDir = flag("--prom-client");
if (!promDir) throw new Error("--prom-client <dir with node_modules/prom-client>");
const require = createRequire(`${Deno.realPathSync(promDir)}/`);
// deno-lint-ignore no-explicit-any
const prom: any = require("prom-client");
const ROUNDS = Number(flag("--rounds", "11"));
const N = Number(flag("--n", "200000"));

// Inputs: a spread like a busy instance's (20 routes in 4 families, 4 statuses, a few methods).
const families = ["items", "otp", "push", "blockchain"];
const routes = Array.from({ length: 20 }, (_, i) => `/${families[i % 4]}/v1/route${i}/:id`);
const statuses = [200, 200, 200, 201, 404, 500];
const methods = ["GET", "GET", "POST", "HEAD"];
const outcomes = ["ok", "ok", "ok", "http_503", "timeout"];
const hosts = ["game-a.example:443", "game-b.example:8443", "hooks.example"];
const kinds = ["delivered", "delivered", "retry", "failed"];
const SIZE = 4096;
let seed = 7;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
const inputs = Array.from({ length: SIZE }, () => {
  const r = Math.floor(rand() * routes.length);
  return {
    family: families[r % 4],
    route: routes[r],
    method: pick(methods),
    status: pick(statuses),
    seconds: rand() ** 3 * 2,
    host: pick(hosts),
    outcome: pick(outcomes),
    kind: pick(kinds),
    callSeconds: rand() ** 2,
  };
});

function promRegistry() {
  const registers = [new prom.Registry()];
  const o = { registers };
  return {
    registry: registers[0],
    reqs: new prom.Counter({ name: "r_total", help: "h", labelNames: httpLabels, ...o }),
    latency: new prom.Histogram({
      name: "r_seconds",
      help: "h",
      labelNames: httpLabels,
      buckets: latencyBuckets,
      ...o,
    }),
    calls: new prom.Counter({ name: "c_total", help: "h", labelNames: callLabels, ...o }),
    callTime: new prom.Histogram({
      name: "c_seconds",
      help: "h",
      labelNames: ["purpose", "outcome"],
      buckets: latencyBuckets,
      ...o,
    }),
    attempts: new prom.Counter({ name: "a_total", help: "h", labelNames: ["outcome"], ...o }),
    attemptTime: new prom.Histogram({
      name: "a_seconds",
      help: "h",
      labelNames: ["outcome"],
      buckets: latencyBuckets,
      ...o,
    }),
  };
}
const httpLabels = ["family", "route", "method", "status"];
const callLabels = ["purpose", "host", "outcome"];

function ownRegistry() {
  const registry = new Registry();
  const http = new HttpLatency(latencyBuckets);
  registry.register(http.histogramMetric("r_seconds", "h"));
  registry.register(http.counterMetric("r_total", "h"));
  return {
    registry,
    http,
    calls: registry.register(
      new Counter({ name: "c_total", help: "h", labelNames: ["purpose", "host", "outcome"] }),
    ),
    callTime: registry.register(
      new Histogram({
        name: "c_seconds",
        help: "h",
        labelNames: ["purpose", "outcome"],
        buckets: latencyBuckets,
      }),
    ),
    attempts: registry.register(
      new Counter({ name: "a_total", help: "h", labelNames: ["outcome"] }),
    ),
    attemptTime: registry.register(
      new Histogram({
        name: "a_seconds",
        help: "h",
        labelNames: ["outcome"],
        buckets: latencyBuckets,
      }),
    ),
  };
}

type Input = typeof inputs[number];
const p = promRegistry();
const o = ownRegistry();

function promInbound(x: Input) {
  const labels = {
    family: x.family,
    route: x.route,
    method: methodLabel(x.method),
    status: String(x.status),
  };
  p.latency.observe(labels, x.seconds);
  p.reqs.inc(labels);
}
function ownInbound(x: Input) {
  o.http.observe(x.family, x.route, x.method, x.status, x.seconds);
}
function promDelivery(x: Input) {
  p.calls.inc({ purpose: "item", host: x.host, outcome: x.outcome });
  p.callTime.observe({ purpose: "item", outcome: x.outcome }, x.callSeconds);
  p.attempts.inc({ outcome: x.kind });
  p.attemptTime.observe({ outcome: x.kind }, x.callSeconds);
}
function ownDelivery(x: Input) {
  o.calls.inc({ purpose: "item", host: x.host, outcome: x.outcome });
  o.callTime.observe({ purpose: "item", outcome: x.outcome }, x.callSeconds);
  o.attempts.inc({ outcome: x.kind });
  o.attemptTime.observe({ outcome: x.kind }, x.callSeconds);
}

const variants: Record<string, (x: Input) => void> = {
  "inbound prom-client": promInbound,
  "inbound product": ownInbound,
  "delivery prom-client": promDelivery,
  "delivery product": ownDelivery,
  "both main (HttpLatency + prom-client)": (x) => {
    ownInbound(x);
    promDelivery(x);
  },
  "both product": (x) => {
    ownInbound(x);
    ownDelivery(x);
  },
};

function run(fn: (x: Input) => void): number {
  const start = performance.now();
  for (let i = 0; i < N; i++) fn(inputs[i & (SIZE - 1)]);
  return (performance.now() - start) * 1e6 / N;
}

const names = Object.keys(variants);
for (const name of names) run(variants[name]); // warm up every path before timing
const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
for (let r = 0; r < ROUNDS; r++) {
  const order = r % 2 === 0 ? names : [...names].reverse();
  for (const name of order) samples[name].push(run(variants[name]));
}
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const promVersion = require("prom-client/package.json").version;
console.log(`rounds ${ROUNDS}, ${N} requests a round, prom-client ${promVersion}`);
for (const name of names) {
  const xs = samples[name];
  console.log(
    `${name.padEnd(40)} median ${median(xs).toFixed(1).padStart(7)} ns/request  (min ${
      Math.min(...xs).toFixed(1)
    }, max ${Math.max(...xs).toFixed(1)})`,
  );
}
const promText: string = await p.registry.metrics();
const ownText = o.registry.metrics();
// One scrape of each registry (same series count), alternated.
const scrapes: Record<string, number[]> = { "prom-client": [], product: [] };
for (let r = 0; r < ROUNDS; r++) {
  let t = performance.now();
  await p.registry.metrics();
  scrapes["prom-client"].push(performance.now() - t);
  t = performance.now();
  o.registry.metrics();
  scrapes.product.push(performance.now() - t);
}
for (const [name, xs] of Object.entries(scrapes)) {
  console.log(`scrape ${name.padEnd(33)} median ${median(xs).toFixed(2).padStart(7)} ms`);
}
const lines = (t: string) => t.split("\n").filter((l) => l && !l.startsWith("#")).length;
console.log(`scrape samples: prom-client ${lines(promText)}, product ${lines(ownText)}`);
