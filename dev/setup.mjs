// Installs the pinned npm dependencies when node_modules is missing or older than the lockfile.
// Runs under plain Node so that a fresh clone needs nothing but Node.js.
import { execSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";

const marker = "node_modules/.package-lock.json";
const stale = !existsSync(marker) ||
  statSync(marker).mtimeMs < statSync("package-lock.json").mtimeMs;
if (stale) {
  console.error("installing npm dependencies...");
  const flags = "--no-audit --no-fund --loglevel=error";
  try {
    execSync(`npm ci ${flags}`, { stdio: ["ignore", "inherit", "pipe"] });
  } catch {
    // The lockfile records only the platform packages the registry had when it was written
    // (deno, anvil and workerd ship one package per platform); `npm install` keeps every pinned
    // version and fills in this platform's package.
    execSync(`npm install ${flags}`, { stdio: "inherit" });
  }
}
