/**
 * Item delivery through the outbox at load, side by side with direct sends of the same bodies:
 * N requests are registered as the API does (endpoint check folded into the insert, the game's
 * dispatcher woken), with OLD delivered requests of the game already in the table, and timed
 * from the first registration to the last grant. Checks 0 lost (every request DELIVERED and
 * applied once by the reference game server) and counts database statements per delivery.
 *
 *   deno run -A bench/items_load.ts embedded|real|real:tcp|real:both [--n 2000] [--old 100000]
 *     [--rounds 3] [--transports http,tcp] [--game-server process]
 *
 * real:both runs each round's outbox through the Neon driver (bridge) and the TCP adapter, on
 * one database. `--game-server process` runs the reference game server in a process of its own
 * (`dev/game_server.ts`, as a studio's server would be) instead of in the bench's process, and counts
 * what it applied and received through its `GET /` answer.
 */
import { cliFlag } from "../dev/cli_flag.ts";
import {
  atFinish,
  median,
  runScript,
  spawnDeno,
  tcpStores,
  tierArg,
  useTier,
} from "./real_tier.ts";
import { admin, seedTenant, testEnv } from "../tests/harness.ts";
import type { ItemEndpoint } from "../lib/items/endpoints.ts";
import { serverLogger } from "./served_app.ts";
import { itemFixture } from "../tests/lib/items/fixture.ts";
import { registerItemRequest } from "../lib/items/register.ts";
import { dispatchSoon } from "../lib/items/dispatcher.ts";
import { sendItemBody } from "../lib/items/transport.ts";
import { buildItemRecord, itemRecordBody, type ItemRequestInput } from "../lib/items/record.ts";
import type { Sql } from "../lib/db/port.ts";
import { seedDeliveredItems } from "../tests/seed_rows.ts";
import type { Services } from "../lib/services.ts";

const tier = tierArg();
const N = Number(cliFlag("n") ?? 2000);
const OLD = Number(cliFlag("old") ?? 100_000);
const ROUNDS = Number(cliFlag("rounds") ?? 3);
const REGISTER_CONCURRENCY = 50;
const DIRECT_CONCURRENCY = 16;
const SEPARATE_GAME_SERVER = cliFlag("game-server") === "process";

/** What the bench needs of a reference game server, in this process or in its own. */
interface GameServerSide {
  gameIndex: number;
  endpoint: ItemEndpoint;
  counts(): Promise<{ applied: number; received: number }>;
  close(): Promise<void>;
}

async function gameServerSide(transport: "http" | "tcp"): Promise<GameServerSide> {
  if (!SEPARATE_GAME_SERVER) {
    const f = await itemFixture(transport);
    return {
      gameIndex: f.tenant.gameIndex,
      endpoint: f.endpoint,
      counts: () =>
        Promise.resolve({ applied: f.server.store.applied.length, received: f.server.received }),
      close: () => f.close(),
    };
  }
  const vendorWord = `vw-${crypto.randomUUID().slice(0, 8)}`;
  // "reference game server: HTTP http://127.0.0.1:P/items  TCP 127.0.0.1:Q"
  const line = await spawnDeno([
    "dev/game_server.ts",
    "--http-port",
    "0",
    "--tcp-port",
    "0",
    "--vendor-word",
    vendorWord,
  ]);
  const m = line.match(/HTTP (http:\/\/[^ ]+\/items) +TCP ([^ :]+):(\d+)/);
  if (!m) throw new Error(`game server did not report its ports: ${line}`);
  const [, url, host, port] = m;
  const tenant = await seedTenant("item game");
  const target = transport === "http"
    ? { transport, url, vendorWord }
    : { transport, host, port: Number(port), vendorWord };
  const put = await admin("PUT", `/admin/v1/games/${tenant.gameIndex}/item-endpoint`, target);
  if (put.status !== 200) throw new Error(`endpoint: ${JSON.stringify(put.body)}`);
  const base = url.replace(/\/items$/, "/");
  return {
    gameIndex: tenant.gameIndex,
    endpoint: { ...target, gameIndex: tenant.gameIndex },
    counts: async () => await (await fetch(base)).json(),
    close: async () => await (await testEnv()).services.idle(),
  };
}

function counting(db: Sql): Sql & { statements: number } {
  const counted = {
    ...db,
    statements: 0,
    query(text: string, params?: unknown[]) {
      counted.statements++;
      return db.query(text, params);
    },
    transaction(statements: Parameters<Sql["transaction"]>[0]) {
      counted.statements += statements.length;
      return db.transaction(statements);
    },
  } as Sql & { statements: number };
  return counted;
}

async function pool<T>(items: T[], concurrency: number, fn: (item: T) => Promise<unknown>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

async function main() {
  await useTier(tier);
  const { services } = await testEnv();
  const log = serverLogger();
  const results: Record<
    string,
    { rate: number[]; registerRate: number[]; perDelivery: number[]; extra: number[] }
  > = {};
  // real:both: every round runs the outbox through the bridged Neon driver and through the TCP
  // adapter on the same database, one after the other.
  const adapters: [string, Sql][] = [[
    services.db.kind === "neon" ? "Neon HTTP" : services.db.kind,
    services.db,
  ]];
  if (tier === "real:both") adapters.push(["TCP", tcpStores().db]);
  const transports = (cliFlag("transports") ?? "http,tcp").split(",") as ("http" | "tcp")[];
  for (const transport of transports) {
    const f = await gameServerSide(transport);
    atFinish(() => f.close());
    const gameIndex = f.gameIndex;
    await seedDeliveredItems(services.db, { gameIndex, rows: OLD });
    await services.db.query("analyze item_requests");
    let seq = 0;
    const input = (): ItemRequestInput & { transactionId: string } => ({
      transactionId: `load-${transport}-${++seq}-${crypto.randomUUID().slice(0, 8)}`,
      gameIndex,
      idCategory: "vid",
      id: `user-${seq % 500}`,
      detail: [{ action: "send", assetCode: "gold", amount: 1 }],
      reason: "e",
      serverId: "s1",
      userMessage: "보상",
    });
    const outboxes = new Map(adapters.map(([name]) => [name, {
      rate: [] as number[],
      registerRate: [] as number[],
      perDelivery: [] as number[],
      extra: [] as number[],
    }]));
    const direct = { rate: [] as number[], registerRate: [], perDelivery: [], extra: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, adapter] of adapters) {
        const outbox = outboxes.get(name)!;
        // Outbox: register as the API does, the dispatcher delivers.
        const db = counting(adapter);
        // Attempt lines at info into a batched sink, as server.ts writes them (the harness's own
        // logger captures and scans every line for secrets, a test cost).
        const s: Services = { ...services, db, log: log };
        const inputs = Array.from({ length: N }, input);
        const before = await f.counts();
        const t0 = performance.now();
        await pool(inputs, REGISTER_CONCURRENCY, async (x) => {
          const reg = await registerItemRequest(db, x, {
            nowMs: s.clock.now(),
            requireEndpoint: true,
          });
          if (reg.created) dispatchSoon(s, gameIndex);
        });
        const registered = performance.now() - t0;
        await services.idle();
        const elapsed = performance.now() - t0;
        const statements = db.statements;
        const [check] = await services.db.query<{ delivered: string }>(
          `select count(*) filter (where status = 'DELIVERED') as delivered from item_requests
            where game_index = $1
              and transaction_id in (select jsonb_array_elements_text($2::jsonb))`,
          [gameIndex, inputs.map((x) => x.transactionId)],
        );
        const after = await f.counts();
        const applied = after.applied - before.applied;
        const lost = N - Number(check.delivered);
        if (lost !== 0 || applied !== N) {
          throw new Error(
            `${name} ${transport}: ${lost} not delivered, ${applied} of ${N} applied`,
          );
        }
        outbox.rate.push(N / (elapsed / 1000));
        outbox.registerRate.push(N / (registered / 1000));
        outbox.perDelivery.push(statements / N);
        outbox.extra.push(after.received - before.received - N);
      }
      // Direct: the same kind of bodies straight to the game server.
      const bodies = Array.from({ length: N }, () => itemRecordBody(buildItemRecord(input())));
      const d0 = performance.now();
      await pool(
        bodies,
        DIRECT_CONCURRENCY,
        (body) => sendItemBody(services, { endpoint: f.endpoint, body, timeoutMs: 10_000 }),
      );
      direct.rate.push(N / ((performance.now() - d0) / 1000));
    }
    for (const [name] of adapters) {
      results[`${adapters.length > 1 ? `${name}, ` : ""}${transport} outbox`] = outboxes.get(name)!;
    }
    results[`${transport} direct`] = direct;
  }
  console.log(
    `\n${tier} tier: ${N} requests per round, ${OLD} old rows per game, ${ROUNDS} rounds, medians` +
      `, game server ${SEPARATE_GAME_SERVER ? "in its own process" : "in this process"}`,
  );
  console.log(
    "| run | deliveries/s | registrations/s alone | statements per delivery | extra sends | lost |",
  );
  console.log("|---|---|---|---|---|---|");
  for (const [name, r] of Object.entries(results)) {
    const outbox = name.endsWith("outbox");
    console.log(
      `| ${name} | ${Math.round(median(r.rate))} | ${
        outbox ? Math.round(median(r.registerRate)) : "-"
      } | ${outbox ? median(r.perDelivery).toFixed(2) : "-"} | ${
        outbox ? Math.max(...r.extra) : "-"
      } | ${outbox ? 0 : "-"} |`,
    );
  }
}

await runScript(main);
