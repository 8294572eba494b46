/**
 * Workers smoke test: runs only when dev/run_tests.ts has booted the bundle under
 * `wrangler dev --local` (WORKER_URL set), against real PostgreSQL and Redis via the bridges.
 */
import assert from "node:assert/strict";

const url = Deno.env.get("WORKER_URL");
const adminToken = Deno.env.get("WORKER_ADMIN_TOKEN") ?? "";
const ignore = !url;

async function json(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { ...(body ? { "content-type": "application/json" } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

Deno.test({
  name: "workers: /healthz answers with a request id",
  ignore,
  fn: async () => {
    const r = await json("GET", "/healthz");
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { status: "ok" });
    assert.ok(r.headers.get("x-request-id"));
  },
});

Deno.test({
  name: "workers: /readyz reaches Postgres and Redis",
  ignore,
  fn: async () => {
    const r = await json("GET", "/readyz");
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.checks, { database: "ok", kv: "ok" });
  },
});

Deno.test({
  name: "workers: admin -> app -> token -> authenticated route",
  ignore,
  fn: async () => {
    const auth = { authorization: `Bearer ${adminToken}` };
    const game = await json("POST", "/admin/v1/games", { name: "workers smoke" }, auth);
    assert.equal(game.status, 201);
    const appid = `w-${crypto.randomUUID().slice(0, 8)}`;
    const app = await json("POST", `/admin/v1/games/${game.body.gameIndex}/apps`, { appid }, auth);
    assert.equal(app.status, 201);
    const tok = await json("POST", "/v2/auth-token", {
      clientId: app.body.clientId,
      clientSecret: app.body.clientSecret,
    });
    assert.equal(tok.body.code, 0);
    const list = await json(
      "GET",
      "/service/v1/contract/owner/0x0000000000000000000000000000000000000001",
      undefined,
      {
        authorization: `Bearer ${tok.body.data.accessToken}`,
        "x-network": "polygon",
        "x-appid": appid,
      },
    );
    assert.equal(list.status, 200);
    assert.equal(list.body.code, 0);
    const denied = await json("GET", "/service/v1/contract/owner/0x1", undefined, {
      authorization: `Bearer ${tok.body.data.accessToken}`,
      "x-network": "polygon",
      "x-appid": "someone-else",
    });
    assert.equal(denied.status, 403);
  },
});

Deno.test({
  name: "workers: the scheduled handler runs",
  ignore,
  fn: async () => {
    const res = await fetch(`${url}/__scheduled?cron=*+*+*+*+*`);
    await res.body?.cancel();
    assert.equal(res.status, 200);
  },
});
