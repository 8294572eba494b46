/**
 * A second, independent oracle: Safe's own SDK (@safe-global/protocol-kit) predicts the same
 * wallet address from the same owners, threshold and salt nonce, and computes the same
 * safeTxHash for the same Safe transaction, as the API.
 */
import assert from "node:assert/strict";
import {
  calculateSafeTransactionHash,
  predictSafeAddress,
  SafeProvider,
} from "@safe-global/protocol-kit";
import { callJson } from "../../harness.ts";
import { chainTestOptions, fundedWallet, nftTenant, TEST_CHAIN_ID } from "../../lib/chain/anvil.ts";
import { owners, safeContractsReady, signAndSend } from "../../lib/chain/safe.ts";

Deno.test({
  ...chainTestOptions,
  name: "protocol-kit predicts the same Safe address and computes the same safeTxHash",
  async fn() {
    const { tenant, anvil, player, nft } = await nftTenant("multisig oracle game");
    const contracts = await safeContractsReady(tenant.gameIndex);
    const headers = tenant.chainHeaders;
    const creator = await fundedWallet(tenant.gameIndex, { kms: false });
    const signers = owners(3).map((o) => o.address);
    const saltNonce = "123456789012345678901234567890";
    const created = await callJson("POST", "/core/v1/multisig", {
      headers,
      json: { from: creator.address, signers, threshold: 2, saltNonce },
    });
    assert.equal(created.body.code, 0, JSON.stringify(created.body));

    const safeProvider = await SafeProvider.init({ provider: anvil.url });
    const predicted = await predictSafeAddress({
      safeProvider,
      chainId: BigInt(TEST_CHAIN_ID),
      safeAccountConfig: {
        owners: signers,
        threshold: 2,
        fallbackHandler: contracts.fallbackHandler,
      },
      safeDeploymentConfig: { saltNonce, safeVersion: "1.4.1" },
      customContracts: {
        safeSingletonAddress: contracts.singleton,
        safeProxyFactoryAddress: contracts.proxyFactory,
        fallbackHandlerAddress: contracts.fallbackHandler,
      },
    });
    assert.equal(predicted, created.body.data.address);

    const safe = created.body.data.address;
    await signAndSend(creator, created.body.data.rawTx);
    await callJson("POST", `/admin/v1/contracts/${nft}/roles`, {
      headers: { authorization: "Bearer test-admin-token-0123456789abcdef" },
      json: { network: "polygon", role: "minter", account: safe, grant: true },
    });
    const mint = await callJson("POST", `/service/v1/nft/${nft}/mint`, {
      headers,
      json: {
        playerId: "1",
        from: safe,
        to: player.address,
        isSend: false,
        encoded: false,
        callbackUrl: "http://127.0.0.1:9/cb",
        royaltyPercentage: 2.5,
        mintMsg: [{ tokenId: "77", metadata: { name: "x", image: "https://img.example/x.png" } }],
      },
    });
    assert.equal(mint.body.code, 0, JSON.stringify(mint.body));
    const tx = mint.body.data.rawTx;
    const sdkHash = calculateSafeTransactionHash(
      safe,
      {
        to: tx.to,
        value: tx.value,
        data: tx.data,
        operation: tx.operation,
        safeTxGas: tx.safeTxGas,
        baseGas: tx.baseGas,
        gasPrice: tx.gasPrice,
        gasToken: tx.gasToken,
        refundReceiver: tx.refundReceiver,
        nonce: tx.nonce,
      },
      "1.4.1",
      BigInt(TEST_CHAIN_ID),
    );
    assert.equal(sdkHash, mint.body.data.hashedTx);
  },
});
