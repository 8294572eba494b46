/**
 * The floor of a cached authenticated read, for the HTTP load runs: the work any implementation
 * of `GET /items/v1/requests/{id}` must do when the key and the state are cached, and nothing
 * else, in its own process like the service.
 *
 *   deno run -A bench/read_floor.ts <port> raw|hono <api key> <transaction id> [--no-request-lines]
 *
 * `readFloor` gives both handlers for in-process measurement (bench/read_path_bench.ts).
 *
 * Per request: a random request id answered in `X-Request-Id`; the bearer key looked up in an
 * LRU cache; the state looked up in another; the envelope rendered as JSON; the request counted
 * in the product's latency histogram; and (unless `--no-request-lines`) one request line written
 * by the product's logger, batched to /dev/null as `bench/served_app.ts` does. `raw` answers
 * from a synchronous Deno.serve handler with no framework; `hono` from a Hono app with one
 * middleware (request id, metrics, request line), an auth middleware and the handler.
 * No validation, error envelopes, route templates or body guards: it bounds from above what the
 * service's read can reach on this machine, it is not a way to serve.
 */
import { Hono } from "hono";
import { LruCache } from "../lib/cache/lru.ts";
import { HttpLatency, latencyBuckets } from "../lib/metrics.ts";
import { serverLogger } from "./served_app.ts";

const ROUTE = "/items/v1/requests/{transactionId}";
const FOREVER = Number.MAX_SAFE_INTEGER;
const JSON_TYPE = { "content-type": "application/json" };

interface Principal {
  keyId: string;
  gameIndex: number;
}

/**
 * The floor's two handlers for one API key and one item request: `raw` (Deno.serve's handler
 * shape, synchronous) and `hono` (a Hono app's fetch).
 */
export function readFloor(apiKey: string, transactionId: string, lines: boolean): {
  raw: (req: Request) => Response;
  hono: (req: Request) => Response | Promise<Response>;
} {
  const log = serverLogger();
  const latency = new HttpLatency(latencyBuckets);
  const keys = new LruCache<string, Principal>(10_000);
  keys.set(apiKey, { keyId: "bench", gameIndex: 1 }, FOREVER);
  const states = new LruCache<string, Record<string, unknown>>(50_000);
  states.set(`1:${transactionId}`, {
    transactionId,
    status: "REGISTERED",
    attempts: 0,
    lastCode: null,
    lastMessage: null,
    deliveredAt: null,
  }, FOREVER);

  function principalOf(authorization: string | null | undefined): Principal | undefined {
    if (!authorization?.startsWith("Bearer ")) return undefined;
    return keys.get(authorization.slice(7), Date.now());
  }

  function finish(
    requestId: string,
    path: string,
    status: number,
    started: number,
    key: Principal | undefined,
    size: number,
  ) {
    const ms = performance.now() - started;
    latency.observe("items", ROUTE, "GET", status, ms / 1000);
    if (!lines) return;
    log.info("request", {
      requestId,
      method: "GET",
      route: ROUTE,
      path,
      status,
      durationMs: Math.round(ms * 10) / 10,
      family: "items",
      gameIndex: key?.gameIndex,
      keyId: key?.keyId,
      size,
    });
  }

  function raw(req: Request): Response {
    const started = performance.now();
    const requestId = crypto.randomUUID();
    // The path as Hono takes it, from the URL text (a URL object costs more than the rest).
    const url = req.url;
    const start = url.indexOf("/", url.indexOf("://") + 3);
    const query = url.indexOf("?", start);
    const path = query === -1 ? url.slice(start) : url.slice(start, query);
    const key = principalOf(req.headers.get("authorization"));
    const view = key &&
      states.get(`${key.gameIndex}:${path.slice(path.lastIndexOf("/") + 1)}`, Date.now());
    const status = view ? 200 : 401;
    const text = JSON.stringify(view ? { code: 0, message: "success", ...view } : { code: 401 });
    finish(requestId, path, status, started, key, text.length);
    return new Response(text, {
      status,
      headers: { "content-type": "application/json", "x-request-id": requestId },
    });
  }

  type Env = { Variables: { key: Principal; size: number } };
  const app = new Hono<Env>();
  app.use("*", async (c, next) => {
    const started = performance.now();
    const requestId = crypto.randomUUID();
    await next();
    c.res.headers.set("X-Request-Id", requestId);
    finish(requestId, c.req.path, c.res.status, started, c.get("key"), c.get("size") ?? 0);
  });
  app.get("/items/v1/requests/:id", async (c, next) => {
    const key = principalOf(c.req.header("authorization"));
    if (!key) return c.body('{"code":401}', 401, JSON_TYPE);
    c.set("key", key);
    await next();
  }, (c) => {
    const view = states.get(`${c.get("key").gameIndex}:${c.req.param("id")}`, Date.now());
    if (!view) return c.body('{"code":404}', 404, JSON_TYPE);
    const text = JSON.stringify({ code: 0, message: "success", ...view });
    c.set("size", text.length);
    return c.body(text, 200, JSON_TYPE);
  });
  return { raw, hono: app.fetch };
}

if (import.meta.main) {
  const [port, mode, apiKey, transactionId] = Deno.args;
  const floor = readFloor(apiKey, transactionId, !Deno.args.includes("--no-request-lines"));
  Deno.serve({
    hostname: "127.0.0.1",
    port: Number(port),
    onListen: () => console.log("ready"),
  }, mode === "raw" ? floor.raw : floor.hono);
}
