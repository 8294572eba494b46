/**
 * EIP-1559 fees: the estimate offered with a new transaction, the raise that lets a replacement
 * at the same nonce into the node's pool, and the node refusals that mean "offer more".
 *
 * Estimate: maxFeePerGas = 2 x the latest block's base fee + the tip (room for the base fee to
 * double before the transaction stops being includable), tip = eth_maxPriorityFeePerGas but at
 * least the network's floor (PolygonChain.minTipWei). Both are capped by POLYGON_MAX_FEE_GWEI.
 */
import { BaseError } from "viem";
import { onChain, type PolygonChain } from "./polygon.ts";

/** The two EIP-1559 fee fields, in wei. */
export interface Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/** The fees a new transaction offers now: from the node, the network's tip floor, the cap. */
export async function currentFees(chain: PolygonChain): Promise<Fees> {
  const [block, suggestedTip] = await Promise.all([
    onChain("fee estimate", () => chain.client.getBlock({ blockTag: "latest" })),
    onChain("fee estimate", () => chain.client.request({ method: "eth_maxPriorityFeePerGas" }))
      .then((hex) => BigInt(hex as string), () => 0n),
  ]);
  const base = block.baseFeePerGas ?? 0n;
  const tip = suggestedTip > chain.minTipWei ? suggestedTip : chain.minTipWei;
  return capFees(chain, { maxFeePerGas: base * 2n + tip, maxPriorityFeePerGas: tip });
}

function capFees(chain: PolygonChain, fees: Fees): Fees {
  const cap = chain.maxFeeWei;
  if (cap === undefined || fees.maxFeePerGas <= cap) return fees;
  return {
    maxFeePerGas: cap,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas > cap ? cap : fees.maxPriorityFeePerGas,
  };
}

// A replacement raises both fields by 1/8 (12.5 %): geth and bor ask for 10 % at least.
const raise = (x: bigint) => x + x / 8n + 1n;
// The node's own replacement minimum (10 %, rounded up).
const replacementMinimum = (x: bigint) => x + (x + 9n) / 10n;
const max = (a: bigint, b: bigint) => a > b ? a : b;

/** What a replacement may offer. */
export interface RaisedFees {
  fees: Fees;
  /** True when POLYGON_MAX_FEE_GWEI held the fees down: no further raise is possible. */
  capped: boolean;
  /** True when the cap leaves less than the node's replacement minimum: do not replace. */
  blocked: boolean;
}

/**
 * The fees of a replacement of `previous`: each field raised by 12.5 %, or the current estimate
 * when that is higher, held under the cap. `blocked` when the cap leaves less than the 10 % a
 * node requires of a replacement (it would be refused as underpriced).
 */
export function raiseFees(chain: PolygonChain, previous: Fees, now: Fees): RaisedFees {
  const tip = max(raise(previous.maxPriorityFeePerGas), now.maxPriorityFeePerGas);
  const wanted: Fees = {
    maxPriorityFeePerGas: tip,
    maxFeePerGas: max(max(raise(previous.maxFeePerGas), now.maxFeePerGas), tip),
  };
  const fees = capFees(chain, wanted);
  const capped = fees.maxFeePerGas < wanted.maxFeePerGas;
  const blocked = fees.maxFeePerGas < replacementMinimum(previous.maxFeePerGas) ||
    fees.maxPriorityFeePerGas < replacementMinimum(previous.maxPriorityFeePerGas);
  return { fees, capped, blocked };
}

/** How a node refused a broadcast, when the refusal has a known remedy. */
export type BroadcastRefusal =
  /** Fees too low (underpriced, below the base fee or the tip floor): offer more. */
  | "underpriced"
  /** The nonce is already used on chain: take another. */
  | "nonce_used"
  /** The node already holds this very transaction: nothing to do. */
  | "known"
  | "insufficient_funds";

const REFUSALS: [RegExp, BroadcastRefusal][] = [
  [/already known|already imported|known transaction/i, "known"],
  [/nonce too low|nonce has already been used|old nonce|invalid nonce/i, "nonce_used"],
  [/insufficient funds/i, "insufficient_funds"],
  [
    /underpriced|less than (?:the )?block base fee|fee cap (?:less|lower) than|fee ?cap too low|below (?:the )?minimum|tip cap.*minimum|priority fee.*too low|gas price too low|fee too low/i,
    "underpriced",
  ],
];

/** Classifies a broadcast failure by the node's message (null: no known remedy). */
export function broadcastRefusal(err: unknown): BroadcastRefusal | null {
  const texts: string[] = [];
  if (err instanceof BaseError) {
    err.walk((e) => {
      if (e instanceof BaseError) texts.push(e.details ?? "", e.shortMessage);
      else if (e instanceof Error) texts.push(e.message);
      return false;
    });
  } else if (err instanceof Error) {
    texts.push(err.message);
  }
  const text = texts.join("\n");
  for (const [pattern, refusal] of REFUSALS) if (pattern.test(text)) return refusal;
  return null;
}
