/**
 * The README's path: `server.ts` (what `deno task dev` runs) served by Deno on embedded defaults
 * with an empty data directory, used as a new user would, then restarted to show that data and
 * generated secrets persist.
 */
import assert from "node:assert/strict";
import { fetchJson } from "./fetch_json.ts";

const ROOT = new URL("..", import.meta.url).pathname;

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

async function startServer(dataDir: string) {
  const port = freePort();
  // Only what a new user has: no database, no Upstash, no secrets.
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "",
    HOME: Deno.env.get("HOME") ?? "/tmp",
    DATA_DIR: dataDir,
    PORT: String(port),
    SCHEDULER_INTERVAL_MS: "0",
    RUST_BACKTRACE: "0",
  };
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "server.ts"],
    cwd: ROOT,
    env,
    clearEnv: true,
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  const deadline = Date.now() + 60_000;
  while (!/"msg":"listening"/.test(out)) {
    if (Date.now() > deadline) throw new Error(`server did not start: ${out}`);
    const { value, done } = await reader.read();
    if (done) throw new Error(`server exited: ${out}`);
    out += value;
  }
  // Keep reading so the server never blocks on a full pipe; ends when the process exits.
  const drained = (async () => {
    while (!(await reader.read()).done) { /* discard */ }
  })();
  return {
    url: `http://127.0.0.1:${port}`,
    printedAdminToken: /admin token: (\S+)/.exec(out)?.[1],
    async stop() {
      child.kill("SIGTERM");
      const status = await child.status;
      await drained;
      assert.equal(status.code, 0, "SIGTERM shuts the server down cleanly");
    },
  };
}

const json = fetchJson;

Deno.test("main.ts: zero-configuration server works end to end and keeps its data", async () => {
  const dataDir = await Deno.makeTempDir();
  try {
    const first = await startServer(dataDir);
    let appid: string, clientId: string, clientSecret: string;
    try {
      assert.deepEqual((await json(`${first.url}/healthz`, "GET")).body, { status: "ok" });
      const stored = (await Deno.readTextFile(`${dataDir}/admin_token`)).trim();
      assert.equal(first.printedAdminToken, stored, "the printed admin token is the stored one");
      const auth = { authorization: `Bearer ${stored}` };
      const game = await json(`${first.url}/admin/v1/games`, "POST", { name: "My Game" }, auth);
      assert.equal(game.status, 201);
      appid = "my-app";
      const app = await json(`${first.url}/admin/v1/games/${game.body.gameIndex}/apps`, "POST", {
        appid,
      }, auth);
      assert.equal(app.status, 201);
      ({ clientId, clientSecret } = app.body);
    } finally {
      await first.stop();
    }
    const second = await startServer(dataDir);
    try {
      assert.equal(second.printedAdminToken, first.printedAdminToken, "admin token persists");
      const tok = await json(`${second.url}/v2/auth-token`, "POST", { clientId, clientSecret });
      assert.equal(tok.body.code, 0, "the app registered before the restart still authenticates");
      const list = await json(
        `${second.url}/service/v1/contract/owner/0x0000000000000000000000000000000000000001`,
        "GET",
        undefined,
        {
          authorization: `Bearer ${tok.body.data.accessToken}`,
          "x-network": "polygon",
          "x-appid": appid,
        },
      );
      assert.equal(list.status, 200);
      assert.equal(list.body.code, 0);
    } finally {
      await second.stop();
    }
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
