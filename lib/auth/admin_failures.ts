/**
 * Throttling of failed admin authentications per client address (lib/proxy_trust.ts), one count
 * for the admin API and console sign-in: each wrong token counts in a KV window
 * (ADMIN_AUTH_WINDOW_SECONDS, starting at the first failure); once ADMIN_AUTH_MAX_FAILURES are
 * reached, every admin call and sign-in from that address is refused with 429 until the window
 * ends, so a token cannot be guessed at request speed. A KV outage does not lock the admin out:
 * counting is then skipped (and logged by the caller).
 */
import type { Kv } from "../kv/port.ts";
import { DomainError } from "../errors.ts";

function failureKey(address: string): string {
  return `admin-auth-fail:${address}`;
}

/** Throws rate_limited (with retryAfterS) when the address has used up its failures. */
export async function assertAdminAttemptAllowed(
  kv: Kv,
  address: string,
  limits: { maxFailures: number; windowSeconds: number },
): Promise<void> {
  const key = failureKey(address);
  const count = Number(await kv.get(key) ?? 0);
  if (count < limits.maxFailures) return;
  const ttlMs = await kv.pttl(key);
  const retryAfterS = Math.max(
    1,
    Math.ceil((ttlMs > 0 ? ttlMs : limits.windowSeconds * 1000) / 1000),
  );
  throw new DomainError(
    "rate_limited",
    "TOO_MANY_AUTH_FAILURES",
    `too many failed admin authentications from this address; retry after ${retryAfterS} s`,
    { details: { retryAfterS } },
  );
}

/** Counts one failed authentication of the address. */
export async function countAdminFailure(
  kv: Kv,
  address: string,
  limits: { windowSeconds: number },
): Promise<void> {
  await kv.incr(failureKey(address), { ttlMs: limits.windowSeconds * 1000 });
}
