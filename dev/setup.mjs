// Installs the pinned npm dependencies when node_modules is missing or older than the lockfile.
// Runs under plain Node so that a fresh clone needs nothing but Node.js.
import { execSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";

const marker = "node_modules/.package-lock.json";
const stale = !existsSync(marker) ||
  statSync(marker).mtimeMs < statSync("package-lock.json").mtimeMs;
if (stale) {
  console.error("installing npm dependencies (npm ci)...");
  execSync("npm ci --no-audit --no-fund --loglevel=error", { stdio: "inherit" });
}
