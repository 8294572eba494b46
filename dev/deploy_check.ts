/**
 * `deno task deploy:check`: proves the Deno Deploy entry (server.ts) is deployable.
 *   1. server.ts and main.ts type-check.
 *   2. server.ts's module graph is static: the embedded-mode modules, the TCP dialer, the
 *      resolver and the Redis TCP adapter are reached by literal imports (Deno Deploy analyses the graph before running);
 *      main.ts's graph (the Workers bundle) contains none of them.
 *   3. server.ts boots in production mode and answers /healthz with no permission to write files
 *      or start subprocesses (what Deno Deploy grants), SCHEDULER=auto falling back as it must.
 * Prints one line per step; exits non-zero on the first failure.
 */
import { freshKeys } from "./keys.ts";

const root = new URL("..", import.meta.url).pathname;
const deno = Deno.execPath();

async function run(args: string[], env?: Record<string, string>) {
  const out = await new Deno.Command(deno, {
    args,
    cwd: root,
    env,
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  return {
    ok: out.success,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

function fail(step: string, detail: string): never {
  console.error(`deploy:check: ${step} failed\n${detail.slice(0, 2000)}`);
  Deno.exit(1);
}

const checked = await run(["check", "server.ts", "main.ts"]);
if (!checked.ok) fail("type check", checked.stderr);
console.log("ok  server.ts and main.ts type-check");

async function graph(entry: string): Promise<string[]> {
  const info = await run(["info", "--json", entry]);
  if (!info.ok) fail(`deno info ${entry}`, info.stderr);
  const modules = (JSON.parse(info.stdout).modules ?? []) as { specifier: string }[];
  return modules.map((m) => m.specifier).filter((s) => s.startsWith("file:"))
    .map((s) => s.slice(`file://${root}`.length));
}
const denoOnly = [
  "lib/embedded.ts",
  "lib/items/socket_deno.ts",
  "lib/outbound/resolve_deno.ts",
  "lib/kv/tcp.ts",
];
const serverGraph = await graph("server.ts");
const missing = denoOnly.filter((m) => !serverGraph.includes(m));
if (missing.length) fail("static graph", `server.ts does not import literally: ${missing}`);
const workerGraph = await graph("main.ts");
const leaked = [...denoOnly, "server.ts"].filter((m) => workerGraph.includes(m));
if (leaked.length) fail("Workers graph", `main.ts pulls in Deno-only modules: ${leaked}`);
console.log(`ok  server.ts reaches ${serverGraph.length} local modules by literal imports`);
console.log("ok  main.ts (Workers) graph has no Deno-only module");

const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
const port = (listener.addr as Deno.NetAddr).port;
listener.close();
const keys = await freshKeys();
const child = new Deno.Command(deno, {
  args: [
    "run",
    "--allow-net",
    "--allow-env",
    `--allow-read=${root}`,
    "--deny-write",
    "--deny-run",
    "--deny-ffi",
    "server.ts",
  ],
  cwd: root,
  clearEnv: true,
  env: {
    ...keys,
    // A database URL that is never reached: nothing at start needs the database then.
    DATABASE_URL: "postgres://deploy:check@127.0.0.1:9/none",
    MIGRATE_ON_START: "false",
    PORT: String(port),
    HOST: "127.0.0.1",
    LOG_LEVEL: "info",
    PATH: Deno.env.get("PATH") ?? "",
    RUST_BACKTRACE: "0",
  },
  stdout: "piped",
  stderr: "piped",
}).spawn();
let healthy = false;
for (let i = 0; i < 120 && !healthy; i++) {
  await new Promise((r) => setTimeout(r, 500));
  try {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    healthy = res.ok;
    await res.body?.cancel();
  } catch { /* not up yet */ }
}
child.kill("SIGTERM");
const out = await child.output();
const log = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
if (!healthy) fail("restricted boot", log);
if (!/"msg":"drained"/.test(log)) fail("graceful shutdown", log);
if (/deno serve/.test(log)) fail("start-up", `a start-up warning remains:\n${log}`);
console.log("ok  server.ts serves /healthz without write or subprocess permission, and drains");
