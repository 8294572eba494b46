/**
 * The chain's scheduled job: the tracker (settle pending transactions, deliver due callbacks),
 * then the housekeeping of the chain API (multi-signature wallets seen on chain, the gas watch,
 * expired idempotency keys). Kept apart from the tracker, which the operator's sends call into.
 */
import type { Services } from "../services.ts";
import { describeChainError } from "./polygon.ts";
import { deliverDueCallbacks, trackPendingTransactions } from "./tracker.ts";
import { noticeDeployedSafes } from "./safe/wallets.ts";
import { watchWalletBalances } from "./gas_watch.ts";
import { purgeExpiredIdempotencyKeys } from "../idempotency.ts";

/** The scheduled job of the chain API. */
export const chainTrackerJob = {
  name: "chain-transactions",
  async run(s: Services, nowMs: number) {
    await trackPendingTransactions(s, nowMs);
    await deliverDueCallbacks(s, nowMs);
    await watchWalletBalances(s, nowMs).catch((err) =>
      s.log.warn("gas watch paused", { err: describeChainError(err, s.chain?.rpcUrls) })
    );
    await purgeExpiredIdempotencyKeys(s, nowMs);
    await noticeDeployedSafes(s).catch((err) =>
      s.log.warn("multisig tracking paused", {
        err: describeChainError(err, s.chain?.rpcUrls),
      })
    );
  },
};
