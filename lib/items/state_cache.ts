/**
 * Item request states as `GET /items/v1/requests/{id}` reads them, kept per instance for a short,
 * documented time so that a polled request costs no database round trip per poll.
 *
 * Bounds: a state is reused for at most `ITEM_STATE_CACHE_MS` (1 s by default; 0 turns the cache
 * off). A DELIVERED request never changes again, so it is kept for a minute. This instance's own
 * writes (a claim counting an attempt, an attempt's outcome, "retry now") drop the entries they
 * change at once, so on a single server every read is current; another instance's change shows
 * within the bound. An unknown request is never remembered: a registration is readable at once
 * everywhere. Concurrent reads of one request share one query.
 *
 * A state read in the last quarter of its time is answered from the cache and read again in the
 * background (once: the read is shared like any other), so a request polled a few times a second
 * never waits for the database; the new state counts its time from when that read began, so the
 * bound holds as before. That read is handed to the caller's `defer` (Services.defer: waitUntil on
 * Workers, where a request's connections close once its deferred work has settled).
 */
import type { Sql } from "../db/port.ts";
import type { Services } from "../services.ts";
import { cacheFor, type LruCache } from "../cache/lru.ts";
import { getItemRequest, type ItemRequestView } from "./register.ts";

/** How long a DELIVERED state (which never changes) is reused. */
export const DELIVERED_STATE_CACHE_MS = 60_000;
const STATE_CACHE_SIZE = 50_000;

const states = new WeakMap<object, LruCache<string, ItemRequestView>>();
const loads = new WeakMap<object, Map<string, Promise<ItemRequestView>>>();

function keyOf(gameIndex: number, transactionId: string): string {
  return `${gameIndex}:${transactionId}`;
}

/**
 * A request's state, from this instance's cache when it is younger than `ttlMs` (`nowMs`, the
 * time of the read, is the wall clock unless given).
 */
export function readItemRequest(
  db: Sql,
  key: { gameIndex: number; transactionId: string },
  options: { ttlMs: number; nowMs?: number },
): Promise<ItemRequestView> {
  if (options.ttlMs <= 0) return getItemRequest(db, key);
  const nowMs = options.nowMs ?? Date.now();
  const hit = cachedItemRequest(db, key, nowMs, options.ttlMs);
  return hit ? Promise.resolve(hit) : loadItemRequest(db, key, { ttlMs: options.ttlMs, nowMs });
}

/**
 * A request's state read from the database (the read cachedItemRequest found no state for at
 * `nowMs`), kept for `ttlMs` from then on; a read of the same request already in flight is shared.
 */
export function loadItemRequest(
  db: Sql,
  key: { gameIndex: number; transactionId: string },
  options: { ttlMs: number; nowMs: number },
): Promise<ItemRequestView> {
  const id = keyOf(key.gameIndex, key.transactionId);
  let inFlight = loads.get(db);
  if (!inFlight) loads.set(db, inFlight = new Map());
  const shared = inFlight.get(id);
  if (shared) return shared;
  const waiting = inFlight;
  const started = options.nowMs;
  // Stored (and no longer shared) as it settles, unless this instance changed the request while
  // the read was in flight (forgetItemStates): then it answers its own callers only.
  const pending: Promise<ItemRequestView> = getItemRequest(db, key).then((view) => {
    if (waiting.get(id) === pending) {
      waiting.delete(id);
      const keep = view.status === "DELIVERED" ? DELIVERED_STATE_CACHE_MS : options.ttlMs;
      cacheFor(states, db, STATE_CACHE_SIZE).set(id, view, started + keep);
    }
    return view;
  }, (err) => {
    if (waiting.get(id) === pending) waiting.delete(id);
    throw err;
  });
  inFlight.set(id, pending);
  return pending;
}

/** Where a background read goes: Services (its `defer` logs a failure), or nowhere but here. */
type Background = Pick<Services, "defer">;

/** Background reads that nothing waits for: a failure is left for the next read to meet. */
const unwatched: Background = { defer: (work) => void work.catch(() => {}) };

/**
 * The request's state when this instance's cache holds it (younger than its bound at `nowMs`),
 * without waiting for anything; undefined when it must be read (readItemRequest). With `ttlMs`
 * (the bound a new read is kept for), a state within the last quarter of that bound of its expiry
 * is also read again, handed to `background`, and kept from `nowMs` when it settles. A failed read
 * is not kept: the state expires at its bound and the next read meets the error.
 */
export function cachedItemRequest(
  db: Sql,
  key: { gameIndex: number; transactionId: string },
  nowMs: number,
  ttlMs?: number,
  background: Background = unwatched,
): ItemRequestView | undefined {
  const id = keyOf(key.gameIndex, key.transactionId);
  const hit = states.get(db)?.entry(id, nowMs);
  if (hit && ttlMs !== undefined && hit.expiresAt - nowMs <= ttlMs / 4 && !loads.get(db)?.has(id)) {
    background.defer(loadItemRequest(db, key, { ttlMs, nowMs }));
  }
  return hit?.value;
}

/** Drops the cached states of requests this instance has just changed. */
export function forgetItemStates(
  db: Sql,
  keys: Iterable<{ gameIndex: number; transactionId: string }>,
): void {
  const cache = states.get(db);
  const inFlight = loads.get(db);
  if (!cache && !inFlight) return;
  for (const k of keys) {
    const id = keyOf(k.gameIndex, k.transactionId);
    cache?.delete(id);
    // A read already in flight may have seen the old state: it answers its own callers but is
    // not stored, and the next read asks again.
    inFlight?.delete(id);
  }
}
