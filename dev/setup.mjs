// Installs the pinned npm dependencies when node_modules is missing, older than the lockfile, or
// lacks what was asked for. Runs under plain Node so that a fresh clone needs nothing but Node.js.
//
//   node dev/setup.mjs            everything: the server's packages and the tools (tests, anvil,
//                                 wrangler, Redocly, the XPLA SDK, solc, Playwright, dictionaries)
//   node dev/setup.mjs --server   only package.json "dependencies", what the server imports
//                                 (`deno task dev` and `deno task start`)
//
// A server-only request never removes tools that are already installed: when node_modules holds
// the devDependencies and the lockfile changed, it installs everything again.
import { execSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";

const serverOnly = process.argv.includes("--server");
const marker = "node_modules/.package-lock.json";

// npm's hidden lockfile lists exactly the installed packages; the tools are marked dev.
const present = existsSync(marker);
const fresh = present && statSync(marker).mtimeMs >= statSync("package-lock.json").mtimeMs;
const hasTools = present &&
  Object.values(JSON.parse(readFileSync(marker, "utf8")).packages ?? {}).some((p) => p.dev);
const wantAll = !serverOnly || hasTools;
if (!fresh || (wantAll && !hasTools)) {
  // The server's packages need no install script (the only ones are ws's optional native helpers
  // and swagger-ui-dist's install analytics), so none is run for them. Nor do they need those
  // optional helpers (bufferutil, utf-8-validate): ws does the same work in JavaScript without them.
  const omit = wantAll ? "" : " --omit=dev --omit=optional --ignore-scripts";
  console.error(`installing npm dependencies${wantAll ? "" : " (the server's only)"}...`);
  const flags = `--no-audit --no-fund --loglevel=error${omit}`;
  // No install analytics (swagger-ui-dist's scarf would run `npm ls` and call out).
  const env = { ...process.env, SCARF_ANALYTICS: "false" };
  try {
    execSync(`npm ci ${flags}`, { stdio: ["ignore", "inherit", "pipe"], env });
  } catch {
    // `npm ci` refuses a lockfile that is out of step with package.json (e.g. a platform package
    // the registry did not have when it was written); `npm install` keeps every pinned version
    // and fills in what is missing.
    execSync(`npm install ${flags}`, { stdio: "inherit", env });
  }
}
