/**
 * One structured log line and the request metrics for every request: time, request id, method,
 * route template, status, duration, family, game and app when known, response size and the
 * failure code. A 500 is an error line, a 502-504 or a slow request a warning, each with the
 * cause; other lines are sampled by LOG_REQUEST_SAMPLE. Nothing from headers or bodies is logged except codes.
 */
import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import type { AppEnv, AppVariables, Family } from "./env.ts";
import { methodLabel } from "../lib/metrics.ts";

/** The route template a request matched ("unmatched" when no route did). */
export function routeTemplate(c: Context): string {
  const routes = matchedRoutes(c);
  for (let i = routes.length - 1; i >= 0; i--) {
    if (routes[i].method !== "ALL") return routes[i].path;
  }
  return "unmatched";
}

/** Path parameters that hold a secret (a device token): logged as their first characters. */
const SECRET_PARAMS = new Set(["token"]);
/** A path segment of an unmatched request this long may be a token: logged as a prefix too. */
const LONG_SEGMENT = 40;
const PREFIX = 6;

function shortened(segment: string): string {
  return `${segment.slice(0, PREFIX)}…`;
}

/** Whether some segment of `path` is longer than LONG_SEGMENT (without splitting it). */
function hasLongSegment(path: string): boolean {
  if (path.length <= LONG_SEGMENT) return false;
  let start = 0;
  for (;;) {
    const end = path.indexOf("/", start);
    if ((end === -1 ? path.length : end) - start > LONG_SEGMENT) return true;
    if (end === -1) return false;
    start = end + 1;
  }
}

// Per route template, the positions of its secret parameters (null for none): templates are the
// app's registered routes, a fixed set, so this is worked out once per route.
const secretPositions = new Map<string, number[] | null>();

function secretPositionsOf(route: string): number[] | null {
  let positions = secretPositions.get(route);
  if (positions === undefined) {
    const found: number[] = [];
    route.split("/").forEach((name, i) => {
      if (name.startsWith(":") && SECRET_PARAMS.has(name.slice(1))) found.push(i);
    });
    positions = found.length > 0 ? found : null;
    if (secretPositions.size < 10_000) secretPositions.set(route, positions);
  }
  return positions;
}

/**
 * The request's path as it may be logged: a secret path parameter of the matched route (the
 * device token of `/push/devices/{appid}/{token}`) is cut to its first characters, and so is any
 * long segment of a path no route matched (it may be a token sent with the wrong method).
 */
export function loggedPath(c: Context, route: string): string {
  const path = c.req.path;
  if (route === "unmatched") {
    if (!hasLongSegment(path)) return path;
    return path.split("/").map((s) => s.length > LONG_SEGMENT ? shortened(s) : s).join("/");
  }
  const positions = secretPositionsOf(route);
  if (positions === null) return path;
  const segments = path.split("/");
  for (const i of positions) if (i < segments.length) segments[i] = shortened(segments[i]);
  return segments.join("/");
}

// Result codes of the moderation families travel in a 200 body; read them from the body.
function resultCodeOf(body: string | Uint8Array | undefined): string | undefined {
  if (!body) return undefined;
  try {
    const parsed = JSON.parse(typeof body === "string" ? body : new TextDecoder().decode(body)) as {
      result?: { result_code?: string };
    };
    const code = parsed?.result?.result_code;
    return code && code !== "200" ? `RESULT_${code}` : undefined;
  } catch {
    return undefined;
  }
}

// UTF-8 is counted by encoding into one reused buffer, a buffer's worth at a time for longer
// texts: for the ASCII JSON most answers are, an 8 KB page takes well under 1 µs against 9-17 µs
// for a loop over its UTF-16 units; text in other scripts costs about the same either way.
const countingBuffer = new Uint8Array(65_536);
const countingEncoder = new TextEncoder();

/** The number of bytes `text` takes in UTF-8 (a lone surrogate counts as U+FFFD, 3 bytes). */
export function utf8Length(text: string): number {
  let bytes = 0;
  let offset = 0;
  for (;;) {
    const { read, written } = countingEncoder.encodeInto(
      offset === 0 ? text : text.slice(offset),
      countingBuffer,
    );
    bytes += written;
    offset += read;
    // When the buffer fills up, go on from where it stopped (encodeInto never splits a character).
    if (offset >= text.length || read === 0) return bytes;
  }
}

interface Made {
  res: Response;
  text: string;
  /** The text's UTF-8 length when already known (an answer rendered once, JsonText). */
  size?: number;
}

// Buffers a small in-memory body once (no tee) and puts it back with its Content-Length, so the
// size is known; streams and other bodies are left alone and their size is not logged. JSON
// bodies made by c.json keep their text (see sizedJson) and are measured without coming here.
async function measureBody(c: Context): Promise<{ size?: number; body?: Uint8Array }> {
  const res = c.res;
  const length = res.headers.get("content-length");
  if (length !== null) return { size: Number(length) };
  if (!res.body) return { size: 0 };
  if (!/json|text\/html|text\/plain/.test(res.headers.get("content-type") ?? "")) return {};
  const bytes = new Uint8Array(await res.arrayBuffer());
  const headers = new Headers(res.headers);
  headers.set("content-length", String(bytes.byteLength));
  c.res = undefined;
  c.res = new Response(bytes, { status: res.status, statusText: res.statusText, headers });
  return { size: bytes.byteLength, body: bytes };
}

/**
 * Makes c.json remember the JSON text it answers with, so the request line knows the body's size
 * without reading it back. Same headers and status handling as Hono's own c.json (Content-Type
 * unless the caller gave one).
 */
type NewResponse = (
  data: string,
  arg?: number | ResponseInit,
  headers?: Record<string, string>,
) => Response;

const JSON_TYPE = { "Content-Type": "application/json" };

/**
 * A body already rendered as JSON text (a cached page): `c.json(new JsonText(text))` answers with
 * the text as it is, like any other c.json answer.
 */
export class JsonText {
  #size?: number;

  /** `size`, when given, is the text's UTF-8 size counted before (a cached page's). */
  constructor(readonly text: string, size?: number) {
    this.#size = size;
  }

  /** The text's length in UTF-8, counted once (a cached answer is counted when first sent). */
  get size(): number {
    return this.#size ??= utf8Length(this.text);
  }

  /** Only the request observer's c.json knows this body; anywhere else it is a bug, not data. */
  toJSON(): never {
    throw new Error("JsonText answered without the request observer's c.json");
  }
}

const MADE = Symbol("the answer made by c.json");
type Observed = Context & { [MADE]?: Made };

// One function for every request (no closure per request): it is installed as the context's
// c.json and always called as a method of that context.
function observedJson(
  this: Observed,
  object: unknown,
  arg?: number | ResponseInit,
  headers?: Record<string, string>,
): Response {
  const rendered = object instanceof JsonText ? object : undefined;
  const text = rendered ? rendered.text : JSON.stringify(object);
  const res = (this.newResponse as NewResponse)(
    text,
    arg,
    headers ? { ...JSON_TYPE, ...headers } : JSON_TYPE,
  );
  this[MADE] = { res, text, size: rendered?.size };
  return res;
}

/** The request-log and request-metrics middleware. */
export function observeRequests(familyOf: (path: string) => Family): MiddlewareHandler<AppEnv> {
  const observer = requestObserver(familyOf);
  return async (c, next) => {
    const started = observer.begin(c);
    await next();
    await observer.end(c, started);
  };
}

/**
 * The request observer in two halves, for a middleware that does other work around it without a
 * second async layer: `begin` before the route (returns the start time), `end` after it (counts
 * the request and writes its line; a promise only when the answer's size must be read from a
 * body not made by c.json).
 */
export function requestObserver(familyOf: (path: string) => Family) {
  const begin = (c: Context<AppEnv>): number => {
    c.json = observedJson as typeof c.json;
    return performance.now();
  };
  const end = (c: Context<AppEnv>, started: number): void | Promise<void> => {
    const made = (c as Observed)[MADE];
    const s = c.get("services");
    const ms = performance.now() - started;
    const family = familyOf(c.req.path).name;
    const route = routeTemplate(c);
    const status = c.res.status;
    const method = c.req.method;
    s.metrics.http.observe(family, route, method, status, ms / 1000);
    const cfg = s.config;
    const errorCode = c.get("errorCode") as string | undefined;
    s.analytics?.writeDataPoint({
      indexes: [family],
      blobs: [route, methodLabel(method), String(status), errorCode ?? ""],
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
    // A body made by c.json is measured from its text, without waiting on anything.
    if (made !== undefined && made.res === c.res) {
      const size = made.size ?? utf8Length(made.text);
      writeLine(c, s, ms, family, route, status, method, level, errorCode, size, made.text);
      return;
    }
    return measureBody(c).then(({ size, body }) =>
      writeLine(c, s, ms, family, route, status, method, level, errorCode, size, body)
    );
  };
  return { begin, end };
}

/** Writes the request line (errorCode: the one rendered, if any; size and body: the answer's). */
function writeLine(
  c: Context<AppEnv>,
  s: AppVariables["services"],
  ms: number,
  family: string,
  route: string,
  status: number,
  method: string,
  level: "info" | "warn" | "error",
  errorCode: string | undefined,
  size: number | undefined,
  body: string | Uint8Array | undefined,
) {
  if (!errorCode && (family === "chat" || family === "tads")) errorCode = resultCodeOf(body);
  const app = c.get("app");
  const key = c.get("apiKey");
  const fields: Record<string, unknown> = {
    requestId: c.get("requestId"),
    method,
    route,
    path: loggedPath(c, route),
    status,
    durationMs: Math.round(ms * 10) / 10,
    family,
    gameIndex: app?.gameIndex ?? key?.gameIndex,
    appid: app?.appid,
    keyId: key?.keyId,
    size,
    errorCode,
  };
  if (level !== "info") {
    fields.cause = c.get("errorCause") ?? (ms >= s.config.LOG_SLOW_MS ? "slow" : undefined);
  }
  s.log[level]("request", fields);
}
