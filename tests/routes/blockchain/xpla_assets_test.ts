import assert from "node:assert/strict";
import { base64 } from "@scure/base";
import { SignDoc, TxRaw } from "cosmjs-types/cosmos/tx/v1beta1/tx";
import {
  broadcastBytes,
  settleXpla,
  xplaContract,
  xplaNftTenant,
  xplaTestOptions,
  xplaWallet,
} from "../../lib/chain/xpla_env.ts";
import { admin } from "../../harness.ts";

const cb = "http://127.0.0.1:9/cb";

/** Signs a WAITING request's SignDoc with the wallet's key (outside the service) and sends it. */
async function signAndSend(
  t: Awaited<ReturnType<typeof xplaNftTenant>>,
  wallet: { key: { sign(b: Uint8Array): Promise<Uint8Array> } },
  data: { rawTx: string; requestId: string },
) {
  const bytes = base64.decode(data.rawTx);
  const doc = SignDoc.decode(bytes);
  const signature = await wallet.key.sign(Buffer.from(bytes));
  const hash = await broadcastBytes(
    TxRaw.encode({
      bodyBytes: doc.bodyBytes,
      authInfoBytes: doc.authInfoBytes,
      signatures: [signature],
    }).finish(),
  );
  const res = await t.call("PATCH", "/service/v1/tx/hash", {
    requestId: data.requestId,
    txHash: hash,
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

Deno.test({
  ...xplaTestOptions,
  name: "xpla: lock (owner signs outside) then unlock (operator key held), ownership in LCD state",
  async fn() {
    const t = await xplaNftTenant("xpla lock game");
    const operator = await xplaWallet(t.tenant.gameIndex, { kms: true });
    const lock = await xplaContract(t.tenant, {
      kind: "lock",
      type: "lock",
      creator: operator.address,
      init: { owner: operator.address },
    });
    const minted = await t.call("POST", `/service/v1/nft/${t.nft}/mint`, {
      playerId: "1",
      from: t.minter.address,
      to: t.player.address,
      isSend: true,
      encoded: false,
      callbackUrl: cb,
      mintMsg: [{ tokenId: "7", royaltyPercentage: 0, metadata: { name: "a", image: "b" } }],
    });
    assert.equal(minted.status, 200, JSON.stringify(minted.body));
    await settleXpla(t.tenant.appid);

    const lockBody = {
      playerId: "1",
      from: t.player.address,
      lockContract: lock,
      tokenId: "7",
      isSend: false,
      encoded: true,
      callbackUrl: cb,
    };
    const notOwner = await t.call("POST", `/service/v1/nft/contract/${t.nft}/lock`, {
      ...lockBody,
      from: operator.address,
    });
    assert.equal(notOwner.status, 403);
    assert.equal(notOwner.body.code, 2003);
    // Also when the service holds the operator's key and would send.
    const sentByOperator = await t.call("POST", `/service/v1/nft/contract/${t.nft}/lock`, {
      ...lockBody,
      isSend: true,
      from: operator.address,
    });
    assert.equal(sentByOperator.status, 403, JSON.stringify(sentByOperator.body));
    assert.equal(sentByOperator.body.code, 2003);
    assert.equal(t.lcd.accounts.get(operator.address)!.checkSequence, 0);

    const locking = await t.call("POST", `/service/v1/nft/contract/${t.nft}/lock`, lockBody);
    assert.equal(locking.status, 200, JSON.stringify(locking.body));
    await signAndSend(t, t.player, locking.body.data);
    await settleXpla(t.tenant.appid);
    assert.deepEqual(t.lcd.query(t.nft, { owner_of: { token_id: "7" } }), {
      owner: lock,
      approvals: [],
    });
    assert.deepEqual(t.lcd.query(lock, { locked: { nft_contract: t.nft, token_id: "7" } }), {
      owner: t.player.address,
    });
    const again = await t.call("POST", `/service/v1/nft/contract/${t.nft}/lock`, lockBody);
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 2004);

    const unlockBody = {
      playerId: "1",
      from: operator.address,
      nftContract: t.nft,
      tokenId: "7",
      isSend: true,
      encoded: false,
      callbackUrl: cb,
    };
    const unlocking = await t.call("POST", `/service/v1/lock/contract/${lock}/unlock`, unlockBody);
    assert.equal(unlocking.status, 200, JSON.stringify(unlocking.body));
    await settleXpla(t.tenant.appid);
    assert.deepEqual(t.lcd.query(t.nft, { owner_of: { token_id: "7" } }), {
      owner: t.player.address,
      approvals: [],
    });
    assert.deepEqual(t.lcd.query(lock, { locked: { nft_contract: t.nft, token_id: "7" } }), {
      owner: null,
    });
    const notLocked = await t.call("POST", `/service/v1/lock/contract/${lock}/unlock`, unlockBody);
    assert.equal(notLocked.status, 409);
    assert.equal(notLocked.body.code, 2005);

    const list = await t.call("GET", "/service/v1/tx?playerId=1");
    const byType = Object.fromEntries(
      list.body.data.transactions.map((r: { txType: string; txStatus: string }) => [
        r.txType,
        r.txStatus,
      ]),
    );
    assert.deepEqual(byType, { MINT: "SUCCESS", LOCK: "SUCCESS", UNLOCK: "SUCCESS" });
  },
});

Deno.test({
  ...xplaTestOptions,
  name: "xpla: both converts move tokens and currency; pool info, balance and contract list",
  async fn() {
    const t = await xplaNftTenant("xpla convert game");
    const operator = await xplaWallet(t.tenant.gameIndex, { kms: true });
    const holder = await xplaWallet(t.tenant.gameIndex, { kms: true });
    const { lcd } = t;
    const token = await xplaContract(t.tenant, {
      kind: "cw20",
      type: "token",
      creator: operator.address,
      name: "Gem",
      init: {
        name: "Gem",
        symbol: "GEM",
        decimals: 2,
        initial_balances: [{ address: holder.address, amount: "500" }],
        marketing: { logo: { url: "https://img.example/gem.png" } },
      },
    });
    // The pool is registered under the operator, instantiated by the token's deployer (same).
    const pool = await xplaContract(t.tenant, {
      kind: "convert-pool",
      type: "convert-pool",
      creator: operator.address,
      init: { token, owner: operator.address },
    });
    lcd.contracts.get(token)!.state.balances[pool] = "1000";

    const convert = (type: string, body: Record<string, unknown>) =>
      t.call("POST", `/service/v1/convert/${type}`, {
        playerId: "5",
        isSend: true,
        encoded: false,
        callbackUrl: cb,
        owner: holder.address,
        convertPool: pool,
        ...body,
      });
    const toToken = await convert("to-token", {
      gameTokenAmount: "100",
      gameCurrencyCode: "gold",
      gameCurrencyAmount: "50",
    });
    assert.equal(toToken.status, 200, JSON.stringify(toToken.body));
    await settleXpla(t.tenant.appid);
    const toCurrency = await convert("to-currency", {
      gameTokenAmount: "60",
      gameCurrencyCode: "gold",
      gameCurrencyAmount: "20",
    });
    assert.equal(toCurrency.status, 200, JSON.stringify(toCurrency.body));
    await settleXpla(t.tenant.appid);

    const info = await t.call("GET", `/service/v1/convert/pool/${pool}`);
    assert.deepEqual(info.body.data, {
      convertPoolAmount: "960",
      gameCurrency: [{ goodsCode: "gold", goodsAmount: "30" }],
    });
    assert.equal(lcd.contracts.get(token)!.state.balances[holder.address], "540");
    const exhausted = await convert("to-token", {
      gameTokenAmount: "5000",
      gameCurrencyCode: "gold",
      gameCurrencyAmount: "1",
    });
    assert.equal(exhausted.status, 409);
    assert.equal(exhausted.body.code, 2006);
    const tooMuchCurrency = await convert("to-currency", {
      gameTokenAmount: "1",
      gameCurrencyCode: "gold",
      gameCurrencyAmount: "31",
    });
    assert.equal(tooMuchCurrency.status, 409, JSON.stringify(tooMuchCurrency.body));
    assert.equal(tooMuchCurrency.body.code, 2006);

    const balance = await t.call(
      "GET",
      `/service/v1/ft/${token}/account/${holder.address}/balance`,
    );
    assert.deepEqual(balance.body.data, {
      value: "5.4",
      rawValue: "540",
      decimals: 2,
      symbol: "GEM",
      symbolUri: "https://img.example/gem.png",
    });
    // The same account in its 0x form reads the same balance.
    const viaHex = await t.call("GET", `/service/v1/ft/${token}/account/${holder.hex}/balance`);
    assert.equal(viaHex.body.data.rawValue, "540");

    // Registered under someone else, but the chain says the operator instantiated it.
    const other = await xplaWallet(t.tenant.gameIndex, { kms: false });
    const nft2 = lcd.instantiate("cw721", operator.address, { minter: operator.address });
    await admin("POST", "/admin/v1/contracts", {
      network: "xpla",
      address: nft2,
      type: "nft",
      name: "Second",
      owner: other.address,
      gameIndex: t.tenant.gameIndex,
    });
    const list = await t.call("GET", `/service/v1/contract/owner/${operator.address}`);
    assert.equal(list.status, 200, JSON.stringify(list.body));
    const addresses = list.body.data.contracts.map((c: { address: string }) => c.address).sort();
    assert.deepEqual(addresses, [token, pool, nft2].sort());
    assert.ok(list.body.data.contracts.every((c: { network: string }) => c.network === "xpla"));
  },
});
