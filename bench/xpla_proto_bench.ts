/**
 * Protobuf encoding of a 200-message XPLA transaction (`deno run -A bench/xpla_proto_bench.ts`):
 * the service's own wire format (lib/chain/xpla/proto.ts through tx.ts) beside cosmjs-types 0.11
 * (what the service used before), encoding the same TxBody, AuthInfo, SignDoc and TxRaw; and the
 * tracker's decode of a TxRaw and its body. Signing is left out (the same in both). Rounds
 * alternate between the two; each round times a batch of calls and the medians per call are printed.
 *
 *   deno run -A bench/xpla_proto_bench.ts [--rounds 41] [--batch 50]
 */
import { AuthInfo, SignDoc, TxBody, TxRaw } from "cosmjs-types/cosmos/tx/v1beta1/tx";
import { PubKey } from "cosmjs-types/cosmos/crypto/secp256k1/keys";
import { MsgExecuteContract } from "cosmjs-types/cosmwasm/wasm/v1/tx";
import { SignMode } from "cosmjs-types/cosmos/tx/signing/v1beta1/signing";
import {
  encodeAuthInfo,
  encodeBody,
  encodeSignDoc,
  encodeTxRaw,
  ethPubKeyAny,
  EXECUTE_TYPE,
  jsonBytes,
} from "../lib/chain/xpla/tx.ts";
import { decodeTxBody, decodeTxRaw } from "../lib/chain/xpla/proto.ts";

const sender = "xpla1" + "q".repeat(38);
const key = new Uint8Array(33).fill(2);
const calls = Array.from({ length: 200 }, (_, i) => ({
  contract: "xpla1" + "c".repeat(58),
  msg: {
    mint: {
      token_id: `b${i}`,
      owner: sender,
      token_uri: `http://localhost/metadata/xpla/nft/b${i}`,
      extension: { royalty_percentage: 5, royalty_payment_address: sender },
    },
  },
}));
const tx = { sequence: 12n, gasLimit: 30_000_000n, feeAmount: 5_100_000_000_000_000_000n };
const signature = new Uint8Array(64).fill(1);

function ours() {
  const bodyBytes = encodeBody(sender, calls, { timeoutHeight: 1_234_567n });
  const authInfoBytes = encodeAuthInfo({ publicKey: ethPubKeyAny(key), ...tx });
  encodeSignDoc({ bodyBytes, authInfoBytes, chainId: "dimension_37-1", accountNumber: 77n });
  return encodeTxRaw({ bodyBytes, authInfoBytes, signatures: [signature] });
}

function cosmjsTypes() {
  const bodyBytes = TxBody.encode(TxBody.fromPartial({
    messages: calls.map((c) => ({
      typeUrl: EXECUTE_TYPE,
      value: MsgExecuteContract.encode(
        MsgExecuteContract.fromPartial({ sender, contract: c.contract, msg: jsonBytes(c.msg) }),
      ).finish(),
    })),
    timeoutHeight: 1_234_567n,
  })).finish();
  const authInfoBytes = AuthInfo.encode(AuthInfo.fromPartial({
    signerInfos: [{
      publicKey: { typeUrl: ethPubKeyAny(key).typeUrl, value: PubKey.encode({ key }).finish() },
      modeInfo: { single: { mode: SignMode.SIGN_MODE_DIRECT } },
      sequence: tx.sequence,
    }],
    fee: { amount: [{ denom: "axpla", amount: tx.feeAmount.toString() }], gasLimit: tx.gasLimit },
  })).finish();
  SignDoc.encode(SignDoc.fromPartial({
    bodyBytes,
    authInfoBytes,
    chainId: "dimension_37-1",
    accountNumber: 77n,
  })).finish();
  return TxRaw.encode(TxRaw.fromPartial({ bodyBytes, authInfoBytes, signatures: [signature] }))
    .finish();
}

// Same bytes, or the comparison means nothing.
const a = ours();
const b = cosmjsTypes();
if (a.length !== b.length || a.some((x, i) => x !== b[i])) throw new Error("encodings differ");

const arg = (name: string, fallback: number) => {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Number(Deno.args[i + 1]) : fallback;
};
const rounds = arg("--rounds", 41);
const batch = arg("--batch", 50);

const cases: Record<string, () => unknown> = {
  "encode, ours": ours,
  "encode, cosmjs-types": cosmjsTypes,
  "decode, ours": () => decodeTxBody(decodeTxRaw(a).bodyBytes),
  "decode, cosmjs-types": () => TxBody.decode(TxRaw.decode(a).bodyBytes),
};
const times: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let r = 0; r < rounds + 3; r++) {
  const names = Object.keys(cases);
  if (r % 2 === 1) names.reverse();
  for (const name of names) {
    const t0 = performance.now();
    for (let i = 0; i < batch; i++) cases[name]();
    if (r >= 3) times[name].push((performance.now() - t0) / batch); // 3 warm-up rounds
  }
}
const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.floor(s.length / 2)];
};
for (const [name, xs] of Object.entries(times)) {
  console.log(
    `${name.padEnd(22)} median ${median(xs).toFixed(3)} ms/call over ${xs.length} rounds`,
  );
}
