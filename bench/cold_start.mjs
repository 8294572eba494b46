// Cold start from a fresh clone: an empty npm cache (so npx downloads Deno and npm downloads every
// package), an empty DENO_DIR, no node_modules. Times the README's first command,
// `npx -y deno@2.9.6 task dev`, from its start to the first 200 of /healthz, checks that a
// database-backed admin route answers on embedded PGlite, then stops the server's process group and
// reports the size of node_modules.
//
//   node bench/cold_start.mjs <repository> <ref>[,<ref>...] [rounds]
//
// Refs are measured in alternating rounds (ref A, ref B, ref A, ...) so both see the same load.
// Output: one JSON line per run, then the medians per ref.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [repo, refList, roundsArg] = process.argv.slice(2);
if (!repo || !refList) {
  console.error("usage: node bench/cold_start.mjs <repository> <ref>[,<ref>...] [rounds]");
  process.exit(2);
}
const refs = refList.split(",");
const rounds = Number(roundsArg ?? 1);

const globalConfig = execFileSync("npm", ["config", "get", "globalconfig"]).toString().trim();

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function status(url, init) {
  try {
    const r = await fetch(url, { ...init, signal: AbortSignal.timeout(2000) });
    await r.arrayBuffer();
    return r.status;
  } catch {
    return 0;
  }
}

async function once(ref) {
  const root = mkdtempSync(join(tmpdir(), "cold-start-"));
  const dir = join(root, "repo");
  execFileSync("git", ["clone", "--quiet", "--no-hardlinks", repo, dir]);
  execFileSync("git", ["-C", dir, "checkout", "--quiet", ref]);
  const commit = execFileSync("git", ["-C", dir, "rev-parse", "--short", "HEAD"]).toString().trim();
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    npm_config_cache: join(root, "npm-cache"),
    // An empty global prefix: npx must not find a Deno installed globally on this machine.
    npm_config_prefix: join(root, "npm-prefix"),
    // ...but keeps the machine's npm settings (registry, CA file), which live under the old prefix.
    npm_config_globalconfig: globalConfig,
    DENO_DIR: join(root, "deno-dir"),
    PORT: "0",
    RUST_BACKTRACE: "0",
    NO_COLOR: "1",
  };
  const started = performance.now();
  const child = spawn("npx", ["-y", "deno@2.9.6", "task", "dev"], {
    cwd: dir,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  // Phases, from the output: Deno fetched by npx and running its first task; the npm install
  // done (the server task starts); the server listening.
  const marks = { denoRunning: 0, installed: 0, listening: 0 };
  const onData = (d) => {
    out += d;
    const at = performance.now() - started;
    if (!marks.denoRunning && /Task (setup|dev)/.test(out)) marks.denoRunning = at;
    if (!marks.installed && /Task dev deno run/.test(out)) marks.installed = at;
    if (!marks.listening && /"msg":"listening"/.test(out)) marks.listening = at;
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  let exited = false;
  child.on("exit", () => exited = true);
  let url = "";
  let firstOk = 0;
  let dbStatus = 0;
  try {
    while (!firstOk) {
      if (exited) throw new Error(`server exited:\n${out}`);
      if (performance.now() - started > 600_000) throw new Error(`no 200 in 600 s:\n${out}`);
      if (!url) {
        const m = /"url":"(http:\/\/[^"]+)"/.exec(out);
        if (m) url = m[1].replace("0.0.0.0", "127.0.0.1");
      }
      if (url && await status(`${url}/healthz`) === 200) firstOk = performance.now();
      else await sleep(100);
    }
    const token = readFileSync(join(dir, ".data", "admin_token"), "utf8").trim();
    dbStatus = await status(`${url}/admin/v1/games`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Cold start" }),
    });
  } finally {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch { /* already gone */ }
    for (let i = 0; i < 50 && !exited; i++) await sleep(100);
    if (!exited) process.kill(-child.pid, "SIGKILL");
  }
  const du = execFileSync("du", ["-sm", join(dir, "node_modules")]).toString().split("\t")[0];
  // du counts allocated blocks (many small files round up); the files' own bytes as well.
  const apparent = execFileSync("du", ["-sm", "--apparent-size", join(dir, "node_modules")])
    .toString().split("\t")[0];
  const lock = JSON.parse(readFileSync(join(dir, "node_modules", ".package-lock.json"), "utf8"));
  const result = {
    ref,
    commit,
    firstOkSeconds: Math.round((firstOk - started) / 100) / 10,
    denoRunningSeconds: Math.round(marks.denoRunning / 100) / 10,
    installedSeconds: Math.round(marks.installed / 100) / 10,
    listeningSeconds: Math.round(marks.listening / 100) / 10,
    createGameStatus: dbStatus,
    nodeModulesMB: Number(du),
    nodeModulesApparentMB: Number(apparent),
    packages: Object.keys(lock.packages).filter((k) => k).length,
  };
  rmSync(root, { recursive: true, force: true });
  return result;
}

const results = [];
for (let round = 0; round < rounds; round++) {
  for (const ref of refs) {
    const r = await once(ref);
    results.push(r);
    console.log(JSON.stringify(r));
  }
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
for (const ref of refs) {
  const mine = results.filter((r) => r.ref === ref);
  console.log(
    `${ref}: median first 200 ${median(mine.map((r) => r.firstOkSeconds))} s over ${mine.length}` +
      ` runs (${mine.map((r) => r.firstOkSeconds).join(", ")}); node_modules ${
        mine[0].nodeModulesMB
      } MB on disk (${mine[0].nodeModulesApparentMB} MB of files), ${mine[0].packages} packages`,
  );
}
