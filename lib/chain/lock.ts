/** NFT lock escrow operations: lock (the NFT's holder sends) and unlock (the lock operator sends). */
import {
  assertLockable,
  lockArgs,
  type LockInput,
  notLocked,
  polygonFormat,
  unlockArgs,
  type UnlockInput,
} from "./arg_checks.ts";
import type { Services } from "../services.ts";
import { abi as nftAbi } from "../../contracts/artifacts/GameNFT.ts";
import { abi as lockAbi } from "../../contracts/artifacts/NftLock.ts";
import { createTransaction } from "./transactions.ts";
import type { TxCreation, TxRequest } from "./tx_request.ts";
import { requireChain } from "./sending.ts";
import { readOnChain } from "./polygon.ts";

export type { LockInput, UnlockInput } from "./arg_checks.ts";

/**
 * Locks an NFT in a lock escrow. Sent by the token's holder only: the holder is read from the
 * chain first and any other `from` is refused (NOT_NFT_OWNER), for `isSend` false too.
 */
export async function lockNft(
  s: Services,
  req: TxRequest,
  input: LockInput,
): Promise<TxCreation> {
  const chain = requireChain(s, req.network);
  const { nft, lock, from, tokenId: id } = await lockArgs(s.db, req, {
    ...input,
    format: polygonFormat,
  });
  const holder = await readOnChain(chain, {
    address: nft.address,
    abi: nftAbi,
    functionName: "ownerOf",
    args: [id],
  });
  assertLockable(holder, { lock: lock.address, from, tokenId: id });
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
  const { nft, lock, from, tokenId: id } = await unlockArgs(s.db, req, {
    ...input,
    format: polygonFormat,
  });
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
