import assert from "node:assert/strict";
import {
  Counter,
  escapeLabelValue,
  formatValue,
  Gauge,
  Histogram,
  Registry,
} from "../../lib/prometheus.ts";
import { parseMetrics } from "../metrics_scrape.ts";

/** A label value needing every escape: backslash, double quote and line feed. */
const awkward = 'C:\\dir "x"\ny';
const escaped = 'C:\\\\dir \\"x\\"\\ny';

Deno.test("counter: HELP/TYPE lines, escaped label values, increments per label set", () => {
  const registry = new Registry();
  const c = registry.register(
    new Counter({ name: "t_calls_total", help: "Calls\\by \nhost", labelNames: ["host", "code"] }),
  );
  c.inc({ host: awkward, code: 200 });
  c.inc({ host: awkward, code: 200 }, 2.5);
  c.inc({ host: "b", code: "500" });
  assert.equal(
    registry.metrics(),
    [
      "# HELP t_calls_total Calls\\\\by \\nhost",
      "# TYPE t_calls_total counter",
      `t_calls_total{host="${escaped}",code="200"} 3.5`,
      't_calls_total{host="b",code="500"} 1',
      "",
    ].join("\n"),
  );
  assert.throws(() => c.inc({ host: "b", code: "500" }, -1), /not allowed/);
  assert.throws(() => c.inc({ host: "b", code: "500" }, NaN), /not allowed/);
  // deno-lint-ignore no-explicit-any
  assert.throws(() => c.inc({ host: "only" } as any), /label code missing/);
});

Deno.test("label sets: values holding NUL or commas, or splitting the same text differently, stay apart", () => {
  const c = new Counter({ name: "t_total", help: "h", labelNames: ["a", "b"] });
  c.inc({ a: "x\u0000y", b: "z" });
  c.inc({ a: "x", b: "y\u0000z" });
  c.inc({ a: "x,b=", b: "y" });
  const samples = parseMetrics(c.render());
  assert.equal(samples.length, 3, c.render());
  assert.deepEqual(samples.map((s) => s.value), [1, 1, 1]);
});

Deno.test("a series handle records without a lookup into the same series", () => {
  const c = new Counter({ name: "t_total", help: "h", labelNames: ["k"] });
  const handle = c.labels({ k: "v" });
  handle.inc();
  handle.inc(4);
  c.inc({ k: "v" });
  assert.equal(c.labels({ k: "v" }), handle);
  assert.equal(c.render().split("\n")[2], 't_total{k="v"} 6');
  // A number and its text are one label value, so one series.
  c.inc({ k: 200 });
  c.inc({ k: "200" });
  assert.deepEqual(c.render().split("\n").slice(2), ['t_total{k="v"} 6', 't_total{k="200"} 2']);
});

Deno.test("gauge: set per label set, reset drops series, an unlabelled gauge shows 0 from the start", () => {
  const registry = new Registry();
  const g = registry.register(new Gauge({ name: "t_depth", help: "Depth", labelNames: ["state"] }));
  const plain = registry.register(new Gauge({ name: "t_logged", help: "Logged" }));
  g.set({ state: "a" }, 3);
  g.set({ state: "a" }, -2);
  g.set({ state: awkward }, Infinity);
  assert.equal(
    registry.metrics(),
    [
      "# HELP t_depth Depth",
      "# TYPE t_depth gauge",
      't_depth{state="a"} -2',
      `t_depth{state="${escaped}"} +Inf`,
      "",
      "# HELP t_logged Logged",
      "# TYPE t_logged gauge",
      "t_logged 0",
      "",
    ].join("\n"),
  );
  g.reset();
  plain.setValue(7);
  g.set({ state: "b" }, NaN);
  assert.equal(
    registry.metrics(),
    '# HELP t_depth Depth\n# TYPE t_depth gauge\nt_depth{state="b"} NaN\n\n' +
      "# HELP t_logged Logged\n# TYPE t_logged gauge\nt_logged 7\n",
  );
  plain.reset();
  assert.match(registry.metrics(), /^t_logged 0$/m);
});

Deno.test("histogram: cumulative buckets with le last, +Inf equal to the count, sum and count", () => {
  const h = new Histogram({
    name: "t_seconds",
    help: "Latency",
    labelNames: ["route"],
    buckets: [0.1, 1, 10],
  });
  for (const v of [0.05, 0.1, 0.5, 1, 2, 20, 0]) h.observe({ route: awkward }, v);
  h.observe({ route: "/b" }, 100);
  const lines = h.render().split("\n");
  assert.deepEqual(lines, [
    "# HELP t_seconds Latency",
    "# TYPE t_seconds histogram",
    `t_seconds_bucket{route="${escaped}",le="0.1"} 3`,
    `t_seconds_bucket{route="${escaped}",le="1"} 5`,
    `t_seconds_bucket{route="${escaped}",le="10"} 6`,
    `t_seconds_bucket{route="${escaped}",le="+Inf"} 7`,
    `t_seconds_sum{route="${escaped}"} 23.65`,
    `t_seconds_count{route="${escaped}"} 7`,
    't_seconds_bucket{route="/b",le="0.1"} 0',
    't_seconds_bucket{route="/b",le="1"} 0',
    't_seconds_bucket{route="/b",le="10"} 0',
    't_seconds_bucket{route="/b",le="+Inf"} 1',
    't_seconds_sum{route="/b"} 100',
    't_seconds_count{route="/b"} 1',
  ]);
  // Cumulative: every bucket holds at least the one before it.
  const buckets = parseMetrics(h.render()).filter((s) => s.name === "t_seconds_bucket");
  for (let i = 1; i < buckets.length; i++) {
    if (buckets[i].labels.route !== buckets[i - 1].labels.route) continue;
    assert.ok(buckets[i].value >= buckets[i - 1].value);
  }
  assert.throws(() => h.observe({ route: "/b" }, NaN), /not finite/);
  assert.throws(() => h.observe({ route: "/b" }, Infinity), /not finite/);
});

Deno.test("histogram without labels renders its zero series; bounds must ascend", () => {
  const h = new Histogram({ name: "t_plain", help: "h", buckets: [1, 2] });
  assert.deepEqual(h.render().split("\n").slice(2), [
    't_plain_bucket{le="1"} 0',
    't_plain_bucket{le="2"} 0',
    't_plain_bucket{le="+Inf"} 0',
    "t_plain_sum 0",
    "t_plain_count 0",
  ]);
  assert.throws(() => new Histogram({ name: "t_x", help: "h", buckets: [2, 1] }), /ascending/);
  assert.throws(
    () => new Histogram({ name: "t_x", help: "h", labelNames: ["le"], buckets: [1] }),
    /invalid label name le/,
  );
});

Deno.test("registry: names and label names are checked, a name registers once", () => {
  const registry = new Registry();
  assert.equal(registry.contentType, "text/plain; version=0.0.4; charset=utf-8");
  registry.register(new Counter({ name: "t_total", help: "h" }));
  assert.throws(() => registry.register(new Counter({ name: "t_total", help: "h" })), /already/);
  assert.throws(() => new Counter({ name: "t-bad", help: "h" }), /invalid metric name/);
  assert.throws(
    () => new Counter({ name: "t_ok", help: "h", labelNames: ["9x"] }),
    /invalid label name/,
  );
  assert.throws(
    () => new Counter({ name: "t_ok", help: "h", labelNames: ["a", "a"] }),
    /repeated label/,
  );
});

Deno.test("formatValue and escapeLabelValue follow the text format", () => {
  assert.deepEqual(
    [1, 0.1, -0, 1e21, 1.5e-7, Infinity, -Infinity, NaN].map(formatValue),
    ["1", "0.1", "0", "1e+21", "1.5e-7", "+Inf", "-Inf", "NaN"],
  );
  assert.equal(escapeLabelValue("plain"), "plain");
  assert.equal(escapeLabelValue('\\"\n'), '\\\\\\"\\n');
});
