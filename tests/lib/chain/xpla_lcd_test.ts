/**
 * The local XPLA LCD refuses what the chain refuses: bad signatures, wrong sequences, replays,
 * unknown accounts, too small fees; answers errors in the gRPC-gateway shape; and runs
 * contracts atomically (a failing message leaves no state behind).
 */
import assert from "node:assert/strict";
import { base64 } from "@scure/base";
import { generatePrivateKey } from "viem/accounts";
import { startLocalLcd } from "../../../dev/xpla_lcd/server.ts";
import { addressOfPublicKey, publicKeyOf, signEthSecp256k1 } from "../../../lib/chain/xpla/keys.ts";
import {
  encodeAuthInfo,
  encodeBody,
  encodeSignDoc,
  encodeTxRaw,
  ethPubKeyAny,
} from "../../../lib/chain/xpla/tx.ts";

const GAS = 400_000n;
const FEE = GAS * 850_000_000_000n;

function signedTx(o: {
  privateKey: `0x${string}`;
  chainId: string;
  accountNumber: number;
  sequence: number;
  calls: { contract: string; msg: Record<string, unknown> }[];
  fee?: bigint;
  signWith?: `0x${string}`;
  timeoutHeight?: number;
}) {
  const publicKey = publicKeyOf(o.privateKey);
  const sender = addressOfPublicKey(publicKey);
  const bodyBytes = encodeBody(sender, o.calls, { timeoutHeight: BigInt(o.timeoutHeight ?? 0) });
  const authInfoBytes = encodeAuthInfo({
    publicKey: ethPubKeyAny(publicKey),
    sequence: BigInt(o.sequence),
    gasLimit: GAS,
    feeAmount: o.fee ?? FEE,
  });
  const signDoc = encodeSignDoc({
    bodyBytes,
    authInfoBytes,
    chainId: o.chainId,
    accountNumber: BigInt(o.accountNumber),
  });
  const signature = signEthSecp256k1(o.signWith ?? o.privateKey, signDoc);
  return encodeTxRaw({ bodyBytes, authInfoBytes, signatures: [signature] });
}

async function broadcast(url: string, tx: Uint8Array) {
  const res = await fetch(`${url}/cosmos/tx/v1beta1/txs`, {
    method: "POST",
    body: JSON.stringify({ tx_bytes: base64.encode(tx), mode: "BROADCAST_MODE_SYNC" }),
  });
  return (await res.json()).tx_response as { code: number; raw_log: string; txhash: string };
}

Deno.test("local LCD: signatures, sequences, replays, fees and atomic contract state", async () => {
  const lcd = startLocalLcd({ blockMs: 1 });
  try {
    const key = generatePrivateKey();
    const me = addressOfPublicKey(publicKeyOf(key));
    const unknown = await fetch(`${lcd.url}/cosmos/auth/v1beta1/accounts/${me}`);
    assert.equal(unknown.status, 404);
    assert.deepEqual(Object.keys(await unknown.json()).sort(), ["code", "details", "message"]);
    const acc = lcd.fund(me, 10n ** 21n);
    const nft = lcd.instantiate("cw721", me, { minter: me });
    const mint = (id: string) => ({ contract: nft, msg: { mint: { token_id: id, owner: me } } });
    const base = { privateKey: key, chainId: lcd.chainId, accountNumber: acc.accountNumber };

    const forged = await broadcast(
      lcd.url,
      signedTx({ ...base, sequence: 0, calls: [mint("a")], signWith: generatePrivateKey() }),
    );
    assert.equal(forged.code, 4, forged.raw_log);
    assert.match(forged.raw_log, /signature verification failed/);
    const wrongChain = await broadcast(
      lcd.url,
      signedTx({ ...base, chainId: "other_1-1", sequence: 0, calls: [mint("a")] }),
    );
    assert.equal(wrongChain.code, 4, wrongChain.raw_log);
    const wrongSequence = await broadcast(
      lcd.url,
      signedTx({ ...base, sequence: 5, calls: [mint("a")] }),
    );
    assert.equal(wrongSequence.code, 32);
    assert.match(wrongSequence.raw_log, /account sequence mismatch, expected 0, got 5/);
    const cheap = await broadcast(
      lcd.url,
      signedTx({ ...base, sequence: 0, calls: [mint("a")], fee: 1n }),
    );
    assert.equal(cheap.code, 13);

    const good = signedTx({ ...base, sequence: 0, calls: [mint("a")] });
    lcd.holdBlocks(true);
    const ok = await broadcast(lcd.url, good);
    assert.equal(ok.code, 0, ok.raw_log);
    // Accepted, not yet in a block: the account query still answers the committed sequence,
    // while CheckTx already expects the next one.
    const committed = await (await fetch(`${lcd.url}/cosmos/auth/v1beta1/accounts/${me}`)).json();
    assert.equal(committed.account.base_account.sequence, "0");
    assert.equal(committed.account.base_account.pub_key, null);
    const stale = await broadcast(lcd.url, signedTx({ ...base, sequence: 0, calls: [mint("z")] }));
    assert.equal(stale.code, 32);
    assert.match(stale.raw_log, /expected 1, got 0/);
    lcd.holdBlocks(false);
    assert.equal(ok.txhash, await sha256Upper(good));
    const replay = await broadcast(lcd.url, good);
    assert.notEqual(replay.code, 0);
    await new Promise((r) => setTimeout(r, 20));
    const found = await (await fetch(`${lcd.url}/cosmos/tx/v1beta1/txs/${ok.txhash}`)).json();
    assert.equal(found.tx_response.code, 0);
    assert.ok(Number(found.tx_response.height) > 1);
    assert.equal(lcd.accounts.get(me)!.sequence, 1);

    // Second message fails ("a" is claimed): the first one's token must not exist afterwards.
    const partial = await broadcast(
      lcd.url,
      signedTx({ ...base, sequence: 1, calls: [mint("b"), mint("a")] }),
    );
    assert.equal(partial.code, 0);
    await new Promise((r) => setTimeout(r, 20));
    const failed = await (await fetch(`${lcd.url}/cosmos/tx/v1beta1/txs/${partial.txhash}`))
      .json();
    assert.equal(failed.tx_response.code, 5);
    assert.match(failed.tx_response.raw_log, /message index: 1: token_id already claimed/);
    assert.throws(() => lcd.query(nft, { owner_of: { token_id: "b" } }), /not found/);

    const simulated = await fetch(`${lcd.url}/cosmos/tx/v1beta1/simulate`, {
      method: "POST",
      body: JSON.stringify({
        tx_bytes: base64.encode(signedTx({ ...base, sequence: 2, calls: [mint("c")] })),
      }),
    }).then((r) => r.json());
    assert.ok(Number(simulated.gas_info.gas_used) > 0);
    assert.throws(() => lcd.query(nft, { owner_of: { token_id: "c" } }), /not found/);
    const missing = await fetch(`${lcd.url}/cosmos/tx/v1beta1/txs/${"0".repeat(64)}`);
    assert.equal(missing.status, 404);
    assert.equal((await missing.json()).code, 5);
  } finally {
    await lcd.close();
  }
});

Deno.test("local LCD: timeout_height refused at broadcast when past, dropped from the mempool when the chain reaches it", async () => {
  const lcd = startLocalLcd({ blockMs: 1 });
  try {
    const key = generatePrivateKey();
    const me = addressOfPublicKey(publicKeyOf(key));
    const acc = lcd.fund(me, 10n ** 21n);
    const nft = lcd.instantiate("cw721", me, { minter: me });
    const mint = (id: string) => ({ contract: nft, msg: { mint: { token_id: id, owner: me } } });
    const base = { privateKey: key, chainId: lcd.chainId, accountNumber: acc.accountNumber };
    const latest = async () =>
      Number(
        (await (await fetch(`${lcd.url}/cosmos/base/tendermint/v1beta1/blocks/latest`)).json())
          .block.header.height,
      );
    const h = await latest();
    assert.equal(h, lcd.height());

    const late = await broadcast(
      lcd.url,
      signedTx({ ...base, sequence: 0, calls: [mint("a")], timeoutHeight: h }),
    );
    assert.equal(late.code, 30, late.raw_log);
    assert.match(late.raw_log, /tx timeout height/);

    lcd.holdBlocks(true);
    const balance = acc.balance;
    const held = await broadcast(
      lcd.url,
      signedTx({ ...base, sequence: 0, calls: [mint("a")], timeoutHeight: h + 2 }),
    );
    assert.equal(held.code, 0, held.raw_log);
    const behind = await broadcast(lcd.url, signedTx({ ...base, sequence: 1, calls: [mint("b")] }));
    assert.equal(behind.code, 0, behind.raw_log);
    assert.equal(acc.checkSequence, 2);
    // Empty blocks (over HTTP): at height h + 2 the next block could not include it: dropped,
    // with the transaction behind it, fees given back, the sequence free again.
    const advanced = await fetch(`${lcd.url}/_local/blocks`, {
      method: "POST",
      body: JSON.stringify({ count: 2 }),
    }).then((r) => r.json());
    assert.equal(advanced.height, h + 2);
    assert.equal(acc.checkSequence, 0);
    assert.equal(acc.balance, balance);
    const again = await broadcast(lcd.url, signedTx({ ...base, sequence: 0, calls: [mint("c")] }));
    assert.equal(again.code, 0, again.raw_log);
    lcd.holdBlocks(false);
    await new Promise((r) => setTimeout(r, 30));
    assert.equal((await fetch(`${lcd.url}/cosmos/tx/v1beta1/txs/${held.txhash}`)).status, 404);
    assert.equal((await fetch(`${lcd.url}/cosmos/tx/v1beta1/txs/${again.txhash}`)).status, 200);
    assert.equal(acc.sequence, 1);
  } finally {
    await lcd.close();
  }
});

Deno.test("local LCD control endpoints refuse what they cannot use, with a clear 400", async () => {
  const lcd = startLocalLcd();
  try {
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${lcd.url}${path}`, {
        method: "POST",
        body: JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    };
    const hex = await post("/_local/fund", { address: `0x${"11".repeat(20)}`, amount: "1" });
    assert.equal(hex.status, 400);
    assert.equal(hex.body.message, "address must be an xpla1… address: invalid address");
    const noAddress = await post("/_local/fund", { amount: "1" });
    assert.equal(noAddress.status, 400);
    const key = generatePrivateKey();
    const me = addressOfPublicKey(publicKeyOf(key));
    const badAmount = await post("/_local/fund", { address: me, amount: "1.5" });
    assert.equal(badAmount.status, 400);
    assert.match(badAmount.body.message, /amount must be an integer string of axpla/);
    assert.equal(lcd.accounts.has(me), false);
    const funded = await post("/_local/fund", { address: me, amount: "7" });
    assert.deepEqual(funded, { status: 200, body: { address: me, balance: "7" } });
    const kind = await post("/_local/contracts", { kind: "erc20", creator: me });
    assert.equal(kind.status, 400);
    assert.match(kind.body.message, /kind must be one of cw721, cw20, lock, convert-pool/);
    const noToken = await post("/_local/contracts", { kind: "convert-pool", creator: me });
    assert.equal(noToken.status, 400);
    const made = await post("/_local/contracts", { kind: "cw721", creator: me, init: {} });
    assert.equal(made.status, 200);
    assert.ok(lcd.contracts.has(made.body.address));
    assert.equal((await post("/_local/blocks", { count: 0 })).status, 400);
    assert.equal((await post("/_local/hold", { hold: "yes" })).status, 400);
    assert.deepEqual((await post("/_local/hold", { hold: true })).body, {
      hold: true,
      height: lcd.height(),
    });
    await post("/_local/hold", { hold: false });
    assert.equal((await post("/_local/nothing", {})).status, 404);
  } finally {
    await lcd.close();
  }
});

// The chain's tx hash: SHA-256 of the tx bytes (WebCrypto here, independent of the LCD's code).
async function sha256Upper(tx: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new Uint8Array(tx)));
  return Array.from(digest).map((b) => b.toString(16).padStart(2, "0")).join("").toUpperCase();
}
