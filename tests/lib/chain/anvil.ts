/**
 * Test chain: anvil (npm @foundry-rs/anvil) on 127.0.0.1 with a free port and chain id 31337,
 * one per test process, plugged into the shared Services. Helpers fund fresh wallets, hold their
 * keys in the KMS, and deploy the bundled contracts through the admin API.
 */
import {
  createWalletClient,
  type Hex,
  http,
  parseEther,
  type PublicClient,
  type WalletClient,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createPolygonChain } from "../../../lib/chain/polygon.ts";
import { admin, callJson, seedTenant, type TestEnv, testEnv } from "../../harness.ts";
import { runScheduled } from "../../../lib/scheduled.ts";

/** The chain id tests run with. */
export const TEST_CHAIN_ID = 31337;

// The platform binary itself: node_modules/.bin/anvil is a Node wrapper whose child would
// outlive a kill of the wrapper (and the node-stopped test needs the node really gone).
function anvilBinary(): string {
  const arch = Deno.build.arch === "x86_64" ? "amd64" : "arm64";
  const direct = new URL(
    `../../../node_modules/@foundry-rs/anvil-${Deno.build.os}-${arch}/bin/anvil`,
    import.meta.url,
  ).pathname;
  try {
    Deno.statSync(direct);
    return direct;
  } catch {
    return new URL("../../../node_modules/.bin/anvil", import.meta.url).pathname;
  }
}

const ANVIL = anvilBinary();

/** A running anvil process. */
export class Anvil {
  #child?: Deno.ChildProcess;
  constructor(readonly port: number) {}

  /** The RPC address. */
  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts anvil (again) on the same port and waits until it answers. */
  async start() {
    this.#child = new Deno.Command(ANVIL, {
      args: [
        "--host",
        "127.0.0.1",
        "--port",
        String(this.port),
        "--chain-id",
        String(TEST_CHAIN_ID),
      ],
      stdout: "null",
      stderr: "null",
    }).spawn();
    for (let i = 0; i < 200; i++) {
      try {
        await this.rpc("eth_chainId", []);
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    throw new Error("anvil did not start");
  }

  /** Stops the process. */
  async stop() {
    const child = this.#child;
    this.#child = undefined;
    if (!child) return;
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
    await child.status;
  }

  /** A raw JSON-RPC call. */
  async rpc(method: string, params: unknown[]): Promise<unknown> {
    const res = await fetch(this.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    const body = await res.json();
    if (body.error) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
    return body.result;
  }

  /** Turns automatic mining on or off (off keeps sent transactions PENDING). */
  async automine(on: boolean) {
    await this.rpc("evm_setAutomine", [on]);
  }

  /** Mines one block. */
  async mine() {
    await this.rpc("evm_mine", []);
  }
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** What a chain test works with. */
export interface ChainEnv extends TestEnv {
  anvil: Anvil;
  client: PublicClient;
}

let shared: Promise<ChainEnv> | undefined;

/** Starts the process-wide anvil once and points services.chain at it. */
export function chainEnv(): Promise<ChainEnv> {
  shared ??= (async () => {
    const env = await testEnv();
    const anvil = new Anvil(freePort());
    await anvil.start();
    globalThis.addEventListener("unload", () => void anvil.stop());
    env.services.chain = createPolygonChain({
      rpcUrl: anvil.url,
      chainId: TEST_CHAIN_ID,
      timeoutMs: 3_000,
    });
    return { ...env, anvil, client: env.services.chain.client };
  })();
  return shared;
}

/** A funded wallet whose key the test also holds (for signing outside the service). */
export interface TestWallet {
  address: Hex;
  privateKey: Hex;
  wallet: WalletClient;
}

/** Creates and funds a fresh wallet; with `kms`, the service holds its key too. */
export async function fundedWallet(
  gameIndex: number,
  options: { kms: boolean },
): Promise<TestWallet> {
  const { anvil } = await chainEnv();
  const privateKey = generatePrivateKey();
  const account = privateKeyToAccount(privateKey);
  await anvil.rpc("anvil_setBalance", [account.address, `0x${parseEther("1000").toString(16)}`]);
  if (options.kms) {
    const res = await admin("POST", "/admin/v1/wallets", { gameIndex, privateKey });
    if (res.status !== 201) throw new Error(`wallet import failed: ${JSON.stringify(res.body)}`);
  }
  const wallet = createWalletClient({
    account,
    transport: http(anvil.url),
    chain: {
      id: TEST_CHAIN_ID,
      name: "anvil",
      nativeCurrency: { name: "ETH", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [anvil.url] } },
    },
  });
  return { address: account.address, privateKey, wallet };
}

/** Deploys a bundled contract through the admin API; returns its address. */
export async function deploy(body: Record<string, unknown>): Promise<Hex> {
  const res = await admin("POST", "/admin/v1/contracts/deploy", { network: "polygon", ...body });
  if (res.status !== 201) throw new Error(`deploy failed: ${JSON.stringify(res.body)}`);
  return res.body.address as Hex;
}

/** A fresh tenant with a KMS-held minter, a player wallet (key not held) and an NFT the minter deployed. */
export async function nftTenant(
  name: string,
  contract: { name?: string; symbol?: string } = {},
) {
  const env = await chainEnv();
  const tenant = await seedTenant(name);
  const minter = await fundedWallet(tenant.gameIndex, { kms: true });
  const player = await fundedWallet(tenant.gameIndex, { kms: false });
  const nft = await deploy({
    gameIndex: tenant.gameIndex,
    type: "nft",
    from: minter.address,
    name: "N",
    ...contract,
  });
  /**
   * Mints one token `id` from the minter to the player, sent by the service; `body` overrides,
   * `headers` are added.
   */
  const mintOne = (
    id: string,
    body: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) =>
    callJson("POST", `/service/v1/nft/${nft}/mint`, {
      headers: { ...tenant.chainHeaders, ...headers },
      json: {
        playerId: "1",
        from: minter.address,
        to: player.address,
        isSend: true,
        encoded: false,
        callbackUrl: "http://127.0.0.1:9/cb",
        royaltyPercentage: 1,
        mintMsg: [{ tokenId: id, metadata: { name: id, image: id } }],
        ...body,
      },
    });
  return { ...env, tenant, minter, player, nft, mintOne };
}

/**
 * Waits for deferred work and for anvil to mine the app's PENDING transactions, then runs the
 * scheduled jobs once. Anvil answers a send a moment before it mines it, so the check made
 * right after sending can miss the receipt; this makes "sent, so now SUCCESS" deterministic.
 */
export async function settleSent(appid: string): Promise<void> {
  const { services, client } = await chainEnv();
  await services.idle();
  const rows = await services.db.query<{ tx_hash: Hex }>(
    `select tx_hash from chain_txs
      where appid = $1 and status = 'PENDING' and tx_hash is not null`,
    [appid],
  );
  await Promise.all(
    rows.map((r) => client.waitForTransactionReceipt({ hash: r.tx_hash, timeout: 10_000 })),
  );
  await runScheduled(services);
}

/** Options for chain tests: anvil and deferred work outlive a single test. */
export const chainTestOptions = { sanitizeResources: false, sanitizeOps: false };
