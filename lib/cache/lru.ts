/**
 * A bounded per-isolate cache with expiry: least recently used entries are dropped first once
 * `maxEntries` (or, for weighted entries, `maxWeight`) is reached, and an entry is never returned
 * after its expiry time. In a cache bounded by count alone, recency is kept by moving a used entry
 * to the newest end only once it has drifted into the older half: a hot entry then costs a lookup
 * per use, not a delete and an insert, and an entry used within the last `maxEntries / 2`
 * insertions is never the one dropped. A weight-bounded cache may drop entries long before
 * `maxEntries / 2` insertions, so there every use moves the entry.
 */
export class LruCache<K, V> {
  readonly #map = new Map<K, { value: V; expiresAt: number; tick: number; weight: number }>();
  #tick = 0;
  #weight = 0;

  /**
   * A cache holding at most `maxEntries` entries whose weights (1 each unless given) add up to at
   * most `maxWeight`.
   */
  constructor(readonly maxEntries: number, readonly maxWeight = Infinity) {
    this.#moveAfter = maxWeight === Infinity ? maxEntries >> 1 : 1;
  }

  /** How far an entry may drift towards the old end before a use moves it back. */
  readonly #moveAfter: number;

  /** The live value of `key` at `nowMs`, or undefined. */
  get(key: K, nowMs: number): V | undefined {
    return this.entry(key, nowMs)?.value;
  }

  /** The live entry of `key` at `nowMs` (its value and expiry time), or undefined. */
  entry(key: K, nowMs: number): { readonly value: V; readonly expiresAt: number } | undefined {
    const entry = this.#map.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= nowMs) {
      this.delete(key);
      return undefined;
    }
    // Re-inserting moves the entry to the most recently used end of the map's order.
    if (this.#tick - entry.tick >= this.#moveAfter) {
      entry.tick = ++this.#tick;
      this.#map.delete(key);
      this.#map.set(key, entry);
    }
    return entry;
  }

  /**
   * Stores `value` until `expiresAt` (ms since the epoch), weighing `weight`. A value heavier than
   * `maxWeight` is not stored (and drops what the key held).
   */
  set(key: K, value: V, expiresAt: number, weight = 1): void {
    if (!(weight >= 0)) throw new RangeError(`cache entry weight must be >= 0, got ${weight}`);
    this.delete(key);
    if (weight > this.maxWeight) return;
    this.#map.set(key, { value, expiresAt, tick: ++this.#tick, weight });
    this.#weight += weight;
    while (this.#map.size > this.maxEntries || this.#weight > this.maxWeight) {
      this.delete(this.#map.keys().next().value as K);
    }
  }

  /** Drops one entry. */
  delete(key: K): void {
    const entry = this.#map.get(key);
    if (!entry) return;
    this.#map.delete(key);
    this.#weight -= entry.weight;
  }

  /** Drops every entry whose value matches. */
  deleteWhere(match: (value: V, key: K) => boolean): void {
    for (const [key, entry] of this.#map) if (match(entry.value, key)) this.delete(key);
  }

  /** Number of entries held (expired ones included until touched). */
  get size(): number {
    return this.#map.size;
  }

  /** Total weight of the entries held. */
  get weight(): number {
    return this.#weight;
  }
}

/** One cache per owner object (a database handle, a signing key), created on first use. */
export function cacheFor<K, V>(
  caches: WeakMap<object, LruCache<K, V>>,
  owner: object,
  maxEntries: number,
  maxWeight = Infinity,
): LruCache<K, V> {
  let cache = caches.get(owner);
  if (!cache) {
    cache = new LruCache<K, V>(maxEntries, maxWeight);
    caches.set(owner, cache);
  }
  return cache;
}
