/**
 * The network-neutral chain port: the blockchain API's operations, implemented once per network.
 * Routes pick the adapter by x-network and never look at the network themselves. Polygon's
 * adapter is the viem code in lib/chain; XPLA's is LCD REST in lib/chain/xpla.
 */
import type { Services } from "../services.ts";
import { type ContractRecord, listContractsByOwner, type PageMeta } from "../contracts.ts";
import { mintNfts, nftInfo } from "./nft.ts";
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

/** What every network implements (the shapes are Polygon's, which came first). */
export interface ChainPort {
  contractsByOwner(
    s: Services,
    q: Parameters<typeof listContractsByOwner>[1],
  ): Promise<{ contracts: ContractRecord[]; meta: PageMeta }>;
  mintNfts: typeof mintNfts;
  nftInfo: typeof nftInfo;
  lockNft: typeof lockNft;
  unlockNft: typeof unlockNft;
  convert: typeof convert;
  poolInfo: typeof poolInfo;
  tokenBalance: typeof tokenBalance;
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
