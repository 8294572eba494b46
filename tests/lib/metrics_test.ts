import assert from "node:assert/strict";
import { Registry } from "../../lib/prometheus.ts";
import { HttpLatency } from "../../lib/metrics.ts";
import { JsonText, utf8Length } from "../../routes/observe.ts";

Deno.test("request latency renders as a Prometheus histogram and counter with cumulative buckets", () => {
  const http = new HttpLatency([0.01, 0.1]);
  const registry = new Registry();
  registry.register(http.histogramMetric("t_seconds", "latency"));
  registry.register(http.counterMetric("t_total", "requests"));
  http.observe("items", "/items/v1/requests/:id", "GET", 200, 0.005);
  http.observe("items", "/items/v1/requests/:id", "GET", 200, 0.01);
  http.observe("items", "/items/v1/requests/:id", "GET", 200, 0.05);
  http.observe("items", "/items/v1/requests/:id", "GET", 200, 3);
  http.observe("admin", 'odd "route"', "POST", 500, 0.2);
  const text = registry.metrics();
  const item = 'family="items",route="/items/v1/requests/:id",method="GET",status="200"';
  for (
    const line of [
      "# TYPE t_seconds histogram",
      `t_seconds_bucket{${item},le="0.01"} 2`,
      `t_seconds_bucket{${item},le="0.1"} 3`,
      `t_seconds_bucket{${item},le="+Inf"} 4`,
      `t_seconds_sum{${item}} 3.065`,
      `t_seconds_count{${item}} 4`,
      `t_seconds_bucket{family="admin",route="odd \\"route\\"",method="POST",status="500",le="0.1"} 0`,
      "# TYPE t_total counter",
      `t_total{${item}} 4`,
      `t_total{family="admin",route="odd \\"route\\"",method="POST",status="500"} 1`,
    ]
  ) assert.ok(text.split("\n").includes(line), `${line}\n--- in ---\n${text}`);
});

Deno.test("utf8Length counts the bytes TextEncoder makes, lone surrogates included", () => {
  const samples = [
    "",
    "plain ascii",
    "é",
    "한글 아이템",
    "🎁 gift",
    "\ud83c",
    "a\udf81b",
    "\ud83c\ud83c",
    "\u07ff\u0800",
    // Longer than one 64 KB counting buffer: characters of 1 to 4 bytes across its boundaries.
    "x".repeat(70_000),
    "한".repeat(30_000),
    "🎁".repeat(20_000),
    "a" + "🎁".repeat(16_383) + "\ud83c" + "b".repeat(70_000),
    "ab".repeat(32_767) + "é" + "한".repeat(21_845) + "\udf81",
  ];
  for (const s of samples) {
    assert.equal(utf8Length(s), new TextEncoder().encode(s).length, JSON.stringify(s));
  }
});

Deno.test("JsonText: stringified anywhere but the request observer's c.json, it fails loudly", () => {
  assert.throws(() => JSON.stringify({ data: new JsonText("{}") }), /request observer/);
});
