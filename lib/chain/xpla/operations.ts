/**
 * The blockchain API's operations on XPLA, as CosmWasm messages (README "XPLA contracts"):
 * cw721-base + cw2981-royalties NFTs, cw20-base tokens, the NFT lock and the convert pool.
 */
import {
  assertLockable,
  assertPoolHolds,
  convertArgs,
  type ConvertInput,
  gatewayUrlOf,
  lockArgs,
  type LockInput,
  mintArgs,
  notLocked,
  unlockArgs,
  type UnlockInput,
  xplaFormat,
} from "../arg_checks.ts";
import { formatUnits } from "viem";
import type { Services } from "../../services.ts";
import { DomainError } from "../../errors.ts";
import { loadMetadata, storeMetadata, tokenUriFor } from "../metadata.ts";
import { requireContract } from "../registry.ts";
import type { TxCreation, TxRequest } from "../tx_request.ts";
import type { MintEntry } from "../nft.ts";
import { queryContract } from "./lcd.ts";
import { parseXplaAddress } from "./keys.ts";
import { jsonBase64 } from "./tx.ts";
import { createXplaTransaction, requireXpla } from "./transactions.ts";

/** Tokens per mint call on xpla (one execute message per token, all in one transaction). */
export const XPLA_MINT_LIMIT = 200;

/** Mints a batch to `to`: one cw721 `mint` per token with its cw2981 royalty, one transaction. */
export async function mintNftsXpla(s: Services, req: TxRequest, input: {
  contract: string;
  from: string;
  to: string;
  entries: MintEntry[];
  publicBaseUrl: string;
}): Promise<TxCreation> {
  requireXpla(s);
  const { nft, from, to, tokenIds } = await mintArgs(s.db, req, {
    ...input,
    format: xplaFormat,
    limit: XPLA_MINT_LIMIT,
  });
  const tokens = input.entries.map((e, i) => {
    const tokenId = tokenIds[i];
    // cw2981 keeps a whole percent.
    if (!Number.isInteger(e.royaltyPercentage)) {
      throw new DomainError(
        "invalid",
        "VALIDATION_FAILED",
        `mintMsg[${i}].royaltyPercentage must be a whole percent on xpla (cw2981)`,
      );
    }
    return { tokenId, metadata: e.metadata, royalty: e.royaltyPercentage };
  });
  const created = await createXplaTransaction(s, req, () => ({
    type: "MINT",
    action: "mint",
    from,
    contract: nft.address,
    calls: tokens.map((t) => ({
      contract: nft.address,
      msg: {
        mint: {
          token_id: t.tokenId,
          owner: to,
          token_uri: tokenUriFor(input.publicBaseUrl, req.network, nft.address, t.tokenId),
          extension: {
            royalty_percentage: t.royalty,
            royalty_payment_address: t.royalty > 0 ? from : null,
          },
        },
      },
    })),
  }));
  await storeMetadata(s.db, {
    network: req.network,
    contract: nft.address,
    requestId: created.requestId,
    tokens: tokens.map((t) => ({ tokenId: t.tokenId, metadata: t.metadata })),
    now: new Date(s.clock.now()),
  });
  return created;
}

/** Token information: cw721 `nft_info` and the stored metadata. */
export async function nftInfoXpla(s: Services, q: {
  network: string;
  gameIndex: number;
  contract: string;
  tokenId: string;
}) {
  const chain = requireXpla(s);
  const nft = await requireContract(s.db, q, {
    address: q.contract,
    type: "nft",
    field: "contract",
  });
  const tokenId = xplaFormat.tokenId(q.tokenId, "tokenId");
  const info = await queryContract<{ token_uri: string | null }>(chain, nft.address, {
    nft_info: { token_id: tokenId },
  });
  const tokenUri = info.token_uri ?? "";
  const metadata = await loadMetadata(s.db, { network: q.network, contract: nft.address, tokenId });
  return {
    nftContract: nft.address,
    tokenId,
    tokenUri,
    gatewayUrl: gatewayUrlOf(tokenUri),
    metadata: metadata ?? {},
  };
}

/**
 * Locks an NFT: its owner sends it to the lock with cw721 `send_nft` and a `lock` hook. The owner
 * is read from the chain first and any other `from` is refused (NOT_NFT_OWNER), for `isSend` false
 * too (cw721 would also let an approved operator send it).
 */
export async function lockNftXpla(
  s: Services,
  req: TxRequest,
  input: LockInput,
): Promise<TxCreation> {
  const chain = requireXpla(s);
  const { nft, lock, from, tokenId } = await lockArgs(s.db, req, {
    ...input,
    format: xplaFormat,
  });
  const { owner } = await queryContract<{ owner: string }>(chain, nft.address, {
    owner_of: { token_id: tokenId },
  });
  assertLockable(owner, { lock: lock.address, from, tokenId });
  return await createXplaTransaction(s, req, (requestId) => ({
    type: "LOCK",
    action: "lock",
    from,
    contract: lock.address,
    calls: [{
      contract: nft.address,
      msg: {
        send_nft: {
          contract: lock.address,
          token_id: tokenId,
          msg: jsonBase64({ lock: { request_id: requestId } }),
        },
      },
    }],
  }));
}

/** Unlocks an NFT: the lock's operator calls `unlock`; the lock returns it to its owner. */
export async function unlockNftXpla(
  s: Services,
  req: TxRequest,
  input: UnlockInput,
): Promise<TxCreation> {
  const chain = requireXpla(s);
  const { nft, lock, from, tokenId } = await unlockArgs(s.db, req, {
    ...input,
    format: xplaFormat,
  });
  const locked = await queryContract<{ owner: string | null }>(chain, lock.address, {
    locked: { nft_contract: nft.address, token_id: tokenId },
  });
  if (!locked.owner) throw notLocked(tokenId, lock.address);
  return await createXplaTransaction(s, req, (requestId) => ({
    type: "UNLOCK",
    action: "unlock",
    from,
    contract: lock.address,
    calls: [{
      contract: lock.address,
      msg: { unlock: { nft_contract: nft.address, token_id: tokenId, request_id: requestId } },
    }],
  }));
}

interface PoolInfo {
  token_amount: string;
  currency: { goods_code: string; goods_amount: string }[];
}

/** Converts through a pool: to-token is sent by the pool's operator, to-currency by the holder. */
export async function convertXpla(
  s: Services,
  req: TxRequest,
  input: ConvertInput,
): Promise<TxCreation> {
  const chain = requireXpla(s);
  const args = await convertArgs(s.db, req, { ...input, format: xplaFormat });
  const { pool, owner } = args;
  const tokens = args.tokens.toString();
  const goods = args.currency.toString();
  const config = await queryContract<{ token: string; owner: string }>(chain, pool.address, {
    config: {},
  });
  if (input.direction === "to-token") {
    const info = await queryContract<PoolInfo>(chain, pool.address, { pool_info: {} });
    assertPoolHolds(BigInt(info.token_amount), args.tokens);
    return await createXplaTransaction(s, req, (requestId) => ({
      type: "CONVERT_TO_TOKEN",
      action: "convert to token",
      from: config.owner,
      contract: pool.address,
      calls: [{
        contract: pool.address,
        msg: {
          to_token: {
            recipient: owner,
            amount: tokens,
            goods_code: input.gameCurrencyCode,
            goods_amount: goods,
            request_id: requestId,
          },
        },
      }],
    }));
  }
  return await createXplaTransaction(s, req, (requestId) => ({
    type: "CONVERT_TO_CURRENCY",
    action: "convert to currency",
    from: owner,
    contract: pool.address,
    calls: [{
      contract: config.token,
      msg: {
        send: {
          contract: pool.address,
          amount: tokens,
          msg: jsonBase64({
            to_currency: {
              goods_code: input.gameCurrencyCode,
              goods_amount: goods,
              request_id: requestId,
            },
          }),
        },
      },
    }],
  }));
}

/** The pool's remaining tokens and per-goods-code currency totals (`pool_info`). */
export async function poolInfoXpla(
  s: Services,
  q: { network: string; gameIndex: number; pool: string },
) {
  const chain = requireXpla(s);
  const pool = await requireContract(s.db, q, {
    address: q.pool,
    type: "convert-pool",
    field: "convertPool",
  });
  const info = await queryContract<PoolInfo>(chain, pool.address, { pool_info: {} });
  return {
    convertPoolAmount: info.token_amount,
    gameCurrency: info.currency.map((c) => ({
      goodsCode: c.goods_code,
      goodsAmount: c.goods_amount,
    })),
  };
}

/** A holder's cw20 balance with decimals, symbol and the marketing logo address. */
export async function tokenBalanceXpla(s: Services, q: {
  network: string;
  gameIndex: number;
  contract: string;
  holder: string;
}) {
  const chain = requireXpla(s);
  const token = await requireContract(s.db, q, {
    address: q.contract,
    type: "token",
    field: "contract",
  });
  const holder = parseXplaAddress(q.holder, "from");
  const [balance, info, marketing] = await Promise.all([
    queryContract<{ balance: string }>(chain, token.address, { balance: { address: holder } }),
    queryContract<{ symbol: string; decimals: number }>(chain, token.address, {
      token_info: {},
    }),
    queryContract<{ logo?: { url?: string } | string | null }>(chain, token.address, {
      marketing_info: {},
    }).catch(() => ({ logo: null })),
  ]);
  const logo = marketing.logo && typeof marketing.logo === "object"
    ? marketing.logo.url
    : undefined;
  return {
    value: formatUnits(BigInt(balance.balance), info.decimals),
    rawValue: balance.balance,
    decimals: info.decimals,
    symbol: info.symbol,
    symbolUri: logo ?? token.symbolUri ?? "",
  };
}
