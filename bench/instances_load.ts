/**
 * Item deliveries per second with three server processes beside one, on the same PostgreSQL
 * (fresh database, the Neon HTTP driver through its bridge) and Redis: N requests registered
 * through the API, spread over the instances in turn, timed from the first registration to the
 * last grant at the reference game server (0 lost and 0 granted twice checked). Modes alternate
 * round by round; each round starts its own processes.
 *
 *   deno run -A bench/instances_load.ts [--n 2000] [--rounds 3]
 */
import { cliFlag } from "../dev/cli_flag.ts";
import { median, runScript, useTier } from "./real_tier.ts";
import { startCluster } from "../tests/multi/cluster.ts";
import { startGameServer } from "../dev/game_server.ts";
import { itemRequestBody, seedGame } from "../tests/multi/seed.ts";

const N = Number(cliFlag("n") ?? 2000);
const ROUNDS = Number(cliFlag("rounds") ?? 3);
const CONCURRENCY = 48;

async function round(instances: number) {
  const cluster = await startCluster(instances, { SCHEDULER_INTERVAL_MS: "1000" });
  const game = await startGameServer({ vendorWord: "bench-vw", httpPort: 0, tcpPort: null });
  try {
    const g = await seedGame(cluster, "bench", ["items"]);
    await cluster.admin(0, "PUT", `/admin/v1/games/${g.gameIndex}/item-endpoint`, {
      transport: "http",
      url: game.url,
      vendorWord: "bench-vw",
    });
    const headers = { authorization: `Bearer ${g.apiKey}` };
    let next = 0;
    const t0 = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (next < N) {
        const k = next++;
        const r = await cluster.call(k % instances, "POST", "/items/v1/requests", {
          headers,
          json: itemRequestBody(g.gameIndex, k),
        });
        if (r.status !== 202) throw new Error(`registration answered ${r.status}`);
      }
    }));
    const registeredMs = performance.now() - t0;
    const deadline = Date.now() + 300_000;
    while (game.store.applied.length < N) {
      if (Date.now() > deadline) throw new Error(`${game.store.applied.length} of ${N} granted`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const ms = performance.now() - t0;
    const distinct = new Set(game.store.applied.map((r) => r.transactionId)).size;
    if (distinct !== N) throw new Error(`${distinct} distinct grants of ${N}`);
    return { perSecond: N / (ms / 1000), registerPerSecond: N / (registeredMs / 1000) };
  } finally {
    await game.stop();
    await cluster.stop();
  }
}

async function main() {
  await useTier("real");
  const load = () => Deno.loadavg().map((l) => l.toFixed(2)).join(" ");
  console.log(`item deliveries, ${N} per round, load before: ${load()}`);
  const results: Record<number, { perSecond: number[]; registerPerSecond: number[] }> = {
    1: { perSecond: [], registerPerSecond: [] },
    3: { perSecond: [], registerPerSecond: [] },
  };
  for (let r = 0; r < ROUNDS; r++) {
    for (const instances of r % 2 === 0 ? [1, 3] : [3, 1]) {
      const x = await round(instances);
      results[instances].perSecond.push(x.perSecond);
      results[instances].registerPerSecond.push(x.registerPerSecond);
      console.log(
        `round ${r + 1}, ${instances} instance(s): ${Math.round(x.perSecond)} deliveries/s ` +
          `(registrations ${Math.round(x.registerPerSecond)}/s), load ${load()}`,
      );
    }
  }
  for (const instances of [1, 3]) {
    const x = results[instances];
    console.log(
      `${instances} instance(s): median ${Math.round(median(x.perSecond))} deliveries/s ` +
        `(${x.perSecond.map(Math.round).join(", ")}), registrations median ` +
        `${Math.round(median(x.registerPerSecond))}/s`,
    );
  }
  console.log(`load after: ${load()}`);
}

await runScript(main);
