/** NFT lock escrow operations: lock (owner or operator sends) and unlock (operator sends). */
import { notLocked } from "./arg_checks.ts";
import type { Services } from "../services.ts";
import { DomainError } from "../errors.ts";
import { abi as nftAbi } from "../../contracts/artifacts/GameNFT.ts";
import { abi as lockAbi } from "../../contracts/artifacts/NftLock.ts";
import { parseAddress, parseUint256, requireNftAndLock } from "./registry.ts";
import { createTransaction, type TxCreation, type TxRequest } from "./transactions.ts";
import { requireChain } from "./sending.ts";
import { readOnChain } from "./polygon.ts";

/** A lock request: the NFT contract, the lock escrow, the sender and the token. */
export interface LockInput {
  contract: string;
  lockContract: string;
  from: string;
  tokenId: string;
}

/** An unlock request: the lock escrow, the NFT contract, the operator and the token. */
export interface UnlockInput {
  lockContract: string;
  nftContract: string;
  from: string;
  tokenId: string;
}

/** Locks an NFT in a lock escrow (sent by the NFT owner or the lock operator). */
export async function lockNft(
  s: Services,
  req: TxRequest,
  input: LockInput,
): Promise<TxCreation> {
  const chain = requireChain(s, req.network);
  const [nft, lock] = await requireNftAndLock(
    s.db,
    req,
    { address: input.contract, field: "contract" },
    { address: input.lockContract, field: "lockContract" },
  );
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
export async function unlockNft(
  s: Services,
  req: TxRequest,
  input: UnlockInput,
): Promise<TxCreation> {
  const chain = requireChain(s, req.network);
  const [nft, lock] = await requireNftAndLock(
    s.db,
    req,
    { address: input.nftContract, field: "nftContract" },
    { address: input.lockContract, field: "contract" },
  );
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
