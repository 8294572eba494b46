/**
 * Runs README's blockchain walk-throughs (the sh blocks after `<!-- walkthrough -->`, Polygon, and
 * `<!-- xpla-walkthrough -->`, XPLA) as written in bash: anvil or the local XPLA LCD, the server
 * on embedded defaults in a fresh data directory, and every step through the API. Only the ports
 * (free ones instead of 8545/1317/8787) and the Deno launcher (this same Deno instead of
 * `npx deno@2.9.6` / `npx -y deno@2.9.6`) are replaced. Embedded tier only: the walk-through
 * starts its own server, so the real tier's database settings do not apply to it. Each walk-through
 * must stop what it started: once the script has ended, no process of its session may be left.
 */
import assert from "node:assert/strict";

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** The walk-through block of README.md after `marker`. */
export function walkthroughScript(readme: string, marker = "<!-- walkthrough -->"): string {
  const start = readme.indexOf(marker);
  assert.ok(start >= 0, "README has no walk-through marker");
  const open = readme.indexOf("```sh\n", start);
  const close = readme.indexOf("\n```", open + 6);
  return readme.slice(open + 6, close + 1);
}

Deno.test({
  name: "README walk-through runs as written: Safe mint, lock, unlock and both converts succeed",
  ignore: Boolean(Deno.env.get("DATABASE_URL")),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const { code, stdout, context, leftover } = await runWalkthrough("<!-- walkthrough -->", [
      "8545",
    ]);
    assert.equal(code, 0, context);
    assert.deepEqual(leftover, [], "processes left running after the walk-through");
    const lines = stdout.trim().split("\n");
    const statuses = lines.slice(-6).sort();
    assert.deepEqual(statuses, [
      "CONVERT_TO_CURRENCY SUCCESS",
      "CONVERT_TO_TOKEN SUCCESS",
      "LOCK SUCCESS",
      "MINT SUCCESS",
      "MULTISIG_TX SUCCESS",
      "UNLOCK SUCCESS",
    ], context);
    assert.match(stdout, /"rawValue":"3000000000000000000"/, context);
  },
});

Deno.test({
  name:
    "README XPLA walk-through runs as written: mint, lock, unlock, converts and a 2-of-3 multisig mint succeed",
  ignore: Boolean(Deno.env.get("DATABASE_URL")),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const { code, stdout, context, leftover } = await runWalkthrough("<!-- xpla-walkthrough -->", [
      "1317",
    ]);
    assert.equal(code, 0, context);
    assert.deepEqual(leftover, [], "processes left running after the walk-through");
    const lines = stdout.trim().split("\n");
    assert.deepEqual(lines.slice(-7).sort(), [
      "CONVERT_TO_CURRENCY SUCCESS",
      "CONVERT_TO_CURRENCY SUCCESS",
      "CONVERT_TO_TOKEN SUCCESS",
      "LOCK SUCCESS",
      "MINT SUCCESS",
      "MINT SUCCESS",
      "UNLOCK SUCCESS",
    ], context);
    assert.match(stdout, /"rawValue":"3000000000000000000"/, context);
    // The wallet answer names the xpla1… address the script funded; a 0x… one is refused.
    assert.match(stdout, /"address":"xpla1[02-9ac-hj-np-z]{38}","balance":"10000000000000000000"/);
    assert.match(stdout, /"code":3,"message":"address must be an xpla1… address: invalid address"/);
  },
});

/** The processes of session `sid` (pid and command line), from /proc. */
function sessionProcesses(sid: number): string[] {
  const found: string[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      // pid (comm) state ppid pgrp session ...: comm may hold spaces, so split after its ")".
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (fields[0] === "Z" || Number(fields[3]) !== sid) continue;
      const cmd = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`).split("\0").join(" ");
      found.push(`${entry.name} ${cmd.trim()}`);
    } catch { /* gone meanwhile */ }
  }
  return found;
}

/**
 * Runs one README walk-through block in its own session with free ports and this Deno; answers
 * its exit code, its stdout, a failure context (stderr, the server's log) and the processes of
 * its session still running 15 s after it ended (what it started and did not stop).
 */
async function runWalkthrough(marker: string, ports: string[]) {
  const root = new URL("../", import.meta.url).pathname;
  const readme = await Deno.readTextFile(`${root}README.md`);
  let script = walkthroughScript(readme, marker)
    .replaceAll("8787", String(freePort()))
    .replaceAll("npx -y deno@2.9.6", Deno.execPath())
    .replaceAll("npx deno@2.9.6", Deno.execPath());
  for (const port of ports) script = script.replaceAll(port, String(freePort()));
  const dataDir = await Deno.makeTempDir({ prefix: "walkthrough-" });
  const file = `${dataDir}/walkthrough.sh`;
  await Deno.writeTextFile(file, script);
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: Deno.env.get("HOME") ?? dataDir,
    DATA_DIR: `${dataDir}/data`,
    NO_COLOR: "1",
    RUST_BACKTRACE: "0",
  };
  // Its own session, so anvil and the server (background jobs) are stopped with the group; the
  // output goes to files, which those jobs keep open after the script itself has ended.
  const outFile = `${dataDir}/stdout.txt`;
  const errFile = `${dataDir}/stderr.txt`;
  const child = new Deno.Command("setsid", {
    args: ["bash", "-c", `bash -eo pipefail "$0" > "$1" 2> "$2"`, file, outFile, errFile],
    cwd: root,
    clearEnv: true,
    env,
    stdout: "null",
    stderr: "null",
  }).spawn();
  const stopGroup = () =>
    new Deno.Command("kill", { args: ["-9", "--", `-${child.pid}`], stderr: "null" })
      .outputSync();
  const timer = setTimeout(stopGroup, 300_000);
  const { code } = await child.status;
  clearTimeout(timer);
  // A stopped server finishes its shutdown (a last flush of the request log) before it exits.
  let leftover = sessionProcesses(child.pid);
  for (let i = 0; i < 150 && leftover.length > 0; i++) {
    await new Promise((r) => setTimeout(r, 100));
    leftover = sessionProcesses(child.pid);
  }
  stopGroup();
  // Background jobs under `set -m` have process groups of their own: stop each by its pid.
  for (const line of sessionProcesses(child.pid)) {
    try {
      Deno.kill(Number(line.split(" ")[0]), "SIGKILL");
    } catch { /* gone meanwhile */ }
  }
  const stdout = await Deno.readTextFile(outFile);
  const stderr = await Deno.readTextFile(errFile);
  let log = "";
  try {
    log = await Deno.readTextFile(`${env.DATA_DIR}.log`);
  } catch { /* not started */ }
  const context = `stdout:\n${stdout}\nstderr:\n${stderr.slice(-3000)}\nserver:\n${
    log.slice(-3000)
  }`;
  await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  return { code, stdout, context, leftover };
}
