/** An address's state on XPLA for the console: account number, sequence, key, axpla balance. */
import { formatUnits } from "viem";
import { getAccount, lcdCall, LcdError, wrapLcd, type XplaChain } from "./lcd.ts";
import { XPLA_DENOM } from "./tx.ts";

/** What the admin wallet reads show under `xpla`. */
export interface XplaWalletState {
  chainId: string;
  /** XPLA with 18 decimals applied. */
  balance: string;
  balanceAxpla: string;
  /** Null until the account is funded. */
  accountNumber: string | null;
  sequence: string;
  /** True once the account has sent a transaction (its public key is on chain). */
  active: boolean;
}

/** Reads the account and its axpla balance; null when no LCD is configured. */
export async function xplaWalletState(
  chain: XplaChain | undefined,
  address: string,
): Promise<XplaWalletState | null> {
  if (!chain) return null;
  const [account, balances] = await Promise.all([
    getAccount(chain, address),
    lcdCall<{ balances: { denom: string; amount: string }[] }>(
      chain,
      `/cosmos/bank/v1beta1/balances/${address}`,
    ).catch((err) => {
      if (err instanceof LcdError && err.status === 404) return { balances: [] };
      throw wrapLcd(err, "balance lookup");
    }),
  ]);
  const axpla = BigInt(balances.balances.find((b) => b.denom === XPLA_DENOM)?.amount ?? "0");
  return {
    chainId: chain.chainId,
    balance: formatUnits(axpla, 18),
    balanceAxpla: axpla.toString(),
    accountNumber: account ? account.accountNumber.toString() : null,
    sequence: (account?.sequence ?? 0n).toString(),
    active: Boolean(account?.publicKey || account?.publicKeyType),
  };
}
