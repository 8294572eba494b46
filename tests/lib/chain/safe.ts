/**
 * Test helpers for multi-signature wallets: the Safe contracts deployed once per test chain
 * through the admin API, owners whose keys only the test holds, and signing + sending the
 * unsigned transactions the API returns.
 */
import { type Hex, parseTransaction, type TransactionSerializableEIP1559 } from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { admin, callJson } from "../../harness.ts";
import { chainEnv, fundedWallet, nftTenant, type TestWallet } from "./anvil.ts";

let deployed: Promise<{ singleton: Hex; proxyFactory: Hex; fallbackHandler: Hex }> | undefined;

/** Deploys SafeL2, the proxy factory and the fallback handler once per test process. */
export function safeContractsReady(gameIndex: number) {
  deployed ??= (async () => {
    const deployer = await fundedWallet(gameIndex, { kms: true });
    const res = await admin("POST", "/admin/v1/multisig/contracts", {
      network: "polygon",
      gameIndex,
      from: deployer.address,
    });
    if (res.status !== 201) throw new Error(`Safe deploy failed: ${JSON.stringify(res.body)}`);
    return res.body;
  })();
  return deployed;
}

/** Accounts whose keys only the test holds (owners of a wallet). */
export function owners(n: number): PrivateKeyAccount[] {
  return Array.from({ length: n }, () => privateKeyToAccount(generatePrivateKey()));
}

/** Signs an unsigned transaction the API returned (hex or object) with `wallet` and sends it. */
export async function signAndSend(
  wallet: TestWallet,
  rawTx: Hex | Record<string, unknown>,
): Promise<Hex> {
  const { hash, status } = await sendSigned(wallet, rawTx);
  if (status !== "success") throw new Error(`transaction ${hash} reverted`);
  return hash;
}

/** Like signAndSend, optionally with another gas limit; answers the hash and receipt status. */
export async function sendSigned(
  wallet: TestWallet,
  rawTx: Hex | Record<string, unknown>,
  options: { gas?: bigint } = {},
): Promise<{ hash: Hex; status: "success" | "reverted" }> {
  const { client } = await chainEnv();
  const tx: TransactionSerializableEIP1559 = typeof rawTx === "string"
    ? parseTransaction(rawTx) as TransactionSerializableEIP1559
    : {
      type: "eip1559",
      chainId: rawTx.chainId as number,
      nonce: rawTx.nonce as number,
      to: rawTx.to as Hex,
      data: rawTx.data as Hex,
      gas: BigInt(rawTx.gas as number),
      maxFeePerGas: BigInt(rawTx.maxFeePerGas as number),
      maxPriorityFeePerGas: BigInt(rawTx.maxPriorityFeePerGas as number),
    };
  if (options.gas !== undefined) tx.gas = options.gas;
  const signed = await privateKeyToAccount(wallet.privateKey).signTransaction(tx);
  const hash = await client.sendRawTransaction({ serializedTransaction: signed });
  const receipt = await client.waitForTransactionReceipt({ hash, timeout: 10_000 });
  return { hash, status: receipt.status };
}

/** Creates a wallet through the API and deploys it by sending its rawTx from `creator`. */
export async function createSafe(
  headers: Record<string, string>,
  creator: TestWallet,
  signers: Hex[],
  threshold: number,
): Promise<Hex> {
  const res = await callJson("POST", "/core/v1/multisig", {
    headers,
    json: { from: creator.address, signers, threshold },
  });
  if (res.body?.code !== 0) throw new Error(`multisig create failed: ${JSON.stringify(res.body)}`);
  await signAndSend(creator, res.body.data.rawTx);
  return res.body.data.address;
}

/** A fresh NFT tenant plus a deployed wallet of `n` test-held owners that holds the minter role. */
export async function safeMinterTenant(name: string, n: number, threshold: number) {
  const t = await nftTenant(name);
  await safeContractsReady(t.tenant.gameIndex);
  const creator = await fundedWallet(t.tenant.gameIndex, { kms: false });
  const keys = owners(n);
  const safe = await createSafe(
    t.tenant.chainHeaders,
    creator,
    keys.map((k) => k.address),
    threshold,
  );
  const granted = await admin("POST", `/admin/v1/contracts/${t.nft}/roles`, {
    network: "polygon",
    role: "minter",
    account: safe,
    grant: true,
  });
  if (granted.status !== 200) throw new Error(`grant failed: ${JSON.stringify(granted.body)}`);
  return { ...t, creator, owners: keys, safe };
}
