/**
 * Three server processes on one PostgreSQL and one Redis keep the guarantees one keeps, with a
 * SIGKILL of one of them in the middle of each scenario: API key revocation, OTP limits, item
 * delivery, a push campaign, and transaction callbacks on anvil. Each scenario prints what it
 * counted. Run by `deno run -A dev/run_tests.ts multi` (which sets up the stores and the fakes).
 */
import assert from "node:assert/strict";
import pg from "pg";
import { startCluster } from "./cluster.ts";
import { dueCampaign, itemRequestBody, seedGame, seedPushDevices } from "./seed.ts";
import { startGameServer } from "../../dev/game_server.ts";
import { pushFakes } from "../routes/push/fakes.ts";
import { Anvil, TEST_CHAIN_ID } from "../lib/chain/anvil.ts";
import { randomToken } from "../../lib/crypto/hashing.ts";
import { API_KEY_CACHE_MS } from "../../lib/auth/api_keys.ts";
import { parseMetrics, sumOf } from "../metrics_scrape.ts";

const INSTANCES = 3;
const OTP_LIMIT = 30;
const ITEMS = 2_000;
const DEVICES = 10_000;
const PUSH_CONCURRENCY = 32;
const CALLBACKS = 120;
/** Callback requests time out after this; a claimed callback's lease is twice as long. */
const OUTBOUND_TIMEOUT_MS = 8_000;
/** How long after its answer a callback's outcome may take to be written on a loaded machine. */
const WRITE_GRACE_MS = 2_000;

const fk = await pushFakes();
const anvil = new Anvil(freePort());
await anvil.start();
const db = new pg.Client({ connectionString: Deno.env.get("DATABASE_URL") });
await db.connect();

const cluster = await startCluster(INSTANCES, {
  FCM_ENDPOINT: Deno.env.get("FCM_ENDPOINT")!,
  APNS_ENDPOINT: Deno.env.get("APNS_ENDPOINT")!,
  DENO_CERT: Deno.env.get("PUSH_FAKES_CA")!,
  PUSH_LEASE_MS: "3000",
  PUSH_CONCURRENCY: String(PUSH_CONCURRENCY),
  OTP_TOPIC_PER_MINUTE: String(OTP_LIMIT),
  ITEM_ATTEMPT_TIMEOUT_MS: "2000",
  ITEM_RETRY_BASE_MS: "200",
  ITEM_RETRY_MAX_MS: "2000",
  OUTBOUND_TIMEOUT_MS: String(OUTBOUND_TIMEOUT_MS),
  CALLBACK_RETRY_BASE_MS: "500",
  POLYGON_RPC_URL: anvil.url,
  POLYGON_CHAIN_ID: String(TEST_CHAIN_ID),
});

globalThis.addEventListener("unload", () => {
  cluster.stop();
  anvil.stop();
});

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it answers a value (not undefined) or `ms` pass. */
async function until<T>(
  what: string,
  ms: number,
  check: () => Promise<T | undefined> | T | undefined,
) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`${what} within ${ms} ms\n${cluster.tails()}`);
    await sleep(200);
  }
}

/** Runs `work` over `items` with at most `limit` at once. */
async function pool<T>(items: T[], limit: number, work: (item: T, i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(Array.from({ length: limit }, async () => {
    while (next < items.length) {
      const i = next++;
      await work(items[i], i);
    }
  }));
}

const options = { sanitizeResources: false, sanitizeOps: false };

Deno.test({
  name:
    "multi: an API key revoked on one instance is refused by the others within API_KEY_CACHE_MS",
  ...options,
  async fn() {
    const g = await seedGame(cluster, "revocation", ["items"]);
    const auth = { authorization: `Bearer ${g.apiKey}` };
    // Every instance has the key's row cached (the worst case for revocation).
    for (let i = 0; i < INSTANCES; i++) {
      const r = await cluster.call(i, "GET", "/items/v1/requests/none", { headers: auth });
      assert.equal(r.status, 404, `instance ${i} accepts the key: ${JSON.stringify(r.body)}`);
    }
    const revoked = await cluster.admin(0, "DELETE", `/admin/v1/api-keys/${g.keyId}`);
    assert.equal(revoked.status, 204);
    const at = Date.now();
    // The revoking instance refuses at once; then it dies and the others must refuse on their own.
    const here = await cluster.call(0, "GET", "/items/v1/requests/none", { headers: auth });
    assert.equal(here.status, 401);
    await cluster.kill(0);
    const delays: number[] = [];
    await Promise.all([1, 2].map(async (i) => {
      const refusedAt = await until(`instance ${i} refuses the revoked key`, 15_000, async () => {
        const r = await cluster.call(i, "GET", "/items/v1/requests/none", { headers: auth });
        return r.status === 401 ? Date.now() : undefined;
      });
      delays[i] = refusedAt - at;
    }));
    console.log(
      `revocation: refused at once by the revoking instance (then killed), after ` +
        `${delays[1]} ms and ${
          delays[2]
        } ms by the other two (documented: within ${API_KEY_CACHE_MS} ms)`,
    );
    for (const d of delays.filter((d) => d !== undefined)) {
      // The poll itself adds up to a few hundred ms on a loaded machine.
      assert.ok(d <= API_KEY_CACHE_MS + 1_500, `refused after ${d} ms`);
    }
    await cluster.restart(0);
  },
});

Deno.test({
  name: "multi: an OTP limit of N per minute is N in total across the instances",
  ...options,
  async fn() {
    const g = await seedGame(cluster, "otp limits", ["otp"]);
    const topic = `topic-${randomToken(6)}`;
    const made = await cluster.admin(0, "POST", `/admin/v1/games/${g.gameIndex}/otp-topics`, {
      topic,
      serviceName: "Multi",
      mode: "provider",
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const headers = { authorization: `Bearer ${g.apiKey}`, topic };
    // The limit is counted per calendar minute: start early in one so every send falls in it.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 35_000) await sleep(60_000 - intoMinute + 200);
    const minute = Math.floor(Date.now() / 60_000);
    const send = async (i: number) => {
      const n = crypto.getRandomValues(new Uint32Array(1))[0] % 10_000_000;
      const to = `0103${String(n).padStart(7, "0")}`;
      const r = await cluster.call(i, "POST", "/otp/sms", {
        headers,
        json: { to, toCountryNo: "82" },
      });
      return r.status;
    };
    const statuses: number[] = [];
    // A third of the sends on all three, then one instance is killed and the rest go to two.
    const first = Array.from({ length: OTP_LIMIT }, (_, k) => k % INSTANCES);
    await pool(first, 6, async (i) => void statuses.push(await send(i)));
    await cluster.kill(2);
    const rest = Array.from({ length: 2 * OTP_LIMIT }, (_, k) => k % 2);
    await pool(rest, 6, async (i) => void statuses.push(await send(i)));
    assert.equal(Math.floor(Date.now() / 60_000), minute, "all sends fell in one minute");
    const accepted = statuses.filter((s) => s === 200).length;
    const refused = statuses.filter((s) => s === 429).length;
    console.log(
      `OTP: limit ${OTP_LIMIT}/minute; ${statuses.length} sends on three instances (one killed ` +
        `after ${OTP_LIMIT}): ${accepted} accepted, ${refused} refused`,
    );
    assert.equal(accepted, OTP_LIMIT, "the limit holds in total, not per instance");
    assert.equal(refused, statuses.length - OTP_LIMIT);
    await cluster.restart(2);
  },
});

Deno.test({
  name: "multi: 2,000 item deliveries, one instance killed midway: every item granted exactly once",
  ...options,
  async fn() {
    const g = await seedGame(cluster, "items", ["items"]);
    const vendorWord = `vw-${randomToken(8)}`;
    const game = await startGameServer({ vendorWord, httpPort: 0, tcpPort: null });
    try {
      const put = await cluster.admin(0, "PUT", `/admin/v1/games/${g.gameIndex}/item-endpoint`, {
        transport: "http",
        url: game.url,
        vendorWord,
      });
      assert.equal(put.status, 200, JSON.stringify(put.body));
      const headers = { authorization: `Bearer ${g.apiKey}` };
      const bodies = Array.from({ length: ITEMS }, (_, k) => itemRequestBody(g.gameIndex, k));
      let killed = false;
      let resentRegistrations = 0;
      const t0 = performance.now();
      await pool(bodies, 24, async (body, k) => {
        if (!killed && k === ITEMS / 2) {
          killed = true;
          await cluster.kill(1);
        }
        // Registered on the instances in turn; one the kill cut off goes to the next one.
        for (let i = k % INSTANCES;; i = (i + 1) % INSTANCES) {
          if (!cluster.up(i)) continue;
          try {
            const r = await cluster.call(i, "POST", "/items/v1/requests", { headers, json: body });
            assert.equal(r.status, 202, JSON.stringify(r.body));
            return;
          } catch (err) {
            if (cluster.up(i)) throw err;
            resentRegistrations++;
          }
        }
      });
      const registeredMs = performance.now() - t0;
      const delivered = await until("every item request DELIVERED", 120_000, async () => {
        const { rows } = await db.query<{ status: string; n: number }>(
          "select status, count(*)::int as n from item_requests where game_index = $1 group by 1",
          [g.gameIndex],
        );
        const by = Object.fromEntries(
          rows.map((r: { status: string; n: number }) => [r.status, r.n]),
        );
        return by.DELIVERED === ITEMS ? by.DELIVERED as number : undefined;
      });
      const ms = performance.now() - t0;
      const applied = game.store.applied.map((r) => r.transactionId);
      const requests = game.raw.filter((r) => r.body.includes('"transactionId":"multi-')).length;
      console.log(
        `items: ${ITEMS} registered in ${Math.round(registeredMs)} ms across three instances ` +
          `(instance 1 killed after ${ITEMS / 2}; ${resentRegistrations} registrations cut off ` +
          `and sent to another instance), ${delivered} DELIVERED after ${Math.round(ms)} ms; ` +
          `the game granted ${applied.length} (${new Set(applied).size} distinct), ` +
          `received ${requests} requests (${requests - applied.length} repeats answered 20001)`,
      );
      assert.equal(applied.length, ITEMS, "every item granted");
      assert.equal(new Set(applied).size, ITEMS, "no item granted twice");
      for (const b of bodies.slice(0, 50)) {
        assert.deepEqual(game.store.itemsOf("vid", b.id), { gold: 1 });
      }
    } finally {
      await game.stop();
      await cluster.restart(1);
    }
  },
});

Deno.test({
  name:
    "multi: a push campaign of 10,000 devices, the sending instance killed: every device gets it, none shows it twice",
  ...options,
  async fn() {
    const g = await seedGame(cluster, "push", ["push"]);
    const { projectId, bundleId } = await seedPushDevices(cluster, db, g, {
      fakesUrl: fk.url,
      devices: DEVICES,
    });
    const headers = { authorization: `Bearer ${g.apiKey}` };
    const { id, uuid } = await dueCampaign(cluster, db, g);
    await fk.post("/_fake/delay", { ms: 5 });
    try {
      const accepted = async () =>
        (await fk.duplicates({ project: projectId })).messages +
        (await fk.duplicates({ topic: bundleId })).messages;
      await until(
        "a third of the campaign accepted",
        90_000,
        async () => (await accepted()) >= DEVICES / 3 ? true : undefined,
      );
      // The instance whose counters show it sending is the one killed.
      const sentBy = await Promise.all(Array.from({ length: INSTANCES }, async (_, i) => {
        const r = await cluster.call(i, "GET", "/metrics", {
          headers: { authorization: `Bearer ${cluster.adminToken}` },
        });
        return sumOf(parseMetrics(r.body as string), "gp_push_messages_total", { outcome: "sent" });
      }));
      const sender = sentBy.indexOf(Math.max(...sentBy));
      const atKill = await accepted();
      await cluster.kill(sender);
      const killedAt = performance.now();
      const report = await until("the campaign completed", 120_000, async () => {
        const r = await cluster.call((sender + 1) % INSTANCES, "GET", `/push/campaigns/${id}`, {
          headers,
        });
        return r.body.status === 3 ? r.body : undefined;
      });
      const afterKillMs = performance.now() - killedAt;
      const fcm = await fk.duplicates({ project: projectId });
      const apns = await fk.duplicates({ topic: bundleId });
      const twice = [...fcm.duplicates, ...apns.duplicates];
      const c = report.counts;
      console.log(
        `push: ${DEVICES} devices; instance ${sender} (sent ${sentBy[sender]}) killed at ` +
          `${atKill} accepted; campaign completed ${Math.round(afterKillMs)} ms later; devices ` +
          `reached ${fcm.tokens + apns.tokens}, messages accepted ${
            fcm.messages + apns.messages
          }, ` +
          `received twice ${twice.length} (each with one collapse id), resent ${c.resent}`,
      );
      assert.equal(fcm.tokens + apns.tokens, DEVICES, "every device received the campaign");
      assert.equal(c.sent, DEVICES);
      assert.ok(twice.length <= c.resent, "only messages sent again arrive twice");
      assert.ok(c.resent <= 10 * PUSH_CONCURRENCY, `resent ${c.resent} bounded by the window`);
      for (const d of twice) {
        assert.equal(d.copies, 2);
        assert.equal(d.collapseIds[0], d.collapseIds[1], "one collapse id: one notification");
        assert.match(d.collapseIds[0] ?? "", new RegExp(`^${uuid}\\.\\d+$`));
      }
      await cluster.restart(sender);
    } finally {
      await fk.post("/_fake/delay", { ms: 0 });
    }
  },
});

Deno.test({
  name:
    "multi: transaction callbacks, one instance killed while delivering: each arrives once, a repeat only when in flight, same webhook-id",
  ...options,
  async fn() {
    const g = await seedGame(cluster, "chain", ["items"]);
    const received: {
      requestId: string;
      webhookId: string | null;
      at: number;
      answeredAt: number;
    }[] = [];
    // Answers after 50 ms to 6 s (fixed per request), so a batch's callbacks finish at different
    // times: an outcome recorded per batch rather than per callback shows as a repeat of a
    // callback answered seconds before the kill.
    const sink = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
      const at = Date.now();
      const body = await req.json();
      const n = [...String(body.requestId)].reduce((a, ch) => (a * 31 + ch.charCodeAt(0)) >>> 0, 7);
      await sleep(50 + n % 5_950);
      received.push({
        requestId: body.requestId,
        webhookId: req.headers.get("webhook-id"),
        at,
        answeredAt: Date.now(),
      });
      return new Response(null, { status: 204 });
    });
    try {
      const token = await cluster.call(0, "POST", "/v2/auth-token", {
        json: { clientId: g.clientId, clientSecret: g.clientSecret },
      });
      assert.equal(token.status, 200, JSON.stringify(token.body));
      const chainHeaders = {
        authorization: `Bearer ${token.body.data.accessToken}`,
        "x-network": "polygon",
        "x-appid": g.appid,
      };
      const minter = await cluster.admin(0, "POST", "/admin/v1/wallets", {
        gameIndex: g.gameIndex,
      });
      assert.equal(minter.status, 201, JSON.stringify(minter.body));
      const from = minter.body.address as string;
      const funded = await cluster.admin(0, "POST", `/admin/v1/wallets/${from}/fund`, {
        amount: "100",
      });
      assert.equal(funded.status, 200, JSON.stringify(funded.body));
      const deployed = await cluster.admin(0, "POST", "/admin/v1/contracts/deploy", {
        network: "polygon",
        gameIndex: g.gameIndex,
        type: "nft",
        from,
        name: "Multi",
        symbol: "MLT",
      });
      assert.equal(deployed.status, 201, JSON.stringify(deployed.body));
      const nft = deployed.body.address as string;
      const to = `0x${"5a".repeat(20)}`;
      const callbackUrl = `http://127.0.0.1:${sink.addr.port}/callback`;
      const requestIds: string[] = [];
      // The mints wait in the mempool and are mined together, so their callbacks fall due at
      // once and each instance claims a full batch.
      await anvil.automine(false);
      await pool(Array.from({ length: CALLBACKS }, (_, k) => k), 6, async (k) => {
        const r = await cluster.call(k % INSTANCES, "POST", `/service/v1/nft/${nft}/mint`, {
          headers: chainHeaders,
          json: {
            playerId: "1",
            from,
            to,
            isSend: true,
            encoded: false,
            callbackUrl,
            royaltyPercentage: 1,
            mintMsg: [{ tokenId: String(k + 1), metadata: { name: `n${k}`, image: `i${k}` } }],
          },
        });
        assert.equal(r.status, 200, JSON.stringify(r.body));
        requestIds.push(r.body.data.requestId);
      });
      for (let i = 0; i < 3; i++) await anvil.mine();
      await anvil.automine(true);
      // Killed four seconds into the delivery of its batch (the callbacks with short answer times
      // answered, the others still waiting): the instance with the most callbacks in its counters.
      await until("the first callback answered", 120_000, () => received.length > 0 || undefined);
      await sleep(4_000);
      const sentBy = await Promise.all(Array.from({ length: INSTANCES }, async (_, i) => {
        const r = await cluster.call(i, "GET", "/metrics", {
          headers: { authorization: `Bearer ${cluster.adminToken}` },
        });
        return sumOf(parseMetrics(r.body as string), "gp_outbound_calls_total", {
          purpose: "tx-callback",
        });
      }));
      const victim = sentBy.indexOf(Math.max(...sentBy));
      await cluster.kill(victim);
      const killedAt = Date.now();
      await until("every request's callback", 120_000, () => {
        const got = new Set(received.map((r) => r.requestId));
        return requestIds.every((id) => got.has(id)) ? true : undefined;
      });
      // Repeats still on their way: one callback lease (2 x OUTBOUND_TIMEOUT_MS) and a margin.
      await sleep(2 * OUTBOUND_TIMEOUT_MS + 2_000);
      const byRequest = new Map<string, typeof received>();
      for (const r of received) {
        byRequest.set(r.requestId, [...(byRequest.get(r.requestId) ?? []), r]);
      }
      const repeated = [...byRequest.values()].filter((copies) => copies.length > 1);
      // In flight at the kill: its first copy was not answered, or its outcome could not be written
      // yet, when the process died.
      const inFlight = (first: (typeof received)[number]) =>
        first.answeredAt >= killedAt - WRITE_GRACE_MS;
      const early = repeated.filter((copies) => !inFlight(copies[0]));
      console.log(
        `callbacks: ${requestIds.length} requests on three instances; instance ${victim} killed ` +
          `after ${sentBy[victim]} callbacks; ${byRequest.size} requests called back, ` +
          `${received.length} callbacks received, ${repeated.length} repeated ` +
          `(${repeated.length - early.length} in flight at the kill, ${early.length} answered ` +
          `before it), ${repeated.filter((c) => c[0].webhookId !== c[1].webhookId).length} ` +
          `repeats with another webhook-id`,
      );
      console.log(
        `  first copies of the repeats were answered this long before the kill (ms): ` +
          repeated.map((c) => killedAt - c[0].answeredAt).sort((a, b) => a - b).join(" "),
      );
      assert.equal(byRequest.size, requestIds.length, "every request called back");
      for (const copies of byRequest.values()) {
        assert.ok(copies.length <= 2, `${copies[0].requestId} called back ${copies.length} times`);
        // Standard Webhooks' idempotency key: tx_<requestId> (a later report of another state
        // adds a version); a repeat carries the id of its first copy.
        for (const c of copies) assert.match(c.webhookId ?? "", new RegExp(`^tx_${c.requestId}`));
        assert.equal(new Set(copies.map((c) => c.webhookId)).size, 1, "one webhook-id");
      }
      assert.deepEqual(
        early.map((c) => c[0].requestId),
        [],
        "a callback answered before the kill is not sent again",
      );
      await cluster.restart(victim);
    } finally {
      await sink.shutdown();
    }
  },
});

Deno.test({
  name: "multi: stop the instances",
  ...options,
  async fn() {
    await cluster.stop();
    await anvil.stop();
    await db.end();
  },
});
