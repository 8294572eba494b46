/** NFT lock escrow operations: lock (owner or operator sends) and unlock (operator sends). */
import { notLocked } from "./arg_checks.ts";
import type { Services } from "../services.ts";
import { DomainError } from "../errors.ts";
import { abi as nftAbi } from "../../contracts/artifacts/GameNFT.ts";
import { abi as lockAbi } from "../../contracts/artifacts/NftLock.ts";
import { parseAddress, parseUint256, requireContract } from "./registry.ts";
import { createTransaction, type TxCreation, type TxRequest } from "./transactions.ts";
import { requireChain } from "./sending.ts";
import { readOnChain } from "./polygon.ts";

/** Locks an NFT in a lock escrow (sent by the NFT owner or the lock operator). */
export async function lockNft(s: Services, req: TxRequest, input: {
  contract: string;
  lockContract: string;
  from: string;
  tokenId: string;
}): Promise<TxCreation> {
  const chain = requireChain(s, req.network);
  const [nft, lock] = await Promise.all([
    requireContract(s.db, req, { address: input.contract, type: "nft", field: "contract" }),
    requireContract(s.db, req, {
      address: input.lockContract,
      type: "lock",
      field: "lockContract",
    }),
  ]);
  const from = parseAddress(input.from, "from");
  const id = parseUint256(input.tokenId, "tokenId");
  const [holder, operator] = await Promise.all([
    readOnChain(chain, { address: nft.address, abi: nftAbi, functionName: "ownerOf", args: [id] }),
    readOnChain(chain, { address: lock.address, abi: lockAbi, functionName: "owner" }),
  ]);
  if (holder.toLowerCase() === lock.address.toLowerCase()) {
    throw new DomainError("conflict", "NFT_ALREADY_LOCKED", `token ${id} is already locked`);
  }
  if (
    holder.toLowerCase() !== from.toLowerCase() && operator.toLowerCase() !== from.toLowerCase()
  ) {
    throw new DomainError("forbidden", "NOT_NFT_OWNER", `from ${from} does not own token ${id}`);
  }
  return await createTransaction(s, req, (requestId) => ({
    type: "LOCK",
    action: "lock",
    from,
    to: lock.address,
    abi: lockAbi,
    functionName: "lock",
    args: [nft.address, id, requestId],
  }));
}

/** Unlocks an NFT (sent by the lock contract's operator). */
export async function unlockNft(s: Services, req: TxRequest, input: {
  lockContract: string;
  nftContract: string;
  from: string;
  tokenId: string;
}): Promise<TxCreation> {
  const chain = requireChain(s, req.network);
  const [lock, nft] = await Promise.all([
    requireContract(s.db, req, { address: input.lockContract, type: "lock", field: "contract" }),
    requireContract(s.db, req, {
      address: input.nftContract,
      type: "nft",
      field: "nftContract",
    }),
  ]);
  const from = parseAddress(input.from, "from");
  const id = parseUint256(input.tokenId, "tokenId");
  const lockedBy = await readOnChain(chain, {
    address: lock.address,
    abi: lockAbi,
    functionName: "lockedBy",
    args: [nft.address, id],
  });
  if (/^0x0{40}$/i.test(lockedBy)) throw notLocked(id, lock.address);
  return await createTransaction(s, req, (requestId) => ({
    type: "UNLOCK",
    action: "unlock",
    from,
    to: lock.address,
    abi: lockAbi,
    functionName: "unlock",
    args: [nft.address, id, requestId],
  }));
}
