/**
 * Argument checks that are the same on every network (the address and number formats differ, the
 * rules and their errors do not): batch size, repeated token ids, an NFT that is not locked.
 */
import { DomainError } from "../errors.ts";

/** Refuses a mint batch larger than the network's per-call limit (TOO_MANY_TOKENS). */
export function assertMintBatchSize(count: number, limit: number, network: string): void {
  if (count > limit) {
    throw new DomainError(
      "invalid",
      "TOO_MANY_TOKENS",
      `mintMsg has ${count} tokens; at most ${limit} per call on ${network}`,
    );
  }
}

/**
 * Parses each entry's token id with the network's parser and refuses a repeated one
 * (DUPLICATE_TOKEN_ID, naming the entry).
 */
export function uniqueTokenIds<T extends { toString(): string }>(
  entries: { tokenId: string }[],
  parse: (value: string, field: string) => T,
): T[] {
  const seen = new Set<string>();
  return entries.map((e, i) => {
    const id = parse(e.tokenId, `mintMsg[${i}].tokenId`);
    const key = id.toString();
    if (seen.has(key)) {
      throw new DomainError(
        "conflict",
        "DUPLICATE_TOKEN_ID",
        `mintMsg[${i}].tokenId ${key} appears twice`,
      );
    }
    seen.add(key);
    return id;
  });
}

/** The refusal of an unlock whose token is not held by the lock contract (NFT_NOT_LOCKED). */
export function notLocked(tokenId: string | bigint, lockAddress: string): DomainError {
  return new DomainError(
    "conflict",
    "NFT_NOT_LOCKED",
    `token ${tokenId} is not locked in ${lockAddress}`,
  );
}
