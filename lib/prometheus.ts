/**
 * A small Prometheus registry: counters, gauges and histograms with labels, rendered in the text
 * exposition format 0.0.4. A series is found by its label values in the metric's label order, one
 * map level per label, so recording builds no key string and allocates nothing once the series
 * exists; `labels()` returns the series itself for callers that record on the same label set again
 * and again. A series' label text is escaped once, when the series is created, and reused by every
 * scrape.
 */

/** The Content-Type of the text exposition format. */
export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

/** Label values by label name; every label of the metric must be given. */
export type LabelValues<L extends string> = { readonly [K in L]: string | number };

/** Anything the registry renders: one metric family as HELP, TYPE and sample lines. */
export interface Collector {
  readonly name: string;
  /** The family's lines, without a trailing newline. */
  render(): string;
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
/** A label value as a map key: numbers as their text, so 200 and "200" are one series. */
function keyOf(value: string | number | undefined, name: string, metric: string): string {
  if (typeof value === "string") return value;
  if (value === undefined) throw new Error(`label ${name} missing for ${metric}`);
  return String(value);
}

/** One map level per label, the last level holding the series. */
type Level<S> = Map<string, Level<S> | S>;

/** A number as the text format writes it: `+Inf`, `-Inf`, `NaN`, else JavaScript's shortest form. */
export function formatValue(value: number): string {
  if (Number.isFinite(value)) return String(value);
  if (Number.isNaN(value)) return "NaN";
  return value > 0 ? "+Inf" : "-Inf";
}

/** A label value escaped for the text format: backslash, double quote and line feed. */
export function escapeLabelValue(value: string): string {
  return /[\\"\n]/.test(value)
    ? value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")
    : value;
}

/** HELP text escaped for the text format: backslash and line feed. */
export function escapeHelp(help: string): string {
  return help.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
}

/** `a="x",b="y"` for label names and values in order (values escaped). */
export function labelText(names: readonly string[], values: readonly (string | number)[]): string {
  let text = "";
  for (let i = 0; i < names.length; i++) {
    if (i > 0) text += ",";
    text += `${names[i]}="${escapeLabelValue(String(values[i]))}"`;
  }
  return text;
}

/** The HELP and TYPE lines of a family. */
export function header(name: string, help: string, type: string): string {
  return `# HELP ${name} ${escapeHelp(help)}\n# TYPE ${name} ${type}`;
}

/** The metrics of one instance, rendered in the order they were registered. */
export class Registry {
  readonly contentType = PROMETHEUS_CONTENT_TYPE;
  readonly #collectors: Collector[] = [];
  readonly #names = new Set<string>();

  /** Adds a metric family; a second family of the same name is refused. */
  register<C extends Collector>(collector: C): C {
    if (this.#names.has(collector.name)) {
      throw new Error(`metric ${collector.name} is already registered`);
    }
    this.#names.add(collector.name);
    this.#collectors.push(collector);
    return collector;
  }

  /** The text exposition: families separated by a blank line, ending with a newline. */
  metrics(): string {
    return this.#collectors.map((c) => c.render()).join("\n\n") + "\n";
  }
}

/** Options shared by every metric kind. */
export interface MetricOptions<L extends string> {
  name: string;
  help: string;
  labelNames?: readonly L[];
}

/** A metric family: its series by label values. */
abstract class Family<L extends string, S extends { labels: string }> implements Collector {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly L[];
  /** The series by label values, one level per label. */
  #root: Level<S> = new Map();
  /** Every series, in the order they were made (the order of the exposition). */
  #all: S[] = [];
  #single: S | undefined;

  constructor(options: MetricOptions<L>, reserved: readonly string[] = []) {
    if (!METRIC_NAME.test(options.name)) throw new Error(`invalid metric name ${options.name}`);
    const labelNames = options.labelNames ?? [];
    for (const l of labelNames) {
      if (!LABEL_NAME.test(l) || l.startsWith("__") || reserved.includes(l)) {
        throw new Error(`invalid label name ${l} for ${options.name}`);
      }
    }
    if (new Set(labelNames).size !== labelNames.length) {
      throw new Error(`repeated label name for ${options.name}`);
    }
    this.name = options.name;
    this.help = options.help;
    this.labelNames = [...labelNames];
  }

  protected abstract create(labels: string): S;
  protected abstract renderSeries(series: S): string;
  abstract readonly type: string;

  /** The series of a label set, made on first use; keep it to record without a lookup. */
  labels(values: LabelValues<L>): S {
    const names = this.labelNames;
    const last = names.length - 1;
    if (last < 0) return this.#single ??= this.#make("");
    let level = this.#root;
    for (let i = 0; i < last; i++) {
      const key = keyOf(values[names[i]], names[i], this.name);
      let next = level.get(key) as Level<S> | undefined;
      if (next === undefined) level.set(key, next = new Map());
      level = next;
    }
    const key = keyOf(values[names[last]], names[last], this.name);
    let series = level.get(key) as S | undefined;
    if (series === undefined) {
      const ordered = names.map((n) => keyOf(values[n], n, this.name));
      level.set(key, series = this.#make(labelText(names, ordered)));
    }
    return series;
  }

  #make(labels: string): S {
    const series = this.create(labels);
    this.#all.push(series);
    return series;
  }

  /** Drops every series (a metric without labels starts again from zero). */
  reset(): void {
    this.#root = new Map();
    this.#all = [];
    this.#single = undefined;
  }

  /** The unlabelled series (for metrics without labels). */
  protected get single(): S {
    return this.labels({} as LabelValues<L>);
  }

  render(): string {
    // Like the usual client libraries, a metric without labels is exposed (as zero) from the start.
    if (this.labelNames.length === 0) this.labels({} as LabelValues<L>);
    let text = header(this.name, this.help, this.type);
    for (const s of this.#all) text += "\n" + this.renderSeries(s);
    return text;
  }
}

/** One counter series. */
export class CounterSeries {
  value = 0;
  constructor(readonly labels: string) {}
  /** Adds `by` (1 unless given; never negative). */
  inc(by = 1): void {
    if (!(by >= 0) || by === Infinity) throw new Error(`counter increment ${by} is not allowed`);
    this.value += by;
  }
}

/** A counter: a value per label set that only goes up. */
export class Counter<L extends string = never> extends Family<L, CounterSeries> {
  readonly type = "counter";
  protected create(labels: string) {
    return new CounterSeries(labels);
  }
  protected renderSeries(s: CounterSeries) {
    return sample(this.name, s.labels, s.value);
  }
  /** Adds `by` (default 1) to the series of `labels`. */
  inc(labels: LabelValues<L>, by = 1): void {
    this.labels(labels).inc(by);
  }
}

/** One gauge series. */
export class GaugeSeries {
  value = 0;
  constructor(readonly labels: string) {}
  set(value: number): void {
    this.value = value;
  }
}

/** A gauge: a value per label set that is set at will. */
export class Gauge<L extends string = never> extends Family<L, GaugeSeries> {
  readonly type = "gauge";
  protected create(labels: string) {
    return new GaugeSeries(labels);
  }
  protected renderSeries(s: GaugeSeries) {
    return sample(this.name, s.labels, s.value);
  }
  /** Sets the series of `labels` to `value`. */
  set(labels: LabelValues<L>, value: number): void {
    this.labels(labels).set(value);
  }
  /** Sets the value of a gauge without labels. */
  setValue(value: number): void {
    this.single.set(value);
  }
}

/** One histogram series: observations per bucket (not cumulative), their sum and count. */
export class HistogramSeries {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;
  constructor(readonly labels: string, readonly bounds: readonly number[]) {
    this.counts = new Float64Array(bounds.length + 1);
  }
  /** Records one observation (a finite number). */
  observe(value: number): void {
    if (!Number.isFinite(value)) throw new Error(`histogram observation ${value} is not finite`);
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]) i++;
    this.counts[i]++;
    this.sum += value;
    this.count++;
  }
}

/** Options of a histogram: its bucket upper bounds, ascending (`+Inf` is implied). */
export interface HistogramOptions<L extends string> extends MetricOptions<L> {
  buckets: readonly number[];
}

/** A histogram: observations per label set, counted into buckets. */
export class Histogram<L extends string = never> extends Family<L, HistogramSeries> {
  readonly type = "histogram";
  readonly bounds: readonly number[];
  /** The `le="…"` label of each bucket, `+Inf` last. */
  readonly #le: string[];

  constructor(options: HistogramOptions<L>) {
    super(options, ["le"]);
    this.bounds = validBounds(options.name, options.buckets);
    this.#le = bucketLabels(this.bounds);
  }

  protected create(labels: string) {
    return new HistogramSeries(labels, this.bounds);
  }

  protected renderSeries(s: HistogramSeries) {
    return renderHistogram(this.name, s.labels, this.#le, s.counts, s.sum, s.count);
  }

  /** Records `value` in the series of `labels`. */
  observe(labels: LabelValues<L>, value: number): void {
    this.labels(labels).observe(value);
  }
}

function validBounds(name: string, buckets: readonly number[]): readonly number[] {
  const bounds = buckets.filter((b) => b !== Infinity);
  for (let i = 0; i < bounds.length; i++) {
    if (!Number.isFinite(bounds[i]) || (i > 0 && bounds[i] <= bounds[i - 1])) {
      throw new Error(`histogram ${name}: bucket bounds must be finite and ascending`);
    }
  }
  return Object.freeze([...bounds]);
}

/** `name{labels} value`, or `name value` without labels. */
function sample(name: string, labels: string, value: number): string {
  return labels === ""
    ? `${name} ${formatValue(value)}`
    : `${name}{${labels}} ${formatValue(value)}`;
}

/**
 * The lines of one histogram series: a cumulative `_bucket` per bound (`le` last among the
 * labels), the `+Inf` bucket equal to the count, then `_sum` and `_count`.
 */
export function renderHistogram(
  name: string,
  labels: string,
  le: readonly string[],
  counts: ArrayLike<number>,
  sum: number,
  count: number,
): string {
  const prefix = labels === "" ? `${name}_bucket{` : `${name}_bucket{${labels},`;
  let text = "";
  let cumulative = 0;
  for (let i = 0; i < le.length; i++) {
    cumulative += counts[i];
    text += `${prefix}${le[i]}} ${formatValue(cumulative)}\n`;
  }
  text += sample(`${name}_sum`, labels, sum) + "\n";
  text += sample(`${name}_count`, labels, count);
  return text;
}

/** The `le` labels of histogram bounds (for collectors that keep their own counts). */
export function bucketLabels(bounds: readonly number[]): string[] {
  return [...bounds.map(formatValue), "+Inf"].map((b) => `le="${b}"`);
}
