/**
 * Amino JSON sign bytes (SIGN_MODE_LEGACY_AMINO_JSON) as the chain computes them: the expected
 * bytes come from cosmjs (`@cosmjs/amino` serializeSignDoc, which escapes `&`, `<`, `>` as Go's
 * json.Marshal does), not from the service's code. The local LCD verifies multisig signatures
 * with its own encoder, so a transaction signed over other bytes is refused there (code 4) as on
 * the chain.
 */
import assert from "node:assert/strict";
import { makeSignDoc, serializeSignDoc, type StdSignDoc as CosmjsDoc } from "@cosmjs/amino";
import { base64 } from "@scure/base";
import { MultiSignature } from "cosmjs-types/cosmos/crypto/multisig/v1beta1/multisig";
import { TxBody } from "cosmjs-types/cosmos/tx/v1beta1/tx";
import { startLocalLcd } from "../../../dev/xpla_lcd/server.ts";
import { aminoSignBytes } from "../../../dev/xpla_lcd/amino_json.ts";
import { publicKeyOf, signEthSecp256k1 } from "../../../lib/chain/xpla/keys.ts";
import {
  multisigAddress,
  stdSignBytes,
  stdSignDocOf,
} from "../../../lib/chain/xpla/multisig_keys.ts";
import { multisigAuthInfo, type XplaMultisig } from "../../../lib/chain/xpla/multisig.ts";
import { encodeBody, encodeTxRaw } from "../../../lib/chain/xpla/tx.ts";

const text = (b: Uint8Array) => new TextDecoder().decode(b);

function docOf(
  msg: Record<string, unknown>,
  extra: { timeoutHeight?: bigint; memo?: string } = {},
) {
  return stdSignDocOf({
    chainId: "localxpla_37-1",
    accountNumber: 7n,
    sequence: 3n,
    fee: { amount: [{ denom: "axpla", amount: "170000000000000000" }], gas: 200_000n },
    memo: extra.memo ?? "req <1> & more",
    msgs: [{ sender: "xpla1sender", contract: "xpla1pool", msg }],
    timeoutHeight: extra.timeoutHeight,
  });
}

function cosmjsBytes(doc: ReturnType<typeof docOf>): Uint8Array {
  const d = makeSignDoc(
    doc.msgs,
    doc.fee,
    doc.chain_id,
    doc.memo,
    doc.account_number,
    doc.sequence,
    doc.timeout_height === undefined ? undefined : BigInt(doc.timeout_height),
  );
  return serializeSignDoc(d as CosmjsDoc);
}

const TRICKY = {
  to_token: {
    recipient: "xpla1player",
    amount: "5",
    goods_code: "R&D<1>",
    goods_amount: "50",
    request_id: "a>b",
    nested: { z: "</script>", a: ["x&y", 1, true, null], "b<": 'quote " backslash \\ tab \t' },
  },
};

Deno.test("amino sign bytes escape & < > like Go and equal cosmjs serializeSignDoc", () => {
  const doc = docOf(TRICKY);
  const expected = cosmjsBytes(doc);
  assert.equal(text(stdSignBytes(doc)), text(expected));
  assert.deepEqual(stdSignBytes(doc), expected);
  // The vector really holds the escapes (a plain JSON.stringify would not).
  assert.match(text(expected), /"goods_code":"R\\u0026D\\u003c1\\u003e"/);
  assert.match(text(expected), /"memo":"req \\u003c1\\u003e \\u0026 more"/);
  assert.ok(!/[&<>]/.test(text(expected)));
  // Nothing to escape: the same bytes as plain sorted JSON.
  const plain = docOf({ mint: { token_id: "1", owner: "xpla1player" } }, { memo: "m" });
  assert.deepEqual(stdSignBytes(plain), cosmjsBytes(plain));
});

Deno.test("amino sign bytes carry timeout_height as a string when set, as cosmjs does", () => {
  const doc = docOf(TRICKY, { timeoutHeight: 1234n });
  assert.equal(doc.timeout_height, "1234");
  assert.deepEqual(stdSignBytes(doc), cosmjsBytes(doc));
  assert.match(text(stdSignBytes(doc)), /,"timeout_height":"1234"}$/);
  assert.equal(docOf(TRICKY, { timeoutHeight: 0n }).timeout_height, undefined);
});

Deno.test("the local LCD's own amino encoder gives cosmjs's bytes too", () => {
  const doc = docOf(TRICKY, { timeoutHeight: 99n });
  const body = TxBody.fromPartial({ memo: doc.memo, timeoutHeight: 99n });
  const bytes = aminoSignBytes({
    chainId: doc.chain_id,
    accountNumber: 7,
    sequence: 3,
    body,
    fee: { amount: doc.fee.amount, gasLimit: 200_000n, payer: "", granter: "" },
    messages: [{ sender: "xpla1sender", contract: "xpla1pool", msg: TRICKY, funds: [] }],
  });
  assert.equal(text(bytes), text(cosmjsBytes(doc)));
});

Deno.test("local LCD: a multisig tx signed over unescaped JSON is refused (code 4); over the chain's bytes it is accepted", async () => {
  const lcd = startLocalLcd({ blockMs: 1 });
  try {
    const privateKeys = ["0a", "0b", "0c"].map((b) => `0x${b.repeat(32)}` as `0x${string}`);
    const keys = privateKeys.map(publicKeyOf);
    const wallet: XplaMultisig = {
      address: multisigAddress(2, keys),
      threshold: 2,
      keys,
      signers: [],
    };
    const acc = lcd.fund(wallet.address, 10n ** 21n);
    const owner = lcd.instantiate("cw20", wallet.address, {
      initial_balances: [{ address: wallet.address, amount: "100" }],
    });
    const pool = lcd.instantiate("convert-pool", wallet.address, { token: owner });
    lcd.instantiate("cw721", wallet.address, {});
    const msg = {
      to_token: {
        recipient: wallet.address,
        amount: "0",
        goods_code: "R&D<1>",
        goods_amount: "5",
        request_id: "r-1",
      },
    };
    const fee = [{ denom: "axpla", amount: (400_000n * 850_000_000_000n).toString() }];
    const doc = stdSignDocOf({
      chainId: lcd.chainId,
      accountNumber: acc.accountNumber,
      sequence: 0,
      fee: { amount: fee, gas: 400_000n },
      memo: "r-1",
      msgs: [{ sender: wallet.address, contract: pool, msg }],
    });
    const txFor = (signBytes: Uint8Array) =>
      encodeTxRaw({
        bodyBytes: encodeBody(wallet.address, [{ contract: pool, msg }], { memo: "r-1" }),
        authInfoBytes: multisigAuthInfo({
          wallet,
          signed: [0, 2],
          sequence: 0n,
          gasLimit: 400_000n,
          feeAmount: fee,
        }),
        signatures: [
          MultiSignature.encode({
            signatures: [0, 2].map((i) => signEthSecp256k1(privateKeys[i], signBytes)),
          }).finish(),
        ],
      });
    const broadcast = async (tx: Uint8Array) =>
      (await fetch(`${lcd.url}/cosmos/tx/v1beta1/txs`, {
        method: "POST",
        body: JSON.stringify({ tx_bytes: base64.encode(tx), mode: "BROADCAST_MODE_SYNC" }),
      }).then((r) => r.json())).tx_response as { code: number; raw_log: string };

    // What the service signed before: the same document without Go's escapes.
    const unescaped = new TextEncoder().encode(
      text(cosmjsBytes(doc)).replaceAll("\\u0026", "&").replaceAll("\\u003c", "<")
        .replaceAll("\\u003e", ">"),
    );
    const refused = await broadcast(txFor(unescaped));
    assert.equal(refused.code, 4, refused.raw_log);
    assert.match(refused.raw_log, /signature verification failed/);
    const accepted = await broadcast(txFor(cosmjsBytes(doc)));
    assert.equal(accepted.code, 0, accepted.raw_log);
  } finally {
    await lcd.close();
  }
});
