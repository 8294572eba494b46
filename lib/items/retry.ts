/**
 * "Retry now" for an item request that failed or is waiting for its next attempt: it becomes due
 * at once. A FAILED request gets a fresh attempt budget, so a game server fixed after the
 * failure receives it with the normal retries.
 */
import type { Sql } from "../db/port.ts";
import { DomainError } from "../errors.ts";
import { forgetItemStates } from "./state_cache.ts";

/** Makes a FAILED or RETRYING request due now; throws not_found or conflict otherwise. */
export async function retryItemRequest(
  db: Sql,
  key: { gameIndex: number; transactionId: string; nowMs: number },
): Promise<{ transactionId: string; status: "RETRYING" }> {
  const now = new Date(key.nowMs);
  const rows = await db.query<{ status: string; changed: boolean }>(
    `with u as (
       update item_requests set status = 'RETRYING', next_attempt_at = $3, updated_at = $3,
         attempts = case when status = 'FAILED' then 0 else attempts end,
         lease_token = null, lease_until = null
        where game_index = $1 and transaction_id = $2 and status in ('FAILED', 'RETRYING')
          and (lease_until is null or lease_until <= $3)
        returning status)
     select status, true as changed from u
     union all
     select status, false from item_requests
      where game_index = $1 and transaction_id = $2 and not exists (select 1 from u)`,
    [key.gameIndex, key.transactionId, now],
  );
  const [row] = rows;
  if (row?.changed) forgetItemStates(db, [key]);
  if (!row) {
    throw new DomainError(
      "not_found",
      "TRANSACTION_NOT_FOUND",
      `transactionId ${key.transactionId} not found`,
    );
  }
  if (!row.changed) {
    const why = row.status === "DELIVERED" || row.status === "REGISTERED"
      ? `it is ${row.status}`
      : "an attempt is in flight";
    throw new DomainError(
      "conflict",
      "NOT_RETRYABLE",
      `transactionId ${key.transactionId} cannot be retried now: ${why}`,
    );
  }
  return { transactionId: key.transactionId, status: "RETRYING" };
}
