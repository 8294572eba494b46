/**
 * `deno task check:imports` (CI): the layering rules of DESIGN.md, checked on the real module
 * graph (`deno info --json`) of every entry point:
 *   - nothing under lib/ imports routes/ or Hono (type-only imports included);
 *   - no runtime import cycle among the project's modules;
 *   - no type-only import cycle either (a cycle that exists only through `import type` vanishes at
 *     run time, but it still ties the modules into one knot that cannot be read or moved apart).
 *     Shared types belong in a leaf module both sides import.
 *
 * TYPE_CYCLES_PENDING lists the type-only cycles still known and being fixed, each as its exact set
 * of modules: such a cycle is printed as a note instead of failing. A cycle that grows, shrinks or
 * is not on the list fails. When a listed cycle no longer exists the script says so: remove its
 * entry then, so that it cannot come back unnoticed. `--report-type-cycles` prints every type-only
 * cycle as a note without failing (to survey a branch; CI runs without it).
 */

/** Type-only cycles still being fixed: each the sorted module paths of one cycle. */
export const TYPE_CYCLES_PENDING: readonly (readonly string[])[] = [];

const entries = ["main.ts", "server.ts", "dev/migrate.ts", "dev/keys.ts", "dev/openapi.ts"];

interface Dep {
  code?: { specifier: string };
  type?: { specifier: string };
}
interface Module {
  specifier: string;
  dependencies?: Dep[];
}

/** Strongly connected components of 2+ modules (Tarjan): the import cycles of a graph. */
export function importCycles(graph: Map<string, string[]>): string[][] {
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

/** What the cycle rules find in a module graph: failures, notes, and pending entries now gone. */
export function judgeCycles(
  graphs: { runtime: Map<string, string[]>; all: Map<string, string[]> },
  options: { pending: readonly (readonly string[])[]; reportTypeCycles?: boolean },
): { problems: string[]; notes: string[] } {
  const problems: string[] = [];
  const notes: string[] = [];
  const key = (modules: readonly string[]) => [...modules].sort().join(" <-> ");
  const runtime = new Set<string>();
  for (const c of importCycles(graphs.runtime)) {
    runtime.add(key(c));
    problems.push(`runtime import cycle: ${key(c)}`);
  }
  const pending = new Set(options.pending.map(key));
  const seen = new Set<string>();
  for (const c of importCycles(graphs.all)) {
    const k = key(c);
    // The same modules already failed as a runtime cycle: one message is enough.
    if (runtime.has(k)) continue;
    seen.add(k);
    if (pending.has(k)) notes.push(`type-only import cycle (pending, allowed): ${k}`);
    else if (options.reportTypeCycles) notes.push(`type-only import cycle: ${k}`);
    else problems.push(`type-only import cycle: ${k}`);
  }
  for (const k of pending) {
    if (!seen.has(k)) {
      notes.push(`pending type-only cycle is gone, remove it from TYPE_CYCLES_PENDING: ${k}`);
    }
  }
  return { problems, notes };
}

async function main() {
  const root = new URL("..", import.meta.url).pathname;
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
    const anyEdges: string[] = [];
    for (const d of m.dependencies ?? []) {
      for (const target of [d.code?.specifier, d.type?.specifier]) {
        if (!target) continue;
        if (from.startsWith("lib/") && (local(target)?.startsWith("routes/") || isHono(target))) {
          problems.push(
            `${from} imports ${local(target) ?? target} (lib/ must not import routes/ or hono)`,
          );
        }
        // A dependency with both (code plus its declared types) is an edge to each.
        const to = local(target);
        if (to) anyEdges.push(to);
      }
      const to = d.code ? local(d.code.specifier) : undefined;
      if (to) edges.push(to);
    }
    runtime.set(from, edges);
    all.set(from, anyEdges);
  }

  const judged = judgeCycles({ runtime, all }, {
    pending: TYPE_CYCLES_PENDING,
    reportTypeCycles: Deno.args.includes("--report-type-cycles"),
  });
  problems.push(...judged.problems);
  for (const n of judged.notes) console.log(`note: ${n}`);
  if (problems.length) {
    for (const p of problems) console.error(p);
    Deno.exit(1);
  }
  console.log(
    `imports ok: ${runtime.size} modules, lib/ free of routes/ and hono, no import cycle` +
      (judged.notes.length ? " (see notes)" : ""),
  );
}

if (import.meta.main) await main();
