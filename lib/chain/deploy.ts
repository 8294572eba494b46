/** Deploys a bundled contract signed by a KMS wallet, waits for it, and registers it. */
import { type Abi, encodeDeployData, getAddress, type Hex, zeroHash } from "viem";
import type { Services } from "../services.ts";
import { DomainError } from "../errors.ts";
import { requireGame } from "../tenancy.ts";
import * as nft from "../../contracts/artifacts/GameNFT.ts";
import * as lock from "../../contracts/artifacts/NftLock.ts";
import * as token from "../../contracts/artifacts/GameToken.ts";
import * as pool from "../../contracts/artifacts/ConvertPool.ts";
import {
  type ContractType,
  type KnownContract,
  parseAddress,
  parseUint256,
  registerContract,
  requireContract,
} from "./registry.ts";
import { type ActionResult, sendFromHeld } from "./owner_actions.ts";
import { currentFees, requireChain } from "./sending.ts";
import { sendAndWaitMined } from "./operator_sends.ts";
import { onChain, type PolygonChain, readOnChain } from "./polygon.ts";

/** What to deploy. */
export interface DeployRequest {
  network: string;
  gameIndex: number;
  type: ContractType;
  from: string;
  name: string;
  symbol?: string;
  /** Token: whole supply in base units, minted to `from`. */
  initialSupply?: string;
  /** Convert pool: the game token it pays out. */
  token?: string;
  symbolUri?: string;
  /** Lock: the NFT contract that trusts the new lock (setLockOperator). */
  nftContract?: string;
  /** Convert pool: tokens (base units) moved from `from` into the new pool. */
  initialTokens?: string;
}

/** A follow-up call the deployer could not make, and why. */
export interface MissingCall {
  contract: Hex;
  call: string;
  reason: string;
}

/** Plans the trust calls a lock or pool needs; each one the deployer cannot make is reported. */
async function planTrust(s: Services, chain: PolygonChain, req: DeployRequest, from: Hex) {
  const scope = { network: req.network, gameIndex: req.gameIndex };
  const plan: { contract: Hex; call: "setLockOperator" | "setTrustedPool" | "transfer" }[] = [];
  const missing: MissingCall[] = [];
  if (req.type === "lock" && req.nftContract) {
    const nftC = await requireContract(s.db, scope, {
      address: req.nftContract,
      type: "nft",
      field: "nftContract",
    });
    const admin = await readOnChain(chain, {
      address: nftC.address,
      abi: nft.abi,
      functionName: "hasRole",
      args: [zeroHash, from],
    });
    if (admin) plan.push({ contract: nftC.address, call: "setLockOperator" });
    else {
      missing.push({
        contract: nftC.address,
        call: "setLockOperator(lock, true)",
        reason: `${from} is not an admin of NFT ${nftC.address}; its admin must send this call`,
      });
    }
  }
  if (req.type === "convert-pool" && req.token) {
    const tokenC = await requireContract(s.db, scope, {
      address: req.token,
      type: "token",
      field: "token",
    });
    const read = { address: tokenC.address, abi: token.abi } as const;
    const [owner, balance] = await Promise.all([
      readOnChain(chain, { ...read, functionName: "owner" }),
      readOnChain(chain, { ...read, functionName: "balanceOf", args: [from] }),
    ]);
    if (owner.toLowerCase() === from.toLowerCase()) {
      plan.push({ contract: tokenC.address, call: "setTrustedPool" });
    } else {
      missing.push({
        contract: tokenC.address,
        call: "setTrustedPool(pool, true)",
        reason: `${from} does not own token ${tokenC.address} (owner ${owner})`,
      });
    }
    const initial = parseUint256(req.initialTokens ?? "0", "initialTokens");
    if (initial > 0n && balance >= initial) {
      plan.push({ contract: tokenC.address, call: "transfer" });
    } else if (initial > 0n) {
      missing.push({
        contract: tokenC.address,
        call: `transfer(pool, ${initial})`,
        reason: `${from} holds ${balance} tokens, fewer than initialTokens`,
      });
    }
  }
  return { plan, missing };
}

function deployData(req: DeployRequest, from: Hex): Hex {
  const build = (artifact: { abi: Abi; bytecode: Hex }, args: readonly unknown[]) =>
    encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args });
  switch (req.type) {
    case "nft":
      return build(nft, [req.name, req.symbol ?? req.name, from]);
    case "token": {
      const supply = parseUint256(
        req.initialSupply ?? "0",
        "initialSupply",
        "must be an integer string (uint256)",
      );
      return build(token, [req.name, req.symbol ?? req.name, supply, from]);
    }
    case "lock":
      return build(lock, [from]);
    case "convert-pool": {
      if (!req.token) {
        throw new DomainError(
          "invalid",
          "VALIDATION_FAILED",
          "token is required for a convert-pool",
        );
      }
      return build(pool, [parseAddress(req.token, "token"), from]);
    }
  }
}

/** Deploys and registers; answers once the deployment is mined. */
export async function deployContract(
  s: Services,
  req: DeployRequest,
): Promise<{
  address: Hex;
  txHash: Hex;
  contract: KnownContract;
  calls: ActionResult[];
  missingCalls: MissingCall[];
}> {
  const chain = requireChain(s, req.network);
  await requireGame(s.db, req.gameIndex);
  const from = parseAddress(req.from, "from");
  if (!(await s.kms.holds(req.gameIndex, from))) {
    throw new DomainError("invalid", "KEY_NOT_HELD", `no signing key is held for from ${from}`);
  }
  const data = deployData(req, from);
  const { plan, missing } = await planTrust(s, chain, req, from);
  const { address, hash } = await deployFrom(s, chain, { from, gameIndex: req.gameIndex, data });
  const contract = await registerContract(s.db, {
    network: req.network,
    address,
    type: req.type,
    name: req.name,
    owner: from,
    gameIndex: req.gameIndex,
    symbolUri: req.symbolUri ?? null,
  });
  const calls: ActionResult[] = [];
  for (const step of plan) {
    const send = (abi: Abi, functionName: string, args: readonly unknown[]) =>
      sendFromHeld(s, chain, {
        gameIndex: req.gameIndex,
        from,
        to: step.contract,
        abi,
        functionName,
        args,
      });
    if (step.call === "setLockOperator") {
      calls.push(await send(nft.abi, step.call, [contract.address, true]));
    } else if (step.call === "setTrustedPool") {
      calls.push(await send(token.abi, step.call, [contract.address, true]));
    } else {
      calls.push(
        await send(token.abi, "transfer", [
          contract.address,
          parseUint256(req.initialTokens ?? "0", "initialTokens"),
        ]),
      );
    }
  }
  return { address: contract.address, txHash: hash, contract, calls, missingCalls: missing };
}

/** Sends a contract creation from a held wallet and waits for its receipt; answers the address. */
export async function deployFrom(
  s: Services,
  chain: PolygonChain,
  q: { from: Hex; gameIndex: number; data: Hex },
): Promise<{ address: Hex; hash: Hex }> {
  const [gas, fees] = await Promise.all([
    onChain("deploy", () => chain.client.estimateGas({ account: q.from, data: q.data })),
    currentFees(chain),
  ]);
  const { hash, receipt } = await sendAndWaitMined(s, chain, {
    from: q.from,
    gameIndex: q.gameIndex,
    data: q.data,
    gas: gas + gas / 10n,
    ...fees,
  }, { type: "DEPLOY", action: "deployment", params: { deploy: true } });
  if (receipt.status !== "success" || !receipt.contractAddress) {
    throw new DomainError("invalid", "TX_REVERTED", `deployment ${hash} reverted`);
  }
  return { address: getAddress(receipt.contractAddress), hash };
}
