/**
 * Chain benchmarks on a local anvil (`deno bench -A bench/chain_bench.ts`):
 * 1. rawTx build latency for a 50-token mint (isSend false) through the app: validation, registry,
 *    gas estimate (a full simulation of the 50 mints), fees, nonce, record; beside the bare viem
 *    calls the service has to make (encode + estimate + fees + nonce), to show the overhead;
 * 2. sends per second from one wallet (isSend true, KMS sign under the Postgres send lock, one
 *    token per mint), beside a bare viem wallet sending the same call with a locally kept nonce.
 *    sends/s = 1000 / (avg ms per iteration).
 */
import { createPublicClient, encodeFunctionData, http } from "viem";
import { abi as nftAbi } from "../contracts/artifacts/GameNFT.ts";
import { callJson } from "../tests/harness.ts";
import { fundedWallet, nftTenant } from "../tests/lib/chain/anvil.ts";

const t = await nftTenant("bench game", { name: "B" });
const { tenant, minter, player, nft } = t;
const client = createPublicClient({ transport: http(t.anvil.url) });

const fifty = Array.from({ length: 50 }, (_, i) => ({
  tokenId: String(1_000_000 + i),
  royaltyPercentage: 5,
  metadata: {
    name: `Bench ${i}`,
    image: `https://img.example/${i}.png`,
    attributes: [{ traitType: "level", value: i, maxValue: 100 }],
  },
}));
const uris = fifty.map((e) => `http://localhost/metadata/polygon/${nft}/${e.tokenId}`);

Deno.bench({
  name: "service: rawTx for a 50-token mint (HTTP, isSend false)",
  group: "rawTx 50-token mint",
  baseline: false,
  async fn() {
    const res = await callJson("POST", `/service/v1/nft/${nft}/mint`, {
      headers: tenant.chainHeaders,
      json: {
        playerId: "1",
        from: minter.address,
        to: player.address,
        isSend: false,
        encoded: true,
        callbackUrl: "http://127.0.0.1:9/cb",
        mintMsg: fifty,
      },
    });
    if (res.body.code !== 0) throw new Error(JSON.stringify(res.body));
  },
});

Deno.bench({
  name: "bare viem: encode + estimateGas + fees + nonce",
  group: "rawTx 50-token mint",
  baseline: true,
  async fn() {
    const args = [
      player.address,
      fifty.map((e) => BigInt(e.tokenId)),
      uris,
      fifty.map(() => 500n),
    ] as const;
    encodeFunctionData({ abi: nftAbi, functionName: "mintBatch", args });
    await Promise.all([
      client.estimateContractGas({
        abi: nftAbi,
        address: nft,
        functionName: "mintBatch",
        args,
        account: minter.address,
      }),
      client.estimateFeesPerGas(),
      client.getTransactionCount({ address: minter.address, blockTag: "pending" }),
    ]);
  },
});

let next = 2_000_000;
Deno.bench({
  name: "service: one send from one wallet (HTTP, isSend true)",
  group: "sends from one wallet",
  baseline: false,
  async fn() {
    const id = String(next++);
    const res = await t.mintOne(id);
    if (res.body.code !== 0) throw new Error(JSON.stringify(res.body));
  },
});

const direct = await fundedWallet(tenant.gameIndex, { kms: false });
let directNonce = await client.getTransactionCount({ address: direct.address });
const grant = await minter.wallet.writeContract({
  account: minter.wallet.account!,
  chain: minter.wallet.chain,
  address: nft,
  abi: nftAbi,
  functionName: "grantRole",
  args: [
    await client.readContract({ address: nft, abi: nftAbi, functionName: "MINTER_ROLE" }),
    direct.address,
  ],
});
await client.waitForTransactionReceipt({ hash: grant });
let directNext = 3_000_000;
Deno.bench({
  name: "bare viem: writeContract with a local nonce",
  group: "sends from one wallet",
  baseline: true,
  async fn() {
    const id = BigInt(directNext++);
    await direct.wallet.writeContract({
      account: direct.wallet.account!,
      chain: direct.wallet.chain,
      address: nft,
      abi: nftAbi,
      functionName: "mintBatch",
      args: [player.address, [id], [String(id)], [100n]],
      nonce: directNonce++,
    });
  },
});
