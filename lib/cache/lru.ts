/**
 * A bounded per-isolate cache with expiry: least recently used entries are dropped first once
 * `maxEntries` is reached, and an entry is never returned after its expiry time. Recency is kept
 * by moving a used entry to the newest end, but only once it has drifted into the older half:
 * a hot entry then costs a lookup per use, not a delete and an insert, and an entry used within
 * the last `maxEntries / 2` insertions is never the one dropped.
 */
export class LruCache<K, V> {
  readonly #map = new Map<K, { value: V; expiresAt: number; tick: number }>();
  #tick = 0;

  /** A cache holding at most `maxEntries` entries. */
  constructor(readonly maxEntries: number) {}

  /** The live value of `key` at `nowMs`, or undefined. */
  get(key: K, nowMs: number): V | undefined {
    const entry = this.#map.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= nowMs) {
      this.#map.delete(key);
      return undefined;
    }
    // Re-inserting moves the entry to the most recently used end of the map's order.
    if (this.#tick - entry.tick >= this.maxEntries >> 1) {
      entry.tick = ++this.#tick;
      this.#map.delete(key);
      this.#map.set(key, entry);
    }
    return entry.value;
  }

  /** Stores `value` until `expiresAt` (ms since the epoch). */
  set(key: K, value: V, expiresAt: number): void {
    this.#map.delete(key);
    this.#map.set(key, { value, expiresAt, tick: ++this.#tick });
    if (this.#map.size > this.maxEntries) {
      this.#map.delete(this.#map.keys().next().value as K);
    }
  }

  /** Drops one entry. */
  delete(key: K): void {
    this.#map.delete(key);
  }

  /** Drops every entry whose value matches. */
  deleteWhere(match: (value: V, key: K) => boolean): void {
    for (const [key, entry] of this.#map) if (match(entry.value, key)) this.#map.delete(key);
  }

  /** Number of entries held (expired ones included until touched). */
  get size(): number {
    return this.#map.size;
  }
}

/** One cache per owner object (a database handle, a signing key), created on first use. */
export function cacheFor<K, V>(
  caches: WeakMap<object, LruCache<K, V>>,
  owner: object,
  maxEntries: number,
): LruCache<K, V> {
  let cache = caches.get(owner);
  if (!cache) {
    cache = new LruCache<K, V>(maxEntries);
    caches.set(owner, cache);
  }
  return cache;
}
