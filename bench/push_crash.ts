/**
 * A push campaign of N devices (70 % Android through FCM, 30 % iOS through APNs over HTTP/2) sent
 * by a server process (`server.ts`, real PostgreSQL through the Neon bridge) to the local provider
 * fakes, once without a crash and once SIGKILLed at a share of the campaign and started again at
 * once. Reports devices reached, devices that got two copies (and that each pair had one collapse
 * id), messages counted as resent, and the time the crash cost (the crashed run's time from the
 * first message to the campaign's completion, minus the clean run's). Modes alternate by round.
 *
 *   deno run -A bench/push_crash.ts [--devices 100000] [--kill-at 0.3] [--rounds 1]
 */
import pg from "pg";
import { cliFlag } from "../dev/cli_flag.ts";
import { median, runScript, spawnDeno, useTier } from "./real_tier.ts";
import { type Cluster, startCluster } from "../tests/multi/cluster.ts";
import { randomToken } from "../lib/crypto/hashing.ts";
import type { Duplicates } from "../tests/routes/push/fakes.ts";

const DEVICES = Number(cliFlag("devices") ?? 100_000);
const KILL_AT = Number(cliFlag("kill-at") ?? 0.3);
const ROUNDS = Number(cliFlag("rounds") ?? 1);
const LEASE_MS = 2_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function post(url: string, body: unknown) {
  return await (await fetch(url, { method: "POST", body: JSON.stringify(body) })).json();
}

/** Sets up a game with FCM and APNs credentials at the fakes and N devices; answers the ids. */
async function seed(cluster: Cluster, db: pg.Client, fakesUrl: string) {
  const g = (await cluster.admin(0, "POST", "/admin/v1/games", { name: "bench" })).body;
  const appid = `bench-${randomToken(6).toLowerCase().replace(/[^a-z0-9]/g, "x")}`;
  await cluster.admin(0, "POST", `/admin/v1/games/${g.gameIndex}/apps`, { appid });
  const key = (await cluster.admin(0, "POST", `/admin/v1/games/${g.gameIndex}/api-keys`, {
    scopes: ["push"],
  })).body;
  const projectId = `bench-${randomToken(5)}`.toLowerCase().replace(/[^a-z0-9-]/g, "x");
  const bundleId = `com.example.${projectId.replace(/-/g, "")}`;
  const serviceAccount = await post(`${fakesUrl}/_fake/fcm/accounts`, { projectId });
  const apnsKey = await post(`${fakesUrl}/_fake/apns/keys`, { bundleId });
  const creds = await cluster.admin(0, "PUT", `/admin/v1/push/apps/${appid}/credentials`, {
    fcm: { serviceAccount },
    apns: { ...apnsKey, bundleId, production: false },
  });
  if (creds.status !== 200) throw new Error(`credentials: ${JSON.stringify(creds.body)}`);
  await db.query(
    `insert into push_devices (game_index, appid, token, platform, country, zone, language)
     select $1, $2,
       case when g % 10 < 7 then 'b' || g || ':APA91b' || md5(g::text || $4)
            else md5(g::text || $4) || md5((g + 1)::text || $4) end,
       case when g % 10 < 7 then 'android' else 'ios' end,
       'KR', 'Asia/Seoul', 'en'
     from generate_series(1, $3) as g`,
    [g.gameIndex, appid, DEVICES, projectId],
  );
  return {
    gameIndex: g.gameIndex as number,
    appid,
    apiKey: key.apiKey as string,
    projectId,
    bundleId,
  };
}

async function round(mode: "clean" | "crash", db: pg.Client, fakesUrl: string) {
  const cluster = await startCluster(1, {
    FCM_ENDPOINT: Deno.env.get("FCM_ENDPOINT")!,
    APNS_ENDPOINT: Deno.env.get("APNS_ENDPOINT")!,
    DENO_CERT: Deno.env.get("PUSH_FAKES_CA")!,
    PUSH_LEASE_MS: String(LEASE_MS),
    // Info, as a server runs: the port is read from the `listening` line; both modes write the
    // same outbound lines.
    LOG_LEVEL: "info",
    SCHEDULER_INTERVAL_MS: "250",
  });
  try {
    const s = await seed(cluster, db, fakesUrl);
    const headers = { authorization: `Bearer ${s.apiKey}` };
    const seoul = new Date(Date.now() + 9 * 3600_000 + 120_000).toISOString();
    const campaign = await cluster.call(0, "POST", "/push/campaigns", {
      headers,
      json: {
        company: "com2us",
        companyIndex: 1,
        description: "bench",
        type: "B",
        registrant: { id: "bench" },
        reservation: {
          localizing: false,
          startDate: seoul.slice(0, 10),
          endDate: seoul.slice(0, 10),
          time: seoul.slice(11, 16),
          repeat: false,
        },
        continents: [],
        countries: ["KR"],
        game: { gameindex: s.gameIndex, apps: [{ appindex: 1, appid: s.appid }] },
        defaultLanguage: "en",
        notification: {
          en: {
            android: { title: "Hi", message: "Bench" },
            ios: { title: "Hi", message: "Bench" },
          },
        },
      },
    });
    if (campaign.status !== 200) throw new Error(`campaign: ${JSON.stringify(campaign.body)}`);
    const id = campaign.body.id;
    const tally = async (q: string): Promise<Duplicates> =>
      await (await fetch(`${fakesUrl}/_fake/duplicates?${q}`)).json();
    const accepted = async () =>
      (await tally(`project=${s.projectId}`)).messages +
      (await tally(`topic=${s.bundleId}`)).messages;
    // The schedule is not what is measured: the slice is due at once.
    await db.query("update push_slices set send_at = now() where campaign_id = $1", [id]);
    while ((await accepted()) === 0) await sleep(20);
    const t0 = performance.now();
    // Messages accepted by the fakes every 5 s: the rate before and after the crash.
    const timeline: number[] = [];
    const sampler = setInterval(async () => timeline.push(await accepted()), 5_000);
    let killedAt = 0;
    let restartMs = 0;
    if (mode === "crash") {
      while ((await accepted()) < KILL_AT * DEVICES) await sleep(50);
      killedAt = await accepted();
      await cluster.kill(0);
      const r0 = performance.now();
      await cluster.restart(0);
      restartMs = performance.now() - r0;
    }
    let report;
    for (;;) {
      report = (await cluster.call(0, "GET", `/push/campaigns/${id}`, { headers })).body;
      if (report.status === 3) break;
      await sleep(100);
    }
    const ms = performance.now() - t0;
    clearInterval(sampler);
    const fcm = await tally(`project=${s.projectId}`);
    const apns = await tally(`topic=${s.bundleId}`);
    const twice = [...fcm.duplicates, ...apns.duplicates];
    const pairsOneId = twice.every((d) => new Set(d.collapseIds).size === 1);
    return {
      ms,
      killedAt,
      restartMs,
      reached: fcm.tokens + apns.tokens,
      messages: fcm.messages + apns.messages,
      twice: twice.length,
      maxCopies: Math.max(1, ...twice.map((d) => d.copies)),
      pairsOneId,
      resent: report.counts.resent as number,
      timeline,
    };
  } finally {
    await cluster.stop();
  }
}

async function main() {
  const printed = await spawnDeno(["dev/push_fakes.ts", "--count-only", "--json"]);
  const fakes = JSON.parse(printed.split("\n")[0]);
  for (const [k, v] of Object.entries(fakes)) Deno.env.set(k, v as string);
  await useTier("real");
  const db = new pg.Client({ connectionString: Deno.env.get("DATABASE_URL") });
  await db.connect();
  const load = () => Deno.loadavg().map((l) => l.toFixed(2)).join(" ");
  console.log(`push campaign of ${DEVICES} devices, SIGKILL at ${KILL_AT * 100} %; load ${load()}`);
  const times: Record<string, number[]> = { clean: [], crash: [] };
  try {
    for (let r = 0; r < ROUNDS; r++) {
      for (const mode of r % 2 === 0 ? ["clean", "crash"] as const : ["crash", "clean"] as const) {
        const x = await round(mode, db, fakes.PUSH_FAKES_URL);
        times[mode].push(x.ms);
        console.log(
          `round ${r + 1} ${mode}: ${(x.ms / 1000).toFixed(1)} s from the first message to ` +
            `completion` +
            (mode === "crash"
              ? ` (killed at ${x.killedAt} accepted, restarted in ${Math.round(x.restartMs)} ms)`
              : "") +
            `; devices reached ${x.reached} of ${DEVICES}, messages accepted ${x.messages}, ` +
            `devices with two copies ${x.twice} (at most ${x.maxCopies} copies; ` +
            `${x.pairsOneId ? "each pair with one collapse id" : "SOME PAIRS WITH TWO IDS"}), ` +
            `resent ${x.resent}; load ${load()}`,
        );
        console.log(`  accepted every 5 s: ${x.timeline.join(" ")}`);
      }
    }
    const lost = median(times.crash) - median(times.clean);
    console.log(
      `median clean ${(median(times.clean) / 1000).toFixed(1)} s, crash ` +
        `${(median(times.crash) / 1000).toFixed(1)} s: the crash cost ${
          (lost / 1000).toFixed(1)
        } s`,
    );
  } finally {
    await db.end();
  }
}

await runScript(main);
