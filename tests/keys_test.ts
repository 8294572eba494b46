/**
 * README's deployment path: `deno task keys` prints the secrets, and a server given exactly those
 * lines plus a database (the real tier's) boots in production mode and accepts the admin token.
 */
import assert from "node:assert/strict";
import { fetchJson } from "./fetch_json.ts";
import { TIER_VARIABLES } from "./harness.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const databaseUrl = Deno.env.get("DATABASE_URL");

/** Parses `NAME='value'` lines (the dotenv form the task prints). */
function parseDotenv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.trim().split("\n")) {
    const m = /^([A-Z_]+)='([^']*)'$/.exec(line);
    if (!m) throw new Error(`not a NAME='value' line: ${line}`);
    out[m[1]] = m[2];
  }
  return out;
}

Deno.test("deno task keys prints four fresh secrets in dotenv form", async () => {
  const run = () =>
    new Deno.Command(Deno.execPath(), { args: ["run", "dev/keys.ts"], cwd: ROOT }).output();
  const [a, b] = await Promise.all([run(), run()]);
  const first = parseDotenv(new TextDecoder().decode(a.stdout));
  const second = parseDotenv(new TextDecoder().decode(b.stdout));
  assert.deepEqual(Object.keys(first), [
    "JWT_PRIVATE_JWK",
    "KMS_MASTER_KEY",
    "ADMIN_TOKEN",
    "METRICS_TOKEN",
  ]);
  const jwk = JSON.parse(first.JWT_PRIVATE_JWK);
  assert.equal(jwk.kty, "EC");
  assert.equal(jwk.crv, "P-256");
  assert.ok(jwk.d);
  for (const k of Object.keys(first)) assert.notEqual(first[k], second[k], `${k} is fresh`);
});

Deno.test({
  name: "the printed keys boot a non-embedded server (real tier)",
  ignore: !databaseUrl,
  async fn() {
    const printed = await new Deno.Command(Deno.execPath(), {
      args: ["run", "dev/keys.ts"],
      cwd: ROOT,
    }).output();
    const keys = parseDotenv(new TextDecoder().decode(printed.stdout));
    const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (l.addr as Deno.NetAddr).port;
    l.close();
    const env: Record<string, string> = {
      ...keys,
      DATABASE_URL: databaseUrl!,
      PORT: String(port),
      SCHEDULER: "off",
      ALLOW_PRIVATE_OUTBOUND: "true",
      PATH: Deno.env.get("PATH") ?? "",
      RUST_BACKTRACE: "0",
    };
    for (const k of TIER_VARIABLES) {
      const v = Deno.env.get(k);
      if (v) env[k] = v;
    }
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "server.ts"],
      cwd: ROOT,
      env,
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const url = `http://127.0.0.1:${port}`;
    try {
      let ready = 0;
      for (let i = 0; i < 120 && ready !== 200; i++) {
        await new Promise((r) => setTimeout(r, 500));
        ready = await fetch(`${url}/readyz`).then(async (r) => (await r.body?.cancel(), r.status))
          .catch(() => 0);
      }
      assert.equal(ready, 200);
      const game = await fetchJson(`${url}/admin/v1/games`, "POST", { name: "keys" }, {
        authorization: `Bearer ${keys.ADMIN_TOKEN}`,
      });
      assert.equal(game.status, 201);
      const metrics = await fetch(`${url}/metrics`, {
        headers: { authorization: `Bearer ${keys.METRICS_TOKEN}` },
      });
      assert.equal(metrics.status, 200);
      await metrics.body?.cancel();
    } finally {
      child.kill("SIGTERM");
      const out = await child.output();
      const log = new TextDecoder().decode(out.stdout);
      assert.doesNotMatch(log, /admin token:/, "a configured server prints no token");
      assert.match(log, /"msg":"drained"/);
      // The TCP tier's server talks to PostgreSQL and Redis itself, with no bridge.
      if (Deno.env.get("REDIS_URL")) {
        assert.match(log, /"msg":"stores".*"database":"tcp".*"kv":"redis"/);
      }
    }
  },
});
