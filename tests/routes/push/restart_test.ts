/**
 * A real server process killed (SIGKILL) after about 1,000 of a campaign's 5,000 devices, then
 * started again: every device receives the campaign, and only messages whose outcome was not
 * written at the kill are sent again (counted as `resent`), each copy with the same collapse id.
 * Runs on the tier's database: PGlite under a fresh DATA_DIR (embedded) or the real PostgreSQL
 * the tier set up (real).
 */
import assert from "node:assert/strict";
import { apnsToken, fcmToken, pushFakes } from "./fakes.ts";
import { generatePrivateJwk } from "../../../lib/auth/keys.ts";
import { randomToken } from "../../../lib/crypto/hashing.ts";
import { type ServerProcess, startServerProcess } from "../../server_process.ts";

const fk = await pushFakes();
const DEVICES = 5_000;
const KILL_AT = 1_000;
const CONCURRENCY = 16;

/** The next whole minute in Asia/Seoul (UTC+9, no DST) at least 10 s away: date and HH:mm. */
function nextSeoulMinute(): { date: string; time: string; atMs: number } {
  let at = Math.ceil(Date.now() / 60_000) * 60_000;
  if (at - Date.now() < 10_000) at += 60_000;
  const seoul = new Date(at + 9 * 3600_000).toISOString();
  return { date: seoul.slice(0, 10), time: seoul.slice(11, 16), atMs: at };
}

Deno.test({
  name:
    "restart: killed at 1,000 of 5,000 devices, every device gets the campaign; only messages in flight are sent twice, with one collapse id",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "push-restart-" });
    const adminToken = `restart-admin-${randomToken(12)}`;
    const env: Record<string, string> = {
      ...Deno.env.toObject(),
      DATA_DIR: dataDir,
      ADMIN_TOKEN: adminToken,
      JWT_PRIVATE_JWK: await generatePrivateJwk(),
      KMS_MASTER_KEY: `restart-master-${randomToken(16)}`,
      ALLOW_PRIVATE_OUTBOUND: "true",
      SCHEDULER_INTERVAL_MS: "250",
      PUSH_LEASE_MS: "2000",
      PUSH_CONCURRENCY: String(CONCURRENCY),
      LOG_LEVEL: "info",
      LOG_REQUEST_SAMPLE: "0",
      DENO_CERT: Deno.env.get("PUSH_FAKES_CA")!,
    };
    let server: ServerProcess = await startServerProcess(env, { entry: "main.ts" });
    const call = async (method: string, path: string, body: unknown, auth: string) => {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${auth}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    };
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
      const bundleId = `com.example.${projectId.replace(/-/g, "")}`;
      const serviceAccount = await fk.serviceAccount(projectId);
      const apnsKey = await fk.apnsKey(bundleId);
      const creds = await call("PUT", `/admin/v1/push/apps/${appid}/credentials`, {
        fcm: { serviceAccount },
        apns: { ...apnsKey, bundleId, production: false },
      }, adminToken);
      assert.equal(creds.status, 200, JSON.stringify(creds.body));
      // 70 % Android through FCM, 30 % iOS straight to APNs.
      const t0 = performance.now();
      const devices = Array.from(
        { length: DEVICES },
        (_, i) =>
          i % 10 < 7
            ? { token: fcmToken(), platform: "android" }
            : { token: apnsToken(), platform: "ios" },
      );
      for (let i = 0; i < devices.length; i += 50) {
        await Promise.all(
          devices.slice(i, i + 50).map(async (d) => {
            const r = await call(
              "POST",
              "/push/v1/devices",
              { appid, country: "KR", ...d },
              apiKey,
            );
            assert.equal(r.status, 200, JSON.stringify(r.body));
          }),
        );
      }
      console.log(`${DEVICES} devices registered in ${Math.round(performance.now() - t0)} ms`);
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
        notification: {
          en: {
            android: { title: "Hi", message: "Restarted" },
            ios: { title: "Hi", message: "Restarted" },
          },
        },
      }, apiKey);
      assert.equal(campaign.status, 200, JSON.stringify(campaign.body));
      const id = campaign.body.id as number;
      const uuid = campaign.body.uuid as string;
      // Slow answers, so the campaign is still going when the process dies.
      await fk.post("/_fake/delay", { ms: 10 });
      const accepted = async () =>
        (await fk.duplicates({ project: projectId })).messages +
        (await fk.duplicates({ topic: bundleId })).messages;
      let atKill = 0;
      const killBy = when.atMs + 90_000;
      while (Date.now() < killBy) {
        atKill = await accepted();
        if (atKill >= KILL_AT) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      await server.kill("SIGKILL");
      assert.ok(atKill >= KILL_AT && atKill < DEVICES / 2, `killed mid-campaign (${atKill})`);

      server = await startServerProcess(env, { entry: "main.ts" });
      let report: { status: number; counts: Record<string, number> } | null = null;
      const doneBy = Date.now() + 120_000;
      while (Date.now() < doneBy) {
        const r = await call("GET", `/push/campaigns/${id}`, undefined, apiKey);
        report = r.body;
        if (r.body.status === 3) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      assert.equal(report?.status, 3, `campaign completed after the restart: ${server.tail()}`);
      const fcm = await fk.duplicates({ project: projectId });
      const apns = await fk.duplicates({ topic: bundleId });
      assert.equal(fcm.tokens + apns.tokens, DEVICES, "every device received the campaign");
      const twice = [...fcm.duplicates, ...apns.duplicates];
      const c = report!.counts;
      assert.deepEqual(
        { targeted: c.targeted, sent: c.sent, failed: c.failed, invalid: c.invalid },
        { targeted: DEVICES, sent: DEVICES, failed: 0, invalid: 0 },
        "every device counted once",
      );
      assert.ok(c.resent > 0, "the restarted server sent the window again");
      // Messages in flight at the kill still reach the fake (it answers a request whose client
      // died), so some devices get a second copy: the collapse ids below are checked on them.
      assert.ok(twice.length > 0, "some messages were in flight at the kill");
      assert.ok(
        twice.length <= c.resent,
        `only messages sent again can arrive twice (${twice.length} of ${c.resent})`,
      );
      // What may have been in flight: the holes (at most the concurrency), the messages in flight
      // above the cursor (as many) and the window reserved ahead of them (at most 8 x).
      assert.ok(c.resent <= 10 * CONCURRENCY, `resent ${c.resent} is bounded by the window`);
      console.log(
        `killed at ${atKill} of ${DEVICES} accepted; after the restart: ${c.resent} resent, ` +
          `${twice.length} devices received it twice`,
      );
      for (const d of twice) {
        assert.equal(d.copies, 2, `${d.token} received at most twice`);
        assert.equal(d.collapseIds[0], d.collapseIds[1], "both copies carry one collapse id");
        assert.match(d.collapseIds[0] ?? "", new RegExp(`^${uuid}\\.\\d+$`));
      }
    } finally {
      await fk.post("/_fake/delay", { ms: 0 });
      await server.kill("SIGKILL");
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});
