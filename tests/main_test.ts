/**
 * The README's path: `server.ts` (what `deno task dev` runs) served by Deno on embedded defaults
 * with an empty data directory, used as a new user would, then restarted to show that data and
 * generated secrets persist.
 */
import assert from "node:assert/strict";
import { fetchJson } from "./fetch_json.ts";
import { startServerProcess } from "./server_process.ts";

/**
 * Starts `server.ts` as a new user runs it: only PATH, HOME and the data directory (plus `extra`).
 * The server binds port 0 and its `listening` line gives the port, so no port is ever guessed; a
 * server that exits before listening fails with its last stdout and stderr lines.
 */
async function startServer(dataDir: string, extra: Record<string, string> = {}) {
  const output: string[] = [];
  const server = await startServerProcess({
    PATH: Deno.env.get("PATH") ?? "",
    HOME: Deno.env.get("HOME") ?? "/tmp",
    DATA_DIR: dataDir,
    SCHEDULER_INTERVAL_MS: "0",
    ...extra,
  }, { clearEnv: true, timeoutMs: 120_000, onLine: (line) => output.push(line) });
  return {
    url: server.url,
    output,
    printedAdminToken: output.map((l) => /admin token: (\S+)/.exec(l)?.[1]).find(Boolean),
    async stop() {
      const code = await server.kill("SIGTERM");
      assert.equal(code, 0, `SIGTERM shuts the server down cleanly:\n${server.tail()}`);
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

Deno.test("main.ts: a server that cannot start says why", async () => {
  const dataDir = await Deno.makeTempDir();
  try {
    await assert.rejects(
      () => startServer(dataDir, { LOG_LEVEL: "loud" }),
      /failed to start: invalid configuration: LOG_LEVEL/,
    );
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("main.ts: an ADMIN_TOKEN from the environment is never printed", async () => {
  const dataDir = await Deno.makeTempDir();
  const token = `env-admin-token-${crypto.randomUUID()}`;
  try {
    const server = await startServer(dataDir, { ADMIN_TOKEN: token });
    try {
      const games = await json(`${server.url}/admin/v1/games`, "GET", undefined, {
        authorization: `Bearer ${token}`,
      });
      assert.equal(games.status, 200, "the configured token is the admin token");
    } finally {
      await server.stop();
    }
    const all = server.output.join("\n");
    assert.ok(all.includes('"msg":"listening"'));
    assert.ok(!all.includes(token.slice(16)), "no line of stdout or stderr holds the token");
    assert.match(all, /admin token: set by ADMIN_TOKEN \(not printed\)/);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
