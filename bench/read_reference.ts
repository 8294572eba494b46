/**
 * The lean reference of the cached reads, for bench/reads_load.ts: a Hono app doing the work each
 * measured read needs and nothing else, answering the service's exact bytes, in its own process
 * like the service (bench/serve_reads.ts).
 *
 *   deno run -A bench/read_reference.ts <port> <fixture.json>
 *
 * The fixture (written by bench/reads_load.ts from the service's own answers) holds the API key,
 * the access token with its claims, and the bodies the service answers for each item request and
 * for the first page of the app's transaction list.
 *
 * Per request, in one middleware: a request id (the client's `X-Request-Id` when well formed,
 * else a random UUID) answered in `X-Request-Id`; the request counted in the product's latency
 * histogram (family, route template, method, status); one request line with the service's fields
 * through the product's logger, batched to /dev/null as the service's is. Then per route:
 *
 * - `GET /items/v1/requests/:transactionId`: the bearer key looked up in an LRU cache (the
 *   service's API-key cache), its scope checked, the id's length checked, the answer looked up in
 *   an LRU cache of rendered answers. With a database (`DATABASE_URL` and `DATABASE_DRIVER=tcp` in
 *   the environment, as the bench sets them on the real tiers) the answers are kept as the
 *   service keeps them, for 1 s (a minute once DELIVERED), and a miss reads the state with the
 *   service's one query on a pool of the service's size (lib/items/register.ts getItemRequest),
 *   concurrent misses of one id sharing it; without one, every answer is held for good.
 * - `GET /service/v1/tx`: the bearer token looked up in an LRU cache of verified tokens (the
 *   service's), its use and expiry checked, `x-network` and `x-appid` checked, `page` and `limit`
 *   read (defaults 1 and 20), the page looked up in an LRU cache of rendered answers by app and
 *   query.
 *
 * No error envelopes beyond a fixed 401/404 body, no schemas, no family routing, no body guards:
 * what a read costs when it does only its work, in Hono, on this machine.
 */
import { Hono } from "hono";
import { LruCache } from "../lib/cache/lru.ts";
import { HttpLatency, latencyBuckets } from "../lib/metrics.ts";
import { serverLogger } from "./served_app.ts";
import { openTcp } from "../lib/db/tcp.ts";
import type { Sql } from "../lib/db/port.ts";
import { getItemRequest } from "../lib/items/register.ts";
import { DELIVERED_STATE_CACHE_MS } from "../lib/items/state_cache.ts";
import { decodeJwt } from "jose";
import type { ServedReads } from "./serve_reads.ts";

/** What the reference serves (from the service's answers). */
export interface ReferenceFixture {
  apiKey: string;
  keyId: string;
  gameIndex: number;
  /** Transaction id → the service's answer body. */
  items: [string, string][];
  accessToken: string;
  appid: string;
  chainGameIndex: number;
  /** The service's answer body for the app's first page (no query). */
  txPage: string;
}

/** One answer: status, Content-Type, request id and body. */
export async function answer(url: string, headers?: Record<string, string>) {
  const res = await fetch(url, { headers });
  return {
    status: res.status,
    type: res.headers.get("content-type"),
    requestId: res.headers.get("x-request-id"),
    body: await res.text(),
  };
}

/** The reference's fixture: the served service's own answers, which it must give byte for byte. */
export async function referenceFixture(s: ServedReads): Promise<ReferenceFixture> {
  const key = { authorization: `Bearer ${s.apiKey}` };
  const items: [string, string][] = [];
  for (const id of s.transactionIds) {
    const got = await answer(`${s.base}/items/v1/requests/${id}`, key);
    if (got.status !== 200) throw new Error(`item ${id}: ${got.status} ${got.body}`);
    items.push([id, got.body]);
  }
  const tx = await answer(`${s.base}/service/v1/tx`, s.chainHeaders);
  if (tx.status !== 200) throw new Error(`tx list: ${tx.status} ${tx.body}`);
  return {
    apiKey: s.apiKey,
    keyId: String(decodeJwt(s.apiKey).jti),
    gameIndex: s.gameIndex,
    items,
    accessToken: s.chainHeaders.authorization.slice(7),
    appid: s.appid,
    chainGameIndex: s.chainGameIndex,
    txPage: tx.body,
  };
}

const FOREVER = Number.MAX_SAFE_INTEGER;
const JSON_TYPE = { "content-type": "application/json" };
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const encoder = new TextEncoder();

interface Rendered {
  text: string;
  size: number;
}

interface Principal {
  keyId?: string;
  gameIndex: number;
  appid?: string;
}

type Env = {
  Variables: { who: Principal; size: number; family: string; route: string };
};

/** The reference app (reading missed item states from `db` when given). */
export function referenceApp(f: ReferenceFixture, db?: Sql, stateTtlMs = 1_000): Hono<Env> {
  const log = serverLogger();
  const latency = new HttpLatency(latencyBuckets);
  const keys = new LruCache<string, { keyId: string; gameIndex: number; scopes: string[] }>(
    10_000,
  );
  keys.set(f.apiKey, { keyId: f.keyId, gameIndex: f.gameIndex, scopes: ["items", "otp"] }, FOREVER);
  const tokens = new LruCache<string, { appid: string; gameIndex: number; use: string }>(10_000);
  tokens.set(
    f.accessToken,
    { appid: f.appid, gameIndex: f.chainGameIndex, use: "access" },
    FOREVER,
  );
  const rendered = (text: string): Rendered => ({ text, size: encoder.encode(text).byteLength });
  const states = new LruCache<string, Rendered>(50_000);
  for (const [id, body] of f.items) {
    states.set(`${f.gameIndex}:${id}`, rendered(body), db ? Date.now() + stateTtlMs : FOREVER);
  }
  const loads = new Map<string, Promise<Rendered | undefined>>();
  function loadState(gameIndex: number, transactionId: string, id: string, now: number) {
    let pending = loads.get(id);
    if (!pending) {
      pending = getItemRequest(db!, { gameIndex, transactionId }).then((view) => {
        const answer = rendered(JSON.stringify({ code: 0, message: "success", ...view }));
        const keep = view.status === "DELIVERED" ? DELIVERED_STATE_CACHE_MS : stateTtlMs;
        states.set(id, answer, now + keep);
        return answer;
      }, () => undefined).finally(() => loads.delete(id));
      loads.set(id, pending);
    }
    return pending;
  }
  const pages = new LruCache<string, Rendered>(2_000);
  pages.set(`${f.appid}\npolygon\n1\n20`, rendered(f.txPage), FOREVER);

  function bearer(header: string | undefined): string | undefined {
    return header?.startsWith("Bearer ") ? header.slice(7) : undefined;
  }

  const app = new Hono<Env>();
  app.use("*", async (c, next) => {
    const started = performance.now();
    const incoming = c.req.header("x-request-id");
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
    await next();
    c.res.headers.set("X-Request-Id", requestId);
    const ms = performance.now() - started;
    const status = c.res.status;
    const family = c.get("family");
    const route = c.get("route");
    latency.observe(family, route, "GET", status, ms / 1000);
    const who = c.get("who");
    log.info("request", {
      requestId,
      method: "GET",
      route,
      path: c.req.path,
      status,
      durationMs: Math.round(ms * 10) / 10,
      family,
      gameIndex: who?.gameIndex,
      appid: who?.appid,
      keyId: who?.keyId,
      size: c.get("size"),
    });
  });
  app.get("/items/v1/requests/:transactionId", async (c) => {
    c.set("family", "items");
    c.set("route", "/items/v1/requests/:transactionId");
    const token = bearer(c.req.header("authorization"));
    const key = token === undefined ? undefined : keys.get(token, Date.now());
    if (!key || !key.scopes.includes("items")) return c.body('{"code":4010}', 401, JSON_TYPE);
    c.set("who", key);
    const id = c.req.param("transactionId");
    if (id.length > 128) return c.body('{"code":4000}', 400, JSON_TYPE);
    const now = Date.now();
    const cacheKey = `${key.gameIndex}:${id}`;
    const hit = states.get(cacheKey, now) ??
      (db ? await loadState(key.gameIndex, id, cacheKey, now) : undefined);
    if (!hit) return c.body('{"code":4040}', 404, JSON_TYPE);
    c.set("size", hit.size);
    return c.body(hit.text, 200, JSON_TYPE);
  });
  app.get("/service/v1/tx", (c) => {
    c.set("family", "blockchain");
    c.set("route", "/service/v1/tx");
    const token = bearer(c.req.header("authorization"));
    const now = Date.now();
    const claims = token === undefined ? undefined : tokens.get(token, now);
    if (!claims || claims.use !== "access") return c.body('{"code":401}', 401, JSON_TYPE);
    const network = c.req.header("x-network");
    if (network !== "polygon" && network !== "xpla") {
      return c.body('{"code":400}', 400, JSON_TYPE);
    }
    if (c.req.header("x-appid") !== claims.appid) return c.body('{"code":403}', 403, JSON_TYPE);
    c.set("who", claims);
    const page = c.req.query("page") ?? "1";
    const limit = c.req.query("limit") ?? "20";
    const hit = pages.get(`${claims.appid}\n${network}\n${page}\n${limit}`, now);
    if (!hit) return c.body('{"code":404}', 404, JSON_TYPE);
    c.set("size", hit.size);
    return c.body(hit.text, 200, JSON_TYPE);
  });
  return app;
}

if (import.meta.main) {
  const [port, fixture] = Deno.args;
  const url = Deno.env.get("DATABASE_URL");
  const db = url && Deno.env.get("DATABASE_DRIVER") === "tcp"
    ? openTcp(url, { max: Number(Deno.env.get("DATABASE_POOL_MAX") ?? 10) })
    : undefined;
  const app = referenceApp(JSON.parse(await Deno.readTextFile(fixture)), db);
  Deno.serve({
    hostname: "127.0.0.1",
    port: Number(port),
    onListen: () => console.log("ready"),
  }, app.fetch);
  Deno.addSignalListener("SIGTERM", () => Deno.exit(0));
}
