import assert from "node:assert/strict";
import { privateKeyToAccount } from "viem/accounts";
import { parseTransaction, recoverTransactionAddress } from "viem";
import { openKey, sealKey } from "../../../lib/chain/kms.ts";
import { seedTenant, testEnv } from "../../harness.ts";

const KEY = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318" as const;

Deno.test("sealed keys open only with the same master key and address", async () => {
  const address = privateKeyToAccount(KEY).address;
  const sealed = await sealKey("master-a", address, KEY);
  assert.ok(!sealed.includes(KEY.slice(2)));
  assert.equal(await openKey("master-a", address, sealed), KEY);
  await assert.rejects(() => openKey("master-b", address, sealed));
  await assert.rejects(() =>
    openKey("master-a", "0x0000000000000000000000000000000000000001", sealed)
  );
});

Deno.test("the KMS stores keys encrypted, signs with them, and refuses unknown senders", async () => {
  const { services } = await testEnv();
  const tenant = await seedTenant();
  const { address } = await services.kms.createWallet(tenant.gameIndex);
  const [row] = await services.db.query<{ key_ciphertext: string }>(
    "select key_ciphertext from chain_wallets where address = $1",
    [address.toLowerCase()],
  );
  assert.match(row.key_ciphertext, /^v1:/);
  assert.equal(await services.kms.holds(tenant.gameIndex, address), true);
  const signed = await services.kms.signTransaction(tenant.gameIndex, address, {
    type: "eip1559",
    chainId: 31337,
    nonce: 0,
    to: address,
    gas: 21000n,
    maxFeePerGas: 1n,
    maxPriorityFeePerGas: 1n,
  });
  const recovered = await recoverTransactionAddress({
    serializedTransaction: signed as `0x02${string}`,
  });
  assert.equal(recovered, address);
  assert.equal(parseTransaction(signed).nonce, 0);
  const stranger = privateKeyToAccount(KEY).address;
  assert.equal(await services.kms.holds(tenant.gameIndex, stranger), false);
  await assert.rejects(
    () =>
      services.kms.signTransaction(tenant.gameIndex, stranger, {
        type: "eip1559",
        chainId: 1,
        nonce: 0,
      }),
    (err: Error & { code?: string }) => err.code === "KEY_NOT_HELD",
  );
});

Deno.test("a key held for one game is not held, and never signs, for another game", async () => {
  const { services } = await testEnv();
  const owner = await seedTenant("kms owner game");
  const other = await seedTenant("kms other game");
  const { address } = await services.kms.createWallet(owner.gameIndex);
  assert.equal(await services.kms.holds(owner.gameIndex, address), true);
  assert.equal(await services.kms.holds(other.gameIndex, address), false);
  await assert.rejects(
    () =>
      services.kms.signTransaction(other.gameIndex, address, {
        type: "eip1559",
        chainId: 31337,
        nonce: 0,
        to: address,
        gas: 21000n,
        maxFeePerGas: 1n,
        maxPriorityFeePerGas: 1n,
      }),
    (err: Error & { code?: string }) => err.code === "KEY_NOT_HELD",
  );
});
