/**
 * `deno task dev` and `deno task start` install only package.json "dependencies"
 * (`node dev/setup.mjs --server`), so every npm package the server entries import (server.ts,
 * and main.ts for Workers) must be one of them, never a devDependency (test and build tools).
 */
import assert from "node:assert/strict";

const root = new URL("../../", import.meta.url).pathname;

/** The npm packages a module graph imports directly (resolved into node_modules). */
async function importedPackages(entry: string): Promise<Set<string>> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    modules: { specifier: string }[];
  };
  const names = new Set<string>();
  for (const { specifier } of info.modules) {
    const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(specifier);
    if (m) names.add(m[1]);
  }
  return names;
}

Deno.test("the server imports only package.json dependencies, no devDependencies", async () => {
  const pkg = JSON.parse(await Deno.readTextFile(`${root}package.json`)) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  for (const entry of ["server.ts", "main.ts"]) {
    const used = await importedPackages(entry);
    assert.ok(used.has("hono") && used.has("viem"), `${entry}: ${[...used].join(", ")}`);
    const outside = [...used].filter((name) => !(name in pkg.dependencies));
    assert.deepEqual(outside, [], `${entry} imports packages outside "dependencies"`);
  }
  // Nothing in both lists (npm would install it as a dependency, hiding a misplaced tool).
  const both = Object.keys(pkg.dependencies).filter((name) => name in pkg.devDependencies);
  assert.deepEqual(both, []);
});
