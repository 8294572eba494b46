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
 */
import type { Sql } from "../db/port.ts";
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
export async function readItemRequest(
  db: Sql,
  key: { gameIndex: number; transactionId: string },
  options: { ttlMs: number; nowMs?: number },
): Promise<ItemRequestView> {
  if (options.ttlMs <= 0) return await getItemRequest(db, key);
  const id = keyOf(key.gameIndex, key.transactionId);
  const cache = cacheFor(states, db, STATE_CACHE_SIZE);
  const started = options.nowMs ?? Date.now();
  const hit = cache.get(id, started);
  if (hit) return hit;
  let inFlight = loads.get(db);
  if (!inFlight) loads.set(db, inFlight = new Map());
  let pending = inFlight.get(id);
  if (!pending) {
    const waiting = inFlight;
    pending = getItemRequest(db, key).then((view) => {
      // Not stored if this instance changed the request while the read was in flight.
      if (waiting.get(id) === pending) {
        const keep = view.status === "DELIVERED" ? DELIVERED_STATE_CACHE_MS : options.ttlMs;
        cache.set(id, view, started + keep);
      }
      return view;
    }).finally(() => {
      if (waiting.get(id) === pending) waiting.delete(id);
    });
    inFlight.set(id, pending);
  }
  return await pending;
}

/**
 * The request's state when this instance's cache holds it (younger than its bound at `nowMs`),
 * without waiting for anything; undefined when it must be read (readItemRequest).
 */
export function cachedItemRequest(
  db: Sql,
  key: { gameIndex: number; transactionId: string },
  nowMs: number,
): ItemRequestView | undefined {
  return states.get(db)?.get(keyOf(key.gameIndex, key.transactionId), nowMs);
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
