import assert from "node:assert/strict";
import { base64 } from "@scure/base";
import { serializeSignDoc, type StdSignDoc as CosmjsDoc } from "@cosmjs/amino";
import { TxRaw } from "cosmjs-types/cosmos/tx/v1beta1/tx";
import { bytesToHex, keccak256 } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import {
  LegacyAminoMultisigPublicKey,
  RawKey,
  type SimplePublicKey,
  Tx as XTx,
} from "@xpla/xpla.js";
import { addressOfPublicKey, publicKeyOf, xplaToHex } from "../../../lib/chain/xpla/keys.ts";
import { multisigAddress } from "../../../lib/chain/xpla/multisig_keys.ts";
import { admin } from "../../harness.ts";
import {
  broadcastBytes,
  sendWithXplaJs,
  settleXpla,
  waitForTx,
  XPLA,
  xplaContract,
  xplaNftTenant,
  xplaTestOptions,
  xplaWallet,
} from "../../lib/chain/xpla_env.ts";

const PRIVATE_KEYS = ["01", "02", "03"].map((b) => `0x${b.repeat(32)}` as `0x${string}`);

Deno.test("xpla keys: one key has the same 20 bytes as 0x… and xpla1…, as xpla.js derives", () => {
  for (const pk of PRIVATE_KEYS) {
    const xplaJs = new RawKey(Buffer.from(pk.slice(2), "hex"));
    const address = addressOfPublicKey(publicKeyOf(pk));
    assert.equal(address, xplaJs.accAddress);
    assert.equal(xplaToHex(address), privateKeyToAccount(pk).address);
  }
});

Deno.test({
  ...xplaTestOptions,
  name: "admin wallet read: one held key shows its 0x… and xpla1… address and its xpla account",
  async fn() {
    const t = await xplaNftTenant("xpla wallet read");
    const wallet = await xplaWallet(t.tenant.gameIndex, { kms: true, fund: 5n * 10n ** 18n });
    const byHex = await admin("GET", `/admin/v1/wallets/${wallet.hex}`);
    assert.equal(byHex.status, 200, JSON.stringify(byHex.body));
    assert.equal(byHex.body.address, wallet.hex);
    assert.equal(byHex.body.keyHeld, true);
    assert.equal(byHex.body.xplaAddress, wallet.key.accAddress); // xpla.js derives the same
    assert.deepEqual(byHex.body.xpla, {
      chainId: t.lcd.chainId,
      balance: "5",
      balanceAxpla: "5000000000000000000",
      accountNumber: String(t.lcd.accounts.get(wallet.address)!.accountNumber),
      sequence: "0",
      active: false,
    });
    await sendWithXplaJs(wallet, t.player.address, 1n);
    const byBech32 = await admin("GET", `/admin/v1/wallets/${wallet.address}`);
    assert.equal(byBech32.status, 200, JSON.stringify(byBech32.body));
    assert.equal(byBech32.body.address, wallet.hex);
    assert.equal(byBech32.body.xpla.sequence, "1");
    assert.equal(byBech32.body.xpla.active, true);
  },
});

Deno.test("xpla multisig address: the chain's legacy amino derivation, fixed vector and xpla.js", () => {
  const keys = PRIVATE_KEYS.map(publicKeyOf);
  // 2-of-3 over the keys of private keys 0x01…, 0x02…, 0x03… (in that order).
  assert.equal(multisigAddress(2, keys), "xpla1hjy26r7rsm2lgljcat0xarhz86rg0nfkpkmu2r");
  const xplaJs = new LegacyAminoMultisigPublicKey(
    2,
    PRIVATE_KEYS.map((pk) =>
      new RawKey(Buffer.from(pk.slice(2), "hex")).publicKey as SimplePublicKey
    ),
  );
  assert.equal(xplaJs.address(), multisigAddress(2, keys));
  // Key order and threshold are part of the address.
  assert.notEqual(multisigAddress(2, [keys[1], keys[0], keys[2]]), multisigAddress(2, keys));
  assert.notEqual(multisigAddress(3, keys), multisigAddress(2, keys));
});

Deno.test({
  ...xplaTestOptions,
  name:
    "xpla multisig: 2-of-3 of active members, a mint signed by two members, broadcast as returned",
  async fn() {
    const t = await xplaNftTenant("xpla multisig game");
    const members = await Promise.all(
      [0, 1, 2].map(() => xplaWallet(t.tenant.gameIndex, { kms: false, active: true })),
    );
    const inactive = await xplaWallet(t.tenant.gameIndex, { kms: false });
    const create = (json: unknown) => t.call("POST", "/core/v1/multisig", json);

    const refused = await create({
      from: members[0].address,
      signers: [members[0].address, inactive.address, members[2].address],
      threshold: 2,
    });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, 2122);
    assert.match(refused.body.message, new RegExp(`signers\\[1\\] ${inactive.address}`));
    assert.match(refused.body.message, /not an active account/);
    const badThreshold = await create({
      from: members[0].address,
      signers: members.map((m) => m.address),
      threshold: 4,
    });
    assert.equal(badThreshold.status, 400);
    assert.equal(badThreshold.body.code, 2106);

    const created = await create({
      from: members[0].address,
      signers: members.map((m) => m.address),
      threshold: 2,
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const wallet = created.body.data.address as string;
    assert.deepEqual(Object.keys(created.body.data), ["address"]);
    assert.equal(wallet, multisigAddress(2, members.map((m) => publicKeyOf(m.privateKey))));

    // The multisig holds funds and is the minter of its own contract.
    t.lcd.fund(wallet, 100n * 10n ** 18n);
    const nft = await xplaContract(t.tenant, {
      kind: "cw721",
      type: "nft",
      creator: wallet,
      init: { minter: wallet },
    });
    const mint = await t.call("POST", `/service/v1/nft/${nft}/mint`, {
      playerId: "3",
      from: wallet,
      to: t.player.address,
      isSend: false,
      encoded: false,
      callbackUrl: "http://127.0.0.1:9/cb",
      mintMsg: [{ tokenId: "m1", royaltyPercentage: 2, metadata: { name: "m", image: "i" } }],
    });
    assert.equal(mint.status, 200, JSON.stringify(mint.body));
    const { rawTx, hashedTx, requestId } = mint.body.data;
    const sendRefused = await t.call("POST", `/service/v1/nft/${nft}/mint`, {
      playerId: "3",
      from: wallet,
      to: t.player.address,
      isSend: true,
      encoded: false,
      callbackUrl: "http://127.0.0.1:9/cb",
      mintMsg: [{ tokenId: "m9", royaltyPercentage: 0, metadata: { name: "m", image: "i" } }],
    });
    assert.equal(sendRefused.body.code, 2109);
    assert.equal(rawTx.memo, requestId);
    assert.equal(rawTx.msgs[0].type, "wasm/MsgExecuteContract");
    // The bytes the chain verifies, computed by cosmjs (not by the service's encoder).
    const signBytes = serializeSignDoc(rawTx as CosmjsDoc);
    assert.equal(hashedTx, keccak256(signBytes));

    // Members sign outside the service (xpla.js: keccak256 + secp256k1).
    const sign = async (i: number) =>
      await members[i].key.sign(Buffer.from(signBytes)) as Uint8Array;
    const [sig0, sig2, outsider] = [
      await sign(0),
      await sign(2),
      await inactive.key.sign(
        Buffer.from(signBytes),
      ),
    ];
    const assemble = (signatures: string[]) =>
      t.call("POST", `/core/v1/multisig/tx/${wallet}`, {
        encoded: false,
        from: members[0].address,
        tx: rawTx,
        signatures,
      });
    const tooFew = await assemble([base64.encode(sig0)]);
    assert.equal(tooFew.status, 400);
    assert.equal(tooFew.body.code, 2104);
    const nonMember = await assemble([base64.encode(sig0), base64.encode(outsider)]);
    assert.equal(nonMember.status, 403);
    assert.equal(nonMember.body.code, 2102);
    assert.match(nonMember.body.message, /signatures\[1\]/);
    const twice = await assemble([base64.encode(sig0), bytesToHex(sig0)]);
    assert.equal(twice.body.code, 2103);
    const garbage = await assemble([base64.encode(sig0), "0x1234"]);
    assert.equal(garbage.body.code, 2105);

    // Given out of key order; the service orders them by the multisig's keys.
    const assembled = await assemble([bytesToHex(sig2), base64.encode(sig0)]);
    assert.equal(assembled.status, 200, JSON.stringify(assembled.body));
    assert.equal(assembled.body.data.requestId, requestId);
    assert.equal(assembled.body.data.reqeustId, requestId);
    const txBytes = base64.decode(assembled.body.data.rawTx);
    const decoded = XTx.fromBytes(txBytes);
    assert.equal(decoded.auth_info.signer_infos[0].public_key?.address(), wallet);

    // The local chain verifies the member signatures: one flipped bit is refused (code 4).
    const raw = TxRaw.decode(txBytes);
    const tampered = raw.signatures[0].slice();
    tampered[tampered.length - 1] ^= 1;
    const refusedTx = await fetch(`${t.lcd.url}/cosmos/tx/v1beta1/txs`, {
      method: "POST",
      body: JSON.stringify({
        tx_bytes: base64.encode(TxRaw.encode({ ...raw, signatures: [tampered] }).finish()),
        mode: "BROADCAST_MODE_SYNC",
      }),
    }).then((r) => r.json());
    assert.equal(refusedTx.tx_response.code, 4, JSON.stringify(refusedTx));

    const hash = await broadcastBytes(txBytes);
    const patched = await t.call("PATCH", "/service/v1/tx/hash", { requestId, txHash: hash });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    await settleXpla(t.tenant.appid);
    const list = await t.call("GET", "/service/v1/tx?playerId=3");
    assert.equal(list.body.data.transactions[0].txStatus, "SUCCESS");
    assert.deepEqual(t.lcd.query(nft, { owner_of: { token_id: "m1" } }), {
      owner: t.player.address,
      approvals: [],
    });
    // encoded: true answers base64 of the sorted JSON, which the assembly takes as it is.
    const encoded = await t.call("POST", `/service/v1/nft/${nft}/mint`, {
      playerId: "3",
      from: wallet,
      to: t.player.address,
      isSend: false,
      encoded: true,
      callbackUrl: "http://127.0.0.1:9/cb",
      mintMsg: [{ tokenId: "m2", royaltyPercentage: 0, metadata: { name: "m", image: "i" } }],
    });
    assert.equal(encoded.status, 200, JSON.stringify(encoded.body));
    const encodedBytes = base64.decode(encoded.body.data.rawTx);
    assert.equal(encoded.body.data.hashedTx, keccak256(encodedBytes));
    const doc = JSON.parse(new TextDecoder().decode(encodedBytes));
    assert.equal(doc.sequence, "1");
    const sigs = await Promise.all(
      [1, 2].map((i) => members[i].key.sign(Buffer.from(encodedBytes))),
    );
    const fromEncoded = await t.call("POST", "/core/v1/multisig/tx", {
      encoded: true,
      from: members[1].address,
      to: wallet,
      tx: encoded.body.data.rawTx,
      signatures: sigs.map((x) => base64.encode(x)),
    });
    assert.equal(fromEncoded.status, 200, JSON.stringify(fromEncoded.body));
    assert.equal(fromEncoded.body.data.requestId, encoded.body.data.requestId);

    // The chain now shows the multisig key on the account.
    const account = await (await fetch(`${t.lcd.url}/cosmos/auth/v1beta1/accounts/${wallet}`))
      .json();
    assert.equal(
      account.account.base_account.pub_key["@type"],
      "/cosmos.crypto.multisig.LegacyAminoPubKey",
    );
  },
});

Deno.test({
  ...xplaTestOptions,
  name:
    "xpla multisig: to-token for goods code R&D<1> from a 2-of-3 pool owner; members sign hashedTx; the chain accepts it",
  async fn() {
    const t = await xplaNftTenant("xpla multisig escaping");
    const members = await Promise.all(
      [0, 1, 2].map(() => xplaWallet(t.tenant.gameIndex, { kms: false, active: true })),
    );
    const created = await t.call("POST", "/core/v1/multisig", {
      from: members[0].address,
      signers: members.map((m) => m.address),
      threshold: 2,
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const wallet = created.body.data.address as string;
    t.lcd.fund(wallet, 100n * XPLA);
    const token = await xplaContract(t.tenant, {
      kind: "cw20",
      type: "token",
      creator: wallet,
      init: { name: "Gold", symbol: "GLD", decimals: 18 },
    });
    const pool = await xplaContract(t.tenant, {
      kind: "convert-pool",
      type: "convert-pool",
      creator: wallet,
      init: { owner: wallet, token },
    });
    t.lcd.contracts.get(token)!.state.balances[pool] = "1000";

    const convert = await t.call("POST", "/service/v1/convert/to-token", {
      playerId: "7",
      isSend: false,
      encoded: false,
      owner: t.player.address,
      convertPool: pool,
      gameTokenAmount: "5",
      gameCurrencyCode: "R&D<1>",
      gameCurrencyAmount: "50",
      callbackUrl: "http://127.0.0.1:9/cb",
    });
    assert.equal(convert.status, 200, JSON.stringify(convert.body));
    const { rawTx, hashedTx, requestId } = convert.body.data;
    assert.equal(rawTx.msgs[0].value.msg.to_token.goods_code, "R&D<1>");
    assert.equal(hashedTx, keccak256(serializeSignDoc(rawTx as CosmjsDoc)));

    // Two members sign hashedTx as it is (a raw 32-byte digest).
    const signatures = await Promise.all(
      [0, 2].map((i) => privateKeyToAccount(members[i].privateKey).sign({ hash: hashedTx })),
    );
    const assembled = await t.call("POST", `/core/v1/multisig/tx/${wallet}`, {
      encoded: false,
      from: members[0].address,
      tx: rawTx,
      signatures,
    });
    assert.equal(assembled.status, 200, JSON.stringify(assembled.body));
    // The local chain verifies with its own amino encoder: broadcastBytes throws on a refusal.
    const hash = await broadcastBytes(base64.decode(assembled.body.data.rawTx));
    const included = await waitForTx(hash);
    assert.equal(included.code, 0, included.raw_log);
    assert.deepEqual(t.lcd.query(pool, { pool_info: {} }), {
      token_amount: "995",
      currency: [{ goods_code: "R&D<1>", goods_amount: "50" }],
    });
    const patched = await t.call("PATCH", "/service/v1/tx/hash", { requestId, txHash: hash });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    await settleXpla(t.tenant.appid);
    const list = await t.call("GET", "/service/v1/tx?playerId=7");
    assert.equal(list.body.data.transactions[0].requestId, requestId);
    assert.equal(list.body.data.transactions[0].txStatus, "SUCCESS");
  },
});
