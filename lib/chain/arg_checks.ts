/**
 * Argument checks of the transaction-creating operations that are the same on every network:
 * each network says how it spells addresses and token ids (an `ArgFormat`); the rules and their
 * errors (batch size, repeated token ids, registered contracts of the right type, amounts, who may
 * lock, a pool that holds too little, an NFT that is not locked) live here once.
 */
import type { Hex } from "viem";
import type { Sql } from "../db/port.ts";
import { DomainError } from "../errors.ts";
import {
  type KnownContract,
  parseAddress,
  parseUint256,
  requireContract,
  requireNftAndLock,
} from "./registry.ts";
import { parseXplaAddress } from "./xpla/keys.ts";

/** How a network writes the address and token id fields of a request. */
export interface ArgFormat<Id, Address extends string = string> {
  network: string;
  /** Parses an address field to its canonical form, or throws naming the field. */
  address(value: string, field: string): Address;
  /** Parses a token id field, or throws naming the field. */
  tokenId(value: string, field: string): Id;
}

/** Polygon: checksummed `0x…` addresses, uint256 token ids. */
export const polygonFormat: ArgFormat<bigint, Hex> = {
  network: "polygon",
  address: parseAddress,
  tokenId: (value, field) => parseUint256(value, field),
};

const XPLA_TOKEN_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** XPLA: lowercase `xpla1…` addresses (or the same 20 bytes as `0x…`), cw721 string token ids. */
export const xplaFormat: ArgFormat<string> = {
  network: "xpla",
  address: parseXplaAddress,
  tokenId(value, field) {
    if (!XPLA_TOKEN_ID.test(value)) {
      throw new DomainError(
        "invalid",
        "VALIDATION_FAILED",
        `${field} must be 1-128 characters of A-Z a-z 0-9 . _ : -`,
      );
    }
    return value;
  },
};

/** The game and network a request's contracts are looked up in. */
export interface ArgScope {
  network: string;
  gameIndex: number;
}

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

/** A convert request through a pool, in either direction; amounts are base-unit integer strings. */
export interface ConvertInput {
  direction: "to-token" | "to-currency";
  owner: string;
  convertPool: string;
  gameTokenAmount: string;
  gameCurrencyCode: string;
  gameCurrencyAmount: string;
}

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

/**
 * A mint's arguments: batch size within the network's limit, the registered NFT contract, `from`
 * and `to`, and token ids that are valid and distinct.
 */
export async function mintArgs<Id extends { toString(): string }, Address extends string>(
  db: Sql,
  scope: ArgScope,
  input: {
    format: ArgFormat<Id, Address>;
    limit: number;
    contract: string;
    from: string;
    to: string;
    entries: { tokenId: string }[];
  },
) {
  const f = input.format;
  assertMintBatchSize(input.entries.length, input.limit, f.network);
  const nft = await requireContract(db, scope, {
    address: input.contract,
    type: "nft",
    field: "contract",
  });
  return {
    nft,
    from: f.address(input.from, "from"),
    to: f.address(input.to, "to"),
    tokenIds: uniqueTokenIds(input.entries, f.tokenId),
  };
}

/** A lock's arguments: the registered NFT and lock contracts, `from` and the token id. */
export async function lockArgs<Id, Address extends string>(
  db: Sql,
  scope: ArgScope,
  input: LockInput & { format: ArgFormat<Id, Address> },
): Promise<{ nft: KnownContract; lock: KnownContract; from: Address; tokenId: Id }> {
  const [nft, lock] = await requireNftAndLock(
    db,
    scope,
    { address: input.contract, field: "contract" },
    { address: input.lockContract, field: "lockContract" },
  );
  return {
    nft,
    lock,
    from: input.format.address(input.from, "from"),
    tokenId: input.format.tokenId(input.tokenId, "tokenId"),
  };
}

/** An unlock's arguments: the registered NFT and lock contracts, `from` and the token id. */
export async function unlockArgs<Id, Address extends string>(
  db: Sql,
  scope: ArgScope,
  input: UnlockInput & { format: ArgFormat<Id, Address> },
): Promise<{ nft: KnownContract; lock: KnownContract; from: Address; tokenId: Id }> {
  const [nft, lock] = await requireNftAndLock(
    db,
    scope,
    { address: input.nftContract, field: "nftContract" },
    { address: input.lockContract, field: "contract" },
  );
  return {
    nft,
    lock,
    from: input.format.address(input.from, "from"),
    tokenId: input.format.tokenId(input.tokenId, "tokenId"),
  };
}

/**
 * Who may lock: only the token's holder, as read from the chain before anything is signed (the
 * spec's `from` is the NFT owner's wallet). A lock contract trusted by the NFT could move any
 * holder's token, so its operator is refused like any other wallet that does not hold it.
 */
export function assertLockable(
  holder: string,
  a: { lock: string; from: string; tokenId: { toString(): string } },
): void {
  if (holder.toLowerCase() === a.lock.toLowerCase()) {
    throw new DomainError(
      "conflict",
      "NFT_ALREADY_LOCKED",
      `token ${a.tokenId} is already locked`,
    );
  }
  if (holder.toLowerCase() !== a.from.toLowerCase()) {
    throw new DomainError(
      "forbidden",
      "NOT_NFT_OWNER",
      `from ${a.from} does not own token ${a.tokenId}`,
    );
  }
}

/** The refusal of an unlock whose token is not held by the lock contract (NFT_NOT_LOCKED). */
export function notLocked(tokenId: string | bigint, lockAddress: string): DomainError {
  return new DomainError(
    "conflict",
    "NFT_NOT_LOCKED",
    `token ${tokenId} is not locked in ${lockAddress}`,
  );
}

const AMOUNT_RULE = "must be a non-negative integer string (base units, uint256)";

/** A convert's arguments: the registered pool, the player's wallet and both amounts. */
export async function convertArgs<Id, Address extends string>(
  db: Sql,
  scope: ArgScope,
  input: ConvertInput & { format: ArgFormat<Id, Address> },
): Promise<{ pool: KnownContract; owner: Address; tokens: bigint; currency: bigint }> {
  const pool = await requireContract(db, scope, {
    address: input.convertPool,
    type: "convert-pool",
    field: "convertPool",
  });
  return {
    pool,
    owner: input.format.address(input.owner, "owner"),
    tokens: parseUint256(input.gameTokenAmount, "gameTokenAmount", AMOUNT_RULE),
    currency: parseUint256(input.gameCurrencyAmount, "gameCurrencyAmount", AMOUNT_RULE),
  };
}

/** Refuses a to-token conversion the pool cannot pay (POOL_EXHAUSTED). */
export function assertPoolHolds(available: bigint, requested: bigint): void {
  if (available < requested) {
    throw new DomainError(
      "conflict",
      "POOL_EXHAUSTED",
      `convert pool holds ${available} tokens, ${requested} requested`,
    );
  }
}

/** The web address of a token URI: an `ipfs://` URI through a public gateway, else as it is. */
export function gatewayUrlOf(tokenUri: string): string {
  return tokenUri.startsWith("ipfs://")
    ? `https://ipfs.io/ipfs/${tokenUri.slice("ipfs://".length)}`
    : tokenUri;
}
