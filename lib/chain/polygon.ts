/**
 * The Polygon (EVM) chain client: a viem public client for one RPC endpoint, plus the mapping of
 * node failures and contract reverts to DomainErrors the routes render.
 */
import {
  type Abi,
  BaseError,
  type ContractFunctionArgs,
  type ContractFunctionName,
  ContractFunctionRevertedError,
  createPublicClient,
  fallback,
  http,
  InsufficientFundsError,
  type PublicClient,
  type ReadContractParameters,
  type ReadContractReturnType,
} from "viem";
import { DomainError } from "../errors.ts";
import { observedFetch, type OutboundObserver } from "../outbound/mod.ts";

/** One EVM chain the service talks to. */
export interface PolygonChain {
  chainId: number;
  /** The RPC endpoints, tried in order on every call (viem's fallback transport). */
  rpcUrls: string[];
  client: PublicClient;
  /** Upper bound for maxFeePerGas in wei (undefined: no cap). */
  maxFeeWei?: bigint;
  /** The lowest priority fee offered, in wei (the network's floor or POLYGON_MIN_TIP_GWEI). */
  minTipWei: bigint;
  /** Blocks on top of a receipt's block before the request is SUCCESS (0: at the receipt). */
  confirmations: number;
  /** How long a broadcast may wait unmined before it is replaced with higher fees. */
  stuckAfterMs: number;
}

/** Chain ids of local development nodes (anvil, hardhat, ganache): no confirmations needed. */
export const LOCAL_CHAIN_IDS: readonly number[] = [31337, 1337];

/**
 * Priority-fee floors per chain id, in gwei. Polygon PoS validators (bor) refuse a tip below
 * 25 gwei at pool admission on mainnet (137) and Amoy (80002); 30 leaves a margin.
 */
const MIN_TIP_GWEI: Record<number, number> = { 137: 30, 80002: 30 };

/**
 * The per-network defaults of the transaction lifecycle: confirmations (32 blocks, about a
 * minute, on Polygon; 0 on local chains) and the time before a stuck transaction is replaced
 * (60 s on Polygon, about 30 blocks; 15 s on local chains).
 */
export function chainDefaults(chainId: number) {
  const local = LOCAL_CHAIN_IDS.includes(chainId);
  return {
    confirmations: local ? 0 : 32,
    stuckAfterMs: local ? 15_000 : 60_000,
    minTipGwei: MIN_TIP_GWEI[chainId] ?? 0,
  };
}

function gweiToWei(gwei: number): bigint {
  return BigInt(Math.round(gwei * 1e9));
}

/**
 * Builds the chain client over one or more RPC endpoints: each call goes to the first endpoint
 * and falls over to the next on a failure or after `timeoutMs`; when every endpoint failed the
 * call is retried with exponential backoff (150 ms, 300 ms) on 429, 5xx and timeouts.
 */
export function createPolygonChain(options: {
  /** One endpoint (kept for callers that have a single one). */
  rpcUrl?: string;
  rpcUrls?: string[];
  chainId: number;
  maxFeeGwei?: number;
  minTipGwei?: number;
  confirmations?: number;
  stuckAfterMs?: number;
  timeoutMs?: number;
  /** Reports each RPC call (host, duration, outcome) to the log and metrics. */
  observer?: OutboundObserver;
}): PolygonChain {
  const rpcUrls = options.rpcUrls ?? (options.rpcUrl ? [options.rpcUrl] : []);
  if (rpcUrls.length === 0) throw new Error("createPolygonChain needs at least one RPC URL");
  const fetchFn = options.observer ? observedFetch(options.observer, "chain-rpc") : undefined;
  const endpoint = (url: string) =>
    http(url, { timeout: options.timeoutMs ?? 10_000, retryCount: 0, fetchFn });
  const client = createPublicClient({
    transport: rpcUrls.length === 1
      ? http(rpcUrls[0], { timeout: options.timeoutMs ?? 10_000, retryCount: 1, fetchFn })
      : fallback(rpcUrls.map(endpoint), { retryCount: 2, retryDelay: 150 }),
  }) as PublicClient;
  const defaults = chainDefaults(options.chainId);
  return {
    chainId: options.chainId,
    rpcUrls,
    client,
    maxFeeWei: options.maxFeeGwei === undefined ? undefined : gweiToWei(options.maxFeeGwei),
    minTipWei: gweiToWei(options.minTipGwei ?? defaults.minTipGwei),
    confirmations: options.confirmations ?? defaults.confirmations,
    stuckAfterMs: options.stuckAfterMs ?? defaults.stuckAfterMs,
  };
}

/** Known custom errors of the bundled contracts (and OpenZeppelin's) mapped to catalog codes. */
const revertCodes: Record<
  string,
  { kind: "invalid" | "conflict" | "not_found" | "forbidden"; code: string }
> = {
  ERC721InvalidSender: { kind: "conflict", code: "DUPLICATE_TOKEN_ID" },
  BatchSizeInvalid: { kind: "invalid", code: "TOO_MANY_TOKENS" },
  NotTokenOwner: { kind: "forbidden", code: "NOT_NFT_OWNER" },
  ERC721IncorrectOwner: { kind: "forbidden", code: "NOT_NFT_OWNER" },
  AlreadyLocked: { kind: "conflict", code: "NFT_ALREADY_LOCKED" },
  NotLocked: { kind: "conflict", code: "NFT_NOT_LOCKED" },
  PoolExhausted: { kind: "conflict", code: "POOL_EXHAUSTED" },
  CurrencyExhausted: { kind: "conflict", code: "POOL_EXHAUSTED" },
  RequestAlreadyProcessed: { kind: "conflict", code: "DUPLICATE_REQUEST_ID" },
  ERC721NonexistentToken: { kind: "not_found", code: "TOKEN_NOT_FOUND" },
};

// Any address in a chain error can be the RPC endpoint, whose path may carry a provider API key.
const ANY_URL = /\b(?:https?|wss?):\/\/[^\s"'<>`]+/gi;
const URL_LINE = /^[ \t]*URL:.*$/gim;
const MAX_ERROR_TEXT = 300;

/**
 * Removes RPC addresses from chain error text before it is logged or answered: `URL: ...`
 * lines, the configured endpoints, and any other URL (a node may echo its own address).
 */
function scrubChainText(text: string, rpcUrls: readonly string[] = []): string {
  let out = text.replace(URL_LINE, "");
  for (const url of rpcUrls) {
    if (url) out = out.split(url).join("[rpc]");
  }
  out = out.replace(ANY_URL, "[url]").replace(/\n{2,}/g, "\n").trim();
  return out.length > MAX_ERROR_TEXT ? `${out.slice(0, MAX_ERROR_TEXT)}...` : out;
}

/** A short, scrubbed description of a chain failure, safe for logs. */
export function describeChainError(err: unknown, rpcUrls: readonly string[] = []): string {
  const text = err instanceof BaseError
    ? `${err.name}: ${err.shortMessage}`
    : err instanceof Error
    ? `${err.name}: ${err.message}`
    : String(err);
  return scrubChainText(text, rpcUrls);
}

function describeArgs(args: readonly unknown[] | undefined): string {
  return (args ?? []).map((a) => typeof a === "bigint" ? a.toString() : String(a)).join(", ");
}

/** True when the error means the node could not be reached or did not answer in time. */
export function isUnreachable(err: unknown): boolean {
  if (!(err instanceof BaseError)) return false;
  return Boolean(
    err.walk((e) =>
      e instanceof Error &&
      ["HttpRequestError", "TimeoutError", "WebSocketRequestError", "SocketClosedError"]
        .includes((e as Error).name)
    ),
  );
}

/**
 * Converts a viem failure into a DomainError: unreachable node, known revert, or generic revert.
 * Messages are scrubbed and the raw viem error is not kept as the cause: its message names the
 * RPC URL, which may carry a provider API key.
 */
function chainFailure(err: unknown, action: string): unknown {
  if (err instanceof DomainError) return err;
  if (!(err instanceof BaseError)) return err;
  if (isUnreachable(err)) {
    return new DomainError("unavailable", "CHAIN_UNAVAILABLE", "blockchain node unreachable");
  }
  if (
    err.walk((e) => e instanceof InsufficientFundsError) || /insufficient funds/i.test(err.message)
  ) {
    return new DomainError(
      "invalid",
      "INSUFFICIENT_FUNDS",
      `${action} failed: the sending wallet lacks native currency (POL) to pay for gas`,
    );
  }
  const reverted = err.walk((e) => e instanceof ContractFunctionRevertedError) as
    | ContractFunctionRevertedError
    | null;
  if (reverted) {
    const name = reverted.data?.errorName;
    const reason = scrubChainText(
      name
        ? `${name}(${describeArgs(reverted.data?.args)})`
        : reverted.reason ?? "execution reverted",
    );
    const known = name ? revertCodes[name] : undefined;
    if (known) {
      return new DomainError(known.kind, known.code, `${action} refused by contract: ${reason}`);
    }
    return new DomainError("invalid", "TX_REVERTED", `${action} reverted: ${reason}`);
  }
  const short = scrubChainText(err.shortMessage);
  if (/revert/i.test(err.message)) {
    return new DomainError("invalid", "TX_REVERTED", `${action} reverted: ${short}`);
  }
  return new DomainError("upstream", "CHAIN_ERROR", `${action} failed: ${short}`);
}

/** Runs a chain call, translating its failure. */
export async function onChain<T>(action: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw chainFailure(err, action);
  }
}

/** Calls a view function of a contract; a failure is translated with the function as the action. */
export async function readOnChain<
  const abi extends Abi | readonly unknown[],
  functionName extends ContractFunctionName<abi, "pure" | "view">,
  const args extends ContractFunctionArgs<abi, "pure" | "view", functionName>,
>(
  chain: PolygonChain,
  call: ReadContractParameters<abi, functionName, args>,
): Promise<ReadContractReturnType<abi, functionName, args>> {
  return await onChain(call.functionName, () => chain.client.readContract(call));
}
