/**
 * XPLA benchmarks on the local LCD (`deno bench -A bench/xpla_bench.ts`):
 * 1. rawTx build latency for a 200-token mint (isSend false) through the app: validation,
 *    registry, account read, encoding of 200 execute messages, simulate (the local chain runs
 *    the 200 mints on a copy of its state), fee, sign doc, the WAITING record and 200 metadata
 *    rows; beside the bare LCD calls the service cannot avoid (account + simulate of the same
 *    bytes);
 * 2. offline encoding + signing of the same 200-message transaction: ours (own protobuf + noble)
 *    beside @xpla/xpla.js 1.9.0 (its Tx, MsgExecuteContract and RawKey.signTx).
 */
import { base64 } from "@scure/base";
import {
  AuthInfo as XAuthInfo,
  Fee as XFee,
  MsgExecuteContract as XMsgExecuteContract,
  SignMode,
  Tx as XTx,
  TxBody as XTxBody,
} from "@xpla/xpla.js";
import { signEthSecp256k1 } from "../lib/chain/xpla/keys.ts";
import {
  encodeAuthInfo,
  encodeBody,
  encodeSignDoc,
  encodeTxRaw,
  ethPubKeyAny,
} from "../lib/chain/xpla/tx.ts";
import { publicKeyOf } from "../lib/chain/xpla/keys.ts";
import { xplaContract, xplaNftTenant } from "../tests/lib/chain/xpla_env.ts";

const t = await xplaNftTenant("xpla bench game");
const minter = t.player; // active account whose key only the caller holds
const nft = await xplaContract(t.tenant, {
  kind: "cw721",
  type: "nft",
  creator: minter.address,
  init: { minter: minter.address },
});

const entries = Array.from({ length: 200 }, (_, i) => ({
  tokenId: `b${i}`,
  royaltyPercentage: 5,
  metadata: {
    name: `Bench ${i}`,
    image: `https://img.example/${i}.png`,
    attributes: [{ traitType: "level", value: i, maxValue: 1000 }],
  },
}));
const calls = entries.map((e) => ({
  contract: nft,
  msg: {
    mint: {
      token_id: e.tokenId,
      owner: minter.address,
      token_uri: `http://localhost/metadata/xpla/${nft}/${e.tokenId}`,
      extension: { royalty_percentage: 5, royalty_payment_address: minter.address },
    },
  },
}));

Deno.bench({
  name: "service: rawTx for a 200-token mint on xpla (HTTP, isSend false)",
  group: "xpla rawTx 200-token mint",
  async fn() {
    const res = await t.call("POST", `/service/v1/nft/${nft}/mint`, {
      playerId: "1",
      from: minter.address,
      to: minter.address,
      isSend: false,
      encoded: true,
      callbackUrl: "http://127.0.0.1:9/cb",
      mintMsg: entries,
    });
    if (res.body.code !== 0) throw new Error(JSON.stringify(res.body));
  },
});

const account = t.lcd.accounts.get(minter.address)!;
const publicKey = publicKeyOf(minter.privateKey);
const probe = encodeTxRaw({
  bodyBytes: encodeBody(minter.address, calls),
  authInfoBytes: encodeAuthInfo({
    publicKey: ethPubKeyAny(publicKey),
    sequence: BigInt(account.sequence),
    gasLimit: 0n,
    feeAmount: 0n,
  }),
  signatures: [new Uint8Array(0)],
});

Deno.bench({
  name: "bare LCD: account read + simulate of the same 200 messages (baseline)",
  group: "xpla rawTx 200-token mint",
  baseline: true,
  async fn() {
    const [acc, sim] = await Promise.all([
      fetch(`${t.lcd.url}/cosmos/auth/v1beta1/accounts/${minter.address}`),
      fetch(`${t.lcd.url}/cosmos/tx/v1beta1/simulate`, {
        method: "POST",
        body: JSON.stringify({ tx_bytes: base64.encode(probe) }),
      }),
    ]);
    await acc.json();
    if (!sim.ok) throw new Error(await sim.text());
    await sim.json();
  },
});

Deno.bench({
  name: "ours: encode body, auth info, sign doc and sign (200 messages, offline)",
  group: "xpla offline build+sign 200 messages",
  baseline: true,
  fn() {
    const bodyBytes = encodeBody(minter.address, calls);
    const authInfoBytes = encodeAuthInfo({
      publicKey: ethPubKeyAny(publicKey),
      sequence: 0n,
      gasLimit: 10_000_000n,
      feeAmount: 8_500_000_000_000_000_000n,
    });
    const doc = encodeSignDoc({
      bodyBytes,
      authInfoBytes,
      chainId: t.lcd.chainId,
      accountNumber: 1n,
    });
    encodeTxRaw({
      bodyBytes,
      authInfoBytes,
      signatures: [signEthSecp256k1(minter.privateKey, doc)],
    });
  },
});

Deno.bench({
  name: "@xpla/xpla.js: Tx of 200 MsgExecuteContract, signTx, toBytes (offline)",
  group: "xpla offline build+sign 200 messages",
  async fn() {
    const msgs = calls.map((c) => new XMsgExecuteContract(minter.address, c.contract, c.msg));
    const tx = new XTx(
      new XTxBody(msgs),
      new XAuthInfo([], new XFee(10_000_000, { axpla: "8500000000000000000" })),
      [],
    );
    const signed = await minter.key.signTx(tx, {
      chainID: t.lcd.chainId,
      accountNumber: 1,
      sequence: 0,
      signMode: SignMode.SIGN_MODE_DIRECT,
    });
    signed.toBytes();
  },
});
