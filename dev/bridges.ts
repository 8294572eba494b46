/**
 * Starts the local Neon HTTP bridge and the Upstash REST bridge together, for
 * running the product (or its real-server test tier) against the local
 * PostgreSQL and Redis with its production drivers.
 *
 * Prints one JSON line once both listen:
 *   {"neonFetchEndpoint": "...", "upstashUrl": "...", "upstashToken": "..."}
 * and serves until SIGINT or SIGTERM.
 *
 * Usage: deno run -A dev/bridges.ts [--neon-port N] [--upstash-port N]
 *   [--upstash-token T] [--hostname H] [--redis-url redis://127.0.0.1:6379]
 * Ports default to 0 (any free port); the token defaults to a random one.
 */
import { startNeonBridge } from "./neon_bridge.ts";
import { startUpstashBridge } from "./upstash_bridge.ts";
import { cliFlag } from "./cli_flag.ts";

const hostname = cliFlag("hostname");
const upstashToken = cliFlag("upstash-token") ?? crypto.randomUUID();
const neon = await startNeonBridge({ port: Number(cliFlag("neon-port") ?? 0), hostname });
const upstash = await startUpstashBridge({
  port: Number(cliFlag("upstash-port") ?? 0),
  hostname,
  token: upstashToken,
  redisUrl: cliFlag("redis-url"),
});

console.log(
  JSON.stringify({ neonFetchEndpoint: neon.fetchEndpoint, upstashUrl: upstash.url, upstashToken }),
);

let stopping = false;
async function stop() {
  // A second signal while draining must not start a second shutdown.
  if (stopping) return;
  stopping = true;
  await Promise.all([neon.close(), upstash.close()]);
  Deno.exit(0);
}
Deno.addSignalListener("SIGINT", stop);
Deno.addSignalListener("SIGTERM", stop);
