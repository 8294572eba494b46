/**
 * The XPLA chain client: LCD (Cosmos SDK REST, gRPC-gateway) calls over `fetch`, so it runs on
 * every edge runtime. Errors in the gateway shape `{code, message, details}` become DomainErrors.
 * Several LCD endpoints may be configured: a call that cannot reach one (network error, timeout,
 * 429, or a 5xx that is not a gateway answer) goes to the next, and an endpoint that failed rests
 * for a backoff before it is tried first again. Every HTTP attempt is observed like any outbound
 * call (purpose `xpla-lcd`: a log line with the host, never the path, and the counters).
 */
import { base64 } from "@scure/base";
import { DomainError } from "../../errors.ts";
import { backoffMs, observedFetch, type OutboundObserver } from "../../outbound/mod.ts";
import { COSMOS_EVM_PUBKEY_TYPE, ETH_PUBKEY_TYPE } from "./tx.ts";

/** One configured LCD endpoint and how it has been answering. */
interface LcdEndpoint {
  url: string;
  /** Failed attempts in a row. */
  failures: number;
  /** Until then (epoch ms) the endpoint is tried only after the others. */
  restUntil: number;
}

/** The XPLA network the service talks to. */
export interface XplaChain {
  network: "xpla";
  chainId: string;
  /** Numeric id used for records and send locks (the EIP-155 number inside the chain id). */
  lockId: number;
  /** The LCD endpoints in order of preference. */
  lcdUrls: string[];
  /** axpla per unit of gas, decimal string. */
  gasPrice: string;
  gasAdjustment: number;
  /** Per-request timeout of one LCD call to one endpoint. */
  timeoutMs: number;
  /** A signed transaction's timeout_height is the latest height plus this many blocks. */
  timeoutBlocks: number;
  fetch: typeof fetch;
  /** Endpoint health shared by every call of this client. */
  endpoints: LcdEndpoint[];
  /** Waits between rounds over the endpoints (injectable for tests). */
  sleep(ms: number): Promise<void>;
  /** The time endpoint rests are measured in (epoch ms; injectable for tests). */
  now(): number;
}

/** Mainnet's minimum gas price in axpla (the chain registry's fixed minimum). */
export const DEFAULT_XPLA_GAS_PRICE = "850000000000";

/** Default validity of a signed transaction in blocks (about five minutes of ~6 s blocks). */
export const DEFAULT_XPLA_TIMEOUT_BLOCKS = 50;

/** The numeric id of an Ethermint chain id `name_<eip155>-<version>`, else a stable hash. */
export function chainLockId(chainId: string): number {
  const m = /_(\d{1,9})-\d+$/.exec(chainId);
  if (m) return Number(m[1]);
  let h = 0;
  for (const ch of chainId) h = (h * 31 + ch.charCodeAt(0)) | 0;
  return 1_000_000_000 + (Math.abs(h) % 1_000_000_000);
}

/** The endpoints of a comma-separated list (`XPLA_LCD_URLS`, or `XPLA_LCD_URL` as a list of one). */
export function parseLcdUrls(list: string): string[] {
  return list.split(",").map((u) => u.trim().replace(/\/+$/, "")).filter((u) => u !== "");
}

/** Builds the chain client. */
export function createXplaChain(o: {
  /** One endpoint, or a comma-separated list. */
  lcdUrl?: string;
  lcdUrls?: string[];
  chainId: string;
  gasPrice?: string;
  gasAdjustment?: number;
  timeoutMs?: number;
  timeoutBlocks?: number;
  fetch?: typeof fetch;
  /** Reports each LCD call (host, duration, outcome) to the log and metrics. */
  observer?: OutboundObserver;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}): XplaChain {
  const urls = (o.lcdUrls ?? parseLcdUrls(o.lcdUrl ?? "")).map((u) => u.replace(/\/+$/, ""));
  if (urls.length === 0) throw new Error("createXplaChain needs at least one LCD URL");
  const inner: typeof fetch = o.fetch ?? ((input, init) => fetch(input, init));
  return {
    network: "xpla",
    chainId: o.chainId,
    lockId: chainLockId(o.chainId),
    lcdUrls: urls,
    gasPrice: o.gasPrice ?? DEFAULT_XPLA_GAS_PRICE,
    gasAdjustment: o.gasAdjustment ?? 1.3,
    timeoutMs: o.timeoutMs ?? 10_000,
    timeoutBlocks: o.timeoutBlocks ?? DEFAULT_XPLA_TIMEOUT_BLOCKS,
    fetch: o.observer ? observedFetch(o.observer, "xpla-lcd", inner) : inner,
    endpoints: urls.map((url) => ({ url, failures: 0, restUntil: 0 })),
    sleep: o.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))),
    now: o.now ?? Date.now,
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

/** Rounds over the endpoints before a call gives up. */
const ROUNDS = 2;
const REST_BASE_MS = 250;
const REST_MAX_MS = 30_000;
/** Longest pause between two rounds (the rest of an endpoint may be longer). */
const ROUND_PAUSE_MAX_MS = 1_000;

/** Endpoints to try, in order: the rested ones as configured, then resting ones, soonest first. */
function endpointOrder(chain: XplaChain, now: number): LcdEndpoint[] {
  const ready = chain.endpoints.filter((e) => e.restUntil <= now);
  const resting = chain.endpoints.filter((e) => e.restUntil > now)
    .sort((a, b) => a.restUntil - b.restUntil);
  return [...ready, ...resting];
}

function rest(endpoint: LcdEndpoint, now: number, retryAfterMs = 0) {
  endpoint.failures++;
  endpoint.restUntil = now +
    Math.max(backoffMs(endpoint.failures - 1, REST_BASE_MS, REST_MAX_MS), retryAfterMs);
}

function retryAfterMs(res: Response): number {
  const value = Number(res.headers.get("retry-after"));
  return Number.isFinite(value) && value > 0 ? Math.min(value * 1000, REST_MAX_MS) : 0;
}

/** One attempt at one endpoint: the parsed answer, or why the endpoint could not serve it. */
async function attempt(
  chain: XplaChain,
  endpoint: LcdEndpoint,
  path: string,
  body: unknown,
): Promise<
  { ok: true; res: Response; text: string; json?: Record<string, unknown> } | {
    ok: false;
    reason: string;
    retryAfterMs?: number;
  }
> {
  let res: Response;
  let text: string;
  try {
    res = await chain.fetch(`${endpoint.url}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(chain.timeoutMs),
    });
    text = await res.text();
  } catch (err) {
    const name = (err as Error)?.name;
    return { ok: false, reason: name === "TimeoutError" ? "timed out" : "unreachable" };
  }
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(text);
  } catch { /* not JSON */ }
  // A gateway error body (`code` a number) is the node's answer; a bare 5xx or 429 is the endpoint.
  if (res.status === 429 || (res.status >= 500 && typeof json?.code !== "number")) {
    return { ok: false, reason: `answered ${res.status}`, retryAfterMs: retryAfterMs(res) };
  }
  return { ok: true, res, text, json };
}

/**
 * One LCD call, failing over between the endpoints; throws CHAIN_UNAVAILABLE when none could
 * answer in two rounds, LcdError when answered with an error.
 */
export async function lcdCall<T>(
  chain: XplaChain,
  path: string,
  body?: unknown,
): Promise<T> {
  let reason = "unreachable";
  for (let round = 0; round < ROUNDS; round++) {
    if (round > 0) {
      const soonest = Math.min(...chain.endpoints.map((e) => e.restUntil)) - chain.now();
      await chain.sleep(Math.min(Math.max(soonest, 50), ROUND_PAUSE_MAX_MS));
    }
    for (const endpoint of endpointOrder(chain, chain.now())) {
      const got = await attempt(chain, endpoint, path, body);
      if (!got.ok) {
        reason = got.reason;
        rest(endpoint, chain.now(), got.retryAfterMs);
        continue;
      }
      endpoint.failures = 0;
      endpoint.restUntil = 0;
      const { res, text, json } = got;
      if (res.ok && json) return json as T;
      throw new LcdError(
        res.status,
        typeof json?.code === "number" ? json.code : -1,
        scrubLcdText(typeof json?.message === "string" ? json.message : text),
      );
    }
  }
  const what = chain.endpoints.length === 1 ? "xpla node" : "every xpla LCD endpoint";
  throw new DomainError("unavailable", "CHAIN_UNAVAILABLE", `${what} ${reason}`);
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
  codespace?: string;
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
  const res = json.tx_response;
  // The node already holds these exact bytes (an earlier attempt through another endpoint reached
  // it): the transaction is in the mempool, which is what a sync broadcast answers.
  if (res.code === TX_IN_MEMPOOL_CACHE && (res.codespace ?? "sdk") === "sdk") {
    return { ...res, code: 0 };
  }
  return res;
}

/** sdkerrors.ErrTxInMempoolCache: "tx already exists in cache". */
const TX_IN_MEMPOOL_CACHE = 19;

/** The latest block height (`GET /cosmos/base/tendermint/v1beta1/blocks/latest`). */
export async function latestHeight(chain: XplaChain): Promise<bigint> {
  type Header = { header?: { height?: string } };
  const json = await lcdCall<{ block?: Header; sdk_block?: Header }>(
    chain,
    "/cosmos/base/tendermint/v1beta1/blocks/latest",
  ).catch((err) => {
    throw wrapLcd(err, "height lookup");
  });
  const height = json.sdk_block?.header?.height ?? json.block?.header?.height;
  if (typeof height !== "string" || !/^\d+$/.test(height)) {
    throw new DomainError("upstream", "CHAIN_ERROR", "height lookup failed: no block height");
  }
  return BigInt(height);
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
