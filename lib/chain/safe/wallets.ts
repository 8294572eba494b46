/**
 * Multi-signature wallets (Safe 1.4.1 proxies): creation as an unsigned factory call whose CREATE2
 * address is known before it is mined, the record of each wallet, and noticing when it is on chain.
 */
import {
  concat,
  encodeFunctionData,
  encodePacked,
  getAddress,
  getContractAddress,
  type Hex,
  keccak256,
  pad,
  serializeTransaction,
  zeroAddress,
} from "viem";
import type { Services } from "../../services.ts";
import { DbError } from "../../db/port.ts";
import { DomainError } from "../../errors.ts";
import { keysetPage, type Page, type PageRequest } from "../../reads/page.ts";
import { onChain, type PolygonChain } from "../polygon.ts";
import { currentFees, pendingNonce, requireChain } from "../sending.ts";
import { parseAddress, parseUint256 } from "../registry.ts";
import { proxyCreationCode, proxyFactoryAbi, safeAbi, safeContracts } from "./contracts.ts";

/** Most owners a wallet may have. */
export const MAX_SIGNERS = 20;

/** A recorded multi-signature wallet. */
export interface SafeRecord {
  network: string;
  chainId: number;
  address: Hex;
  gameIndex: number;
  owners: Hex[];
  threshold: number;
  saltNonce: string;
  creator: Hex;
  state: "CREATING" | "DEPLOYED";
  createdAt: string;
  deployedAt: string | null;
}

type SafeRow = {
  network: string;
  chain_id: number;
  address: string;
  game_index: number;
  owners: string[];
  threshold: number;
  salt_nonce: string;
  creator: string;
  state: "CREATING" | "DEPLOYED";
  created_at: Date;
  deployed_at: Date | null;
};

const COLUMNS =
  "network, chain_id, address, game_index, owners, threshold, salt_nonce, creator, state, created_at, deployed_at";

function toRecord(r: SafeRow): SafeRecord {
  return {
    network: r.network,
    chainId: r.chain_id,
    address: r.address as Hex,
    gameIndex: r.game_index,
    owners: r.owners as Hex[],
    threshold: r.threshold,
    saltNonce: r.salt_nonce,
    creator: r.creator as Hex,
    state: r.state,
    createdAt: r.created_at.toISOString(),
    deployedAt: r.deployed_at?.toISOString() ?? null,
  };
}

/** Checks owners (valid, distinct, 1..20, not the zero or sentinel address) and the threshold. */
export function parseOwners(signers: readonly string[], threshold: number): Hex[] {
  if (signers.length < 1 || signers.length > MAX_SIGNERS) {
    throw new DomainError(
      "invalid",
      "VALIDATION_FAILED",
      `signers must hold 1 to ${MAX_SIGNERS} addresses (got ${signers.length})`,
    );
  }
  const seen = new Map<string, number>();
  const owners = signers.map((value, i) => {
    const owner = parseAddress(value, `signers[${i}]`);
    if (owner === zeroAddress || BigInt(owner) === 1n) {
      throw new DomainError(
        "invalid",
        "VALIDATION_FAILED",
        `signers[${i}] ${owner} cannot own a Safe`,
      );
    }
    const first = seen.get(owner.toLowerCase());
    if (first !== undefined) {
      throw new DomainError(
        "invalid",
        "VALIDATION_FAILED",
        `signers[${i}] repeats signers[${first}] (${owner})`,
      );
    }
    seen.set(owner.toLowerCase(), i);
    return owner;
  });
  if (!Number.isInteger(threshold) || threshold < 1 || threshold > owners.length) {
    throw new DomainError(
      "invalid",
      "MULTISIG_THRESHOLD_INVALID",
      `threshold must be an integer from 1 to ${owners.length} (the number of signers); got ${threshold}`,
    );
  }
  return owners;
}

function randomSaltNonce(): bigint {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return BigInt(`0x${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`);
}

/**
 * Creates a wallet: the Safe's address (CREATE2 over the factory, the `setup` initializer and the
 * salt nonce) and the unsigned EIP-1559 transaction `from` signs and sends to deploy it. A new
 * salt nonce is drawn unless `saltNonce` is given; the same body and salt give the same wallet.
 */
export async function createMultisig(s: Services, q: {
  network: string;
  gameIndex: number;
  from: string;
  signers: readonly string[];
  threshold: number;
  saltNonce?: string;
}): Promise<{ address: Hex; rawTx: Hex; saltNonce: string }> {
  const chain = requireChain(s, q.network);
  const from = parseAddress(q.from, "from");
  const owners = parseOwners(q.signers, q.threshold);
  const saltNonce = q.saltNonce === undefined
    ? randomSaltNonce()
    : parseUint256(q.saltNonce, "saltNonce");
  const contracts = await safeContracts(s, chain);
  const creationCode = await proxyCreationCode(chain, contracts.proxyFactory);
  const initializer = encodeFunctionData({
    abi: safeAbi,
    functionName: "setup",
    args: [
      owners,
      BigInt(q.threshold),
      zeroAddress,
      "0x",
      contracts.fallbackHandler,
      zeroAddress,
      0n,
      zeroAddress,
    ],
  });
  const address = getContractAddress({
    opcode: "CREATE2",
    from: contracts.proxyFactory,
    salt: keccak256(encodePacked(["bytes32", "uint256"], [keccak256(initializer), saltNonce])),
    bytecode: concat([creationCode, pad(contracts.singleton)]),
  });
  const existing = await findSafe(s, { chainId: chain.chainId, address });
  if (existing && existing.gameIndex !== q.gameIndex) {
    throw new DomainError("conflict", "MULTISIG_EXISTS", `wallet ${address} already exists`);
  }
  if (await hasCode(chain, address)) {
    if (existing) await markDeployed(s, chain.chainId, [address]);
    throw new DomainError(
      "conflict",
      "MULTISIG_EXISTS",
      `wallet ${address} is already deployed; choose another saltNonce for a new wallet`,
    );
  }
  const args = [contracts.singleton, initializer, saltNonce] as const;
  const [gas, fees, nonce] = await Promise.all([
    onChain("multisig creation", () =>
      chain.client.estimateContractGas({
        address: contracts.proxyFactory,
        abi: proxyFactoryAbi,
        functionName: "createProxyWithNonce",
        args,
        account: from,
      })),
    currentFees(chain),
    pendingNonce(chain, from),
  ]);
  if (!existing) {
    await recordSafe(s, chain, {
      network: q.network,
      address,
      gameIndex: q.gameIndex,
      owners,
      threshold: q.threshold,
      saltNonce: saltNonce.toString(),
      creator: from,
      contracts,
    });
  }
  const rawTx = serializeTransaction({
    type: "eip1559",
    chainId: chain.chainId,
    nonce,
    to: contracts.proxyFactory,
    data: encodeFunctionData({ abi: proxyFactoryAbi, functionName: "createProxyWithNonce", args }),
    gas: gas + gas / 10n,
    ...fees,
  });
  return { address, rawTx, saltNonce: saltNonce.toString() };
}

async function recordSafe(s: Services, chain: PolygonChain, w: {
  network: string;
  address: Hex;
  gameIndex: number;
  owners: Hex[];
  threshold: number;
  saltNonce: string;
  creator: Hex;
  contracts: { singleton: Hex; proxyFactory: Hex; fallbackHandler: Hex };
}) {
  try {
    await s.db.query(
      `insert into multisig_wallets (chain_id, address, network, game_index, owners, threshold,
         salt_nonce, creator, singleton, proxy_factory, fallback_handler, created_at)
       values ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, $10, $11, $12)`,
      [
        chain.chainId,
        w.address,
        w.network,
        w.gameIndex,
        JSON.stringify(w.owners),
        w.threshold,
        w.saltNonce,
        w.creator,
        w.contracts.singleton,
        w.contracts.proxyFactory,
        w.contracts.fallbackHandler,
        new Date(s.clock.now()),
      ],
    );
  } catch (err) {
    // Two identical requests at once: the first records, the second answers the same wallet.
    if (!(err instanceof DbError && err.uniqueViolation)) throw err;
  }
}

async function hasCode(chain: PolygonChain, address: Hex): Promise<boolean> {
  const code = await onChain("code lookup", () => chain.client.getCode({ address }));
  return Boolean(code && code !== "0x");
}

async function markDeployed(s: Services, chainId: number, addresses: string[]) {
  if (addresses.length === 0) return;
  await s.db.query(
    `update multisig_wallets set state = 'DEPLOYED', deployed_at = $3
      where chain_id = $1 and state = 'CREATING'
        and address in (select jsonb_array_elements_text($2::jsonb))`,
    [chainId, addresses, new Date(s.clock.now())],
  );
}

/** A recorded wallet on the chain (any game), or null; addresses are stored checksummed. */
export async function findSafe(
  s: Services,
  q: { chainId: number; address: string; gameIndex?: number },
): Promise<SafeRecord | null> {
  const [row] = await s.db.query<SafeRow>(
    `select ${COLUMNS} from multisig_wallets
      where chain_id = $1 and address = $2 and ($3::int is null or game_index = $3)`,
    [q.chainId, getAddress(q.address), q.gameIndex ?? null],
  );
  return row ? toRecord(row) : null;
}

/** The caller game's wallet, on chain; MULTISIG_NOT_FOUND or MULTISIG_NOT_DEPLOYED otherwise. */
export async function requireDeployedSafe(
  s: Services,
  chain: PolygonChain,
  q: { gameIndex: number; address: string; field: string },
): Promise<SafeRecord> {
  const address = parseAddress(q.address, q.field);
  const safe = await findSafe(s, { chainId: chain.chainId, address, gameIndex: q.gameIndex });
  if (!safe) {
    throw new DomainError(
      "not_found",
      "MULTISIG_NOT_FOUND",
      `${q.field} ${address} is not a multi-signature wallet of this game`,
    );
  }
  return await ensureDeployed(s, chain, safe);
}

/** Confirms a CREATING wallet is on chain (recording it), or throws MULTISIG_NOT_DEPLOYED. */
export async function ensureDeployed(
  s: Services,
  chain: PolygonChain,
  safe: SafeRecord,
): Promise<SafeRecord> {
  if (safe.state === "DEPLOYED") return safe;
  if (!(await hasCode(chain, safe.address))) {
    throw new DomainError(
      "conflict",
      "MULTISIG_NOT_DEPLOYED",
      `multi-signature wallet ${safe.address} is not on chain yet; send its creation rawTx first`,
    );
  }
  await markDeployed(s, chain.chainId, [safe.address]);
  return { ...safe, state: "DEPLOYED" };
}

/** A game's wallets, optionally on one network, newest first, one keyset page. */
export async function listSafes(
  s: Services,
  q: PageRequest & { gameIndex: number; network?: string },
): Promise<Page<SafeRecord>> {
  return await keysetPage(s.db, {
    select: COLUMNS,
    from: "multisig_wallets",
    where: "game_index = $1 and ($2::text is null or network = $2)",
    params: [q.gameIndex, q.network ?? null],
    order: { time: "created_at", key: "(chain_id::text || ':' || address)" },
    page: q,
    gameIndex: q.gameIndex,
    map: toRecord,
  });
}

// Wallets whose creation was never sent stop being polled after a day (use still notices them).
const NOTICE_WINDOW_MS = 86_400_000;

/** Scheduled: marks wallets created in the last day whose creation is mined as DEPLOYED. */
export async function noticeDeployedSafes(s: Services) {
  const chain = s.chain;
  if (!chain) return;
  const rows = await s.db.query<{ address: string }>(
    `select address from multisig_wallets
      where chain_id = $1 and state = 'CREATING' and created_at > $2
      order by created_at desc limit 50`,
    [chain.chainId, new Date(s.clock.now() - NOTICE_WINDOW_MS)],
  );
  const found: string[] = [];
  for (const row of rows) {
    if (await hasCode(chain, row.address as Hex)) found.push(row.address);
  }
  await markDeployed(s, chain.chainId, found);
}
