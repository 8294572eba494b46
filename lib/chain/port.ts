/**
 * The network-neutral chain port: the blockchain API's operations, implemented once per network.
 * Routes pick the adapter by x-network and never look at the network themselves. Polygon's
 * adapter is the viem code in lib/chain; XPLA's is LCD REST in lib/chain/xpla.
 */
import type { Services } from "../services.ts";
import { type ContractRecord, listContractsByOwner, type PageMeta } from "../contracts.ts";
import type { TxCreation, TxRequest } from "./transactions.ts";
import { type MintEntry, mintNfts, nftInfo } from "./nft.ts";
import { lockNft, unlockNft } from "./lock.ts";
import { convert, poolInfo, tokenBalance } from "./convert.ts";
import {
  convertXpla,
  lockNftXpla,
  mintNftsXpla,
  nftInfoXpla,
  poolInfoXpla,
  tokenBalanceXpla,
  unlockNftXpla,
} from "./xpla/operations.ts";
import { contractsByOwnerXpla } from "./xpla/contracts_list.ts";

/** Scope of a read: the caller's network and game. */
export interface ReadScope {
  network: string;
  gameIndex: number;
}

/** The NFT record. */
export interface NftRecord {
  nftContract: string;
  tokenId: string;
  tokenUri: string;
  gatewayUrl: string;
  metadata: Record<string, unknown>;
}

/** The contract-list query. */
export interface ContractsQuery extends ReadScope {
  owner: string;
  type?: string;
  page: number;
  limit: number;
}

/** What every network implements. */
export interface ChainPort {
  contractsByOwner(
    s: Services,
    q: ContractsQuery,
  ): Promise<{ contracts: ContractRecord[]; meta: PageMeta }>;
  mintNfts(s: Services, req: TxRequest, input: {
    contract: string;
    from: string;
    to: string;
    entries: MintEntry[];
    publicBaseUrl: string;
  }): Promise<TxCreation>;
  nftInfo(s: Services, q: ReadScope & { contract: string; tokenId: string }): Promise<NftRecord>;
  lockNft(s: Services, req: TxRequest, input: {
    contract: string;
    lockContract: string;
    from: string;
    tokenId: string;
  }): Promise<TxCreation>;
  unlockNft(s: Services, req: TxRequest, input: {
    lockContract: string;
    nftContract: string;
    from: string;
    tokenId: string;
  }): Promise<TxCreation>;
  convert(s: Services, req: TxRequest, input: {
    direction: "to-token" | "to-currency";
    owner: string;
    convertPool: string;
    gameTokenAmount: string;
    gameCurrencyCode: string;
    gameCurrencyAmount: string;
  }): Promise<TxCreation>;
  poolInfo(s: Services, q: ReadScope & { pool: string }): Promise<{
    convertPoolAmount: string;
    gameCurrency: { goodsCode: string; goodsAmount: string }[];
  }>;
  tokenBalance(s: Services, q: ReadScope & { contract: string; holder: string }): Promise<{
    value: string;
    rawValue: string;
    decimals: number;
    symbol: string;
    symbolUri: string;
  }>;
}

const polygon: ChainPort = {
  contractsByOwner: (s, q) => listContractsByOwner(s.db, q),
  mintNfts,
  nftInfo,
  lockNft,
  unlockNft,
  convert,
  poolInfo,
  tokenBalance,
};

const xpla: ChainPort = {
  contractsByOwner: contractsByOwnerXpla,
  mintNfts: mintNftsXpla,
  nftInfo: nftInfoXpla,
  lockNft: lockNftXpla,
  unlockNft: unlockNftXpla,
  convert: convertXpla,
  poolInfo: poolInfoXpla,
  tokenBalance: tokenBalanceXpla,
};

/** The adapter serving a network (x-network is validated before: polygon or xpla). */
export function chainPort(network: string): ChainPort {
  return network === "xpla" ? xpla : polygon;
}
