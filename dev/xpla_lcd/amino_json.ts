/**
 * The local chain's own amino JSON sign bytes (SIGN_MODE_LEGACY_AMINO_JSON), written apart from
 * the service's encoder (lib/chain/xpla/multisig_keys.ts) so that a mistake there is refused here
 * as the chain refuses it. The document is the legacy `StdSignDoc` (cosmos-sdk
 * x/auth/migrations/legacytx/stdsign.go: account_number, chain_id, fee, memo, msgs, sequence and,
 * when set, timeout_height, numbers as strings) rebuilt from the decoded transaction, and its text
 * is what the SDK's `SortJSON` produces: Go's `encoding/json` writing a decoded `interface{}`, so
 * object keys sorted by their UTF-8 bytes, no whitespace, and strings escaped as Go's encoder
 * escapes them. Nothing here calls JSON.stringify.
 */
import type { Fee, TxBody } from "cosmjs-types/cosmos/tx/v1beta1/tx";

const HEX = "0123456789abcdef";
const utf8 = new TextEncoder();

function unicodeEscape(code: number): string {
  return `\\u${HEX[(code >> 12) & 15]}${HEX[(code >> 8) & 15]}${HEX[(code >> 4) & 15]}${
    HEX[code & 15]
  }`;
}

/**
 * A string as Go's encoding/json writes it: `"` and `\` escaped; \n, \r, \t, \b, \f short (Go
 * 1.22+); other control characters, the HTML-sensitive `<`, `>`, `&` and the line / paragraph
 * separators U+2028 / U+2029 as \u escapes; invalid UTF-16 (a lone surrogate) as U+FFFD.
 */
function goString(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch === "\b") out += "\\b";
    else if (ch === "\f") out += "\\f";
    else if (
      code < 0x20 || ch === "<" || ch === ">" || ch === "&" || code === 0x2028 || code === 0x2029
    ) {
      out += unicodeEscape(code);
    } else if (code >= 0xd800 && code <= 0xdfff) out += "\ufffd";
    else out += ch;
  }
  return `${out}"`;
}

function compareUtf8(a: string, b: string): number {
  const x = utf8.encode(a), y = utf8.encode(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return x[i] - y[i];
  }
  return x.length - y.length;
}

/** A decoded JSON value as Go's encoding/json writes it (maps with sorted keys). */
export function goJson(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return goString(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error("unsupported value: not a finite number");
    // Go writes float64 in the shortest form that reads back (%g-like past 1e21), as JS does.
    return String(value);
  }
  if (Array.isArray(value)) return `[${value.map(goJson).join(",")}]`;
  if (typeof value === "object") {
    const keys = Object.keys(value).sort(compareUtf8);
    const record = value as Record<string, unknown>;
    return `{${keys.map((k) => `${goString(k)}:${goJson(record[k])}`).join(",")}}`;
  }
  throw new Error(`unsupported value of type ${typeof value}`);
}

/** A CosmWasm execute message as the amino JSON document carries it. */
export interface AminoExecute {
  sender: string;
  contract: string;
  /** The contract message, decoded from its JSON bytes. */
  msg: unknown;
  funds: { denom: string; amount: string }[];
}

/** The bytes a SIGN_MODE_LEGACY_AMINO_JSON signer signs for this transaction. */
export function aminoSignBytes(t: {
  chainId: string;
  accountNumber: number;
  sequence: number;
  body: TxBody;
  fee: Fee;
  messages: AminoExecute[];
}): Uint8Array {
  const doc: Record<string, unknown> = {
    account_number: String(t.accountNumber),
    chain_id: t.chainId,
    fee: {
      amount: t.fee.amount.map((c) => ({ amount: c.amount, denom: c.denom })),
      gas: t.fee.gasLimit.toString(),
    },
    memo: t.body.memo,
    msgs: t.messages.map((m) => ({
      type: "wasm/MsgExecuteContract",
      value: {
        contract: m.contract,
        funds: m.funds.map((c) => ({ amount: c.amount, denom: c.denom })),
        msg: m.msg,
        sender: m.sender,
      },
    })),
    sequence: String(t.sequence),
  };
  if (t.body.timeoutHeight > 0n) doc.timeout_height = t.body.timeoutHeight.toString();
  return utf8.encode(goJson(doc));
}
