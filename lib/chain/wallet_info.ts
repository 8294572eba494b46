/**
 * Wallet reads for the console: a held or any address with its native balance and nonce read from
 * the chain; and, on a local development chain only, funding a wallet from the node's dev account.
 */
import { formatEther, type Hex, parseEther } from "viem";
import type { Services } from "../services.ts";
import { DomainError } from "../errors.ts";
import { keysetPage, type Page, type PageRequest } from "../reads/page.ts";
import { LOCAL_CHAIN_IDS, onChain } from "./polygon.ts";
import { parseAddress } from "./registry.ts";
import { hexToXpla, xplaToHex } from "./xpla/keys.ts";
import { type XplaWalletState, xplaWalletState } from "./xpla/wallet_state.ts";

/** A wallet as the admin API shows it; other networks add their own keys beside `polygon`. */
export interface WalletInfo {
  address: Hex;
  /** The game whose key store holds the wallet's key, or null. */
  gameIndex: number | null;
  keyHeld: boolean;
  createdAt: string | null;
  /** Chain state, or null when POLYGON_RPC_URL is not configured. */
  polygon: {
    chainId: number;
    balance: string;
    balanceWei: string;
    nonce: number;
    /** True when the balance is below POLYGON_LOW_BALANCE_POL (the gas watch's level). */
    lowBalance: boolean;
  } | null;
  /** The same 20 bytes on XPLA (`xpla1…`): one key, one address per network. */
  xplaAddress: string;
  /** XPLA account state, or null when XPLA_LCD_URL is not configured. */
  xpla: XplaWalletState | null;
}

async function chainState(s: Services, address: Hex) {
  const chain = s.chain;
  if (!chain) return null;
  const [balance, nonce] = await Promise.all([
    onChain("balance lookup", () => chain.client.getBalance({ address })),
    onChain(
      "nonce lookup",
      () => chain.client.getTransactionCount({ address, blockTag: "pending" }),
    ),
  ]);
  return {
    chainId: chain.chainId,
    balance: formatEther(balance),
    balanceWei: balance.toString(),
    nonce,
    lowBalance: balance < parseEther(String(s.config.POLYGON_LOW_BALANCE_POL)),
  };
}

/** One address: who holds its key (if the service does) and its state on chain. */
export async function walletInfo(s: Services, value: string): Promise<WalletInfo> {
  // An xpla1… account address names the same key as its 0x… form.
  const hex = value.trim().toLowerCase().startsWith("xpla1") ? xplaToHex(value.trim()) : value;
  const address = parseAddress(hex, "address");
  const [row] = await s.db.query<{ game_index: number; created_at: Date }>(
    "select game_index, created_at from chain_wallets where address = $1",
    [address.toLowerCase()],
  );
  return {
    address,
    gameIndex: row?.game_index ?? null,
    keyHeld: Boolean(row),
    createdAt: row?.created_at.toISOString() ?? null,
    polygon: await chainState(s, address),
    xplaAddress: hexToXpla(address),
    xpla: await xplaWalletState(s.xpla, hexToXpla(address)),
  };
}

/** The wallets whose keys a game holds, newest first, one keyset page, each with its chain state. */
export async function listWallets(
  s: Services,
  q: PageRequest & { gameIndex: number },
): Promise<Page<WalletInfo>> {
  const page = await keysetPage(s.db, {
    select: "address, created_at",
    from: "chain_wallets",
    where: "game_index = $1",
    params: [q.gameIndex],
    order: { time: "created_at", key: "address" },
    page: q,
    gameIndex: q.gameIndex,
    map: (r: { address: string; created_at: Date }) => r,
  });
  const items = await Promise.all(page.items.map(async (r) => {
    const address = parseAddress(r.address, "address");
    return {
      address,
      gameIndex: q.gameIndex,
      keyHeld: true,
      createdAt: r.created_at.toISOString(),
      polygon: await chainState(s, address),
      xplaAddress: hexToXpla(address),
      xpla: await xplaWalletState(s.xpla, hexToXpla(address)),
    };
  }));
  return { items, nextCursor: page.nextCursor };
}

/**
 * Sends native currency from the node's first unlocked account (a local dev node's funded
 * account) to `address`. Refused unless the chain id is a development one and the node has an
 * unlocked account, so it can never move funds on a public chain.
 */
export async function fundFromDevAccount(
  s: Services,
  q: { address: string; amount: string },
): Promise<{ txHash: Hex; from: Hex; address: Hex; amount: string }> {
  const chain = s.chain;
  if (!chain) {
    throw new DomainError("unavailable", "CHAIN_UNAVAILABLE", "POLYGON_RPC_URL is not configured");
  }
  const address = parseAddress(q.address, "address");
  let value: bigint;
  try {
    value = parseEther(q.amount);
  } catch {
    throw new DomainError("invalid", "VALIDATION_FAILED", 'amount must be a decimal, e.g. "10"');
  }
  if (value <= 0n) throw new DomainError("invalid", "VALIDATION_FAILED", "amount must be above 0");
  // Wallet methods of a dev node are outside the public client's typed schema.
  const rpc = chain.client.request as unknown as (
    args: { method: string; params?: unknown[] },
  ) => Promise<unknown>;
  const accounts = LOCAL_CHAIN_IDS.includes(chain.chainId)
    ? await onChain("dev account lookup", () => rpc({ method: "eth_accounts" })) as string[]
    : [];
  if (accounts.length === 0) {
    throw new DomainError(
      "forbidden",
      "LOCAL_CHAIN_ONLY",
      `funding from the node's dev account works only on a local development chain (chain id 31337 or 1337 with an unlocked account); chain ${chain.chainId} is not one`,
    );
  }
  const from = parseAddress(accounts[0], "from");
  const txHash = await onChain("funding", () =>
    rpc({
      method: "eth_sendTransaction",
      params: [{ from, to: address, value: `0x${value.toString(16)}` }],
    })) as Hex;
  await onChain(
    "funding",
    () => chain.client.waitForTransactionReceipt({ hash: txHash, pollingInterval: 200 }),
  );
  return { txHash, from, address, amount: q.amount };
}
