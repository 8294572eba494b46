/** Deploys a bundled contract signed by a KMS wallet, waits for it, and registers it. */
import { type Abi, encodeDeployData, type Hex } from "viem";
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
} from "./registry.ts";
import { currentFees, requireChain, signAndBroadcast } from "./sending.ts";
import { onChain } from "./polygon.ts";

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
): Promise<{ address: Hex; txHash: Hex; contract: KnownContract }> {
  const chain = requireChain(s, req.network);
  await requireGame(s.db, req.gameIndex);
  const from = parseAddress(req.from, "from");
  if (!(await s.kms.holds(req.gameIndex, from))) {
    throw new DomainError("invalid", "KEY_NOT_HELD", `no signing key is held for from ${from}`);
  }
  const data = deployData(req, from);
  const [gas, fees] = await Promise.all([
    onChain("deploy", () => chain.client.estimateGas({ account: from, data })),
    currentFees(chain),
  ]);
  const { hash } = await signAndBroadcast(s, chain, {
    from,
    gameIndex: req.gameIndex,
    data,
    gas: gas + gas / 10n,
    ...fees,
  });
  const receipt = await onChain(
    "deploy",
    () => chain.client.waitForTransactionReceipt({ hash, timeout: 120_000, pollingInterval: 200 }),
  );
  if (receipt.status !== "success" || !receipt.contractAddress) {
    throw new DomainError("invalid", "TX_REVERTED", `deployment ${hash} reverted`);
  }
  const contract = await registerContract(s.db, {
    network: req.network,
    address: receipt.contractAddress,
    type: req.type,
    name: req.name,
    owner: from,
    gameIndex: req.gameIndex,
    symbolUri: req.symbolUri ?? null,
  });
  return { address: contract.address, txHash: hash, contract };
}
