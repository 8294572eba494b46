/**
 * The per-(chain, sender) signing lock, held in Postgres as a lease row so every instance
 * (Workers isolates, Deno servers) serialises "read nonce, sign, broadcast" for one wallet.
 * The lock row also carries the wallet's next nonce on EVM chains (see sending.ts): it is read
 * when the lock is taken and written with the transaction's record, inside the lock.
 */
import type { Sql } from "../db/port.ts";
import { DomainError } from "../errors.ts";
import { randomToken } from "../crypto/hashing.ts";

/** How long a lease lasts if its holder dies without releasing it. */
const LEASE_MS = 30_000;

/** What the holder of a send lock learns when it takes the lock. */
export interface SendLease {
  /** The wallet's next nonce as recorded by earlier sends (null: none recorded yet). */
  nextNonce: number | null;
}

/** Runs `work` while holding the lock of (chainId, address); waits up to `waitMs` for it. */
export async function withSendLock<T>(
  db: Sql,
  key: { chainId: number; address: string },
  work: (lease: SendLease) => Promise<T>,
  options: { waitMs?: number } = {},
): Promise<T> {
  const holder = randomToken(12);
  const address = key.address.toLowerCase();
  const deadline = Date.now() + (options.waitMs ?? 20_000);
  let delay = 5;
  let lease: SendLease;
  for (;;) {
    // Take the row when it is free or its lease ran out; otherwise nothing is returned.
    const rows = await db.query<{ next_nonce: string | number | null }>(
      `insert into chain_send_locks (chain_id, address, holder, expires_at)
       values ($1, $2, $3, now() + $4 * interval '1 millisecond')
       on conflict (chain_id, address) do update
         set holder = excluded.holder, expires_at = excluded.expires_at
         where chain_send_locks.expires_at < now()
       returning next_nonce`,
      [key.chainId, address, holder, LEASE_MS],
    );
    if (rows.length > 0) {
      const next = rows[0].next_nonce;
      lease = { nextNonce: next === null ? null : Number(next) };
      break;
    }
    if (Date.now() > deadline) {
      throw new DomainError("unavailable", "WALLET_BUSY", `wallet ${key.address} is busy; retry`);
    }
    await new Promise((r) => setTimeout(r, delay + Math.random() * delay));
    delay = Math.min(delay * 2, 100);
  }
  try {
    return await work(lease);
  } finally {
    await db.query(
      `update chain_send_locks set expires_at = now() - interval '1 second'
        where chain_id = $1 and address = $2 and holder = $3`,
      [key.chainId, address, holder],
    );
  }
}

/** The statement that records `nonce` as used: the wallet's next nonce becomes at least nonce + 1. */
export function nonceTakenStatement(key: { chainId: number; address: string }, nonce: number) {
  return {
    text: `update chain_send_locks set next_nonce = greatest(coalesce(next_nonce, 0), $3::bigint)
            where chain_id = $1 and address = $2`,
    params: [key.chainId, key.address.toLowerCase(), nonce + 1],
  };
}

/**
 * Gives a nonce back after the node refused its only transaction: the next send takes it again
 * (only while it is still the last one handed out, which holds inside the lock).
 */
export async function releaseNonce(
  db: Sql,
  key: { chainId: number; address: string },
  nonce: number,
) {
  await db.query(
    `update chain_send_locks set next_nonce = $3
      where chain_id = $1 and address = $2 and next_nonce = $4`,
    [key.chainId, key.address.toLowerCase(), nonce, nonce + 1],
  );
}
