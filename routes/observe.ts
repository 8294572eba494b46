/**
 * One structured log line and the request metrics for every request: time, request id, method,
 * route template, status, duration, family, game and app when known, response size and the
 * failure code. A 500 is an error line, a 502-504 or a slow request a warning, each with the
 * cause; other lines are sampled by LOG_REQUEST_SAMPLE. Nothing from headers or bodies is logged except codes.
 */
import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import type { AppEnv, Family } from "./env.ts";

/** The route template a request matched ("unmatched" when no route did). */
export function routeTemplate(c: Context): string {
  const routes = matchedRoutes(c);
  for (let i = routes.length - 1; i >= 0; i--) {
    if (routes[i].method !== "ALL") return routes[i].path;
  }
  return "unmatched";
}

// Result codes of the moderation families travel in a 200 body; read them from the body bytes.
function resultCodeOf(bytes: Uint8Array | undefined): string | undefined {
  if (!bytes) return undefined;
  try {
    const body = JSON.parse(new TextDecoder().decode(bytes)) as {
      result?: { result_code?: string };
    };
    const code = body?.result?.result_code;
    return code && code !== "200" ? `RESULT_${code}` : undefined;
  } catch {
    return undefined;
  }
}

const encoder = new TextEncoder();

// Buffers a small in-memory body once (no tee) and puts it back with its Content-Length, so the
// size is known; streams and other bodies are left alone and their size is not logged. JSON
// bodies made by c.json are already bytes of a known size (see sizedJson) and are not re-read.
async function measureBody(
  c: Context,
  made: { res?: Response; bytes?: Uint8Array },
): Promise<{ size?: number; bytes?: Uint8Array }> {
  const res = c.res;
  if (made.res === res && made.bytes) return { size: made.bytes.byteLength, bytes: made.bytes };
  const length = res.headers.get("content-length");
  if (length !== null) return { size: Number(length) };
  if (!res.body) return { size: 0 };
  if (!/json|text\/html|text\/plain/.test(res.headers.get("content-type") ?? "")) return {};
  const bytes = new Uint8Array(await res.arrayBuffer());
  const headers = new Headers(res.headers);
  headers.set("content-length", String(bytes.byteLength));
  c.res = undefined;
  c.res = new Response(bytes, { status: res.status, statusText: res.statusText, headers });
  return { size: bytes.byteLength, bytes };
}

/**
 * Makes c.json answer with the UTF-8 bytes of the JSON text (what the runtime would send anyway)
 * and remembers them, so the request line knows the size without reading the body back. Same
 * headers and status handling as Hono's own c.json (Content-Type unless the caller gave one).
 */
type NewResponse = (
  data: Uint8Array,
  arg?: number | ResponseInit,
  headers?: Record<string, string>,
) => Response;

function sizedJson(c: Context, made: { res?: Response; bytes?: Uint8Array }) {
  c.json = ((object: unknown, arg?: number | ResponseInit, headers?: Record<string, string>) => {
    const bytes = encoder.encode(JSON.stringify(object));
    const res = (c.newResponse as NewResponse)(bytes, arg, {
      "Content-Type": "application/json",
      ...headers,
    });
    made.res = res;
    made.bytes = bytes;
    return res;
  }) as typeof c.json;
}

/** The request-log and request-metrics middleware. */
export function observeRequests(familyOf: (path: string) => Family): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const made: { res?: Response; bytes?: Uint8Array } = {};
    sizedJson(c, made);
    await next();
    const s = c.var.services;
    const ms = performance.now() - started;
    const family = familyOf(c.req.path).name;
    const route = routeTemplate(c);
    const status = c.res.status;
    const method = c.req.method;
    const labels = { family, route, method, status: String(status) };
    s.metrics.httpDuration.observe(labels, ms / 1000);
    const cfg = s.config;
    const errorCodeNow = c.get("errorCode") as string | undefined;
    s.analytics?.writeDataPoint({
      indexes: [family],
      blobs: [route, method, String(status), errorCodeNow ?? ""],
      doubles: [ms, status],
    });
    // A 500 is a bug (error); 502/503/504 say a dependency is down or refused (warn).
    const level = status === 500 || status > 504
      ? "error"
      : status >= 500 || ms >= cfg.LOG_SLOW_MS
      ? "warn"
      : "info";
    if (level === "info" && cfg.LOG_REQUEST_SAMPLE < 1 && Math.random() >= cfg.LOG_REQUEST_SAMPLE) {
      return;
    }
    const { size, bytes } = await measureBody(c, made);
    let errorCode = errorCodeNow;
    if (!errorCode && (family === "chat" || family === "tads")) errorCode = resultCodeOf(bytes);
    const app = c.get("app");
    const key = c.get("apiKey");
    s.log[level]("request", {
      requestId: c.get("requestId"),
      method,
      route,
      path: c.req.path,
      status,
      durationMs: Math.round(ms * 10) / 10,
      family,
      gameIndex: app?.gameIndex ?? key?.gameIndex,
      appid: app?.appid,
      keyId: key?.keyId,
      size,
      errorCode,
      ...(level !== "info"
        ? { cause: c.get("errorCause") ?? (ms >= cfg.LOG_SLOW_MS ? "slow" : undefined) }
        : {}),
    });
  };
}
