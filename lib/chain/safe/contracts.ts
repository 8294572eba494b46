/**
 * Safe 1.4.1 contracts on the configured EVM chain: which singleton, proxy factory and fallback
 * handler a network uses (configured > deployed by this service on the chain > canonical), the
 * factory's proxy creation code, and deploying the three contracts on a chain that lacks them.
 */
import { type Abi, encodeDeployData, getAddress, type Hex } from "viem";
import type { Services } from "../../services.ts";
import { DomainError } from "../../errors.ts";
import * as singletonArtifact from "../../../contracts/artifacts/safe/SafeL2.ts";
import * as factoryArtifact from "../../../contracts/artifacts/safe/SafeProxyFactory.ts";
import * as handlerArtifact from "../../../contracts/artifacts/safe/CompatibilityFallbackHandler.ts";
import { canonicalSafe141 } from "../../../contracts/artifacts/safe/canonical.ts";
import { onChain, type PolygonChain } from "../polygon.ts";
import { deployFrom } from "../deploy.ts";
import { parseAddress } from "../registry.ts";

/** The Safe contracts a chain uses, and where the addresses came from. */
export interface SafeContracts {
  singleton: Hex;
  proxyFactory: Hex;
  fallbackHandler: Hex;
  source: "config" | "deployed" | "canonical";
}

/** The Safe ABIs the service calls. */
export const safeAbi = singletonArtifact.abi;
/** The proxy factory ABI. */
export const proxyFactoryAbi = factoryArtifact.abi;

// The genesis block hash tells chain instances with the same id apart (a restarted dev node).
const genesisHashes = new WeakMap<PolygonChain, Promise<Hex>>();

function genesisHash(chain: PolygonChain): Promise<Hex> {
  let known = genesisHashes.get(chain);
  if (!known) {
    known = onChain("genesis lookup", async () => {
      const block = await chain.client.getBlock({ blockNumber: 0n });
      return block.hash!;
    });
    known.catch(() => genesisHashes.delete(chain));
    genesisHashes.set(chain, known);
  }
  return known;
}

/** Addresses for the chain: each from config when set, else recorded by a deploy, else canonical. */
export async function safeContracts(s: Services, chain: PolygonChain): Promise<SafeContracts> {
  const [row] = await s.db.query<{
    singleton: string;
    proxy_factory: string;
    fallback_handler: string;
  }>(
    `select singleton, proxy_factory, fallback_handler from safe_deployments
      where chain_id = $1 and genesis_hash = $2`,
    [chain.chainId, await genesisHash(chain)],
  );
  const c = s.config;
  const configured = c.POLYGON_SAFE_SINGLETON || c.POLYGON_SAFE_PROXY_FACTORY ||
    c.POLYGON_SAFE_FALLBACK_HANDLER;
  const pick = (config: string | undefined, deployed: string | undefined, canonical: string) =>
    getAddress(config ?? deployed ?? canonical);
  return {
    singleton: pick(c.POLYGON_SAFE_SINGLETON, row?.singleton, canonicalSafe141.singleton),
    proxyFactory: pick(
      c.POLYGON_SAFE_PROXY_FACTORY,
      row?.proxy_factory,
      canonicalSafe141.proxyFactory,
    ),
    fallbackHandler: pick(
      c.POLYGON_SAFE_FALLBACK_HANDLER,
      row?.fallback_handler,
      canonicalSafe141.fallbackHandler,
    ),
    source: configured ? "config" : row ? "deployed" : "canonical",
  };
}

// The proxy creation code is immutable per factory: read it once per chain client.
const creationCodes = new WeakMap<PolygonChain, Map<string, Hex>>();

/** The factory's `proxyCreationCode()`, or a clear error when the factory is not on chain. */
export async function proxyCreationCode(chain: PolygonChain, factory: Hex): Promise<Hex> {
  let byFactory = creationCodes.get(chain);
  if (!byFactory) creationCodes.set(chain, byFactory = new Map());
  const known = byFactory.get(factory);
  if (known) return known;
  const code = await onChain(
    "Safe factory lookup",
    () => chain.client.getCode({ address: factory }),
  );
  if (!code || code === "0x") {
    throw new DomainError(
      "conflict",
      "SAFE_CONTRACTS_MISSING",
      `the Safe 1.4.1 proxy factory ${factory} is not deployed on chain ${chain.chainId}; ` +
        "on a local chain deploy it with POST /admin/v1/multisig/contracts",
    );
  }
  const creation = await onChain("Safe factory lookup", () =>
    chain.client.readContract({
      address: factory,
      abi: proxyFactoryAbi,
      functionName: "proxyCreationCode",
    }));
  byFactory.set(factory, creation);
  return creation;
}

async function hasCode(chain: PolygonChain, address: Hex): Promise<boolean> {
  const code = await onChain("Safe lookup", () => chain.client.getCode({ address }));
  return !!code && code !== "0x";
}

/**
 * Deploys SafeL2, SafeProxyFactory and CompatibilityFallbackHandler signed by the KMS wallet
 * `from` and records them for the chain. Refused where the canonical singleton already has code
 * (a public chain: use the canonical deployment) or where this chain already has a deployment.
 */
export async function deploySafeContracts(
  s: Services,
  chain: PolygonChain,
  q: { gameIndex: number; from: string },
): Promise<Omit<SafeContracts, "source"> & { txHashes: Hex[] }> {
  const from = parseAddress(q.from, "from");
  if (!(await s.kms.holds(q.gameIndex, from))) {
    throw new DomainError("invalid", "KEY_NOT_HELD", `no signing key is held for from ${from}`);
  }
  if (await hasCode(chain, canonicalSafe141.singleton)) {
    throw new DomainError(
      "conflict",
      "SAFE_CONTRACTS_PRESENT",
      `chain ${chain.chainId} already has the canonical Safe 1.4.1 deployment; it is used as is`,
    );
  }
  const genesis = await genesisHash(chain);
  const [existing] = await s.db.query<{ singleton: string }>(
    "select singleton from safe_deployments where chain_id = $1 and genesis_hash = $2",
    [chain.chainId, genesis],
  );
  // A record whose singleton has no code is stale (a dev node reset to the same genesis): replace it.
  if (existing && await hasCode(chain, existing.singleton as Hex)) {
    throw new DomainError(
      "conflict",
      "SAFE_CONTRACTS_PRESENT",
      `Safe contracts were already deployed on chain ${chain.chainId} (singleton ${existing.singleton})`,
    );
  }
  const deployed: Hex[] = [];
  const txHashes: Hex[] = [];
  for (const artifact of [singletonArtifact, factoryArtifact, handlerArtifact]) {
    const data = encodeDeployData({
      abi: artifact.abi as Abi,
      bytecode: artifact.bytecode as Hex,
    });
    const { address, hash } = await deployFrom(s, chain, { from, gameIndex: q.gameIndex, data });
    deployed.push(address);
    txHashes.push(hash);
  }
  const [singleton, proxyFactory, fallbackHandler] = deployed;
  await s.db.query(
    `insert into safe_deployments (chain_id, genesis_hash, singleton, proxy_factory,
       fallback_handler, deployed_by) values ($1, $2, $3, $4, $5, $6)
     on conflict (chain_id, genesis_hash) do update set singleton = excluded.singleton,
       proxy_factory = excluded.proxy_factory, fallback_handler = excluded.fallback_handler,
       deployed_by = excluded.deployed_by, created_at = now()`,
    [chain.chainId, genesis, singleton, proxyFactory, fallbackHandler, from],
  );
  return { singleton, proxyFactory, fallbackHandler, txHashes };
}
