/** Shared setup for item tests: a tenant, a reference game server and a registered endpoint. */
import { admin, callJson, seedTenant, type Tenant, testEnv } from "../../harness.ts";
import { type GameServer, startGameServer } from "../../../dev/game_server.ts";
import type { ItemRequestInput } from "../../../lib/items/record.ts";
import type { ItemEndpoint } from "../../../lib/items/endpoints.ts";

// deno-lint-ignore no-explicit-any
type Answer = Promise<{ status: number; body: any; headers: Headers }>;

/** A tenant wired to its own reference game server. */
export interface ItemFixture {
  tenant: Tenant;
  server: GameServer;
  vendorWord: string;
  apiKey: string;
  transport: "http" | "tcp";
  /** The endpoint as registered (with the vendor word), ready for sendItemBody. */
  endpoint: ItemEndpoint;
  /** POST /items/v1/requests with the tenant's key. */
  register(body: Record<string, unknown>): Answer;
  /** GET /items/v1/requests/{id}. */
  status(transactionId: string): Answer;
  /** A valid request body for this tenant. */
  body(overrides?: Partial<ItemRequestInput> & Record<string, unknown>): Record<string, unknown>;
  close(): Promise<void>;
  /** `await using f = await itemFixture()` closes it at the end of the scope. */
  [Symbol.asyncDispose](): Promise<void>;
}

/** Seeds a tenant, starts a game server and registers it as the item endpoint. */
export async function itemFixture(transport: "http" | "tcp" = "http"): Promise<ItemFixture> {
  await testEnv();
  const tenant = await seedTenant("item game");
  const vendorWord = `vw-${crypto.randomUUID().slice(0, 8)}`;
  const server = await startGameServer({ vendorWord, httpPort: 0, tcpPort: 0 });
  const target = transport === "http"
    ? { transport, url: server.url, vendorWord }
    : { transport, host: server.hostname, port: server.tcpPort, vendorWord };
  const put = await admin("PUT", `/admin/v1/games/${tenant.gameIndex}/item-endpoint`, target);
  if (put.status !== 200) throw new Error(`endpoint: ${JSON.stringify(put.body)}`);
  const { apiKey } = await tenant.apiKey(["items"]);
  const headers = { authorization: `Bearer ${apiKey}` };
  async function close() {
    await (await testEnv()).services.idle();
    await server.stop();
  }
  return {
    tenant,
    server,
    vendorWord,
    apiKey,
    transport,
    endpoint: { ...target, gameIndex: tenant.gameIndex },
    register: (json) => callJson("POST", "/items/v1/requests", { json, headers }),
    status: (id) => callJson("GET", `/items/v1/requests/${id}`, { headers }),
    body: (overrides = {}) => ({
      transactionId: `tx-${crypto.randomUUID()}`,
      gameIndex: tenant.gameIndex,
      idCategory: "vid",
      id: "player-1",
      detail: [{ action: "send", assetCode: "gold", amount: 100 }],
      reason: "e",
      serverId: "s1",
      ...overrides,
    }),
    close,
    [Symbol.asyncDispose]: close,
  };
}
