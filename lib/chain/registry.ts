/** Contracts the service knows (table `contracts`): registration and typed lookups. */
import { getAddress, type Hex, isAddress } from "viem";
import type { Sql } from "../db/port.ts";
import { DbError } from "../db/port.ts";
import { DomainError } from "../errors.ts";
import { parseXplaAddress } from "./xpla/keys.ts";

/** Contract types the API distinguishes. */
export const CONTRACT_TYPES = ["nft", "token", "lock", "convert-pool"] as const;
/** One of CONTRACT_TYPES. */
export type ContractType = typeof CONTRACT_TYPES[number];

/** A registered contract. */
export interface KnownContract {
  network: string;
  /** Checksummed `0x…` on polygon; on xpla the lowercase bech32 `xpla1…` address. */
  address: Hex;
  type: ContractType;
  name: string;
  owner: string;
  gameIndex: number;
  symbolUri: string | null;
}

/** Parses an address field or throws a validation error naming it. */
export function parseAddress(value: string, field: string): Hex {
  if (!isAddress(value, { strict: false })) {
    throw new DomainError("invalid", "VALIDATION_FAILED", `${field} is not a valid address`);
  }
  return getAddress(value);
}

/** Parses a decimal uint256 field (at most 2^256 - 1) or throws a validation error naming it. */
export function parseUint256(
  value: string,
  field: string,
  rule = "must be a decimal uint256",
): bigint {
  if (!/^\d{1,78}$/.test(value) || BigInt(value) >= 2n ** 256n) {
    throw new DomainError("invalid", "VALIDATION_FAILED", `${field} ${rule}`);
  }
  return BigInt(value);
}

/** Parses an address field of a network (polygon `0x…`, xpla `xpla1…`). */
export function parseNetworkAddress(network: string, value: string, field: string): Hex {
  // XPLA addresses travel in the same string fields; the Hex type is nominal here.
  return network === "xpla" ? parseXplaAddress(value, field) as Hex : parseAddress(value, field);
}

/** Registers a contract for a game; the address is stored checksummed (xpla: lowercase bech32). */
export async function registerContract(
  db: Sql,
  c: Omit<KnownContract, "address"> & {
    address: string;
  },
): Promise<KnownContract> {
  const address = parseNetworkAddress(c.network, c.address, "address");
  const owner = parseNetworkAddress(c.network, c.owner, "owner");
  try {
    await db.query(
      `insert into contracts (network, address, type, name, owner, game_index, symbol_uri)
       values ($1, $2, $3, $4, $5, $6, $7)`,
      [c.network, address, c.type, c.name, owner, c.gameIndex, c.symbolUri],
    );
  } catch (err) {
    if (err instanceof DbError && err.uniqueViolation) {
      throw new DomainError(
        "conflict",
        "CONTRACT_EXISTS",
        `contract ${address} is already registered`,
      );
    }
    throw err;
  }
  return { ...c, address, owner };
}

/** The NFT and lock contracts of a lock or unlock request, looked up together. */
export function requireNftAndLock(
  db: Sql,
  scope: { network: string; gameIndex: number },
  nft: { address: string; field: string },
  lock: { address: string; field: string },
): Promise<[KnownContract, KnownContract]> {
  return Promise.all([
    requireContract(db, scope, { ...nft, type: "nft" }),
    requireContract(db, scope, { ...lock, type: "lock" }),
  ]);
}

/** Loads a contract of the caller's game with the expected type, or throws a catalog error. */
export async function requireContract(
  db: Sql,
  scope: { network: string; gameIndex: number },
  want: { address: string; type: ContractType; field: string },
): Promise<KnownContract> {
  const q = { network: scope.network, gameIndex: scope.gameIndex, ...want };
  const address = parseNetworkAddress(q.network, q.address, q.field);
  const [row] = await db.query<{
    network: string;
    address: string;
    type: ContractType;
    name: string;
    owner: string;
    game_index: number;
    symbol_uri: string | null;
  }>(
    `select network, address, type, name, owner, game_index, symbol_uri from contracts
      where network = $1 and lower(address) = lower($2) and game_index = $3`,
    [q.network, address, q.gameIndex],
  );
  if (!row) {
    throw new DomainError(
      "not_found",
      "CONTRACT_NOT_FOUND",
      `${q.field} ${address} is not a registered ${q.network} contract of this game`,
    );
  }
  if (row.type !== q.type) {
    throw new DomainError(
      "invalid",
      "CONTRACT_TYPE_MISMATCH",
      `${q.field} ${address} is a ${row.type} contract, expected ${q.type}`,
    );
  }
  return {
    network: row.network,
    address: q.network === "xpla" ? row.address as Hex : getAddress(row.address),
    type: row.type,
    name: row.name,
    owner: row.owner,
    gameIndex: row.game_index,
    symbolUri: row.symbol_uri,
  };
}
