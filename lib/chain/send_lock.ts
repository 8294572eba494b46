/**
 * The per-(chain, sender) signing lock, held in Postgres as a lease row so every instance
 * (Workers isolates, Deno servers) serialises "read nonce, sign, broadcast" for one wallet.
 * Nonces are taken from the node's pending count while the lock is held, never reserved ahead:
 * a send that fails before broadcast simply leaves the nonce unused for the next holder.
 */
import type { Sql } from "../db/port.ts";
import { DomainError } from "../errors.ts";
import { randomToken } from "../crypto/hashing.ts";

/** How long a lease lasts if its holder dies without releasing it. */
const LEASE_MS = 30_000;

/** Runs `work` while holding the lock of (chainId, address); waits up to `waitMs` for it. */
export async function withSendLock<T>(
  db: Sql,
  key: { chainId: number; address: string },
  work: () => Promise<T>,
  options: { waitMs?: number } = {},
): Promise<T> {
  const holder = randomToken(12);
  const address = key.address.toLowerCase();
  const deadline = Date.now() + (options.waitMs ?? 20_000);
  let delay = 5;
  for (;;) {
    // Take the row when it is free or its lease ran out; otherwise nothing is returned.
    const rows = await db.query(
      `insert into chain_send_locks (chain_id, address, holder, expires_at)
       values ($1, $2, $3, now() + $4 * interval '1 millisecond')
       on conflict (chain_id, address) do update
         set holder = excluded.holder, expires_at = excluded.expires_at
         where chain_send_locks.expires_at < now()
       returning holder`,
      [key.chainId, address, holder, LEASE_MS],
    );
    if (rows.length > 0) break;
    if (Date.now() > deadline) {
      throw new DomainError("unavailable", "WALLET_BUSY", `wallet ${key.address} is busy; retry`);
    }
    await new Promise((r) => setTimeout(r, delay + Math.random() * delay));
    delay = Math.min(delay * 2, 100);
  }
  try {
    return await work();
  } finally {
    await db.query(
      `update chain_send_locks set expires_at = now() - interval '1 second'
        where chain_id = $1 and address = $2 and holder = $3`,
      [key.chainId, address, holder],
    );
  }
}
