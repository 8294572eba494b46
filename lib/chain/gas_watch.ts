/**
 * The gas watch: the native balance of every service wallet (keys held in the KMS) is checked at
 * most every GAS_WATCH_EVERY_MS and kept in `chain_wallet_balances`. A wallet below
 * POLYGON_LOW_BALANCE_POL shows in /metrics (gp_chain_wallet_low_balance_pol), in the admin
 * wallets list (`lowBalance`) and, once per low period, as a signed webhook to OPS_WEBHOOK_URL
 * (Standard Webhooks, signed with the wallet's game's secret; type `wallet.low_balance`).
 */
import { type Hex, isAddress, parseEther } from "viem";
import type { Services } from "../services.ts";
import { webhookSigner } from "../webhooks.ts";
import type { PolygonChain } from "./polygon.ts";

/** How often one wallet's balance is read. */
export const GAS_WATCH_EVERY_MS = 300_000;
const BATCH = 100;

/** The webhook body sent when a wallet's balance falls below the level. */
export interface LowBalanceEvent {
  type: "wallet.low_balance";
  chainId: number;
  address: string;
  gameIndex: number;
  balanceWei: string;
  thresholdWei: string;
  checkedAt: string;
}

/** Checks the wallets due for a check; alerts those newly low. */
export async function watchWalletBalances(s: Services, nowMs = s.clock.now()) {
  const chain = s.chain;
  if (!chain) return;
  const due = await s.db.query<{ address: string; game_index: number }>(
    `select w.address, w.game_index from chain_wallets w
       left join chain_wallet_balances b on b.chain_id = $1 and b.address = w.address
      where b.checked_at is null or b.checked_at <= $2
      order by b.checked_at nulls first limit ${BATCH}`,
    [chain.chainId, new Date(nowMs - GAS_WATCH_EVERY_MS)],
  );
  const evm = due.filter((w) => isAddress(w.address, { strict: false }));
  if (evm.length === 0) return;
  const threshold = parseEther(String(s.config.POLYGON_LOW_BALANCE_POL));
  const balances = await Promise.all(
    evm.map((w) => chain.client.getBalance({ address: w.address as Hex })),
  );
  const checkedAt = new Date(nowMs);
  const rows = await s.db.query<{ address: string; game_index: number; balance_wei: string }>(
    `insert into chain_wallet_balances (chain_id, address, game_index, balance_wei, low,
       checked_at)
     select $1, x.address, x.game_index, x.balance::numeric, x.low, $2
       from jsonb_to_recordset($3::jsonb) as x(address text, game_index integer, balance text,
            low boolean)
     on conflict (chain_id, address) do update set balance_wei = excluded.balance_wei,
         low = excluded.low, checked_at = excluded.checked_at, game_index = excluded.game_index,
         alerted_at = case when excluded.low then chain_wallet_balances.alerted_at end
     returning address, game_index, balance_wei::text`,
    [
      chain.chainId,
      checkedAt,
      evm.map((w, i) => ({
        address: w.address,
        game_index: w.game_index,
        balance: balances[i].toString(),
        low: balances[i] < threshold,
      })),
    ],
  );
  const low = rows.filter((r) => BigInt(r.balance_wei) < threshold);
  for (const r of low) await alertOnce(s, chain, { ...r, threshold, checkedAt });
}

async function alertOnce(s: Services, chain: PolygonChain, w: {
  address: string;
  game_index: number;
  balance_wei: string;
  threshold: bigint;
  checkedAt: Date;
}) {
  // One instance takes the alert of this low period.
  const [taken] = await s.db.query(
    `update chain_wallet_balances set alerted_at = $3
      where chain_id = $1 and address = $2 and low and alerted_at is null returning address`,
    [chain.chainId, w.address, w.checkedAt],
  );
  if (!taken) return;
  const event: LowBalanceEvent = {
    type: "wallet.low_balance",
    chainId: chain.chainId,
    address: w.address,
    gameIndex: w.game_index,
    balanceWei: w.balance_wei,
    thresholdWei: w.threshold.toString(),
    checkedAt: w.checkedAt.toISOString(),
  };
  s.log.warn("service wallet balance low", { ...event });
  const url = s.config.OPS_WEBHOOK_URL;
  if (!url) return;
  let delivered = false;
  try {
    const res = await s.outbound.send({
      url,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(event),
      sign: await webhookSigner(
        s,
        w.game_index,
        `lowbal_${chain.chainId}_${w.address.toLowerCase()}_${w.checkedAt.getTime()}`,
      ),
      purpose: "ops-webhook",
    });
    delivered = res.status >= 200 && res.status < 300;
  } catch (err) {
    s.log.warn("low-balance webhook failed", { address: w.address, err: String(err) });
  }
  if (!delivered) {
    // The next check (GAS_WATCH_EVERY_MS later) alerts again.
    await s.db.query(
      "update chain_wallet_balances set alerted_at = null where chain_id = $1 and address = $2",
      [chain.chainId, w.address],
    );
  }
}
