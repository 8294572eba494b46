/**
 * The XPLA chain client: LCD (Cosmos SDK REST, gRPC-gateway) calls over `fetch`, so it runs on
 * every edge runtime. Errors in the gateway shape `{code, message, details}` become DomainErrors.
 */
import { base64 } from "@scure/base";
import { DomainError } from "../../errors.ts";
import { COSMOS_EVM_PUBKEY_TYPE, ETH_PUBKEY_TYPE } from "./tx.ts";

/** The XPLA network the service talks to. */
export interface XplaChain {
  network: "xpla";
  chainId: string;
  /** Numeric id used for records and send locks (the EIP-155 number inside the chain id). */
  lockId: number;
  lcdUrl: string;
  /** axpla per unit of gas, decimal string. */
  gasPrice: string;
  gasAdjustment: number;
  timeoutMs: number;
  fetch: typeof fetch;
}

/** Mainnet's minimum gas price in axpla (the chain registry's fixed minimum). */
export const DEFAULT_XPLA_GAS_PRICE = "850000000000";

/** The numeric id of an Ethermint chain id `name_<eip155>-<version>`, else a stable hash. */
export function chainLockId(chainId: string): number {
  const m = /_(\d{1,9})-\d+$/.exec(chainId);
  if (m) return Number(m[1]);
  let h = 0;
  for (const ch of chainId) h = (h * 31 + ch.charCodeAt(0)) | 0;
  return 1_000_000_000 + (Math.abs(h) % 1_000_000_000);
}

/** Builds the chain client. */
export function createXplaChain(o: {
  lcdUrl: string;
  chainId: string;
  gasPrice?: string;
  gasAdjustment?: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
}): XplaChain {
  return {
    network: "xpla",
    chainId: o.chainId,
    lockId: chainLockId(o.chainId),
    lcdUrl: o.lcdUrl.replace(/\/+$/, ""),
    gasPrice: o.gasPrice ?? DEFAULT_XPLA_GAS_PRICE,
    gasAdjustment: o.gasAdjustment ?? 1.3,
    timeoutMs: o.timeoutMs ?? 10_000,
    fetch: o.fetch ?? ((input, init) => fetch(input, init)),
  };
}

/** An error answered by the LCD: gRPC code, message, HTTP status. */
export class LcdError extends Error {
  override name = "LcdError";
  constructor(readonly status: number, readonly grpcCode: number, message: string) {
    super(message);
  }
}

const ANY_URL = /\b(?:https?|wss?):\/\/[^\s"'<>`]+/gi;

/** Shortens and scrubs chain text before it reaches a log or an answer. */
export function scrubLcdText(text: string): string {
  const out = text.replace(ANY_URL, "[url]").trim();
  return out.length > 300 ? `${out.slice(0, 300)}...` : out;
}

/** One LCD call; throws CHAIN_UNAVAILABLE when unreachable, LcdError when answered with an error. */
export async function lcdCall<T>(
  chain: XplaChain,
  path: string,
  body?: unknown,
): Promise<T> {
  let res: Response;
  try {
    res = await chain.fetch(`${chain.lcdUrl}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(chain.timeoutMs),
    });
  } catch {
    throw new DomainError("unavailable", "CHAIN_UNAVAILABLE", "xpla node unreachable");
  }
  const text = await res.text();
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(text);
  } catch { /* not JSON */ }
  if (res.ok && json) return json as T;
  if (res.status >= 500 && (!json || typeof json.code !== "number")) {
    throw new DomainError("unavailable", "CHAIN_UNAVAILABLE", `xpla node answered ${res.status}`);
  }
  throw new LcdError(
    res.status,
    typeof json?.code === "number" ? json.code : -1,
    scrubLcdText(typeof json?.message === "string" ? json.message : text),
  );
}

/** An account's number, sequence and public key (null until it has sent a transaction). */
export interface XplaAccount {
  address: string;
  accountNumber: bigint;
  sequence: bigint;
  publicKey: Uint8Array | null;
  /** The public key's type URL when it is not a single ethsecp256k1 key (e.g. a multisig). */
  publicKeyType: string | null;
}

interface AccountJson {
  address?: string;
  account_number?: string;
  sequence?: string;
  pub_key?: { "@type"?: string; key?: string } | null;
  base_account?: AccountJson;
}

/** Reads an account; null when the chain does not know it (never funded). */
export async function getAccount(chain: XplaChain, address: string): Promise<XplaAccount | null> {
  let json: { account: AccountJson };
  try {
    json = await lcdCall(chain, `/cosmos/auth/v1beta1/accounts/${address}`);
  } catch (err) {
    if (err instanceof LcdError && (err.grpcCode === 5 || err.status === 404)) return null;
    throw wrapLcd(err, "account lookup");
  }
  // EthAccount wraps a BaseAccount; a plain BaseAccount carries the fields itself.
  const base = json.account.base_account ?? json.account;
  const type = base.pub_key?.["@type"] ?? null;
  const single = type === ETH_PUBKEY_TYPE || type === COSMOS_EVM_PUBKEY_TYPE;
  return {
    address: base.address ?? address,
    accountNumber: BigInt(base.account_number ?? "0"),
    sequence: BigInt(base.sequence ?? "0"),
    publicKey: single && base.pub_key?.key ? base64.decode(base.pub_key.key) : null,
    publicKeyType: type && !single ? type : null,
  };
}

/** Simulates tx bytes; answers gas used. */
export async function simulate(chain: XplaChain, txBytes: Uint8Array, action: string) {
  try {
    const json = await lcdCall<{ gas_info: { gas_used: string } }>(
      chain,
      "/cosmos/tx/v1beta1/simulate",
      { tx_bytes: base64.encode(txBytes) },
    );
    return BigInt(json.gas_info.gas_used);
  } catch (err) {
    throw wrapLcd(err, action);
  }
}

/** The result of a tx as the chain reports it. */
export interface TxResponse {
  txhash: string;
  code: number;
  raw_log: string;
  height: string;
  tx?: { body?: { messages?: Record<string, unknown>[] } };
}

/** Broadcasts (sync: answers once CheckTx ran); code 0 means accepted into the mempool. */
export async function broadcast(chain: XplaChain, txBytes: Uint8Array): Promise<TxResponse> {
  const json = await lcdCall<{ tx_response: TxResponse }>(chain, "/cosmos/tx/v1beta1/txs", {
    tx_bytes: base64.encode(txBytes),
    mode: "BROADCAST_MODE_SYNC",
  }).catch((err) => {
    throw wrapLcd(err, "broadcast");
  });
  return json.tx_response;
}

/** Looks a tx up; null while the chain does not know it. */
export async function getTx(chain: XplaChain, hash: string): Promise<TxResponse | null> {
  try {
    const json = await lcdCall<{ tx: TxResponse["tx"]; tx_response: TxResponse }>(
      chain,
      `/cosmos/tx/v1beta1/txs/${hash}`,
    );
    return { ...json.tx_response, tx: json.tx ?? json.tx_response.tx };
  } catch (err) {
    if (err instanceof LcdError && (err.grpcCode === 5 || err.status === 404)) return null;
    throw wrapLcd(err, "tx lookup");
  }
}

/** A CosmWasm smart query. */
export async function queryContract<T>(
  chain: XplaChain,
  contract: string,
  query: Record<string, unknown>,
  action = Object.keys(query)[0],
): Promise<T> {
  const encoded = encodeURIComponent(
    base64.encode(new TextEncoder().encode(JSON.stringify(query))),
  );
  try {
    const json = await lcdCall<{ data: T }>(
      chain,
      `/cosmwasm/wasm/v1/contract/${contract}/smart/${encoded}`,
    );
    return json.data;
  } catch (err) {
    throw wrapLcd(err, action);
  }
}

/** Contracts instantiated by an address (first page of up to 1000). */
export async function contractsByCreator(chain: XplaChain, creator: string): Promise<string[]> {
  try {
    const json = await lcdCall<{ contract_addresses: string[] }>(
      chain,
      `/cosmwasm/wasm/v1/contracts/creator/${creator}?pagination.limit=1000`,
    );
    return json.contract_addresses ?? [];
  } catch (err) {
    throw wrapLcd(err, "contract list");
  }
}

/** Contract errors worth their own catalog code, matched in the chain's error text. */
const knownErrors: {
  pattern: RegExp;
  kind: "invalid" | "conflict" | "not_found" | "forbidden";
  code: string;
}[] = [
  { pattern: /token_id already claimed/i, kind: "conflict", code: "DUPLICATE_TOKEN_ID" },
  {
    pattern: /request_id .*already (?:processed|used)/i,
    kind: "conflict",
    code: "DUPLICATE_REQUEST_ID",
  },
  { pattern: /already locked/i, kind: "conflict", code: "NFT_ALREADY_LOCKED" },
  { pattern: /not locked/i, kind: "conflict", code: "NFT_NOT_LOCKED" },
  { pattern: /pool exhausted|currency exhausted/i, kind: "conflict", code: "POOL_EXHAUSTED" },
  { pattern: /TokenInfo.*not found/i, kind: "not_found", code: "TOKEN_NOT_FOUND" },
];

/** Turns an LCD failure into a DomainError naming the action. */
export function wrapLcd(err: unknown, action: string): unknown {
  if (!(err instanceof LcdError)) return err;
  const known = knownErrors.find((k) => k.pattern.test(err.message));
  if (known) {
    return new DomainError(known.kind, known.code, `${action} refused by contract: ${err.message}`);
  }
  if (err.status === 400 || err.grpcCode === 2 || err.grpcCode === 3) {
    return new DomainError("invalid", "TX_REVERTED", `${action} failed: ${err.message}`);
  }
  return new DomainError("upstream", "CHAIN_ERROR", `${action} failed: ${err.message}`);
}
