/** NFT operations: batch mint with stored metadata, and token information. */
import { gatewayUrlOf, mintArgs, polygonFormat } from "./arg_checks.ts";
import type { Services } from "../services.ts";
import { abi as nftAbi } from "../../contracts/artifacts/GameNFT.ts";
import { loadMetadata, type NftMetadata, storeMetadata, tokenUriFor } from "./metadata.ts";
import { parseUint256, requireContract } from "./registry.ts";
import { createTransaction } from "./transactions.ts";
import type { TxCreation, TxRequest } from "./tx_request.ts";
import { requireChain } from "./sending.ts";
import { readOnChain } from "./polygon.ts";

/** Tokens per mint call on polygon (the contract enforces the same number). */
export const POLYGON_MINT_LIMIT = 50;

/** One token of a mint request. */
export interface MintEntry {
  tokenId: string;
  royaltyPercentage: number;
  metadata: NftMetadata;
}

/** Mints a batch of caller-chosen token ids to `to`; the token URI is the public metadata address. */
export async function mintNfts(s: Services, req: TxRequest, input: {
  contract: string;
  from: string;
  to: string;
  entries: MintEntry[];
  publicBaseUrl: string;
}): Promise<TxCreation> {
  requireChain(s, req.network);
  const { nft, from, to, tokenIds: ids } = await mintArgs(s.db, req, {
    ...input,
    format: polygonFormat,
    limit: POLYGON_MINT_LIMIT,
  });
  const tokens = input.entries.map((e, i) => ({
    tokenId: ids[i].toString(),
    metadata: e.metadata,
  }));
  const uris = tokens.map((t) =>
    tokenUriFor(input.publicBaseUrl, req.network, nft.address, t.tokenId)
  );
  const royalties = input.entries.map((e) => Math.round(e.royaltyPercentage * 100));
  const created = await createTransaction(s, req, () => ({
    type: "MINT",
    action: "mint",
    from,
    to: nft.address,
    abi: nftAbi,
    functionName: "mintBatch",
    args: [to, ids, uris, royalties],
  }));
  await storeMetadata(s.db, {
    network: req.network,
    contract: nft.address,
    requestId: created.requestId,
    tokens,
    now: new Date(s.clock.now()),
  });
  return created;
}

/** Token information read from the chain and the metadata store. */
export async function nftInfo(s: Services, q: {
  network: string;
  gameIndex: number;
  contract: string;
  tokenId: string;
}) {
  const chain = requireChain(s, q.network);
  const nft = await requireContract(s.db, q, {
    address: q.contract,
    type: "nft",
    field: "contract",
  });
  const id = parseUint256(q.tokenId, "tokenId");
  const tokenUri = await readOnChain(chain, {
    address: nft.address,
    abi: nftAbi,
    functionName: "tokenURI",
    args: [id],
  });
  const metadata = await loadMetadata(s.db, {
    network: q.network,
    contract: nft.address,
    tokenId: id.toString(),
  });
  return {
    nftContract: nft.address,
    tokenId: id.toString(),
    tokenUri,
    gatewayUrl: gatewayUrlOf(tokenUri),
    metadata: metadata ?? {},
  };
}
