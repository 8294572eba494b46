/**
 * A real server process killed (SIGKILL) in the middle of a campaign and started again finishes
 * the campaign without sending any device twice. Runs on the tier's database: PGlite under a
 * fresh DATA_DIR (embedded) or the real PostgreSQL the tier set up (real).
 */
import assert from "node:assert/strict";
import { fcmToken, pushFakes } from "./fakes.ts";
import { generatePrivateJwk } from "../../../lib/auth/keys.ts";
import { randomToken } from "../../../lib/crypto/hashing.ts";

const fk = await pushFakes();
const DEVICES = 400;

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

async function startServer(env: Record<string, string>): Promise<Deno.ChildProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main.ts"],
    env,
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${env.PORT}/healthz`);
      await res.body?.cancel();
      if (res.ok) return child;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill("SIGKILL");
  throw new Error("server did not come up");
}

/** The next whole minute in Asia/Seoul (UTC+9, no DST) at least 15 s away: date and HH:mm. */
function nextSeoulMinute(): { date: string; time: string; atMs: number } {
  let at = Math.ceil(Date.now() / 60_000) * 60_000;
  if (at - Date.now() < 15_000) at += 60_000;
  const seoul = new Date(at + 9 * 3600_000).toISOString();
  return { date: seoul.slice(0, 10), time: seoul.slice(11, 16), atMs: at };
}

Deno.test({
  name: "restart: a server killed mid-campaign finishes it after a restart without a duplicate",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "push-restart-" });
    const adminToken = `restart-admin-${randomToken(12)}`;
    const env: Record<string, string> = {
      ...Deno.env.toObject(),
      PORT: String(freePort()),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      ADMIN_TOKEN: adminToken,
      JWT_PRIVATE_JWK: await generatePrivateJwk(),
      KMS_MASTER_KEY: `restart-master-${randomToken(16)}`,
      ALLOW_PRIVATE_OUTBOUND: "true",
      SCHEDULER_INTERVAL_MS: "250",
      PUSH_LEASE_MS: "3000",
      PUSH_CONCURRENCY: "4",
      LOG_LEVEL: "error",
      DENO_CERT: Deno.env.get("PUSH_FAKES_CA")!,
      RUST_BACKTRACE: "0",
    };
    const base = `http://127.0.0.1:${env.PORT}`;
    const call = async (method: string, path: string, body: unknown, auth: string) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${auth}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    };
    let server = await startServer(env);
    try {
      const game = await call("POST", "/admin/v1/games", { name: "restart" }, adminToken);
      const gameIndex = game.body.gameIndex;
      const appid = `app-${randomToken(6)}`;
      await call("POST", `/admin/v1/games/${gameIndex}/apps`, { appid }, adminToken);
      const key = await call("POST", `/admin/v1/games/${gameIndex}/api-keys`, {
        scopes: ["push"],
      }, adminToken);
      const apiKey = key.body.apiKey as string;
      const projectId = `restart-${randomToken(5)}`.toLowerCase().replace(/[^a-z0-9-]/g, "x");
      const serviceAccount = await fk.serviceAccount(projectId);
      const creds = await call("PUT", `/admin/v1/push/apps/${appid}/credentials`, {
        fcm: { serviceAccount },
      }, adminToken);
      assert.equal(creds.status, 200, JSON.stringify(creds.body));
      const tokens = Array.from({ length: DEVICES }, () => fcmToken());
      for (let i = 0; i < tokens.length; i += 20) {
        await Promise.all(
          tokens.slice(i, i + 20).map(async (token) => {
            const r = await call("POST", "/push/v1/devices", {
              appid,
              token,
              platform: "android",
              country: "KR",
            }, apiKey);
            assert.equal(r.status, 200);
          }),
        );
      }
      const when = nextSeoulMinute();
      const campaign = await call("POST", "/push/campaigns", {
        company: "com2us",
        companyIndex: 1,
        description: "restart",
        type: "B",
        registrant: { id: "op" },
        reservation: {
          localizing: false,
          startDate: when.date,
          endDate: when.date,
          time: when.time,
          repeat: false,
        },
        continents: [],
        countries: ["KR"],
        game: { gameindex: gameIndex, apps: [{ appindex: 1, appid }] },
        defaultLanguage: "en",
        notification: { en: { android: { title: "Hi", message: "Restarted" } } },
      }, apiKey);
      assert.equal(campaign.status, 200, JSON.stringify(campaign.body));
      const id = campaign.body.id as number;
      // Slow answers so the campaign is still going when the process dies.
      await fk.post("/_fake/delay", { ms: 15 });
      let atKill = 0;
      const killBy = when.atMs + 60_000;
      while (Date.now() < killBy) {
        atKill = (await fk.received({ project: projectId })).length;
        if (atKill >= 100) break;
        await new Promise((r) => setTimeout(r, 30));
      }
      server.kill("SIGKILL");
      await server.status;
      assert.ok(atKill >= 100 && atKill < DEVICES, `killed mid-campaign (${atKill} received)`);

      server = await startServer(env);
      let report: { status: number; counts: Record<string, number> } | null = null;
      const doneBy = Date.now() + 60_000;
      while (Date.now() < doneBy) {
        const r = await call("GET", `/push/campaigns/${id}`, undefined, apiKey);
        report = r.body;
        if (r.body.status === 3) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      assert.equal(
        report?.status,
        3,
        `campaign completed after the restart: ${JSON.stringify(report)}`,
      );
      const received = await fk.received({ project: projectId });
      const perToken = new Map<string, number>();
      for (const r of received) perToken.set(r.token, (perToken.get(r.token) ?? 0) + 1);
      const twice = [...perToken].filter(([, n]) => n > 1);
      assert.deepEqual(twice, [], "no device received the campaign twice");
      const c = report!.counts;
      assert.equal(c.targeted, DEVICES);
      assert.equal(c.sent + c.failed, DEVICES, "every device settled once");
      // Messages in flight at the kill count as failed ('unconfirmed'); some of them may have
      // reached the provider, none was sent again.
      assert.ok(received.length >= c.sent && received.length <= c.sent + c.failed);
      assert.ok(c.failed <= 20, `at most five chunks of 4 unconfirmed, got ${c.failed}`);
      assert.ok(received.length > atKill, "the restarted server went on sending");
    } finally {
      await fk.post("/_fake/delay", { ms: 0 });
      try {
        server.kill("SIGKILL");
        await server.status;
      } catch { /* already gone */ }
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});
