/** Game token reads and the convert pool: to-token, to-currency, pool information, balances. */
import { formatUnits } from "viem";
import type { Services } from "../services.ts";
import { assertPoolHolds, convertArgs, type ConvertInput, polygonFormat } from "./arg_checks.ts";
import { abi as poolAbi } from "../../contracts/artifacts/ConvertPool.ts";
import { abi as tokenAbi } from "../../contracts/artifacts/GameToken.ts";
import { parseAddress, requireContract } from "./registry.ts";
import { createTransaction } from "./transactions.ts";
import type { TxCreation, TxRequest } from "./tx_request.ts";
import { requireChain } from "./sending.ts";
import { readOnChain } from "./polygon.ts";

export type { ConvertInput } from "./arg_checks.ts";

/** Converts game currency to tokens (operator sends) or tokens to game currency (holder sends). */
export async function convert(
  s: Services,
  req: TxRequest,
  input: ConvertInput,
): Promise<TxCreation> {
  const chain = requireChain(s, req.network);
  const { pool, owner, tokens, currency } = await convertArgs(s.db, req, {
    ...input,
    format: polygonFormat,
  });
  if (input.direction === "to-token") {
    const [operator, available] = await Promise.all([
      readOnChain(chain, { address: pool.address, abi: poolAbi, functionName: "owner" }),
      readOnChain(chain, { address: pool.address, abi: poolAbi, functionName: "poolAmount" }),
    ]);
    assertPoolHolds(available, tokens);
    return await createTransaction(s, req, (requestId) => ({
      type: "CONVERT_TO_TOKEN",
      action: "convert to token",
      from: operator,
      to: pool.address,
      abi: poolAbi,
      functionName: "toToken",
      args: [requestId, owner, tokens, input.gameCurrencyCode, currency],
    }));
  }
  return await createTransaction(s, req, (requestId) => ({
    type: "CONVERT_TO_CURRENCY",
    action: "convert to currency",
    from: owner,
    to: pool.address,
    abi: poolAbi,
    functionName: "toCurrency",
    args: [requestId, tokens, input.gameCurrencyCode, currency],
  }));
}

/** The pool's remaining tokens and per-goods-code currency totals. */
export async function poolInfo(
  s: Services,
  q: { network: string; gameIndex: number; pool: string },
) {
  const chain = requireChain(s, q.network);
  const pool = await requirePool(s, q, q.pool);
  const [amount, [codes, totals]] = await Promise.all([
    readOnChain(chain, { address: pool.address, abi: poolAbi, functionName: "poolAmount" }),
    readOnChain(chain, { address: pool.address, abi: poolAbi, functionName: "currencies" }),
  ]);
  return {
    convertPoolAmount: amount.toString(),
    gameCurrency: codes.map((goodsCode, i) => ({ goodsCode, goodsAmount: totals[i].toString() })),
  };
}

/** A holder's balance of a registered game token. */
export async function tokenBalance(s: Services, q: {
  network: string;
  gameIndex: number;
  contract: string;
  holder: string;
}) {
  const chain = requireChain(s, q.network);
  const token = await requireContract(s.db, q, {
    address: q.contract,
    type: "token",
    field: "contract",
  });
  const holder = parseAddress(q.holder, "from");
  const read = { address: token.address, abi: tokenAbi } as const;
  const [raw, decimals, symbol] = await Promise.all([
    readOnChain(chain, { ...read, functionName: "balanceOf", args: [holder] }),
    readOnChain(chain, { ...read, functionName: "decimals" }),
    readOnChain(chain, { ...read, functionName: "symbol" }),
  ]);
  return {
    value: formatUnits(raw, decimals),
    rawValue: raw.toString(),
    decimals,
    symbol,
    symbolUri: token.symbolUri ?? "",
  };
}

function requirePool(s: Services, scope: { network: string; gameIndex: number }, address: string) {
  return requireContract(s.db, scope, { address, type: "convert-pool", field: "convertPool" });
}
