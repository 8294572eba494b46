/**
 * The transaction lifecycle under load on a local anvil (`deno run -A bench/chain_lifecycle_bench.ts
 * [mints]`), the app in-process on the embedded tier:
 *
 * 1. Fee spike: automatic mining off, a block every 500 ms; `mints` (1,000) one-token mints from
 *    one wallet are sent through HTTP (8 in flight) while the base fee is forced 100x up for 10 s
 *    from the 2nd second on. The scheduled work runs every 500 ms with TX_STUCK_AFTER_MS = 2 s.
 *    Reports: all mined?, time from request to SUCCESS (p50, p99, max), replacements and
 *    re-prices, and the fees paid against the least that would have been enough (each block's
 *    base fee + the node's 1 gwei tip, for the gas used).
 * 2. Sustained sends from one wallet (automatic mining on): the service through HTTP beside a bare
 *    viem loop with manually kept nonces, rounds alternated; sends/s per round and the median.
 */
import { createPublicClient, type Hex, http, parseGwei } from "viem";
import { abi as nftAbi } from "../contracts/artifacts/GameNFT.ts";
import { fundedWallet, nftTenant } from "../tests/lib/chain/anvil.ts";
import { runScheduled } from "../lib/scheduled.ts";

const MINTS = Number(Deno.args[0] ?? 1000);
const IN_FLIGHT = 8;
const t = await nftTenant("lifecycle bench", { name: "L" });
const { services, anvil, minter, nft, player } = t;
const chain = services.chain!;
const client = createPublicClient({ transport: http(anvil.url) });
chain.stuckAfterMs = 2_000;
chain.confirmations = 0;

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

// ---- 1. fee spike ----
await anvil.automine(false);
const normalBase = (await client.getBlock()).baseFeePerGas!;
const spikeBase = normalBase * 100n;
let stop = false;
const started = performance.now();
const elapsed = () => performance.now() - started;
const miner = (async () => {
  while (!stop) {
    const ms = elapsed();
    if (ms > 2_000 && ms < 12_000) {
      await anvil.rpc("anvil_setNextBlockBaseFeePerGas", [`0x${spikeBase.toString(16)}`]);
    }
    await anvil.mine();
    await new Promise((r) => setTimeout(r, 500));
  }
})();
const scheduler = (async () => {
  while (!stop) {
    await runScheduled(services);
    await new Promise((r) => setTimeout(r, 500));
  }
})();

const requestIds: string[] = [];
let nextId = 0;
async function sender() {
  while (nextId < MINTS) {
    const id = String(10_000_000 + nextId++);
    const res = await t.mintOne(id);
    if (res.body.code !== 0) throw new Error(JSON.stringify(res.body));
    requestIds.push(res.body.data.requestId);
  }
}
await Promise.all(Array.from({ length: IN_FLIGHT }, sender));
const sentMs = elapsed();

type Row = { status: string; tx_hash: Hex; waited_ms: number; attempts: number };
let rows: Row[] = [];
const deadline = Date.now() + 300_000;
while (Date.now() < deadline) {
  rows = await services.db.query<Row>(
    `select t.status, t.tx_hash,
            (extract(epoch from t.updated_at - t.created_at) * 1000)::float8 as waited_ms,
            (select count(*)::int from chain_tx_attempts a where a.request_id = t.request_id)
              as attempts
       from chain_txs t where t.request_id in (select jsonb_array_elements_text($1::jsonb))`,
    [requestIds],
  );
  if (rows.every((r) => r.status === "SUCCESS" || r.status === "FAILED")) break;
  await new Promise((r) => setTimeout(r, 500));
}
stop = true;
await Promise.all([miner, scheduler]);

const success = rows.filter((r) => r.status === "SUCCESS");
const waits = success.map((r) => r.waited_ms).sort((a, b) => a - b);
let paid = 0n;
let least = 0n;
const bases = new Map<bigint, bigint>();
const nonces: number[] = [];
for (const r of success) {
  const [receipt, tx] = await Promise.all([
    client.getTransactionReceipt({ hash: r.tx_hash }),
    client.getTransaction({ hash: r.tx_hash }),
  ]);
  nonces.push(tx.nonce);
  if (!bases.has(receipt.blockNumber)) {
    bases.set(
      receipt.blockNumber,
      (await client.getBlock({ blockNumber: receipt.blockNumber })).baseFeePerGas!,
    );
  }
  paid += receipt.gasUsed * receipt.effectiveGasPrice;
  least += receipt.gasUsed * (bases.get(receipt.blockNumber)! + parseGwei("1"));
}
nonces.sort((a, b) => a - b);
const gaps = nonces.filter((n, i) => i > 0 && n !== nonces[i - 1] + 1).length;
console.log(JSON.stringify({
  part: "spike",
  mints: MINTS,
  sentInMs: Math.round(sentMs),
  success: success.length,
  failed: rows.filter((r) => r.status === "FAILED").length,
  pending: rows.filter((r) => r.status === "PENDING").length,
  nonceGaps: gaps,
  replacedRequests: success.filter((r) => r.attempts > 1).length,
  attempts: rows.reduce((n, r) => n + r.attempts, 0),
  toSuccessMs: {
    p50: Math.round(quantile(waits, 0.5)),
    p99: Math.round(quantile(waits, 0.99)),
    max: Math.round(waits.at(-1) ?? 0),
  },
  feesPaidGwei: Number(paid / 1_000_000_000n),
  leastEnoughGwei: Number(least / 1_000_000_000n),
  paidOverLeast: Number((paid * 1000n) / (least || 1n)) / 1000,
}));
await anvil.rpc("anvil_setNextBlockBaseFeePerGas", [`0x${normalBase.toString(16)}`]);
await anvil.mine();
await anvil.automine(true);

// ---- 2. sustained sends from one wallet ----
const direct = await fundedWallet(t.tenant.gameIndex, { kms: false });
const role = await client.readContract({ address: nft, abi: nftAbi, functionName: "MINTER_ROLE" });
await client.waitForTransactionReceipt({
  hash: await minter.wallet.writeContract({
    account: minter.wallet.account!,
    chain: minter.wallet.chain,
    address: nft,
    abi: nftAbi,
    functionName: "grantRole",
    args: [role, direct.address],
  }),
});
let directNonce = await client.getTransactionCount({ address: direct.address });
let serviceId = 20_000_000;
let directId = 30_000_000;
const ROUND = 200;
const rounds: { service: number; bare: number }[] = [];
for (let round = 0; round < 5; round++) {
  let t0 = performance.now();
  for (let i = 0; i < ROUND; i++) {
    const res = await t.mintOne(String(serviceId++));
    if (res.body.code !== 0) throw new Error(JSON.stringify(res.body));
  }
  const service = ROUND / ((performance.now() - t0) / 1000);
  t0 = performance.now();
  for (let i = 0; i < ROUND; i++) {
    const id = BigInt(directId++);
    await direct.wallet.writeContract({
      account: direct.wallet.account!,
      chain: direct.wallet.chain,
      address: nft,
      abi: nftAbi,
      functionName: "mintBatch",
      args: [player.address, [id], [String(id)], [100n]],
      nonce: directNonce++,
    });
  }
  const bare = ROUND / ((performance.now() - t0) / 1000);
  rounds.push({ service: Math.round(service), bare: Math.round(bare) });
  await services.idle();
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(JSON.stringify({
  part: "sustained",
  rounds,
  medianSendsPerSecond: {
    service: median(rounds.map((r) => r.service)),
    bareViem: median(rounds.map((r) => r.bare)),
  },
}));
Deno.exit(0);
