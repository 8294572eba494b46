/** Reads Prometheus text exposition in tests: samples and sums over label matches. */

/** One sample of a scrape. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Samples of a scrape: `name{labels} value` lines (comments skipped). */
export function parseMetrics(text: string): Sample[] {
  const out = [];
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[k] = v;
    out.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return out;
}

/** The sum of the samples named `name` whose labels include `match`. */
export function sumOf(samples: Sample[], name: string, match: Record<string, string> = {}): number {
  return samples.filter((s) =>
    s.name === name && Object.entries(match).every(([k, v]) => s.labels[k] === v)
  ).reduce((a, s) => a + s.value, 0);
}
