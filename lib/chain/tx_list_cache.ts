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

interface Entry {
  json: string;
  all: number;
  app: number;
}

const pages = new WeakMap<object, LruCache<string, Entry>>();
/** Reads in flight per database handle, per app. */
const loads = new WeakMap<object, Map<string, Map<string, Promise<string>>>>();
const generations = new WeakMap<object, Generations>();

function generationsOf(db: Sql): Generations {
  let g = generations.get(db);
  if (!g) generations.set(db, g = { all: 0, apps: new Map() });
  return g;
}

/**
 * Notes that this instance changed transaction records of `appid` (of any app when not given):
 * pages read before are not served again.
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
  // A read in flight may have seen the old records: it answers its own callers but is not stored,
  // and the next reader asks again.
  const inFlight = loads.get(db);
  if (appid === undefined) inFlight?.clear();
  else inFlight?.delete(appid);
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
  const id = `${appid}\n${key}`;
  const cache = cacheFor(pages, db, LIST_CACHE_SIZE, LIST_CACHE_CHARS);
  const started = options.nowMs ?? Date.now();
  const hit = cache.get(id, started);
  if (hit && hit.all === all && hit.app === app) return hit.json;
  let byApp = loads.get(db);
  if (!byApp) loads.set(db, byApp = new Map());
  const ofDb = byApp;
  let inFlight = ofDb.get(appid);
  if (!inFlight) ofDb.set(appid, inFlight = new Map());
  let pending = inFlight.get(id);
  if (!pending) {
    const waiting = inFlight;
    const mine: Promise<string> = load().then((json) => {
      // Stored only if no write of this instance came between the read's start and its answer.
      if (waiting.get(id) === mine && g.all === all && (g.apps.get(appid) ?? 0) === app) {
        cache.set(id, { json, all, app }, started + options.ttlMs, json.length);
      }
      return json;
    }).finally(() => {
      if (waiting.get(id) === mine) {
        waiting.delete(id);
        if (waiting.size === 0 && ofDb.get(appid) === waiting) ofDb.delete(appid);
      }
    });
    pending = mine;
    inFlight.set(id, pending);
  }
  return await pending;
}
