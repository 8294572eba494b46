/**
 * The protobuf (proto3) wire format of the Cosmos SDK messages XPLA transactions carry: TxBody,
 * AuthInfo, SignerInfo, ModeInfo, Fee, Coin, SignDoc, TxRaw, Any, Timestamp, CosmWasm
 * MsgExecuteContract, secp256k1/ethsecp256k1 PubKey, LegacyAminoPubKey, MultiSignature and
 * CompactBitArray. Field names follow the generated TypeScript types of the Cosmos SDK protos.
 *
 * Encoding writes fields in field-number order and leaves out proto3 defaults: 0, "", empty bytes,
 * false and absent (undefined) nested messages; a nested message that is present is written even
 * when its encoding is empty; every element of a repeated field is written (an empty bytes
 * element too). uint64 values are bigints from 0 to 2^64-1. Strings are written as UTF-8 (a lone
 * UTF-16 surrogate, which is not text, becomes U+FFFD, as TextEncoder writes it).
 *
 * Decoding reads the fields it knows, skips others (varint, 64-bit, length-delimited and 32-bit
 * wire types) and keeps the last value of a non-repeated field.
 */

/** A packed message with its type URL (google.protobuf.Any). */
export interface Any {
  typeUrl: string;
  value: Uint8Array;
}

/** cosmos.base.v1beta1.Coin: an amount (decimal string) of a denomination. */
export interface Coin {
  denom: string;
  amount: string;
}

/** google.protobuf.Timestamp. */
export interface Timestamp {
  seconds: bigint;
  nanos: number;
}

/** cosmos.tx.v1beta1.TxBody. */
export interface TxBody {
  messages: Any[];
  memo: string;
  timeoutHeight: bigint;
  unordered: boolean;
  timeoutTimestamp?: Timestamp;
  extensionOptions: Any[];
  nonCriticalExtensionOptions: Any[];
}

/** cosmos.crypto.multisig.v1beta1.CompactBitArray. */
export interface CompactBitArray {
  extraBitsStored: number;
  elems: Uint8Array;
}

/** cosmos.tx.v1beta1.ModeInfo: one of `single` and `multi`. */
export interface ModeInfo {
  single?: { mode: number };
  multi?: { bitarray?: CompactBitArray; modeInfos: ModeInfo[] };
}

/** cosmos.tx.v1beta1.SignerInfo. */
export interface SignerInfo {
  publicKey?: Any;
  modeInfo?: ModeInfo;
  sequence: bigint;
}

/** cosmos.tx.v1beta1.Fee. */
export interface Fee {
  amount: Coin[];
  gasLimit: bigint;
  payer: string;
  granter: string;
}

/** cosmos.tx.v1beta1.AuthInfo (the deprecated `tip`, field 3, is neither written nor read). */
export interface AuthInfo {
  signerInfos: SignerInfo[];
  fee?: Fee;
}

/** cosmos.tx.v1beta1.SignDoc: the SIGN_MODE_DIRECT sign bytes. */
export interface SignDoc {
  bodyBytes: Uint8Array;
  authInfoBytes: Uint8Array;
  chainId: string;
  accountNumber: bigint;
}

/** cosmos.tx.v1beta1.TxRaw: the broadcast bytes. */
export interface TxRaw {
  bodyBytes: Uint8Array;
  authInfoBytes: Uint8Array;
  signatures: Uint8Array[];
}

/** cosmwasm.wasm.v1.MsgExecuteContract. */
export interface MsgExecuteContract {
  sender: string;
  contract: string;
  msg: Uint8Array;
  funds: Coin[];
}

/** cosmos.crypto.multisig.LegacyAminoPubKey. */
export interface LegacyAminoPubKey {
  threshold: number;
  publicKeys: Any[];
}

/** cosmos.tx.signing.v1beta1.SignMode values the service uses. */
export const SignMode = {
  SIGN_MODE_UNSPECIFIED: 0,
  SIGN_MODE_DIRECT: 1,
  SIGN_MODE_LEGACY_AMINO_JSON: 127,
} as const;

const UINT64_MAX = (1n << 64n) - 1n;
const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();

// Wire types.
const VARINT = 0;
const I64 = 1;
const LEN = 2;
const I32 = 5;

/**
 * Writes the fields of one message into a single growing buffer. A length-delimited field reserves
 * one length byte before its content and moves the content when the length needs more.
 */
class Writer {
  #buf = new Uint8Array(1024);
  #pos = 0;

  #ensure(n: number) {
    if (this.#pos + n <= this.#buf.length) return;
    const grown = new Uint8Array(Math.max(this.#buf.length * 2, this.#pos + n));
    grown.set(this.#buf.subarray(0, this.#pos));
    this.#buf = grown;
  }

  #varint(n: number) {
    this.#ensure(10);
    while (n > 0x7f) {
      this.#buf[this.#pos++] = (n & 0x7f) | 0x80;
      n = Math.floor(n / 128);
    }
    this.#buf[this.#pos++] = n;
  }

  #varint64(n: bigint) {
    if (n <= 0xffffffffn) return this.#varint(Number(n));
    this.#ensure(10);
    while (n > 0x7fn) {
      this.#buf[this.#pos++] = Number(n & 0x7fn) | 0x80;
      n >>= 7n;
    }
    this.#buf[this.#pos++] = Number(n);
  }

  #tag(field: number, wire: number) {
    this.#varint(field * 8 + wire);
  }

  /** A uint64 field (bigint from 0 to 2^64-1). */
  uint64(field: number, value: bigint): this {
    if (value < 0n || value > UINT64_MAX) {
      throw new RangeError(`uint64 field ${field} out of range: ${value}`);
    }
    this.#tag(field, VARINT);
    this.#varint64(value);
    return this;
  }

  /** A uint32 field. */
  uint32(field: number, value: number): this {
    if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) {
      throw new RangeError(`uint32 field ${field} out of range: ${value}`);
    }
    this.#tag(field, VARINT);
    this.#varint(value);
    return this;
  }

  /** An int32 (or enum) field; a negative value takes ten bytes (sign-extended to 64 bits). */
  int32(field: number, value: number): this {
    if (!Number.isInteger(value) || value < -0x80000000 || value > 0x7fffffff) {
      throw new RangeError(`int32 field ${field} out of range: ${value}`);
    }
    this.#tag(field, VARINT);
    if (value >= 0) this.#varint(value);
    else this.#varint64(BigInt.asUintN(64, BigInt(value)));
    return this;
  }

  /** An int64 field; a negative value takes ten bytes. */
  int64(field: number, value: bigint): this {
    if (value < -(1n << 63n) || value >= 1n << 63n) {
      throw new RangeError(`int64 field ${field} out of range: ${value}`);
    }
    this.#tag(field, VARINT);
    this.#varint64(BigInt.asUintN(64, value));
    return this;
  }

  /** A bool field. */
  bool(field: number, value: boolean): this {
    this.#tag(field, VARINT);
    this.#varint(value ? 1 : 0);
    return this;
  }

  /** A bytes field. */
  bytes(field: number, value: Uint8Array): this {
    this.#tag(field, LEN);
    this.#varint(value.length);
    this.#ensure(value.length);
    this.#buf.set(value, this.#pos);
    this.#pos += value.length;
    return this;
  }

  /** A string field (UTF-8). */
  string(field: number, value: string): this {
    const at = this.#open(field);
    this.#ensure(value.length * 3);
    this.#pos += utf8Encoder.encodeInto(value, this.#buf.subarray(this.#pos)).written;
    this.#close(at);
    return this;
  }

  /** A nested message field: `write` writes its fields into this writer. */
  message(field: number, write: () => void): this {
    const at = this.#open(field);
    write();
    this.#close(at);
    return this;
  }

  /** Writes the tag and reserves one length byte; answers where the length goes. */
  #open(field: number): number {
    this.#tag(field, LEN);
    this.#ensure(1);
    return this.#pos++;
  }

  /** Writes the length of what follows `at`, moving it when the length takes several bytes. */
  #close(at: number) {
    const len = this.#pos - at - 1;
    if (len < 0x80) {
      this.#buf[at] = len;
      return;
    }
    let size = 1;
    for (let n = len; n > 0x7f; n = Math.floor(n / 128)) size++;
    this.#ensure(size - 1);
    this.#buf.copyWithin(at + size, at + 1, this.#pos);
    this.#pos += size - 1;
    let n = len;
    let i = at;
    while (n > 0x7f) {
      this.#buf[i++] = (n & 0x7f) | 0x80;
      n = Math.floor(n / 128);
    }
    this.#buf[i] = n;
  }

  finish(): Uint8Array {
    return this.#buf.slice(0, this.#pos);
  }
}

/** Encodes one message with its writer function. */
function encode<T>(write: (w: Writer, m: T) => void, m: T): Uint8Array {
  const w = new Writer();
  write(w, m);
  return w.finish();
}

/** Reads the fields of one message. */
class Reader {
  pos = 0;
  constructor(readonly buf: Uint8Array) {}

  get done(): boolean {
    return this.pos >= this.buf.length;
  }

  varint64(): bigint {
    let result = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      if (this.pos >= this.buf.length) throw new RangeError("protobuf: truncated varint");
      const b = this.buf[this.pos++];
      result |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return BigInt.asUintN(64, result);
    }
    throw new RangeError("protobuf: varint longer than 10 bytes");
  }

  /** A varint as a number (lengths, tags, uint32: the low 32 bits). */
  uint32(): number {
    let result = 0;
    let mul = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.buf.length) throw new RangeError("protobuf: truncated varint");
      const b = this.buf[this.pos++];
      if (i < 5) result += (b & 0x7f) * mul;
      mul *= 128;
      if (b < 0x80) return result % 0x100000000;
    }
    throw new RangeError("protobuf: varint longer than 10 bytes");
  }

  int32(): number {
    return this.uint32() | 0;
  }

  int64(): bigint {
    return BigInt.asIntN(64, this.varint64());
  }

  bool(): boolean {
    return this.varint64() !== 0n;
  }

  bytes(): Uint8Array {
    const len = this.uint32();
    const end = this.pos + len;
    if (end > this.buf.length) throw new RangeError("protobuf: length past the end");
    const out = this.buf.subarray(this.pos, end);
    this.pos = end;
    return out;
  }

  string(): string {
    return utf8Decoder.decode(this.bytes());
  }

  skip(wire: number) {
    switch (wire) {
      case VARINT:
        this.varint64();
        return;
      case I64:
        this.pos += 8;
        break;
      case LEN:
        this.bytes();
        return;
      case I32:
        this.pos += 4;
        break;
      default:
        throw new RangeError(`protobuf: unsupported wire type ${wire}`);
    }
    if (this.pos > this.buf.length) throw new RangeError("protobuf: field past the end");
  }
}

/** Calls `on` for every field; `on` answers false for a field it does not read (skipped). */
function readFields(
  bytes: Uint8Array,
  on: (field: number, wire: number, r: Reader) => boolean,
) {
  const r = new Reader(bytes);
  while (!r.done) {
    const tag = r.uint32();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (field === 0) throw new RangeError("protobuf: field number 0");
    if (!on(field, wire, r)) r.skip(wire);
  }
}

function expectWire(field: number, wire: number, want: number) {
  if (wire !== want) throw new RangeError(`protobuf: field ${field} has wire type ${wire}`);
}

// --- google.protobuf.Any -------------------------------------------------------------------

function writeAny(w: Writer, m: Any) {
  if (m.typeUrl !== "") w.string(1, m.typeUrl);
  if (m.value.length !== 0) w.bytes(2, m.value);
}

export function encodeAny(m: Any): Uint8Array {
  return encode(writeAny, m);
}

export function decodeAny(bytes: Uint8Array): Any {
  const m: Any = { typeUrl: "", value: new Uint8Array() };
  readFields(bytes, (f, wire, r) => {
    if (f === 1) (expectWire(f, wire, LEN), m.typeUrl = r.string());
    else if (f === 2) (expectWire(f, wire, LEN), m.value = r.bytes());
    else return false;
    return true;
  });
  return m;
}

// --- cosmos.base.v1beta1.Coin ------------------------------------------------------------------

function writeCoin(w: Writer, m: Coin) {
  if (m.denom !== "") w.string(1, m.denom);
  if (m.amount !== "") w.string(2, m.amount);
}

export function encodeCoin(m: Coin): Uint8Array {
  return encode(writeCoin, m);
}

export function decodeCoin(bytes: Uint8Array): Coin {
  const m: Coin = { denom: "", amount: "" };
  readFields(bytes, (f, wire, r) => {
    if (f === 1) (expectWire(f, wire, LEN), m.denom = r.string());
    else if (f === 2) (expectWire(f, wire, LEN), m.amount = r.string());
    else return false;
    return true;
  });
  return m;
}

// --- google.protobuf.Timestamp -------------------------------------------------------------

function writeTimestamp(w: Writer, m: Timestamp) {
  if (m.seconds !== 0n) w.int64(1, m.seconds);
  if (m.nanos !== 0) w.int32(2, m.nanos);
}

export function encodeTimestamp(m: Timestamp): Uint8Array {
  return encode(writeTimestamp, m);
}

export function decodeTimestamp(bytes: Uint8Array): Timestamp {
  const m: Timestamp = { seconds: 0n, nanos: 0 };
  readFields(bytes, (f, wire, r) => {
    if (f === 1) (expectWire(f, wire, VARINT), m.seconds = r.int64());
    else if (f === 2) (expectWire(f, wire, VARINT), m.nanos = r.int32());
    else return false;
    return true;
  });
  return m;
}

// --- cosmwasm.wasm.v1.MsgExecuteContract ---------------------------------------------------

function writeMsgExecuteContract(w: Writer, m: MsgExecuteContract) {
  if (m.sender !== "") w.string(1, m.sender);
  if (m.contract !== "") w.string(2, m.contract);
  if (m.msg.length !== 0) w.bytes(3, m.msg);
  for (const c of m.funds) w.message(5, () => writeCoin(w, c));
}

export function encodeMsgExecuteContract(m: MsgExecuteContract): Uint8Array {
  return encode(writeMsgExecuteContract, m);
}

export function decodeMsgExecuteContract(bytes: Uint8Array): MsgExecuteContract {
  const m: MsgExecuteContract = { sender: "", contract: "", msg: new Uint8Array(), funds: [] };
  readFields(bytes, (f, wire, r) => {
    if (f === 1) (expectWire(f, wire, LEN), m.sender = r.string());
    else if (f === 2) (expectWire(f, wire, LEN), m.contract = r.string());
    else if (f === 3) (expectWire(f, wire, LEN), m.msg = r.bytes());
    else if (f === 5) (expectWire(f, wire, LEN), m.funds.push(decodeCoin(r.bytes())));
    else return false;
    return true;
  });
  return m;
}

// --- cosmos.tx.v1beta1.TxBody --------------------------------------------------------------

function writeTxBody(w: Writer, m: Partial<TxBody> & { messages: Any[] }) {
  for (const a of m.messages) w.message(1, () => writeAny(w, a));
  if (m.memo) w.string(2, m.memo);
  if (m.timeoutHeight !== undefined && m.timeoutHeight !== 0n) w.uint64(3, m.timeoutHeight);
  if (m.unordered === true) w.bool(4, true);
  const timestamp = m.timeoutTimestamp;
  if (timestamp !== undefined) w.message(5, () => writeTimestamp(w, timestamp));
  for (const a of m.extensionOptions ?? []) w.message(1023, () => writeAny(w, a));
  for (const a of m.nonCriticalExtensionOptions ?? []) w.message(2047, () => writeAny(w, a));
}

/** Encodes a TxBody; left-out fields take their defaults. */
export function encodeTxBody(m: Partial<TxBody> & { messages: Any[] }): Uint8Array {
  return encode(writeTxBody, m);
}

export function decodeTxBody(bytes: Uint8Array): TxBody {
  const m: TxBody = {
    messages: [],
    memo: "",
    timeoutHeight: 0n,
    unordered: false,
    extensionOptions: [],
    nonCriticalExtensionOptions: [],
  };
  readFields(bytes, (f, wire, r) => {
    if (f === 1) (expectWire(f, wire, LEN), m.messages.push(decodeAny(r.bytes())));
    else if (f === 2) (expectWire(f, wire, LEN), m.memo = r.string());
    else if (f === 3) (expectWire(f, wire, VARINT), m.timeoutHeight = r.varint64());
    else if (f === 4) (expectWire(f, wire, VARINT), m.unordered = r.bool());
    else if (f === 5) (expectWire(f, wire, LEN), m.timeoutTimestamp = decodeTimestamp(r.bytes()));
    else if (f === 1023) (expectWire(f, wire, LEN), m.extensionOptions.push(decodeAny(r.bytes())));
    else if (f === 2047) {
      expectWire(f, wire, LEN);
      m.nonCriticalExtensionOptions.push(decodeAny(r.bytes()));
    } else return false;
    return true;
  });
  return m;
}

// --- cosmos.crypto.multisig.v1beta1 ----------------------------------------------------------

function writeCompactBitArray(w: Writer, m: CompactBitArray) {
  if (m.extraBitsStored !== 0) w.uint32(1, m.extraBitsStored);
  if (m.elems.length !== 0) w.bytes(2, m.elems);
}

export function encodeCompactBitArray(m: CompactBitArray): Uint8Array {
  return encode(writeCompactBitArray, m);
}

export function decodeCompactBitArray(bytes: Uint8Array): CompactBitArray {
  const m: CompactBitArray = { extraBitsStored: 0, elems: new Uint8Array() };
  readFields(bytes, (f, wire, r) => {
    if (f === 1) (expectWire(f, wire, VARINT), m.extraBitsStored = r.uint32());
    else if (f === 2) (expectWire(f, wire, LEN), m.elems = r.bytes());
    else return false;
    return true;
  });
  return m;
}

function writeMultiSignature(w: Writer, m: { signatures: Uint8Array[] }) {
  for (const s of m.signatures) w.bytes(1, s);
}

/** cosmos.crypto.multisig.v1beta1.MultiSignature: the member signatures, in key order. */
export function encodeMultiSignature(m: { signatures: Uint8Array[] }): Uint8Array {
  return encode(writeMultiSignature, m);
}

export function decodeMultiSignature(bytes: Uint8Array): { signatures: Uint8Array[] } {
  const m = { signatures: [] as Uint8Array[] };
  readFields(bytes, (f, wire, r) => {
    if (f !== 1) return false;
    expectWire(f, wire, LEN);
    m.signatures.push(r.bytes());
    return true;
  });
  return m;
}

// --- cosmos.tx.v1beta1.ModeInfo / SignerInfo / Fee / AuthInfo ---------------------------------

function writeModeInfo(w: Writer, m: ModeInfo) {
  const { single, multi } = m;
  if (single !== undefined) {
    w.message(1, () => {
      if (single.mode !== 0) w.int32(1, single.mode);
    });
  }
  if (multi !== undefined) {
    w.message(2, () => {
      const bits = multi.bitarray;
      if (bits !== undefined) w.message(1, () => writeCompactBitArray(w, bits));
      for (const mi of multi.modeInfos) w.message(2, () => writeModeInfo(w, mi));
    });
  }
}

export function encodeModeInfo(m: ModeInfo): Uint8Array {
  return encode(writeModeInfo, m);
}

export function decodeModeInfo(bytes: Uint8Array): ModeInfo {
  const m: ModeInfo = {};
  readFields(bytes, (f, wire, r) => {
    if (f === 1) {
      expectWire(f, wire, LEN);
      const single = { mode: 0 };
      readFields(r.bytes(), (g, gw, gr) => {
        if (g !== 1) return false;
        expectWire(g, gw, VARINT);
        single.mode = gr.int32();
        return true;
      });
      m.single = single;
    } else if (f === 2) {
      expectWire(f, wire, LEN);
      const multi: NonNullable<ModeInfo["multi"]> = { modeInfos: [] };
      readFields(r.bytes(), (g, gw, gr) => {
        if (g === 1) (expectWire(g, gw, LEN), multi.bitarray = decodeCompactBitArray(gr.bytes()));
        else if (g === 2) {
          (expectWire(g, gw, LEN), multi.modeInfos.push(decodeModeInfo(gr.bytes())));
        } else return false;
        return true;
      });
      m.multi = multi;
    } else return false;
    return true;
  });
  return m;
}

function writeSignerInfo(w: Writer, m: SignerInfo) {
  const { publicKey, modeInfo } = m;
  if (publicKey !== undefined) w.message(1, () => writeAny(w, publicKey));
  if (modeInfo !== undefined) w.message(2, () => writeModeInfo(w, modeInfo));
  if (m.sequence !== 0n) w.uint64(3, m.sequence);
}

export function encodeSignerInfo(m: SignerInfo): Uint8Array {
  return encode(writeSignerInfo, m);
}

export function decodeSignerInfo(bytes: Uint8Array): SignerInfo {
  const m: SignerInfo = { sequence: 0n };
  readFields(bytes, (f, wire, r) => {
    if (f === 1) (expectWire(f, wire, LEN), m.publicKey = decodeAny(r.bytes()));
    else if (f === 2) (expectWire(f, wire, LEN), m.modeInfo = decodeModeInfo(r.bytes()));
    else if (f === 3) (expectWire(f, wire, VARINT), m.sequence = r.varint64());
    else return false;
    return true;
  });
  return m;
}

type FeeInput = { amount: Coin[]; gasLimit: bigint; payer?: string; granter?: string };

function writeFee(w: Writer, m: FeeInput) {
  for (const c of m.amount) w.message(1, () => writeCoin(w, c));
  if (m.gasLimit !== 0n) w.uint64(2, m.gasLimit);
  if (m.payer) w.string(3, m.payer);
  if (m.granter) w.string(4, m.granter);
}

/** Encodes a Fee; payer and granter default to "". */
export function encodeFee(m: FeeInput): Uint8Array {
  return encode(writeFee, m);
}

export function decodeFee(bytes: Uint8Array): Fee {
  const m: Fee = { amount: [], gasLimit: 0n, payer: "", granter: "" };
  readFields(bytes, (f, wire, r) => {
    if (f === 1) (expectWire(f, wire, LEN), m.amount.push(decodeCoin(r.bytes())));
    else if (f === 2) (expectWire(f, wire, VARINT), m.gasLimit = r.varint64());
    else if (f === 3) (expectWire(f, wire, LEN), m.payer = r.string());
    else if (f === 4) (expectWire(f, wire, LEN), m.granter = r.string());
    else return false;
    return true;
  });
  return m;
}

function writeAuthInfo(w: Writer, m: {
  signerInfos: SignerInfo[];
  fee?: FeeInput;
}) {
  for (const s of m.signerInfos) w.message(1, () => writeSignerInfo(w, s));
  const fee = m.fee;
  if (fee !== undefined) w.message(2, () => writeFee(w, fee));
}

export function encodeAuthInfo(m: {
  signerInfos: SignerInfo[];
  fee?: FeeInput;
}): Uint8Array {
  return encode(writeAuthInfo, m);
}

export function decodeAuthInfo(bytes: Uint8Array): AuthInfo {
  const m: AuthInfo = { signerInfos: [] };
  readFields(bytes, (f, wire, r) => {
    if (f === 1) (expectWire(f, wire, LEN), m.signerInfos.push(decodeSignerInfo(r.bytes())));
    else if (f === 2) (expectWire(f, wire, LEN), m.fee = decodeFee(r.bytes()));
    else return false;
    return true;
  });
  return m;
}

// --- cosmos.tx.v1beta1.SignDoc / TxRaw ------------------------------------------------------

function writeSignDoc(w: Writer, m: SignDoc) {
  if (m.bodyBytes.length !== 0) w.bytes(1, m.bodyBytes);
  if (m.authInfoBytes.length !== 0) w.bytes(2, m.authInfoBytes);
  if (m.chainId !== "") w.string(3, m.chainId);
  if (m.accountNumber !== 0n) w.uint64(4, m.accountNumber);
}

export function encodeSignDoc(m: SignDoc): Uint8Array {
  return encode(writeSignDoc, m);
}

export function decodeSignDoc(bytes: Uint8Array): SignDoc {
  const m: SignDoc = {
    bodyBytes: new Uint8Array(),
    authInfoBytes: new Uint8Array(),
    chainId: "",
    accountNumber: 0n,
  };
  readFields(bytes, (f, wire, r) => {
    if (f === 1) (expectWire(f, wire, LEN), m.bodyBytes = r.bytes());
    else if (f === 2) (expectWire(f, wire, LEN), m.authInfoBytes = r.bytes());
    else if (f === 3) (expectWire(f, wire, LEN), m.chainId = r.string());
    else if (f === 4) (expectWire(f, wire, VARINT), m.accountNumber = r.varint64());
    else return false;
    return true;
  });
  return m;
}

function writeTxRaw(w: Writer, m: TxRaw) {
  if (m.bodyBytes.length !== 0) w.bytes(1, m.bodyBytes);
  if (m.authInfoBytes.length !== 0) w.bytes(2, m.authInfoBytes);
  for (const s of m.signatures) w.bytes(3, s);
}

export function encodeTxRaw(m: TxRaw): Uint8Array {
  return encode(writeTxRaw, m);
}

export function decodeTxRaw(bytes: Uint8Array): TxRaw {
  const m: TxRaw = { bodyBytes: new Uint8Array(), authInfoBytes: new Uint8Array(), signatures: [] };
  readFields(bytes, (f, wire, r) => {
    if (f === 1) (expectWire(f, wire, LEN), m.bodyBytes = r.bytes());
    else if (f === 2) (expectWire(f, wire, LEN), m.authInfoBytes = r.bytes());
    else if (f === 3) (expectWire(f, wire, LEN), m.signatures.push(r.bytes()));
    else return false;
    return true;
  });
  return m;
}

// --- public keys ---------------------------------------------------------------------------

function writePubKey(w: Writer, m: { key: Uint8Array }) {
  if (m.key.length !== 0) w.bytes(1, m.key);
}

/** A secp256k1 or ethsecp256k1 PubKey message (field 1: the compressed key). */
export function encodePubKey(m: { key: Uint8Array }): Uint8Array {
  return encode(writePubKey, m);
}

export function decodePubKey(bytes: Uint8Array): { key: Uint8Array } {
  const m: { key: Uint8Array } = { key: new Uint8Array() };
  readFields(bytes, (f, wire, r) => {
    if (f !== 1) return false;
    expectWire(f, wire, LEN);
    m.key = r.bytes();
    return true;
  });
  return m;
}

function writeLegacyAminoPubKey(w: Writer, m: LegacyAminoPubKey) {
  if (m.threshold !== 0) w.uint32(1, m.threshold);
  for (const k of m.publicKeys) w.message(2, () => writeAny(w, k));
}

export function encodeLegacyAminoPubKey(m: LegacyAminoPubKey): Uint8Array {
  return encode(writeLegacyAminoPubKey, m);
}

export function decodeLegacyAminoPubKey(bytes: Uint8Array): LegacyAminoPubKey {
  const m: LegacyAminoPubKey = { threshold: 0, publicKeys: [] };
  readFields(bytes, (f, wire, r) => {
    if (f === 1) (expectWire(f, wire, VARINT), m.threshold = r.uint32());
    else if (f === 2) (expectWire(f, wire, LEN), m.publicKeys.push(decodeAny(r.bytes())));
    else return false;
    return true;
  });
  return m;
}
