/**
 * Item deliveries per second to the reference game server, over HTTP and over TCP. Each
 * iteration registers 50 requests in the outbox and runs the dispatcher until all are delivered
 * (claim with lease, send with Apihash, receiver verifies and applies, outcome recorded). The
 * baseline sends the same 50 bodies straight to the game server with the same concurrency and
 * no outbox, so the ratio is the cost of durability. deliveries/s = 50 / time per iteration.
 *
 *   deno bench -A bench/items_bench.ts
 */
import { testEnv } from "../tests/harness.ts";
import { itemFixture } from "../tests/lib/items/fixture.ts";
import { registerItemRequest } from "../lib/items/register.ts";
import { dispatchDueItems } from "../lib/items/dispatcher.ts";
import { sendItemBody } from "../lib/items/transport.ts";
import { buildItemRecord, itemRecordBody } from "../lib/items/record.ts";

const BATCH = 50;
const CONCURRENCY = 8;
const { services } = await testEnv();
// Each transport gets its own tenant, reference game server and registered endpoint.
const fixtures = { http: await itemFixture("http"), tcp: await itemFixture("tcp") };
let seq = 0;

function input(gameIndex: number) {
  return {
    transactionId: `bench-${++seq}-${crypto.randomUUID()}`,
    gameIndex,
    idCategory: "vid",
    id: `user-${seq % 100}`,
    detail: [{ action: "send", assetCode: "gold", amount: 1 }],
    reason: "e" as const,
    serverId: "s1",
    userMessage: "벤치마크 보상",
  };
}

async function throughOutbox(transport: "http" | "tcp") {
  const gameIndex = fixtures[transport].tenant.gameIndex;
  const now = services.clock.now();
  await Promise.all(
    Array.from(
      { length: BATCH },
      () => registerItemRequest(services.db, input(gameIndex), { nowMs: now }),
    ),
  );
  let sent = 0;
  while (sent < BATCH) {
    sent += await dispatchDueItems(services, { gameIndex, concurrency: CONCURRENCY });
  }
}

async function direct(transport: "http" | "tcp") {
  const { endpoint, tenant: { gameIndex } } = fixtures[transport];
  const bodies = Array.from(
    { length: BATCH },
    () => itemRecordBody(buildItemRecord(input(gameIndex))),
  );
  let next = 0;
  const worker = async () => {
    while (next < bodies.length) {
      await sendItemBody(services, { endpoint, body: bodies[next++], timeoutMs: 10_000 });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

for (const transport of ["http", "tcp"] as const) {
  Deno.bench({
    name: `${transport}: ${BATCH} sends straight to the game server (no outbox)`,
    group: `items-${transport}`,
    baseline: true,
    n: 20,
    async fn() {
      await direct(transport);
    },
  });
  Deno.bench({
    name: `${transport}: ${BATCH} requests registered and delivered through the outbox`,
    group: `items-${transport}`,
    n: 20,
    async fn() {
      await throughOutbox(transport);
    },
  });
}
