/**
 * Pages of `GET /service/v1/tx` kept per instance for a short, documented time, so that a polled
 * list costs no database round trip (and no rendering) per poll. A page is kept as its JSON text;
 * the pages held add up to at most LIST_CACHE_CHARS characters.
 *
 * Bounds: a page is reused for at most `TX_LIST_CACHE_MS` (1 s by default; 0 turns the cache off).
 * This instance's own writes to the records (a request recorded, a hash registered, a record
 * withdrawn, the tracker settling transactions) make every page it holds of the app concerned (or,
 * when the writer does not know the app, of every app) stale at once, so on a single server a
 * list always shows what was just sent; another instance's change shows within the bound. Reads of
 * the same page at the same time share one query.
 */
import type { Sql } from "../db/port.ts";
import { cacheFor, type LruCache } from "../cache/lru.ts";

const LIST_CACHE_SIZE = 2_000;
/**
 * The pages kept by one instance add up to at most this many UTF-16 units of JSON (8 MB of
 * one-byte text, up to 16 MB when pages hold other scripts).
 */
export const LIST_CACHE_CHARS = 8_000_000;

/** Write counters of one database handle: all apps, and per app. */
interface Generations {
  all: number;
  apps: Map<string, number>;
}

/** A page held in the cache. */
export interface CachedPage {
  readonly json: string;
  /** The text's UTF-8 size, noted by the caller that first needs it (the request line). */
  size?: number;
}

interface Entry extends CachedPage {
  /** The write counters of the app when the page was read: `${all}:${app}`. */
  version: string;
  /** The same counters as numbers (compared on every hit without making the string). */
  all: number;
  app: number;
}

const pages = new WeakMap<object, LruCache<string, Entry>>();
/** Reads in flight per database handle, by page and write counters. */
const loads = new WeakMap<object, Map<string, Promise<string>>>();
const generations = new WeakMap<object, Generations>();

function generationsOf(db: Sql): Generations {
  let g = generations.get(db);
  if (!g) generations.set(db, g = { all: 0, apps: new Map() });
  return g;
}

/** The app's write counters: they change with every write of this instance that touches it. */
function versionOf(g: Generations, appid: string): string {
  return `${g.all}:${g.apps.get(appid) ?? 0}`;
}

/**
 * Notes that this instance changed transaction records of `appid` (of any app when not given):
 * pages read before are not served again, and reads in flight are neither joined nor kept.
 */
export function txRecordsChanged(db: Sql, appid?: string): void {
  const g = generationsOf(db);
  // The per-app counters are bounded: past 10,000 apps they start over with one global change.
  if (appid === undefined || (g.apps.size >= 10_000 && !g.apps.has(appid))) {
    g.all++;
    g.apps.clear();
  } else {
    g.apps.set(appid, (g.apps.get(appid) ?? 0) + 1);
  }
}

/**
 * The page readTxList would answer from this instance's cache at `nowMs` (same key, same bounds),
 * without waiting for anything; undefined when it has to be read (readTxList).
 */
export function cachedTxList(
  db: Sql,
  appid: string,
  key: string,
  nowMs: number,
): CachedPage | undefined {
  const hit = pages.get(db)?.get(`${appid}\n${key}`, nowMs);
  if (!hit) return undefined;
  const g = generationsOf(db);
  return hit.all === g.all && hit.app === (g.apps.get(appid) ?? 0) ? hit : undefined;
}

/**
 * A page of the app's list as JSON text: from this instance's cache when it is younger than
 * `ttlMs` and no write of this instance has touched the app's records since, else from `load`.
 * `key` names the page (every query parameter); `nowMs` is the wall clock unless given.
 */
export async function readTxList(
  db: Sql,
  appid: string,
  key: string,
  load: () => Promise<string>,
  options: { ttlMs: number; nowMs?: number },
): Promise<string> {
  if (options.ttlMs <= 0) return await load();
  const g = generationsOf(db);
  const all = g.all;
  const app = g.apps.get(appid) ?? 0;
  const version = versionOf(g, appid);
  const id = `${appid}\n${key}`;
  const cache = cacheFor(pages, db, LIST_CACHE_SIZE, LIST_CACHE_CHARS);
  const started = options.nowMs ?? Date.now();
  const hit = cache.get(id, started);
  if (hit && hit.version === version) return hit.json;
  // A read is joined only by readers that see the same write counters: after a write of this
  // instance, the next reader starts a read of its own.
  let inFlight = loads.get(db);
  if (!inFlight) loads.set(db, inFlight = new Map());
  const flight = `${version}\n${id}`;
  let pending = inFlight.get(flight);
  if (!pending) {
    const waiting = inFlight;
    pending = load().then((json) => {
      // Stored only if no write of this instance came between the read's start and its answer.
      if (versionOf(g, appid) === version) {
        cache.set(id, { json, version, all, app }, started + options.ttlMs, json.length);
      }
      return json;
    }).finally(() => waiting.delete(flight));
    inFlight.set(flight, pending);
  }
  return await pending;
}
