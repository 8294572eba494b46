/**
 * Outbound HTTP: one place for timeouts, retries with backoff and jitter, HMAC signatures and
 * the private-address guard. Chain RPC does not go through here.
 */
import { assertOutboundUrl, isPrivateHost, OutboundRefused } from "./guard.ts";
import { hmacSha256Hex } from "../crypto/hashing.ts";
import type { Logger } from "../log.ts";
import type { Metrics } from "../metrics.ts";

export { isPrivateHost, OutboundRefused } from "./guard.ts";

/** One outbound request. */
export interface OutboundRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  /** Exact body bytes or text to send. */
  body?: string | Uint8Array;
  timeoutMs?: number;
  /** Extra attempts after the first on network errors, timeouts and 5xx (default 0). */
  retries?: number;
  /** When set, adds `X-Signature: t=<unix s>,v1=<hex HMAC-SHA256(secret, t + "." + body)>`. */
  signWith?: string;
  /** Headers computed from the exact body just before each attempt (e.g. webhook signatures). */
  sign?: (body: string | Uint8Array) => Promise<Record<string, string>>;
  /** What the call is for, in logs and metrics (e.g. "item", "tx-callback"); default "http". */
  purpose?: string;
}

/** A completed response: status and body text. */
export interface OutboundResponse {
  status: number;
  headers: Headers;
  text: string;
}

/** Why an outbound call failed without an HTTP response. */
export class OutboundFailure extends Error {
  override name = "OutboundFailure";
  constructor(message: string, readonly reason: "timeout" | "network", options?: ErrorOptions) {
    super(message, options);
  }
}

/** The outbound service. */
export interface Outbound {
  /** Sends a request; throws OutboundRefused, or OutboundFailure after the last attempt. */
  send(req: OutboundRequest): Promise<OutboundResponse>;
  /**
   * Throws OutboundRefused when private targets are not allowed and the host is private, or is a
   * name that resolves to a private address (where the runtime can resolve names).
   */
  assertPublicHost(hostname: string): Promise<void>;
}

/** Resolves a host name to its addresses (the Deno server has one; edge runtimes do not). */
export type HostResolver = (hostname: string) => Promise<string[]>;

/** Exponential backoff with full jitter: base * 2^attempt, capped, randomised in [cap/2, cap]. */
export function backoffMs(attempt: number, baseMs: number, maxMs: number, rnd = Math.random) {
  const cap = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt));
  return Math.round(cap / 2 + rnd() * (cap / 2));
}

/** Bodies of answers from game servers, callback receivers and providers are read up to this. */
const maxResponseBytes = 1 << 20;

/** Reads a response body as text, refusing one larger than `max` bytes without buffering it. */
async function readCapped(res: Response, max: number): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw new OutboundFailure(`response larger than ${max} bytes`, "network");
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder().decode(all);
}

/** Computes the signature header value for a body at a time. */
export async function signatureHeader(secret: string, body: string | Uint8Array, nowMs: number) {
  const t = Math.floor(nowMs / 1000);
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  const prefix = new TextEncoder().encode(`${t}.`);
  const joined = new Uint8Array(prefix.length + bytes.length);
  joined.set(prefix);
  joined.set(bytes, prefix.length);
  return `t=${t},v1=${await hmacSha256Hex(secret, joined)}`;
}

/** Where outbound calls are reported: the log line and the metrics. */
export interface OutboundObserver {
  log?: Logger;
  metrics?: Metrics;
}

/** Hosts by origin text: a provider is called thousands of times a second at one origin. */
const hosts = new Map<string, string>();

/** The host (and port) of a URL, never its path; `invalid` when it is not a URL. */
function hostOf(url: string): string {
  const end = url.indexOf("/", url.indexOf("//") + 2);
  const origin = end < 0 ? url : url.slice(0, end);
  let host = hosts.get(origin);
  if (host === undefined) {
    try {
      host = new URL(url).host;
    } catch {
      return "invalid";
    }
    if (hosts.size >= 256) hosts.clear();
    hosts.set(origin, host);
  }
  return host;
}

/** Logs and counts one outbound attempt: purpose, target host (never the path), duration, outcome. */
export function recordOutbound(
  observer: OutboundObserver,
  call: { purpose: string; url: string; outcome: string; ms: number },
) {
  const { purpose, outcome, ms } = call;
  const host = hostOf(call.url);
  const durationMs = Math.round(ms * 10) / 10;
  const level = outcome === "ok" ? "info" : "warn";
  observer.log?.[level]("outbound", { purpose, host, durationMs, outcome });
  observer.metrics?.outboundCalls.inc({ purpose, host, outcome });
  observer.metrics?.outboundDuration.observe({ purpose, outcome }, ms / 1000);
}

/** The outcome label of a call that threw: `timeout` when it was aborted by its timer, else `network`. */
export function failureOutcome(err: unknown): string {
  const name = (err as Error)?.name;
  return name === "AbortError" || name === "TimeoutError" ? "timeout" : "network";
}

/**
 * Runs one call of a client with its own HTTP stack and reports it like the outbound service
 * does: `ok` below 300, `http_<status>`, `timeout` or `network`.
 */
export async function observeCall<T extends { status: number }>(
  observer: OutboundObserver,
  call: { purpose: string; url: string },
  run: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  let outcome = "network";
  try {
    const res = await run();
    outcome = res.status < 300 ? "ok" : `http_${res.status}`;
    return res;
  } catch (err) {
    outcome = failureOutcome(err);
    throw err;
  } finally {
    recordOutbound(observer, { ...call, outcome, ms: performance.now() - started });
  }
}

/** A fetch that reports every call like the outbound service does (for clients with their own HTTP). */
export function observedFetch(
  observer: OutboundObserver,
  purpose: string,
  inner: typeof fetch = fetch,
): typeof fetch {
  return (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    return observeCall(observer, { purpose, url }, () => inner(input, init));
  };
}

/** Creates the outbound service. */
export function createOutbound(options: {
  allowPrivate: boolean;
  defaultTimeoutMs: number;
  fetch?: typeof fetch;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  resolve?: HostResolver;
  /** Logs one line per attempt: purpose, target host, duration and outcome (never the body). */
  log?: Logger;
  metrics?: Metrics;
}): Outbound {
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  async function once(req: OutboundRequest): Promise<OutboundResponse> {
    const timeoutMs = req.timeoutMs ?? options.defaultTimeoutMs;
    const headers: Record<string, string> = { ...(req.headers ?? {}) };
    if (req.signWith) {
      headers["X-Signature"] = await signatureHeader(req.signWith, req.body ?? "", now());
    }
    if (req.sign) Object.assign(headers, await req.sign(req.body ?? ""));
    const ctrl = new AbortController();
    const timer = setTimeout(() => ctrl.abort(), timeoutMs);
    const started = performance.now();
    let outcome = "network";
    try {
      const res = await doFetch(req.url, {
        method: req.method ?? "POST",
        headers,
        body: req.body as BodyInit | undefined,
        signal: ctrl.signal,
        redirect: "manual",
      });
      const text = await readCapped(res, maxResponseBytes);
      outcome = res.status < 300 ? "ok" : `http_${res.status}`;
      return { status: res.status, headers: res.headers, text };
    } catch (err) {
      if (ctrl.signal.aborted) {
        outcome = "timeout";
        throw new OutboundFailure(`timed out after ${timeoutMs} ms`, "timeout", { cause: err });
      }
      throw new OutboundFailure(`request failed: ${(err as Error).message}`, "network", {
        cause: err,
      });
    } finally {
      clearTimeout(timer);
      observe(req, outcome, performance.now() - started);
    }
  }
  function observe(req: OutboundRequest, outcome: string, ms: number) {
    recordOutbound(options, { purpose: req.purpose ?? "http", url: req.url, outcome, ms });
  }
  async function assertPublicHost(hostname: string) {
    if (options.allowPrivate) return;
    const host = hostname.replace(/^\[|\]$/g, "");
    if (isPrivateHost(host)) {
      throw new OutboundRefused(`private or loopback address refused: ${host}`);
    }
    // A literal address was judged above; a name is judged by what it resolves to.
    if (!options.resolve || host.includes(":") || /^[\d.]+$/.test(host)) return;
    let addresses: string[];
    try {
      addresses = await options.resolve(host);
    } catch {
      // Names the DNS lookup cannot answer (e.g. hosts-file names) are left to the connection.
      return;
    }
    const inner = addresses.find((a) => isPrivateHost(a));
    if (inner !== undefined) {
      throw new OutboundRefused(`${host} resolves to a private or loopback address`);
    }
  }
  return {
    assertPublicHost,
    async send(req) {
      const url = assertOutboundUrl(req.url, options.allowPrivate);
      await assertPublicHost(url.hostname);
      const attempts = 1 + (req.retries ?? 0);
      let last: unknown;
      for (let i = 0; i < attempts; i++) {
        if (i > 0) await sleep(backoffMs(i - 1, 200, 5_000));
        try {
          const res = await once(req);
          if (res.status < 500 || i === attempts - 1) return res;
          last = new OutboundFailure(`upstream answered ${res.status}`, "network");
        } catch (err) {
          if (err instanceof OutboundRefused) throw err;
          last = err;
        }
      }
      throw last;
    },
  };
}
