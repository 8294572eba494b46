/**
 * The service's protobuf encoder and decoder (lib/chain/xpla/proto.ts and the tx builders on it)
 * against cosmjs-types, an encoder the service does not use: every message the service writes must
 * come out byte for byte as `X.encode(X.fromPartial(...)).finish()`, and what the service reads
 * back must equal cosmjs-types' `X.decode`. Fixed cases cover defaults (left out), uint64 above
 * 2^53, unicode, multisig mode infos and fees of several coins; random cases use a fixed seed.
 */
import assert from "node:assert/strict";
import {
  AuthInfo,
  Fee,
  ModeInfo,
  SignDoc,
  SignerInfo,
  TxBody,
  TxRaw,
} from "cosmjs-types/cosmos/tx/v1beta1/tx";
import { PubKey } from "cosmjs-types/cosmos/crypto/secp256k1/keys";
import { LegacyAminoPubKey } from "cosmjs-types/cosmos/crypto/multisig/keys";
import {
  CompactBitArray,
  MultiSignature,
} from "cosmjs-types/cosmos/crypto/multisig/v1beta1/multisig";
import { Any } from "cosmjs-types/google/protobuf/any";
import { Coin } from "cosmjs-types/cosmos/base/v1beta1/coin";
import { MsgExecuteContract } from "cosmjs-types/cosmwasm/wasm/v1/tx";
import { SignMode as CosmjsSignMode } from "cosmjs-types/cosmos/tx/signing/v1beta1/signing";
import * as P from "../../../lib/chain/xpla/proto.ts";
import {
  encodeAuthInfo,
  encodeBody,
  encodeSignDoc,
  encodeTxRaw,
  ethPubKeyAny,
  EXECUTE_TYPE,
  jsonBytes,
} from "../../../lib/chain/xpla/tx.ts";
import {
  compactBitArray,
  decodeMultisigAny,
  multisigPubKeyAny,
} from "../../../lib/chain/xpla/multisig_keys.ts";
import { multisigAuthInfo, multisigProbe } from "../../../lib/chain/xpla/multisig.ts";

const MAX_U64 = (1n << 64n) - 1n;
// cosmjs-types 0.11 writes uint64 values from 2^31 to 2^32-1 wrongly (see the last test), so the
// comparisons with it leave that range out.
const BIG = [
  0n,
  1n,
  127n,
  128n,
  300n,
  2n ** 31n - 1n,
  2n ** 32n,
  2n ** 32n + 1n,
  2n ** 53n + 1n,
  2n ** 63n,
  MAX_U64,
];
const UNICODE = "memo é ü 日本語 🎮 \u{10FFFF} <&> \u2028";

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
const same = (ours: Uint8Array, theirs: Uint8Array, what: string) =>
  assert.equal(hex(ours), hex(theirs), what);

/** A copy without undefined-valued keys (cosmjs-types sets absent messages to undefined). */
function defined(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(defined);
  if (v && typeof v === "object" && !(v instanceof Uint8Array)) {
    return Object.fromEntries(
      Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => [k, defined(x)]),
    );
  }
  return v;
}

/** Our decoding equals cosmjs-types' decoding of the same bytes. */
const sameDecoded = (ours: unknown, theirs: unknown) =>
  assert.deepEqual(defined(ours), defined(theirs));

/** A small deterministic generator (mulberry32). */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: T[]): T => xs[int(xs.length)];
  const bytes = (max: number) => Uint8Array.from({ length: int(max + 1) }, () => int(256));
  const u64 = (): bigint =>
    pick([
      () => 0n,
      () => BigInt(int(1000)),
      () => pick(BIG),
      () => (BigInt(int(2 ** 32) + 1) << 32n) | BigInt(int(2 ** 32)),
    ])();
  const str = () =>
    pick([
      "",
      "a",
      "xpla1" + "q".repeat(int(60)),
      UNICODE,
      "x".repeat(200),
      String.fromCodePoint(...Array.from({ length: int(20) }, () => int(0xd7ff) + 1)),
    ]);
  const coins = () =>
    Array.from(
      { length: int(4) },
      () => ({
        denom: pick(["axpla", "", "ibc/ABC"]),
        amount: pick(["0", "", "170000000000000000", MAX_U64.toString()]),
      }),
    );
  const any = () => ({ typeUrl: str(), value: bytes(40) });
  return { next, int, pick, bytes, u64, str, coins, any };
}

Deno.test("proto: Any, Coin, PubKey, MultiSignature, CompactBitArray match cosmjs-types", () => {
  for (
    const a of [
      { typeUrl: "", value: new Uint8Array() },
      { typeUrl: EXECUTE_TYPE, value: new Uint8Array() },
      { typeUrl: "", value: new Uint8Array([0]) },
      { typeUrl: UNICODE, value: new Uint8Array(300).fill(7) },
    ]
  ) {
    same(P.encodeAny(a), Any.encode(Any.fromPartial(a)).finish(), `Any ${a.typeUrl}`);
    sameDecoded(P.decodeAny(P.encodeAny(a)), Any.decode(P.encodeAny(a)));
  }
  for (
    const c of [{ denom: "", amount: "" }, { denom: "axpla", amount: "0" }, {
      denom: "é",
      amount: "1",
    }]
  ) {
    same(P.encodeCoin(c), Coin.encode(Coin.fromPartial(c)).finish(), "Coin");
  }
  for (const key of [new Uint8Array(), new Uint8Array(33).fill(2), new Uint8Array(65).fill(4)]) {
    same(P.encodePubKey({ key }), PubKey.encode({ key }).finish(), `PubKey ${key.length}`);
    sameDecoded(P.decodePubKey(P.encodePubKey({ key })).key, key);
  }
  for (
    const signatures of [[], [new Uint8Array()], [new Uint8Array(64).fill(1), new Uint8Array(65)]]
  ) {
    const ours = P.encodeMultiSignature({ signatures });
    same(ours, MultiSignature.encode({ signatures }).finish(), "MultiSignature");
    sameDecoded(P.decodeMultiSignature(ours), MultiSignature.decode(ours));
  }
  for (
    const b of [
      { extraBitsStored: 0, elems: new Uint8Array() },
      { extraBitsStored: 3, elems: new Uint8Array([0xa0]) },
      { extraBitsStored: 0, elems: new Uint8Array([0xff, 0x01]) },
      { extraBitsStored: 200, elems: new Uint8Array(17) },
    ]
  ) {
    const ours = P.encodeCompactBitArray(b);
    same(ours, CompactBitArray.encode(CompactBitArray.fromPartial(b)).finish(), "CompactBitArray");
    sameDecoded(P.decodeCompactBitArray(ours), CompactBitArray.decode(ours));
  }
});

Deno.test("proto: MsgExecuteContract with and without funds matches cosmjs-types", () => {
  for (
    const m of [
      { sender: "", contract: "", msg: new Uint8Array(), funds: [] },
      { sender: "xpla1s", contract: "xpla1c", msg: jsonBytes({ a: UNICODE }), funds: [] },
      {
        sender: "xpla1s",
        contract: "",
        msg: jsonBytes({ mint: { token_id: "1" } }),
        funds: [{ denom: "axpla", amount: "5" }, { denom: "", amount: "" }, {
          denom: "b",
          amount: "",
        }],
      },
    ]
  ) {
    const ours = P.encodeMsgExecuteContract(m);
    same(ours, MsgExecuteContract.encode(MsgExecuteContract.fromPartial(m)).finish(), "MsgExecute");
    sameDecoded(P.decodeMsgExecuteContract(ours), MsgExecuteContract.decode(ours));
  }
});

Deno.test("proto: the service's TxBody (memo, timeout height, several messages) matches cosmjs-types", () => {
  const calls = [
    { contract: "xpla1nft", msg: { mint: { token_id: "a", owner: "xpla1o" } } },
    { contract: "xpla1cw20", msg: { transfer: { amount: "1", note: UNICODE } } },
    { contract: "", msg: {} },
  ];
  for (const memo of [undefined, "", "req-1", UNICODE]) {
    for (const timeoutHeight of [undefined, 0n, 1n, 12_345_678n, 2n ** 53n + 1n, MAX_U64]) {
      for (const n of [0, 1, 3]) {
        const ours = encodeBody("xpla1sender", calls.slice(0, n), { memo, timeoutHeight });
        const theirs = TxBody.encode(TxBody.fromPartial({
          messages: calls.slice(0, n).map((c) => ({
            typeUrl: EXECUTE_TYPE,
            value: MsgExecuteContract.encode(MsgExecuteContract.fromPartial({
              sender: "xpla1sender",
              contract: c.contract,
              msg: new TextEncoder().encode(JSON.stringify(c.msg)),
            })).finish(),
          })),
          memo,
          timeoutHeight,
        })).finish();
        same(ours, theirs, `TxBody memo=${memo} timeout=${timeoutHeight} n=${n}`);
        sameDecoded(P.decodeTxBody(ours), TxBody.decode(ours));
      }
    }
  }
});

Deno.test("proto: TxBody extension options, unordered and timeout timestamp match cosmjs-types", () => {
  const body = {
    messages: [{ typeUrl: "/x.Y", value: new Uint8Array([1, 2]) }],
    memo: "m",
    timeoutHeight: 9n,
    unordered: true,
    timeoutTimestamp: { seconds: 1_700_000_000n, nanos: 5 },
    extensionOptions: [{ typeUrl: "/ext.A", value: new Uint8Array() }],
    nonCriticalExtensionOptions: [{ typeUrl: "/ext.B", value: new Uint8Array([9]) }],
  };
  const ours = P.encodeTxBody(body);
  same(ours, TxBody.encode(TxBody.fromPartial(body)).finish(), "TxBody (all fields)");
  sameDecoded(P.decodeTxBody(ours), TxBody.decode(ours));
  const negative = { ...body, timeoutTimestamp: { seconds: -5n, nanos: -1 } };
  same(
    P.encodeTxBody(negative),
    TxBody.encode(TxBody.fromPartial(negative)).finish(),
    "negative timestamp",
  );
  assert.deepEqual(
    P.decodeTxBody(P.encodeTxBody(negative)),
    TxBody.decode(P.encodeTxBody(negative)),
  );
});

Deno.test("proto: single-signer AuthInfo, SignDoc and TxRaw of the service match cosmjs-types", () => {
  const key = new Uint8Array(33).fill(3);
  for (const publicKey of [undefined, ethPubKeyAny(key)]) {
    for (const sequence of BIG) {
      for (const gasLimit of [0n, 200_000n, MAX_U64]) {
        for (const feeAmount of [0n, 1n, 170_000_000_000_000_000n, MAX_U64]) {
          const ours = encodeAuthInfo({ publicKey, sequence, gasLimit, feeAmount });
          const theirs = AuthInfo.encode(AuthInfo.fromPartial({
            signerInfos: [{
              publicKey: publicKey &&
                Any.fromPartial({
                  typeUrl: publicKey.typeUrl,
                  value: PubKey.encode({ key }).finish(),
                }),
              modeInfo: { single: { mode: CosmjsSignMode.SIGN_MODE_DIRECT } },
              sequence,
            }],
            fee: {
              amount: feeAmount > 0n ? [{ denom: "axpla", amount: feeAmount.toString() }] : [],
              gasLimit,
            },
          })).finish();
          same(ours, theirs, `AuthInfo seq=${sequence} gas=${gasLimit} fee=${feeAmount}`);
          sameDecoded(P.decodeAuthInfo(ours), AuthInfo.decode(ours));
        }
      }
    }
  }
  const bodyBytes = encodeBody("xpla1s", [{ contract: "xpla1c", msg: { x: 1 } }]);
  const authInfoBytes = encodeAuthInfo({ sequence: 1n, gasLimit: 2n, feeAmount: 3n });
  for (const chainId of ["", "dimension_37-1", UNICODE]) {
    for (const accountNumber of BIG) {
      for (const [b, a] of [[bodyBytes, authInfoBytes], [new Uint8Array(), new Uint8Array()]]) {
        const d = { bodyBytes: b, authInfoBytes: a, chainId, accountNumber };
        const ours = encodeSignDoc(d);
        same(ours, SignDoc.encode(SignDoc.fromPartial(d)).finish(), `SignDoc ${accountNumber}`);
        sameDecoded(P.decodeSignDoc(ours), SignDoc.decode(ours));
      }
    }
  }
  for (
    const signatures of [[], [new Uint8Array()], [new Uint8Array(65).fill(9)], [
      new Uint8Array(1),
      new Uint8Array(2),
    ]]
  ) {
    for (const [b, a] of [[bodyBytes, authInfoBytes], [new Uint8Array(), new Uint8Array()]]) {
      const t = { bodyBytes: b, authInfoBytes: a, signatures };
      const ours = encodeTxRaw(t);
      same(ours, TxRaw.encode(TxRaw.fromPartial(t)).finish(), "TxRaw");
      sameDecoded(P.decodeTxRaw(ours), TxRaw.decode(ours));
    }
  }
});

Deno.test("proto: multisig public key, mode infos with a bit array and fees of several coins match cosmjs-types", () => {
  const keys = Array.from({ length: 7 }, (_, i) => new Uint8Array(33).fill(i + 2));
  for (
    const [threshold, n, signed] of [[1, 1, [0]], [2, 3, [0, 2]], [5, 7, [1, 2, 4, 5, 6]], [8, 7, [
      0,
      1,
      2,
      3,
      4,
      5,
      6,
    ]]] as const
  ) {
    const wallet = { address: "xpla1multi", threshold, keys: keys.slice(0, n), signers: [] };
    const any = multisigPubKeyAny(threshold, wallet.keys);
    const theirsKey = LegacyAminoPubKey.encode(LegacyAminoPubKey.fromPartial({
      threshold,
      publicKeys: wallet.keys.map((key) => ({
        typeUrl: "/ethermint.crypto.v1.ethsecp256k1.PubKey",
        value: PubKey.encode({ key }).finish(),
      })),
    })).finish();
    same(any.value, theirsKey, `LegacyAminoPubKey ${threshold}/${n}`);
    sameDecoded(P.decodeLegacyAminoPubKey(any.value), LegacyAminoPubKey.decode(any.value));
    assert.deepEqual(decodeMultisigAny(any).keys, wallet.keys);
    for (
      const feeAmount of [[], [{ denom: "axpla", amount: "1" }], [
        { denom: "axpla", amount: "170000000000000000" },
        { denom: "ibc/X", amount: "0" },
        { denom: "", amount: "" },
      ]]
    ) {
      for (const sequence of [0n, 3n, MAX_U64]) {
        const ours = multisigAuthInfo({
          wallet,
          signed: [...signed],
          sequence,
          gasLimit: 123_456n,
          feeAmount,
        });
        const theirs = AuthInfo.encode(AuthInfo.fromPartial({
          signerInfos: [SignerInfo.fromPartial({
            publicKey: { typeUrl: "/cosmos.crypto.multisig.LegacyAminoPubKey", value: theirsKey },
            modeInfo: {
              multi: {
                bitarray: compactBitArray(n, [...signed]),
                modeInfos: signed.map(() => ({
                  single: { mode: CosmjsSignMode.SIGN_MODE_LEGACY_AMINO_JSON },
                })),
              },
            },
            sequence,
          })],
          fee: Fee.fromPartial({ amount: feeAmount, gasLimit: 123_456n }),
        })).finish();
        same(ours, theirs, `multisig AuthInfo ${threshold}/${n} seq=${sequence}`);
        sameDecoded(P.decodeAuthInfo(ours), AuthInfo.decode(ours));
      }
    }
    const probe = multisigProbe(wallet, [{ contract: "xpla1c", msg: { a: 1 } }], 4n);
    const raw = TxRaw.decode(probe);
    same(
      raw.signatures[0],
      MultiSignature.encode({
        signatures: Array.from({ length: threshold }, () => new Uint8Array(64)),
      }).finish(),
      "probe signature",
    );
  }
});

Deno.test("proto: ModeInfo oneof sides, nested multi and negative enum values match cosmjs-types", () => {
  const cases: P.ModeInfo[] = [
    {},
    { single: { mode: 0 } },
    { single: { mode: 1 } },
    { single: { mode: -1 } },
    { multi: { modeInfos: [] } },
    { multi: { bitarray: { extraBitsStored: 0, elems: new Uint8Array() }, modeInfos: [{}] } },
    {
      multi: {
        bitarray: { extraBitsStored: 2, elems: new Uint8Array([0x80, 0x40]) },
        modeInfos: [{ single: { mode: 127 } }, { multi: { modeInfos: [{ single: { mode: 1 } }] } }],
      },
    },
  ];
  for (const m of cases) {
    const ours = P.encodeModeInfo(m);
    same(ours, ModeInfo.encode(ModeInfo.fromPartial(m)).finish(), JSON.stringify(m));
    sameDecoded(P.decodeModeInfo(ours), ModeInfo.decode(ours));
  }
});

Deno.test("proto: random messages (fixed seed) match cosmjs-types byte for byte and decode alike", () => {
  const r = rng(0x5eed27);
  for (let i = 0; i < 300; i++) {
    const body = {
      messages: Array.from({ length: r.int(4) }, () => r.any()),
      memo: r.str(),
      timeoutHeight: r.u64(),
      unordered: r.next() < 0.2,
      extensionOptions: r.next() < 0.2 ? [r.any()] : [],
      nonCriticalExtensionOptions: r.next() < 0.2 ? [r.any(), r.any()] : [],
    };
    const b = P.encodeTxBody(body);
    same(b, TxBody.encode(TxBody.fromPartial(body)).finish(), `random TxBody ${i}`);
    sameDecoded(P.decodeTxBody(b), TxBody.decode(b));

    const randomMode = (depth: number): P.ModeInfo =>
      depth > 1 || r.next() < 0.6 ? { single: { mode: r.pick([0, 1, 2, 127, 191]) } } : {
        multi: {
          bitarray: r.next() < 0.8 ? { extraBitsStored: r.int(8), elems: r.bytes(3) } : undefined,
          modeInfos: Array.from({ length: r.int(4) }, () => randomMode(depth + 1)),
        },
      };
    const auth = {
      signerInfos: Array.from({ length: r.int(3) }, () => ({
        publicKey: r.next() < 0.7 ? r.any() : undefined,
        modeInfo: r.next() < 0.9 ? randomMode(0) : undefined,
        sequence: r.u64(),
      })),
      fee: r.next() < 0.9
        ? {
          amount: r.coins(),
          gasLimit: r.u64(),
          payer: r.pick(["", "xpla1p"]),
          granter: r.pick(["", "xpla1g"]),
        }
        : undefined,
    };
    const a = P.encodeAuthInfo(auth);
    same(a, AuthInfo.encode(AuthInfo.fromPartial(auth)).finish(), `random AuthInfo ${i}`);
    sameDecoded(P.decodeAuthInfo(a), AuthInfo.decode(a));

    const doc = { bodyBytes: b, authInfoBytes: a, chainId: r.str(), accountNumber: r.u64() };
    const d = P.encodeSignDoc(doc);
    same(d, SignDoc.encode(SignDoc.fromPartial(doc)).finish(), `random SignDoc ${i}`);
    sameDecoded(P.decodeSignDoc(d), SignDoc.decode(d));

    const raw = {
      bodyBytes: b,
      authInfoBytes: a,
      signatures: Array.from({ length: r.int(3) }, () => r.bytes(70)),
    };
    const t = P.encodeTxRaw(raw);
    same(t, TxRaw.encode(TxRaw.fromPartial(raw)).finish(), `random TxRaw ${i}`);
    sameDecoded(P.decodeTxRaw(t), TxRaw.decode(t));

    const exec = { sender: r.str(), contract: r.str(), msg: r.bytes(50), funds: r.coins() };
    const e = P.encodeMsgExecuteContract(exec);
    same(
      e,
      MsgExecuteContract.encode(MsgExecuteContract.fromPartial(exec)).finish(),
      `random exec ${i}`,
    );
    sameDecoded(P.decodeMsgExecuteContract(e), MsgExecuteContract.decode(e));
  }
});

Deno.test("proto: decoding skips unknown fields of every wire type and rejects truncated input", () => {
  const body = P.encodeTxBody({ messages: [], memo: "m", timeoutHeight: 5n });
  // field 6 varint, field 7 fixed64, field 8 bytes, field 9 fixed32, then the body's fields.
  const extra = new Uint8Array([
    0x30,
    0x96,
    0x01,
    0x39,
    1,
    2,
    3,
    4,
    5,
    6,
    7,
    8,
    0x42,
    2,
    0xaa,
    0xbb,
    0x4d,
    1,
    2,
    3,
    4,
  ]);
  const withUnknown = new Uint8Array([...extra, ...body]);
  sameDecoded(P.decodeTxBody(withUnknown), TxBody.decode(withUnknown));
  assert.equal(P.decodeTxBody(withUnknown).timeoutHeight, 5n);
  assert.throws(() => P.decodeTxBody(body.subarray(0, body.length - 1)), RangeError);
  assert.throws(() => P.decodeTxRaw(new Uint8Array([0x0a, 5, 1])), RangeError);
  assert.throws(() => P.decodeTxRaw(new Uint8Array([0x0b])), RangeError); // group wire type
  assert.throws(() => P.decodeTxBody(new Uint8Array([0x1a, 0])), RangeError); // wrong wire type
});

Deno.test("proto: out-of-range integers are refused, not wrapped", () => {
  assert.throws(() => P.encodeTxBody({ messages: [], timeoutHeight: 1n << 64n }), RangeError);
  assert.throws(() => P.encodeTxBody({ messages: [], timeoutHeight: -1n }), RangeError);
  assert.throws(
    () => P.encodeLegacyAminoPubKey({ threshold: 2 ** 32, publicKeys: [] }),
    RangeError,
  );
  assert.throws(() => P.encodeLegacyAminoPubKey({ threshold: 1.5, publicKeys: [] }), RangeError);
});

Deno.test("proto: strings are well-formed UTF-8 (a lone surrogate becomes U+FFFD)", () => {
  // cosmjs-types writes a lone surrogate as its 3-byte CESU form (ED A0 80), which is not UTF-8
  // and which the chain's Go decoder refuses; the service writes U+FFFD as TextEncoder does.
  const body = P.encodeTxBody({ messages: [], memo: "a\ud800b" });
  assert.equal(hex(body), "1205" + "61efbfbd62");
  assert.equal(P.decodeTxBody(body).memo, "a\ufffdb");
  // Well-formed astral characters are the same in both.
  const astral = { messages: [], memo: "🎮\u{10FFFF}" };
  same(P.encodeTxBody(astral), TxBody.encode(TxBody.fromPartial(astral)).finish(), "astral");
});

Deno.test("proto: the re-signed body of the tracker keeps messages and memo and takes the new timeout", () => {
  const original = encodeBody("xpla1s", [{ contract: "xpla1c", msg: { a: "é" } }], {
    memo: "req",
    timeoutHeight: 100n,
  });
  const ours = P.encodeTxBody({ ...P.decodeTxBody(original), timeoutHeight: 2n ** 60n });
  const theirs = TxBody.encode({ ...TxBody.decode(original), timeoutHeight: 2n ** 60n }).finish();
  same(ours, theirs, "re-signed body");
  assert.equal(TxBody.decode(ours).memo, "req");
});

Deno.test("proto: uint64 values from 2^31 to 2^32-1 are plain varints (cosmjs-types 0.11 writes them wrongly)", () => {
  // cosmjs-types keeps the low 32 bits as a signed int and writes 2^32-1 as ff 00 00 00 00, which
  // no decoder reads back as 2^32-1; its reader decodes the service's bytes to the value.
  const cases: [bigint, string][] = [
    [2n ** 31n, "8080808008"],
    [2n ** 31n + 300n, "ac82808008"],
    [2n ** 32n - 1n, "ffffffff0f"],
  ];
  for (const [value, varint] of cases) {
    const ours = P.encodeSignerInfo({ sequence: value });
    assert.equal(hex(ours), "18" + varint);
    assert.equal(SignerInfo.decode(ours).sequence, value);
    assert.equal(P.decodeSignerInfo(ours).sequence, value);
    const theirs = SignerInfo.encode(SignerInfo.fromPartial({ sequence: value })).finish();
    assert.notEqual(hex(theirs), hex(ours), "cosmjs-types fixed: fold this range into BIG");
  }
});

Deno.test("proto: long fields (lengths of two and three bytes, nested) match cosmjs-types", () => {
  for (const size of [127, 128, 16_383, 16_384, 70_000]) {
    const body = {
      messages: [
        { typeUrl: EXECUTE_TYPE, value: new Uint8Array(size).fill(5) },
        { typeUrl: "é".repeat(size), value: new Uint8Array([1]) },
      ],
      memo: "日".repeat(Math.ceil(size / 3)) + "🎮".repeat(size % 7),
      timeoutHeight: 1n,
    };
    const ours = P.encodeTxBody(body);
    same(ours, TxBody.encode(TxBody.fromPartial(body)).finish(), `long TxBody ${size}`);
    sameDecoded(P.decodeTxBody(ours), TxBody.decode(ours));
    const raw = { bodyBytes: ours, authInfoBytes: ours, signatures: [ours] };
    same(P.encodeTxRaw(raw), TxRaw.encode(TxRaw.fromPartial(raw)).finish(), `long TxRaw ${size}`);
  }
  const calls = Array.from({ length: 200 }, (_, i) => ({
    contract: "xpla1contract",
    msg: { mint: { token_id: `t${i}`, extension: { note: "ü".repeat(i) } } },
  }));
  const ours = encodeBody("xpla1s", calls, { memo: "m", timeoutHeight: 99n });
  const theirs = TxBody.encode(TxBody.fromPartial({
    messages: calls.map((c) => ({
      typeUrl: EXECUTE_TYPE,
      value: MsgExecuteContract.encode(
        MsgExecuteContract.fromPartial({
          sender: "xpla1s",
          contract: c.contract,
          msg: jsonBytes(c.msg),
        }),
      ).finish(),
    })),
    memo: "m",
    timeoutHeight: 99n,
  })).finish();
  same(ours, theirs, "200-message body");
});
