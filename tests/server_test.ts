import assert from "node:assert/strict";
import { loadConfig } from "../lib/config.ts";
import { schedulerMode } from "../server.ts";

Deno.test("scheduler: Deno.cron where it exists, the interval otherwise, as configured", () => {
  const config = (vars: Record<string, string>) => loadConfig(vars);
  assert.equal(schedulerMode(config({}), true), "cron");
  assert.equal(schedulerMode(config({}), false), "interval");
  assert.equal(schedulerMode(config({ SCHEDULER_INTERVAL_MS: "0" }), false), "off");
  assert.equal(schedulerMode(config({ SCHEDULER: "interval" }), true), "interval");
  assert.equal(schedulerMode(config({ SCHEDULER: "off" }), true), "off");
  assert.equal(schedulerMode(config({ SCHEDULER: "cron" }), true), "cron");
  assert.throws(() => schedulerMode(config({ SCHEDULER: "cron" }), false), /needs Deno\.cron/);
  assert.throws(() => loadConfig({ SCHEDULER: "sometimes" }), /SCHEDULER/);
});

Deno.test("a server run with --unstable-cron registers the scheduled work with Deno.cron", async () => {
  const root = new URL("..", import.meta.url).pathname;
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  const dataDir = await Deno.makeTempDir();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--unstable-cron", "server.ts"],
    cwd: root,
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "",
      DATA_DIR: dataDir,
      PORT: String(port),
      RUST_BACKTRACE: "0",
    },
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  try {
    while (!/"msg":"listening"/.test(out)) {
      const { value, done } = await reader.read();
      if (done) break;
      out += value;
    }
    assert.match(out, /"msg":"scheduler","mode":"cron","schedule":"\* \* \* \* \*"/);
  } finally {
    child.kill("SIGTERM");
    while (!(await reader.read()).done) { /* drain */ }
    await child.status;
    await Deno.remove(dataDir, { recursive: true });
  }
});
