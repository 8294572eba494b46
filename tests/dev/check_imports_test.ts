/** The cycle rules of `deno task check:imports` on small hand-made module graphs. */
import assert from "node:assert/strict";
import { importCycles, judgeCycles } from "../../dev/check_imports.ts";

function graph(edges: Record<string, string[]>): Map<string, string[]> {
  return new Map(Object.entries(edges));
}

// a -> b at run time, b -> a through `import type` only.
const runtime = graph({ "a.ts": ["b.ts"], "b.ts": [], "c.ts": ["a.ts"] });
const all = graph({ "a.ts": ["b.ts"], "b.ts": ["a.ts"], "c.ts": ["a.ts"] });

Deno.test("importCycles finds strongly connected modules, sorted, and nothing in a DAG", () => {
  assert.deepEqual(importCycles(all), [["a.ts", "b.ts"]]);
  assert.deepEqual(importCycles(runtime), []);
  assert.deepEqual(
    importCycles(graph({ "x.ts": ["z.ts"], "z.ts": ["y.ts"], "y.ts": ["x.ts"] })),
    [["x.ts", "y.ts", "z.ts"]],
  );
});

Deno.test("a type-only cycle fails unless it is pending", () => {
  assert.deepEqual(judgeCycles({ runtime, all }, { pending: [] }), {
    problems: ["type-only import cycle: a.ts <-> b.ts"],
    notes: [],
  });
  assert.deepEqual(judgeCycles({ runtime, all }, { pending: [["b.ts", "a.ts"]] }), {
    problems: [],
    notes: ["type-only import cycle (pending, allowed): a.ts <-> b.ts"],
  });
  assert.deepEqual(judgeCycles({ runtime, all }, { pending: [], reportTypeCycles: true }), {
    problems: [],
    notes: ["type-only import cycle: a.ts <-> b.ts"],
  });
});

Deno.test("a pending cycle that grew fails, and a pending entry with no cycle is flagged", () => {
  const grown = graph({ "a.ts": ["b.ts"], "b.ts": ["c.ts"], "c.ts": ["a.ts"] });
  const judged = judgeCycles({ runtime, all: grown }, { pending: [["a.ts", "b.ts"]] });
  assert.deepEqual(judged.problems, ["type-only import cycle: a.ts <-> b.ts <-> c.ts"]);
  assert.deepEqual(judged.notes, [
    "pending type-only cycle is gone, remove it from TYPE_CYCLES_PENDING: a.ts <-> b.ts",
  ]);
});

Deno.test("a runtime cycle fails once, not again as a type-only cycle", () => {
  assert.deepEqual(judgeCycles({ runtime: all, all }, { pending: [] }), {
    problems: ["runtime import cycle: a.ts <-> b.ts"],
    notes: [],
  });
});
