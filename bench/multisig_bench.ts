/**
 * Multi-signature benchmarks on a local anvil (`deno bench -A bench/multisig_bench.ts`), one run:
 * 1. rawTx for a one-token mint sent by a plain wallet (baseline: the path every isSend-false call
 *    takes, which now also asks whether the sender is a recorded Safe) beside the same mint sent by
 *    a Safe (simulation from the wallet, Safe nonce read, send lock, EIP-712 hash, two records),
 *    and the added "is it a Safe?" lookup alone;
 * 2. assembling execTransaction from two owner signatures (`/core/v1/multisig/tx`).
 */
import { callJson, testEnv } from "../tests/harness.ts";
import { safeMinterTenant } from "../tests/lib/chain/safe.ts";
import { findSafe } from "../lib/chain/safe/wallets.ts";

const t = await safeMinterTenant("multisig bench game", 3, 2);
const { tenant, minter, player, nft, creator, safe, owners: [o1, o2] } = t;
const { services } = await testEnv();

let next = 5_000_000;
const mint = (from: string) =>
  callJson("POST", `/service/v1/nft/${nft}/mint`, {
    headers: tenant.chainHeaders,
    json: {
      playerId: "1",
      from,
      to: player.address,
      isSend: false,
      encoded: false,
      callbackUrl: "http://127.0.0.1:9/cb",
      royaltyPercentage: 1,
      mintMsg: [{
        tokenId: String(next++),
        metadata: { name: "b", image: "https://img.example/b" },
      }],
    },
  });

Deno.bench({
  name: "rawTx, plain wallet sender (HTTP)",
  group: "one-token mint rawTx",
  baseline: true,
  async fn() {
    const res = await mint(minter.address);
    if (res.body.code !== 0) throw new Error(JSON.stringify(res.body));
  },
});

Deno.bench({
  name: "rawTx + hashedTx, Safe sender (HTTP)",
  group: "one-token mint rawTx",
  async fn() {
    const res = await mint(safe);
    if (res.body.code !== 0) throw new Error(JSON.stringify(res.body));
  },
});

Deno.bench({
  name: "the added Safe lookup alone (one indexed select)",
  group: "one-token mint rawTx",
  async fn() {
    await findSafe(services, {
      chainId: services.chain!.chainId,
      address: minter.address,
      gameIndex: tenant.gameIndex,
    });
  },
});

const prepared = (await mint(safe)).body.data;
const signatures = [
  await o1.sign({ hash: prepared.hashedTx }),
  await o2.signMessage({ message: { raw: prepared.hashedTx } }),
];
Deno.bench({
  name: "execTransaction from two signatures (HTTP)",
  group: "multisig tx",
  async fn() {
    const res = await callJson("POST", `/core/v1/multisig/tx/${safe}`, {
      headers: tenant.chainHeaders,
      json: { encoded: true, from: creator.address, tx: prepared.rawTx, signatures },
    });
    if (res.body.code !== 0) throw new Error(JSON.stringify(res.body));
  },
});
