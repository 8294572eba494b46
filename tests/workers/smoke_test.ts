/**
 * Workers smoke test: runs only when dev/run_tests.ts has booted the bundle under
 * `wrangler dev --local` (WORKER_URL set), against real PostgreSQL and Redis: once with
 * DATABASE_URL through the Neon bridge, once with no DATABASE_URL but a Hyperdrive binding
 * (WORKER_DATABASE names which). Redis is Upstash's REST API through its bridge in both.
 */
import assert from "node:assert/strict";
import { fetchJson } from "../fetch_json.ts";
import { openTcp } from "../../lib/db/tcp.ts";

const url = Deno.env.get("WORKER_URL");
const adminToken = Deno.env.get("WORKER_ADMIN_TOKEN") ?? "";
const ignore = !url;
const database = Deno.env.get("WORKER_DATABASE") ?? "";
const pgUrl = Deno.env.get("WORKER_PG_URL");

function json(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  return fetchJson(`${url}${path}`, method, body, headers);
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
  name: `workers: records land in PostgreSQL (${database}), read back by later requests`,
  ignore: ignore || !pgUrl,
  fn: async () => {
    const auth = { authorization: `Bearer ${adminToken}` };
    const name = `workers pg ${crypto.randomUUID().slice(0, 8)}`;
    const game = await json("POST", "/admin/v1/games", { name }, auth);
    assert.equal(game.status, 201);
    // Each request has its own database client on Workers: several in a row and at once.
    const reads = await Promise.all(
      Array.from({ length: 5 }, () => json("GET", "/admin/v1/games?limit=200", undefined, auth)),
    );
    for (const r of reads) assert.equal(r.status, 200, JSON.stringify(r.body));
    const pg = openTcp(pgUrl!, { max: 1 });
    try {
      const rows = await pg.query<{ name: string }>(
        "select name from games where game_index = $1",
        [game.body.gameIndex],
      );
      assert.deepEqual(rows.map((r) => r.name), [name]);
    } finally {
      await pg.close();
    }
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

async function seedGame(name: string) {
  const auth = { authorization: `Bearer ${adminToken}` };
  const game = await json("POST", "/admin/v1/games", { name }, auth);
  assert.equal(game.status, 201);
  return { gameIndex: game.body.gameIndex as number, auth };
}

Deno.test({
  name: "workers: OTP send and verify (Intl expiry, Upstash KV)",
  ignore,
  fn: async () => {
    const { gameIndex, auth } = await seedGame("workers otp");
    const key = await json(
      "POST",
      `/admin/v1/games/${gameIndex}/api-keys`,
      { scopes: ["otp"] },
      auth,
    );
    assert.equal(key.status, 201);
    const topic = `t-${crypto.randomUUID().slice(0, 8)}`;
    const created = await json("POST", `/admin/v1/games/${gameIndex}/otp-topics`, {
      topic,
      serviceName: "Smoke",
      mode: "provider",
    }, auth);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const headers = { authorization: `bearer ${key.body.apiKey}`, topic };
    const to = `0102${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
    const sent = await json("POST", "/otp/sms", { to, toCountryNo: "82" }, headers);
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.match(sent.body.expiry, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+09:00\[Asia\/Seoul\]$/);
    const wrong = await json("POST", "/otp/verify", { to, toCountryNo: "82", otp: "x" }, headers);
    assert.deepEqual(wrong.body, { result: false });
    const ok = await json(
      "POST",
      "/otp/verify",
      { to, toCountryNo: "82", otp: sent.body.otp },
      headers,
    );
    assert.deepEqual(ok.body, { result: true });
  },
});

Deno.test({
  name: "workers: text detection decrypts, detects and masks",
  ignore,
  fn: async () => {
    const { encryptEcb } = await import("../../lib/crypto/aes_ecb.ts");
    const { auth } = await seedGame("workers tads");
    const project = await json("POST", "/admin/v1/tads/projects", {
      name: "smoke",
      forbiddenWords: ["badword"],
      masking: { enabled: true },
    }, auth);
    assert.equal(project.status, 201, JSON.stringify(project.body));
    const text = "you b.a.d.w.o.r.d!";
    const r = await json("POST", "/cads2/send-text-data", {
      project_key: project.body.projectKey,
      text_log: {
        text_count: 1,
        text_array: [{
          time_stamp: "2026-01-01T00:00:00Z",
          text_info: encryptEcb(
            JSON.stringify({ user_id: "u1", lang_code: "en", text }),
            project.body.secretKey,
          ),
        }],
      },
    });
    assert.equal(r.body.result.result_code, "200", JSON.stringify(r.body));
    const [entry] = r.body.result.result_array;
    assert.equal(entry.tads_result.forbidden_yn, "1");
    assert.equal(entry.text_result.text, text);
    assert.equal(entry.text_result.masking_text, "you *************!");
  },
});

Deno.test({
  name: "workers: push dry run computes zone-grouped tasks",
  ignore,
  fn: async () => {
    const { gameIndex, auth } = await seedGame("workers push");
    const appid = `p-${crypto.randomUUID().slice(0, 8)}`;
    assert.equal(
      (await json("POST", `/admin/v1/games/${gameIndex}/apps`, { appid }, auth)).status,
      201,
    );
    const key = await json(
      "POST",
      `/admin/v1/games/${gameIndex}/api-keys`,
      { scopes: ["push"] },
      auth,
    );
    const r = await json("POST", "/push/campaigns", {
      company: "com2us",
      companyIndex: 1,
      description: "smoke",
      type: "B",
      registrant: { id: "op" },
      reservation: {
        localizing: true,
        startDate: "2030-03-29",
        endDate: "2030-03-29",
        time: "10:00",
        repeat: false,
      },
      continents: [],
      countries: ["KR", "US"],
      game: { gameindex: gameIndex, apps: [{ appindex: 1, appid }] },
      defaultLanguage: "en",
      notification: { en: { android: { title: "Hi", message: "Hello" } } },
      dryRun: true,
    }, { authorization: `bearer ${key.body.apiKey}` });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.ok(r.headers.get("uuid"));
    const offsets = new Set(
      Object.values(r.body.tasks).map((t) => (t as { gmtOffset: number }).gmtOffset),
    );
    assert.ok(offsets.has(9 * 3600), "Korea's tasks run at UTC+9");
    assert.ok(offsets.size >= 4, `the US spans several offsets: ${[...offsets]}`);
  },
});

Deno.test({
  name: "workers: /metrics renders the Prometheus text (the product's registry on workerd)",
  ignore,
  fn: async () => {
    const res = await fetch(`${url}/metrics`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    const text = await res.text();
    assert.equal(res.status, 200, text);
    assert.match(text, /^# HELP gp_http_requests_total /m);
    assert.match(text, /^gp_http_requests_total\{family="admin",route="\/healthz"/m);
  },
});

Deno.test({
  name: "workers: /docs serves Swagger UI and its bundled assets",
  ignore,
  fn: async () => {
    const page = await fetch(`${url}/docs`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /\/docs\/assets\/swagger-ui-bundle\.js/);
    const js = await fetch(`${url}/docs/assets/swagger-ui-bundle.js`);
    assert.equal(js.status, 200);
    assert.match(await js.text(), /SwaggerUIBundle/);
  },
});
