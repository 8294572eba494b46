/**
 * Owner actions on the bundled contracts, sent from wallets the service holds and answered once
 * mined: granting roles, trusting a lock or a pool, moving tokens, handing over ownership.
 */
import { type Abi, encodeFunctionData, type Hex, keccak256, toHex } from "viem";
import type { Services } from "../services.ts";
import { DomainError } from "../errors.ts";
import { abi as nftAbi } from "../../contracts/artifacts/GameNFT.ts";
import { abi as tokenAbi } from "../../contracts/artifacts/GameToken.ts";
import { abi as lockAbi } from "../../contracts/artifacts/NftLock.ts";
import { abi as poolAbi } from "../../contracts/artifacts/ConvertPool.ts";
import { onChain, type PolygonChain, readOnChain } from "./polygon.ts";
import { currentFees, requireChain } from "./sending.ts";
import { sendAndWaitMined } from "./operator_sends.ts";
import { type KnownContract, parseAddress, parseUint256 } from "./registry.ts";
import type { Sql } from "../db/port.ts";

/** Roles the API grants, by name. */
export const ROLES = { minter: keccak256(toHex("MINTER_ROLE")) } as const;

/** The owner calls `POST /admin/v1/contracts/{address}/calls` offers. */
export const OWNER_CALLS = [
  "setLockOperator",
  "setTrustedPool",
  "transfer",
  "fundPool",
  "transferOwnership",
] as const;

/** One sent and mined owner action. */
export interface ActionResult {
  call: string;
  from: Hex;
  txHash: Hex;
}

/** Sends a contract call from a held wallet of the game and waits until it is mined. */
export async function sendFromHeld(s: Services, chain: PolygonChain, q: {
  gameIndex: number;
  from: Hex;
  to: Hex;
  abi: Abi;
  functionName: string;
  args: readonly unknown[];
}): Promise<ActionResult> {
  if (!(await s.kms.holds(q.gameIndex, q.from))) {
    throw new DomainError(
      "invalid",
      "KEY_NOT_HELD",
      `${q.functionName} must be sent by ${q.from}, whose key this game does not hold`,
    );
  }
  const data = encodeFunctionData({ abi: q.abi, functionName: q.functionName, args: q.args });
  const [gas, fees] = await Promise.all([
    onChain(q.functionName, () =>
      chain.client.estimateContractGas({
        address: q.to,
        abi: q.abi,
        functionName: q.functionName,
        args: q.args,
        account: q.from,
      })),
    currentFees(chain),
  ]);
  const { hash, receipt } = await sendAndWaitMined(s, chain, {
    from: q.from,
    gameIndex: q.gameIndex,
    to: q.to,
    data,
    gas: gas + gas / 10n,
    ...fees,
  }, { type: "CONTRACT_CALL", action: q.functionName, params: { call: q.functionName } });
  if (receipt.status !== "success") {
    throw new DomainError("invalid", "TX_REVERTED", `${q.functionName} ${hash} reverted`);
  }
  return { call: q.functionName, from: q.from, txHash: hash };
}

/** A registered contract by address (any game), or CONTRACT_NOT_FOUND. */
export async function findContract(
  db: Sql,
  q: { network: string; address: string },
): Promise<KnownContract> {
  const address = parseAddress(q.address, "address");
  const [row] = await db.query<{
    type: KnownContract["type"];
    name: string;
    owner: string;
    game_index: number;
    symbol_uri: string | null;
  }>(
    `select type, name, owner, game_index, symbol_uri from contracts
      where network = $1 and lower(address) = lower($2)`,
    [q.network, address],
  );
  if (!row) {
    throw new DomainError(
      "not_found",
      "CONTRACT_NOT_FOUND",
      `contract ${address} is not registered on ${q.network}`,
    );
  }
  return {
    network: q.network,
    address,
    type: row.type,
    name: row.name,
    owner: row.owner,
    gameIndex: row.game_index,
    symbolUri: row.symbol_uri,
  };
}

function requireType(c: KnownContract, types: KnownContract["type"][], call: string) {
  if (!types.includes(c.type)) {
    throw new DomainError(
      "invalid",
      "CONTRACT_TYPE_MISMATCH",
      `${call} applies to ${types.join(" or ")} contracts; ${c.address} is a ${c.type} contract`,
    );
  }
}

/** Grants or revokes a role on an NFT contract, sent by the contract's recorded owner. */
export async function setRole(s: Services, q: {
  network: string;
  contract: string;
  role: keyof typeof ROLES;
  account: string;
  grant: boolean;
  from?: string;
}): Promise<ActionResult & { role: string; account: Hex; hasRole: boolean }> {
  const chain = requireChain(s, q.network);
  const c = await findContract(s.db, { network: q.network, address: q.contract });
  requireType(c, ["nft"], "roles");
  const account = parseAddress(q.account, "account");
  const from = q.from ? parseAddress(q.from, "from") : c.owner as Hex;
  const role = ROLES[q.role];
  const result = await sendFromHeld(s, chain, {
    gameIndex: c.gameIndex,
    from,
    to: c.address,
    abi: nftAbi,
    functionName: q.grant ? "grantRole" : "revokeRole",
    args: [role, account],
  });
  const hasRole = await readOnChain(chain, {
    address: c.address,
    abi: nftAbi,
    functionName: "hasRole",
    args: [role, account],
  });
  return { ...result, role: q.role, account, hasRole };
}

/** Runs one owner call on a registered contract (see OWNER_CALLS). */
export async function ownerCall(s: Services, q: {
  network: string;
  contract: string;
  call: typeof OWNER_CALLS[number];
  args: Record<string, unknown>;
  from?: string;
}): Promise<ActionResult> {
  const chain = requireChain(s, q.network);
  const c = await findContract(s.db, { network: q.network, address: q.contract });
  const from = q.from ? parseAddress(q.from, "from") : c.owner as Hex;
  const arg = (name: string): unknown => {
    const v = q.args[name];
    if (v === undefined || v === null) {
      throw new DomainError("invalid", "VALIDATION_FAILED", `args.${name} is required`);
    }
    return v;
  };
  const addressArg = (name: string) => parseAddress(String(arg(name)), `args.${name}`);
  const amountArg = (name: string) =>
    parseUint256(String(arg(name)), `args.${name}`, "must be an integer string (base units)");
  const flag = (name: string) => {
    const v = q.args[name] ?? true;
    if (typeof v !== "boolean") {
      throw new DomainError("invalid", "VALIDATION_FAILED", `args.${name} must be a boolean`);
    }
    return v;
  };
  const send = (to: Hex, abi: Abi, functionName: string, args: readonly unknown[]) =>
    sendFromHeld(s, chain, { gameIndex: c.gameIndex, from, to, abi, functionName, args });
  switch (q.call) {
    case "setLockOperator":
      requireType(c, ["nft"], q.call);
      return await send(c.address, nftAbi, q.call, [addressArg("operator"), flag("trusted")]);
    case "setTrustedPool":
      requireType(c, ["token"], q.call);
      return await send(c.address, tokenAbi, q.call, [addressArg("pool"), flag("trusted")]);
    case "transfer":
      requireType(c, ["token"], q.call);
      return await send(c.address, tokenAbi, q.call, [addressArg("to"), amountArg("amount")]);
    case "fundPool": {
      requireType(c, ["convert-pool"], q.call);
      const token = await readOnChain(chain, {
        address: c.address,
        abi: poolAbi,
        functionName: "token",
      });
      const r = await send(token, tokenAbi, "transfer", [c.address, amountArg("amount")]);
      return { ...r, call: "fundPool" };
    }
    case "transferOwnership": {
      requireType(c, ["token", "lock", "convert-pool"], q.call);
      const abi = c.type === "token" ? tokenAbi : c.type === "lock" ? lockAbi : poolAbi;
      return await send(c.address, abi, q.call, [addressArg("newOwner")]);
    }
  }
}
