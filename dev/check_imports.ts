/**
 * `deno task check:imports` (CI): the layering rules of DESIGN.md, checked on the real module
 * graph (`deno info --json`) of every entry point:
 *   - nothing under lib/ imports routes/ or Hono (type-only imports included);
 *   - no runtime import cycle among the project's modules (type-only cycles are reported, not
 *     failed: they vanish at run time).
 */
const root = new URL("..", import.meta.url).pathname;
const entries = ["main.ts", "server.ts", "dev/migrate.ts", "dev/keys.ts", "dev/openapi.ts"];

interface Dep {
  code?: { specifier: string };
  type?: { specifier: string };
}
interface Module {
  specifier: string;
  dependencies?: Dep[];
}

const modules = new Map<string, Module>();
for (const entry of entries) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    cwd: root,
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) Deno.exit(1);
  const graph = JSON.parse(new TextDecoder().decode(out.stdout)) as { modules: Module[] };
  for (const m of graph.modules) modules.set(m.specifier, m);
}

const local = (spec: string) =>
  spec.startsWith(`file://${root}`) && !spec.includes("/node_modules/")
    ? spec.slice(`file://${root}`.length)
    : undefined;
const isHono = (spec: string) => /(^npm:\/?@?hono)|\/node_modules\/(@hono|hono)\//.test(spec);

const problems: string[] = [];
const runtime = new Map<string, string[]>();
const all = new Map<string, string[]>();
for (const m of modules.values()) {
  const from = local(m.specifier);
  if (!from) continue;
  const edges: string[] = [];
  for (const d of m.dependencies ?? []) {
    for (const target of [d.code?.specifier, d.type?.specifier]) {
      if (!target) continue;
      if (from.startsWith("lib/") && (local(target)?.startsWith("routes/") || isHono(target))) {
        problems.push(
          `${from} imports ${local(target) ?? target} (lib/ must not import routes/ or hono)`,
        );
      }
    }
    const to = d.code ? local(d.code.specifier) : undefined;
    if (to) edges.push(to);
    const any = local(d.code?.specifier ?? d.type?.specifier ?? "");
    if (any) all.set(from, [...(all.get(from) ?? []), any]);
  }
  runtime.set(from, edges);
}

/** Strongly connected components of 2+ modules (Tarjan): the import cycles of a graph. */
function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  function visit(v: string) {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  }
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return found;
}

for (const c of cycles(runtime)) problems.push(`runtime import cycle: ${c.join(" <-> ")}`);
for (const c of cycles(all)) console.log(`note: type-only import cycle: ${c.join(" <-> ")}`);

if (problems.length) {
  for (const p of problems) console.error(p);
  Deno.exit(1);
}
console.log(
  `imports ok: ${runtime.size} modules, lib/ free of routes/ and hono, no runtime cycle`,
);
