/**
 * The blockchain API's operations on XPLA, as CosmWasm messages (README "XPLA contracts"):
 * cw721-base + cw2981-royalties NFTs, cw20-base tokens, the NFT lock and the convert pool.
 */
import { assertMintBatchSize, notLocked, uniqueTokenIds } from "../arg_checks.ts";
import { formatUnits } from "viem";
import type { Services } from "../../services.ts";
import { DomainError } from "../../errors.ts";
import { loadMetadata, storeMetadata, tokenUriFor } from "../metadata.ts";
import { parseUint256, requireContract, requireNftAndLock } from "../registry.ts";
import type { LockInput, UnlockInput } from "../lock.ts";
import type { ConvertInput } from "../convert.ts";
import type { TxCreation, TxRequest } from "../transactions.ts";
import type { MintEntry } from "../nft.ts";
import { queryContract } from "./lcd.ts";
import { parseXplaAddress } from "./keys.ts";
import { jsonBase64 } from "./tx.ts";
import { createXplaTransaction, requireXpla } from "./transactions.ts";

/** Tokens per mint call on xpla (one execute message per token, all in one transaction). */
export const XPLA_MINT_LIMIT = 200;

const TOKEN_ID = /^[A-Za-z0-9._:-]{1,128}$/;

function parseTokenId(value: string, field: string): string {
  if (!TOKEN_ID.test(value)) {
    throw new DomainError(
      "invalid",
      "VALIDATION_FAILED",
      `${field} must be 1-128 characters of A-Z a-z 0-9 . _ : -`,
    );
  }
  return value;
}

/** Mints a batch to `to`: one cw721 `mint` per token with its cw2981 royalty, one transaction. */
export async function mintNftsXpla(s: Services, req: TxRequest, input: {
  contract: string;
  from: string;
  to: string;
  entries: MintEntry[];
  publicBaseUrl: string;
}): Promise<TxCreation> {
  requireXpla(s);
  assertMintBatchSize(input.entries.length, XPLA_MINT_LIMIT, "xpla");
  const nft = await requireContract(s.db, req, {
    address: input.contract,
    type: "nft",
    field: "contract",
  });
  const from = parseXplaAddress(input.from, "from");
  const to = parseXplaAddress(input.to, "to");
  const tokenIds = uniqueTokenIds(input.entries, parseTokenId);
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
  const tokenId = parseTokenId(q.tokenId, "tokenId");
  const info = await queryContract<{ token_uri: string | null }>(chain, nft.address, {
    nft_info: { token_id: tokenId },
  });
  const tokenUri = info.token_uri ?? "";
  const metadata = await loadMetadata(s.db, { network: q.network, contract: nft.address, tokenId });
  return {
    nftContract: nft.address,
    tokenId,
    tokenUri,
    gatewayUrl: tokenUri.startsWith("ipfs://")
      ? `https://ipfs.io/ipfs/${tokenUri.slice("ipfs://".length)}`
      : tokenUri,
    metadata: metadata ?? {},
  };
}

/** Locks an NFT: its owner sends it to the lock with cw721 `send_nft` and a `lock` hook. */
export async function lockNftXpla(
  s: Services,
  req: TxRequest,
  input: LockInput,
): Promise<TxCreation> {
  const chain = requireXpla(s);
  const [nft, lock] = await requireNftAndLock(
    s.db,
    req,
    { address: input.contract, field: "contract" },
    { address: input.lockContract, field: "lockContract" },
  );
  const from = parseXplaAddress(input.from, "from");
  const tokenId = parseTokenId(input.tokenId, "tokenId");
  const { owner } = await queryContract<{ owner: string }>(chain, nft.address, {
    owner_of: { token_id: tokenId },
  });
  if (owner === lock.address) {
    throw new DomainError("conflict", "NFT_ALREADY_LOCKED", `token ${tokenId} is already locked`);
  }
  if (owner !== from) {
    throw new DomainError(
      "forbidden",
      "NOT_NFT_OWNER",
      `from ${from} does not own token ${tokenId}`,
    );
  }
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
  const [nft, lock] = await requireNftAndLock(
    s.db,
    req,
    { address: input.nftContract, field: "nftContract" },
    { address: input.lockContract, field: "contract" },
  );
  const from = parseXplaAddress(input.from, "from");
  const tokenId = parseTokenId(input.tokenId, "tokenId");
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

const AMOUNT_RULE = "must be a non-negative integer string (base units)";

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
  const pool = await requireContract(s.db, req, {
    address: input.convertPool,
    type: "convert-pool",
    field: "convertPool",
  });
  const owner = parseXplaAddress(input.owner, "owner");
  const tokens = parseUint256(input.gameTokenAmount, "gameTokenAmount", AMOUNT_RULE).toString();
  const goods = parseUint256(input.gameCurrencyAmount, "gameCurrencyAmount", AMOUNT_RULE)
    .toString();
  const config = await queryContract<{ token: string; owner: string }>(chain, pool.address, {
    config: {},
  });
  if (input.direction === "to-token") {
    const info = await queryContract<PoolInfo>(chain, pool.address, { pool_info: {} });
    if (BigInt(info.token_amount) < BigInt(tokens)) {
      throw new DomainError(
        "conflict",
        "POOL_EXHAUSTED",
        `convert pool holds ${info.token_amount} tokens, ${tokens} requested`,
      );
    }
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
