/**
 * End-to-end push delivery benchmark: one bulk campaign to N devices (70 % Android through FCM
 * v1, 30 % iOS through APNs over HTTP/2) sent by the dispatcher to the local provider fakes, on
 * real PostgreSQL through the Neon bridge; side by side with a bare loop of the same HTTP calls
 * (the same HTTP clients, one OAuth token, one provider token, 64 concurrent requests, the same
 * request bytes for the same devices, each body serialized with JSON.stringify; no database, no
 * bookkeeping). Each measurement runs in a fresh process so peak memory is its own; each reports
 * its CPU per message, and the CPU the Neon bridge and the database's PostgreSQL backends spent
 * during it.
 *
 *   deno task bench:push-delivery [devices...] [--rounds=N]   (default: 10000 100000, 1 round)
 *   BENCH_V8_FLAGS=--max-old-space-size=96 deno task bench:push-delivery 100000
 *
 * Needs PostgreSQL on 127.0.0.1:5432 (TEST_PG_URL) like the real test tier.
 */
import pg from "pg";
import { importPKCS8, SignJWT } from "jose";
import process from "node:process";
import { createHash } from "node:crypto";
import { median } from "./real_tier.ts";

const CONCURRENCY = 64;
/** The campaign's languages, by device number modulo 3 (as the devices are seeded). */
const LANGUAGES = ["en", "ko", "ja"];
const TEXT: Record<string, { title: string; message: string; imageUrl: string }> = Object
  .fromEntries(
    [["en", "Hello"], ["ko", "안녕"], ["ja", "こんにちは"]].map(([l, t]) => [l, {
      title: t,
      message: `${t} event`,
      imageUrl: "https://cdn.example.com/a.png",
    }]),
  );
const DUE = Date.UTC(2027, 4, 3, 1) + 1000; // 2027-05-03 10:00 Asia/Seoul

interface Result {
  mode: string;
  devices: number;
  ms: number;
  perSecond: number;
  requests: number;
  rssStartMb: number;
  rssPeakMb: number;
  heapPeakMb: number;
  rssOverRunMb: number[];
  /** CPU the measured process spent per message, in µs. */
  cpuUsPerMessage: number;
  /** CPU the Neon bridge process spent per message during the run, in µs. */
  bridgeCpuUsPerMessage: number;
  /** CPU the bench database's PostgreSQL backends spent per message during the run, in µs. */
  postgresCpuUsPerMessage: number;
}

/** CPU time (user + system) the process has used, in µs. */
function cpuMicros(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

/** Samples RSS and heap every 25 ms; `rssOverRunMb` is RSS at each tenth of the run. */
function sampler() {
  const mb = (n: number) => Math.round(n / 1048576);
  const start = Deno.memoryUsage();
  let rss = start.rss;
  let heap = start.heapUsed;
  const series: number[] = [];
  const timer = setInterval(() => {
    const m = Deno.memoryUsage();
    rss = Math.max(rss, m.rss);
    heap = Math.max(heap, m.heapUsed);
    series.push(m.rss);
  }, 25);
  return {
    stop() {
      clearInterval(timer);
      const tenths = Array.from(
        { length: 10 },
        (_, i) =>
          mb(series[Math.min(series.length - 1, Math.floor((i + 1) * series.length / 10))] ?? rss),
      );
      return {
        rssStartMb: mb(start.rss),
        rssPeakMb: mb(rss),
        heapPeakMb: mb(heap),
        rssOverRunMb: tenths,
      };
    },
  };
}

async function fakeStats(url: string): Promise<number> {
  const s = await (await fetch(`${url}/_fake/stats`)).json();
  return s.fcm + s.apns;
}

async function post(url: string, body: unknown) {
  const res = await fetch(url, { method: "POST", body: JSON.stringify(body) });
  return await res.json();
}

/** Child: the platform's dispatcher sends one campaign to `n` devices. */
async function runOurs(n: number): Promise<Result> {
  const { loadConfig } = await import("../lib/config.ts");
  const { boot } = await import("../lib/boot.ts");
  const { TestClock } = await import("../lib/clock.ts");
  const { createApp } = await import("../routes/mod.ts");
  const { createDenoPushHttp } = await import("../lib/push/http_deno.ts");
  const { dispatchDuePushes } = await import("../lib/push/dispatch.ts");
  const { generatePrivateJwk } = await import("../lib/auth/keys.ts");
  const env = Deno.env.toObject();
  const adminToken = "bench-admin-token-0123456789";
  const config = loadConfig({
    ...env,
    ADMIN_TOKEN: adminToken,
    JWT_PRIVATE_JWK: await generatePrivateJwk(),
    KMS_MASTER_KEY: "bench-master-key-0123456789abcdef",
    ALLOW_PRIVATE_OUTBOUND: "true",
    LOG_LEVEL: "error",
    SCHEDULER_INTERVAL_MS: "0",
    PUSH_CONCURRENCY: String(CONCURRENCY),
  });
  const clock = new TestClock();
  const services = await boot(config, {
    clock,
    pushHttp: createDenoPushHttp({ caCerts: [await Deno.readTextFile(env.PUSH_FAKES_CA)] }),
  });
  const app = createApp(services);
  const admin = async (method: string, path: string, body: unknown) => {
    const res = await app.request(path, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return await res.json();
  };
  const game = await admin("POST", "/admin/v1/games", { name: "bench" });
  const appid = `bench-${crypto.randomUUID().slice(0, 8)}`;
  await admin("POST", `/admin/v1/games/${game.gameIndex}/apps`, { appid });
  const projectId = `bench-${crypto.randomUUID().slice(0, 8)}`;
  const bundleId = `com.example.${projectId.replace(/-/g, "")}`;
  const serviceAccount = await post(`${env.PUSH_FAKES_URL}/_fake/fcm/accounts`, { projectId });
  const key = await post(`${env.PUSH_FAKES_URL}/_fake/apns/keys`, { bundleId });
  await admin("PUT", `/admin/v1/push/apps/${appid}/credentials`, {
    fcm: { serviceAccount },
    apns: { ...key, bundleId, production: false },
  });
  await services.db.query(
    `insert into push_devices (game_index, appid, token, platform, country, zone, language)
     select $1, $2,
       case when g % 10 < 7 then 'b' || g || ':APA91b' || md5(g::text)
            else md5(g::text) || md5((g + 1)::text) end,
       case when g % 10 < 7 then 'android' else 'ios' end,
       'KR', 'Asia/Seoul', (array['en', 'ko', 'ja'])[g % 3 + 1]
     from generate_series(1, $3) as g`,
    [game.gameIndex, appid, n],
  );
  const { saveCampaign } = await import("../lib/push/campaigns.ts");
  const text = (language: string) => ({
    android: { ...TEXT[language] },
    ios: { title: TEXT[language].title, message: TEXT[language].message },
  });
  clock.set(DUE - 3600_000);
  await saveCampaign(services, {
    company: "com2us",
    companyIndex: 1,
    description: "bench",
    type: "B",
    registrant: { id: "bench" },
    reservation: {
      localizing: false,
      startDate: "2027-05-03",
      endDate: "2027-05-03",
      time: "10:00",
      repeat: false,
    },
    continents: [],
    countries: ["KR"],
    game: { gameindex: game.gameIndex, apps: [{ appindex: 1, appid }] },
    defaultLanguage: "en",
    notification: { en: text("en"), ko: text("ko"), ja: text("ja") },
    option: { badge: 1 },
  }, { gameIndex: game.gameIndex });
  clock.set(DUE);
  const before = await fakeStats(env.PUSH_FAKES_URL);
  const dbCpu = await databaseCpu();
  const mem = sampler();
  const cpu0 = cpuMicros();
  const t0 = performance.now();
  const result = await dispatchDuePushes(services, clock.now());
  const ms = performance.now() - t0;
  const cpuUsPerMessage = (cpuMicros() - cpu0) / n;
  const { bridge, postgres } = await dbCpu();
  const memory = mem.stop();
  const requests = (await fakeStats(env.PUSH_FAKES_URL)) - before;
  if (result.messages !== n) throw new Error(`sent ${result.messages} of ${n}`);
  await services.close();
  return {
    mode: "platform",
    devices: n,
    ms,
    perSecond: n / (ms / 1000),
    requests,
    cpuUsPerMessage,
    bridgeCpuUsPerMessage: bridge / n,
    postgresCpuUsPerMessage: postgres / n,
    ...memory,
  };
}

/** Child: the same HTTP calls in a bare loop. */
async function runBare(n: number): Promise<Result> {
  const env = Deno.env.toObject();
  const { createDenoPushHttp } = await import("../lib/push/http_deno.ts");
  const http = createDenoPushHttp({ caCerts: [await Deno.readTextFile(env.PUSH_FAKES_CA)] });
  const projectId = `bare-${crypto.randomUUID().slice(0, 8)}`;
  const bundleId = `com.example.${projectId.replace(/-/g, "")}`;
  const sa = await post(`${env.PUSH_FAKES_URL}/_fake/fcm/accounts`, { projectId });
  const key = await post(`${env.PUSH_FAKES_URL}/_fake/apns/keys`, { bundleId });
  const now = Math.floor(Date.now() / 1000);
  const assertion = await new SignJWT({
    scope: "https://www.googleapis.com/auth/firebase.messaging",
  })
    .setProtectedHeader({ alg: "RS256", kid: sa.private_key_id })
    .setIssuer(sa.client_email).setAudience(sa.token_uri).setIssuedAt(now).setExpirationTime(
      now + 3600,
    )
    .sign(await importPKCS8(sa.private_key, "RS256"));
  const tokenRes = await fetch(sa.token_uri, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
      assertion,
    }),
  });
  const accessToken = (await tokenRes.json()).access_token;
  const providerToken = await new SignJWT({}).setProtectedHeader({ alg: "ES256", kid: key.keyId })
    .setIssuer(key.teamId).setIssuedAt(now).sign(await importPKCS8(key.privateKey, "ES256"));
  const fcmUrl = `${env.FCM_ENDPOINT}/v1/projects/${projectId}/messages:send`;
  // The same devices as the platform's campaign (tokens, platforms, languages), so the requests
  // carry the same bytes; made before the clock starts, as the platform's are in its database.
  const md5 = (g: number) => createHash("md5").update(String(g)).digest("hex");
  const devices = Array.from({ length: n }, (_, i) => {
    const g = i + 1;
    const language = LANGUAGES[g % 3];
    return g % 10 < 7
      ? { g, android: true, token: `b${g}:APA91b${md5(g)}`, language }
      : { g, android: false, token: `${md5(g)}${md5(g + 1)}`, language };
  });
  // The platform's campaign id is 1 in its fresh database; its uuid has the same length.
  const campaignUuid = crypto.randomUUID();
  const data = (language: string) => ({
    campaignId: "1",
    campaignUuid,
    notice: "false",
    language,
  });
  const before = await fakeStats(env.PUSH_FAKES_URL);
  const dbCpu = await databaseCpu();
  const mem = sampler();
  const cpu0 = cpuMicros();
  const t0 = performance.now();
  let next = 0;
  let failed = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < n) {
      const { g, android, token, language } = devices[next++];
      const text = TEXT[language];
      const collapse = `${campaignUuid}.${g}`;
      const res = android
        ? await http.fetch(fcmUrl, {
          method: "POST",
          headers: { authorization: `Bearer ${accessToken}`, "content-type": "application/json" },
          body: JSON.stringify({
            message: {
              token,
              notification: { title: text.title, body: text.message, image: text.imageUrl },
              android: {
                priority: "NORMAL",
                ttl: "86400s",
                collapse_key: collapse,
                notification: { sound: "default", notification_count: 1, tag: collapse },
              },
              data: data(language),
            },
          }),
          timeoutMs: 10_000,
        })
        : await http.http2!(`${env.APNS_ENDPOINT}/3/device/${token}`, {
          method: "POST",
          headers: {
            authorization: `bearer ${providerToken}`,
            "content-type": "application/json",
            "apns-topic": bundleId,
            "apns-push-type": "alert",
            "apns-priority": "5",
            "apns-expiration": String(Math.floor(Date.now() / 1000) + 86400),
            "apns-collapse-id": collapse,
          },
          body: JSON.stringify({
            aps: { alert: { title: text.title, body: text.message }, sound: "default", badge: 1 },
            ...data(language),
          }),
          timeoutMs: 10_000,
        });
      if (res.status !== 200) failed++;
    }
  }));
  const ms = performance.now() - t0;
  const cpuUsPerMessage = (cpuMicros() - cpu0) / n;
  const { bridge, postgres } = await dbCpu();
  const memory = mem.stop();
  if (failed) throw new Error(`${failed} bare requests failed`);
  const requests = (await fakeStats(env.PUSH_FAKES_URL)) - before;
  return {
    mode: "bare loop",
    devices: n,
    ms,
    perSecond: n / (ms / 1000),
    requests,
    cpuUsPerMessage,
    bridgeCpuUsPerMessage: bridge / n,
    postgresCpuUsPerMessage: postgres / n,
    ...memory,
  };
}

/** CPU time (user + system) a process has used, in µs, from /proc (0 where there is none). */
function processCpuMicros(pid: number): number {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime are fields 14 and 15 of the line, in clock ticks (100 per second).
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return 0;
  }
}

/**
 * CPU of the database side during a measurement: the Neon bridge process (its pid in
 * BENCH_BRIDGE_PID) and the PostgreSQL backends serving the bench database (same machine).
 */
async function databaseCpu(): Promise<() => Promise<{ bridge: number; postgres: number }>> {
  const url = Deno.env.get("DATABASE_URL")!;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const name = new URL(url).pathname.slice(1);
  const backends = async () => {
    const rows = await client.query(
      "select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
      [name],
    );
    return new Map<number, number>(
      rows.rows.map((r: { pid: number }) => [r.pid, processCpuMicros(r.pid)]),
    );
  };
  const bridgePid = Number(Deno.env.get("BENCH_BRIDGE_PID"));
  const bridge0 = processCpuMicros(bridgePid);
  const pg0 = await backends();
  return async () => {
    const bridge = processCpuMicros(bridgePid) - bridge0;
    // A backend that started during the run counts from zero.
    let postgres = 0;
    for (const [pid, us] of await backends()) postgres += us - (pg0.get(pid) ?? 0);
    await client.end();
    return { bridge, postgres };
  };
}

async function firstLine(child: Deno.ChildProcess): Promise<string> {
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
  }
  reader.releaseLock();
  return text.split("\n").find((l) => l.startsWith("{"))!;
}

async function parent(sizes: number[], rounds: number) {
  const adminUrl = Deno.env.get("TEST_PG_URL") ?? "postgres://postgres@127.0.0.1:5432/test";
  const name = `push_bench_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${name}`;
  const spawn = (args: string[]) =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", ...args],
      stdout: "piped",
      stderr: "inherit",
      env: { RUST_BACKTRACE: "0" },
    }).spawn();
  const fakes = spawn(["dev/push_fakes.ts", "--count-only", "--json"]);
  const bridge = spawn(["dev/neon_bridge.ts"]);
  const fakesEnv = JSON.parse(await firstLine(fakes));
  const bridgeEnv = JSON.parse(await firstLine(bridge));
  const env = {
    ...fakesEnv,
    DATABASE_URL: dbUrl.toString(),
    NEON_FETCH_ENDPOINT: bridgeEnv.fetchEndpoint,
    BENCH_BRIDGE_PID: String(bridge.pid),
    RUST_BACKTRACE: "0",
  };
  const results: Result[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      for (const n of sizes) {
        // The order alternates by round, so neither side always runs on a warmer machine.
        for (const mode of round % 2 === 0 ? ["ours", "bare"] : ["bare", "ours"]) {
          const out = await new Deno.Command(Deno.execPath(), {
            // BENCH_V8_FLAGS (e.g. --max-old-space-size=96) caps the children's heap: a run that
            // completes under a small cap shows the live memory does not grow with the devices.
            args: [
              "run",
              "-A",
              ...(Deno.env.get("BENCH_DENO_FLAGS")?.split(" ").filter(Boolean) ?? []),
              ...(Deno.env.get("BENCH_V8_FLAGS")
                ? [`--v8-flags=${Deno.env.get("BENCH_V8_FLAGS")}`]
                : []),
              "bench/push_delivery.ts",
              "--child",
              mode,
              String(n),
            ],
            env,
            stdout: "piped",
            stderr: "inherit",
          }).output();
          const line = new TextDecoder().decode(out.stdout).trim().split("\n").pop()!;
          if (!out.success) throw new Error(`${mode} ${n} failed: ${line}`);
          const r = JSON.parse(line) as Result;
          results.push(r);
          console.log(
            `round ${round + 1} ${r.mode.padEnd(9)} ${String(n).padStart(7)} devices: ` +
              `${(r.ms / 1000).toFixed(1)} s, ${Math.round(r.perSecond)} msg/s, ` +
              `${r.requests} provider requests, RSS ${r.rssStartMb} -> peak ${r.rssPeakMb} MB, ` +
              `heap peak ${r.heapPeakMb} MB; CPU per message ${r.cpuUsPerMessage.toFixed(0)} µs ` +
              `(bridge ${r.bridgeCpuUsPerMessage.toFixed(0)} µs, PostgreSQL ` +
              `${r.postgresCpuUsPerMessage.toFixed(0)} µs); RSS by tenth of the run ${
                r.rssOverRunMb.join(" ")
              }; ` +
              `load ${Deno.loadavg().map((l) => l.toFixed(2)).join(" ")}`,
          );
        }
      }
    }
    for (const n of sizes) {
      const rate = (mode: string) =>
        median(results.filter((r) => r.devices === n && r.mode === mode).map((r) => r.perSecond));
      const ratios = results.filter((r) => r.devices === n && r.mode === "platform").map((r, i) =>
        r.perSecond /
        results.filter((b) => b.devices === n && b.mode === "bare loop")[i].perSecond
      );
      const cpu = (
        mode: string,
        key: "cpuUsPerMessage" | "bridgeCpuUsPerMessage" | "postgresCpuUsPerMessage",
      ) =>
        median(results.filter((r) => r.devices === n && r.mode === mode).map((r) => r[key]))
          .toFixed(0);
      console.log(
        `${n} devices: median CPU per message: platform ${cpu("platform", "cpuUsPerMessage")} µs ` +
          `+ bridge ${cpu("platform", "bridgeCpuUsPerMessage")} µs + PostgreSQL ` +
          `${cpu("platform", "postgresCpuUsPerMessage")} µs, bare loop ` +
          `${cpu("bare loop", "cpuUsPerMessage")} µs`,
      );
      console.log(
        `${n} devices: median platform ${Math.round(rate("platform"))} msg/s, bare loop ` +
          `${Math.round(rate("bare loop"))} msg/s: ${
            (rate("platform") / rate("bare loop") * 100).toFixed(0)
          } % (per-round ratios ${ratios.map((x) => x.toFixed(2)).join(", ")})`,
      );
    }
  } finally {
    fakes.kill("SIGINT");
    bridge.kill("SIGTERM");
    await Promise.allSettled([fakes.status, bridge.status]);
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

if (import.meta.main) {
  if (Deno.args[0] === "--child") {
    const n = Number(Deno.args[2]);
    const r = Deno.args[1] === "ours" ? await runOurs(n) : await runBare(n);
    console.log(JSON.stringify(r));
    Deno.exit(0);
  } else {
    const rounds = Number(Deno.args.find((a) => a.startsWith("--rounds="))?.slice(9) ?? 1);
    const args = Deno.args.filter((a) => !a.startsWith("--"));
    const sizes = args.length ? args.map(Number) : [10_000, 100_000];
    await parent(sizes, rounds);
  }
}
