/**
 * The HTTP port the push providers use, and what FCM and APNs share: the answer classification,
 * the retry policy (backoff honouring Retry-After), the cached auth token, the outbound
 * observation of every call, and a small semaphore for bounded concurrency. `http2` is present
 * only where the runtime can speak HTTP/2 to APNs (Deno, Deno Deploy); on Workers it is absent and
 * iOS devices go through FCM's `apns` block instead.
 */
import { DomainError } from "../errors.ts";
import { failureOutcome, type OutboundObserver, recordOutbound } from "../outbound/mod.ts";

/** Raised by a sender when the provider refused the credentials themselves. */
export class CredentialError extends DomainError {
  constructor(readonly provider: "fcm" | "apns", message: string) {
    super("upstream", "PUSH_CREDENTIALS_REFUSED", message);
  }
}

/** A request the providers make. */
export interface ProviderRequest {
  method: "POST";
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}

/** A provider's answer. */
export interface ProviderResponse {
  status: number;
  headers: Headers;
  text: string;
}

/** Sends one request and reads the answer. */
export type ProviderCall = (url: string, req: ProviderRequest) => Promise<ProviderResponse>;

/** The runtime's HTTP clients for push. */
export interface PushHttp {
  /** Any HTTP version (OAuth, FCM). */
  fetch: ProviderCall;
  /** HTTP/2 only (APNs); undefined where the runtime cannot do HTTP/2 to an origin. */
  http2?: ProviderCall;
}

/** Wraps a fetch function as a ProviderCall (timeout, body read). */
export function providerCall(doFetch: typeof fetch, extra: RequestInit = {}): ProviderCall {
  return async (url, req) => {
    const res = await doFetch(url, {
      ...extra,
      method: req.method,
      headers: req.headers,
      body: req.body,
      redirect: "manual",
      signal: AbortSignal.timeout(req.timeoutMs),
    });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
}

/**
 * A call reported like every outbound call: a `msg: "outbound"` line and gp_outbound_calls_total
 * with `purpose` (push-oauth, push-fcm, push-apns), the host (never the path, which holds the
 * device token), the duration and the outcome.
 */
export function observedProviderCall(
  call: ProviderCall,
  observer: OutboundObserver,
  purpose: string,
): ProviderCall {
  return (url, req) => {
    const started = performance.now();
    return call(url, req).then(
      (res) => {
        const outcome = res.status < 300 ? "ok" : `http_${res.status}`;
        recordOutbound(observer, { purpose, url, outcome, ms: performance.now() - started });
        return res;
      },
      (err) => {
        const outcome = failureOutcome(err);
        recordOutbound(observer, { purpose, url, outcome, ms: performance.now() - started });
        throw err;
      },
    );
  };
}

/** The default port: the global fetch, and no HTTP/2 (what Workers offer). */
export function fetchOnlyPushHttp(doFetch?: typeof fetch): PushHttp {
  return { fetch: providerCall(doFetch ?? ((input, init) => fetch(input, init))) };
}

/** What happened to one message. */
export type SendOutcome =
  | { state: "sent"; attempts: number; detail?: undefined }
  /** The provider says the token is dead: the device is deactivated. */
  | { state: "invalid"; attempts: number; detail: string }
  /** Not delivered (retries exhausted, message refused, app stopped). */
  | { state: "failed"; attempts: number; detail: string };

/** Retry settings (PUSH_MAX_ATTEMPTS, PUSH_RETRY_BASE_MS, PUSH_RETRY_MAX_MS). */
export interface RetryPolicy {
  maxAttempts: number;
  baseMs: number;
  maxMs: number;
  timeoutMs: number;
}

/** Milliseconds a Retry-After header asks for (seconds or an HTTP date), or null. */
export function retryAfterMs(headers: Headers, nowMs: number): number | null {
  const value = headers.get("retry-after");
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

/** Delay before attempt `attempt + 1`: Retry-After when given, else exponential with jitter. */
export function retryDelayMs(policy: RetryPolicy, attempt: number, retryAfter: number | null) {
  if (retryAfter !== null) return retryAfter;
  const cap = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(cap / 2 + Math.random() * (cap / 2));
}

/**
 * After a 429 or 5xx: waits before the next attempt (Retry-After when given, pausing every send of
 * the app on a 429) and answers null, or answers the failed outcome when Retry-After asks for
 * longer than PUSH_RETRY_MAX_MS.
 */
export async function waitToRetry(
  res: ProviderResponse,
  ctx: { attempts: number; policy: RetryPolicy; gate: PauseGate; last: string },
): Promise<SendOutcome | null> {
  const after = retryAfterMs(res.headers, Date.now());
  if (after !== null && after > ctx.policy.maxMs) {
    return {
      state: "failed",
      attempts: ctx.attempts,
      detail: `${ctx.last}; Retry-After ${after / 1000}s exceeds PUSH_RETRY_MAX_MS`,
    };
  }
  const delay = retryDelayMs(ctx.policy, ctx.attempts, after);
  if (res.status === 429) ctx.gate.pause(delay);
  if (ctx.attempts < ctx.policy.maxAttempts) await sleep(delay);
  return null;
}

/** What one provider answer means for the message being sent. */
export type AnswerVerdict =
  /** Accepted. */
  | "sent"
  /** The device token is dead (the device is deactivated). */
  | "invalid"
  /** The auth token was refused: renew it once; a second refusal is a credential error. */
  | "renew"
  /** The credentials themselves are refused (the app stops with this reason). */
  | { credentials: string }
  /** Throttled or a server error: wait (Retry-After) and try again. */
  | "retry"
  /** Refused for this message only. */
  | "failed";

/**
 * An auth token (FCM access token, APNs provider token) reused until it is due for renewal;
 * concurrent callers share one renewal, and a token the provider refused is dropped.
 */
export class AuthTokenCache {
  private held: { value: string; renewAt: number } | null = null;
  private pending: Promise<string> | null = null;
  /** Tokens obtained (for the tests and the logs). */
  obtained = 0;

  constructor(private readonly obtain: () => Promise<{ value: string; renewAt: number }>) {}

  /** The current token when one is held and not yet due for renewal, else null. */
  current(): string | null {
    const c = this.held;
    return c && Date.now() < c.renewAt ? c.value : null;
  }

  /** The current token, obtained anew once it is due. */
  get(): Promise<string> {
    const value = this.current();
    if (value !== null) return Promise.resolve(value);
    this.pending ??= this.renew().finally(() => this.pending = null);
    return this.pending;
  }

  /** Drops the token if it is still `value` (the provider refused it). */
  drop(value: string) {
    if (this.held?.value === value) this.held = null;
  }

  private async renew(): Promise<string> {
    this.obtained++;
    this.held = await this.obtain();
    return this.held.value;
  }
}

/** What one provider answer means for the message being sent. */
export interface ProviderAnswer {
  verdict: AnswerVerdict;
  /** The answer as recorded for a message that is not sent (`403 BadTopic`). */
  last: string;
}

/**
 * One provider of one app: its retry policy, pause gate and auth token. `send` sends one message
 * with the retry rules FCM and APNs share: every attempt passes the pause gate and uses the
 * current auth token; network errors and 429/5xx answers are retried with back-off (honouring
 * Retry-After) up to `policy.maxAttempts`; a refused auth token is renewed once without counting
 * as an attempt, a second refusal is a CredentialError.
 */
export class ProviderChannel {
  readonly gate = new PauseGate();

  constructor(
    readonly provider: "fcm" | "apns",
    readonly policy: RetryPolicy,
    readonly tokens: AuthTokenCache,
  ) {}

  /**
   * Sends one message: `request` makes one attempt, `read` judges its answer. The common case
   * (no pause in force, a current auth token, accepted at once) waits for nothing but the answer.
   */
  send(opts: SendAttempts): Promise<SendOutcome> {
    const token = this.gate.open() ? this.tokens.current() : null;
    if (token === null) return this.retrying(opts, null);
    return opts.request(token).then(
      (res) => {
        const answer = opts.read(res);
        return answer.verdict === "sent"
          ? SENT_AT_ONCE
          : this.retrying(opts, { token, res, answer });
      },
      (err) => this.retrying(opts, { token, err }),
    );
  }

  /** The attempts of one message, after the first one's answer when it was already made. */
  private async retrying(opts: SendAttempts, first: FirstAttempt | null): Promise<SendOutcome> {
    const policy = this.policy;
    let renewed = false;
    let attempts = 0;
    let last = "";
    while (attempts < policy.maxAttempts) {
      let attempt: FirstAttempt;
      if (first) {
        attempt = first;
        first = null;
      } else {
        await this.gate.pass();
        const token = await this.tokens.get();
        try {
          const res = await opts.request(token);
          attempt = { token, res, answer: opts.read(res) };
        } catch (err) {
          attempt = { token, err };
        }
      }
      attempts++;
      if (!("res" in attempt)) {
        last = `network: ${(attempt.err as Error).message}`;
        if (attempts < policy.maxAttempts) await sleep(retryDelayMs(policy, attempts, null));
        continue;
      }
      const { res, answer } = attempt;
      last = answer.last;
      const verdict = answer.verdict;
      if (verdict === "sent") return { state: "sent", attempts };
      if (verdict === "invalid") return { state: "invalid", attempts, detail: last };
      if (verdict === "failed") return { state: "failed", attempts, detail: last };
      if (verdict === "renew") {
        if (renewed) throw new CredentialError(this.provider, opts.renewedRefused(last));
        renewed = true;
        this.tokens.drop(attempt.token);
        attempts--;
        continue;
      }
      if (verdict === "retry") {
        const refused = await waitToRetry(res, { attempts, policy, gate: this.gate, last });
        if (refused) return refused;
        continue;
      }
      throw new CredentialError(this.provider, verdict.credentials);
    }
    return { state: "failed", attempts, detail: `gave up after ${attempts} attempts: ${last}` };
  }
}

/** How one message is sent: one attempt, the judgement of its answer. */
export interface SendAttempts {
  request(token: string): Promise<ProviderResponse>;
  read(res: ProviderResponse): ProviderAnswer;
  /** The credential error's message when a renewed auth token is refused too. */
  renewedRefused(last: string): string;
}

/** One attempt already made: its answer and judgement, or the error of the call. */
type FirstAttempt =
  | { token: string; res: ProviderResponse; answer: ProviderAnswer }
  | { token: string; err: unknown };

/** The outcome of a message accepted at its first attempt (shared: outcomes are not changed). */
const SENT_AT_ONCE: SendOutcome = Object.freeze({ state: "sent", attempts: 1 });

/** Waits `ms` (real time: provider back-off is not a schedule). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A counting semaphore: at most `limit` holders at once. */
export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly limit: number) {}

  /** Takes a slot when one is free now; give it back with release(). */
  tryAcquire(): boolean {
    if (this.active >= this.limit) return false;
    this.active++;
    return true;
  }

  /** Resolves once a slot is held; give it back with release(). */
  acquire(): Promise<void> {
    if (this.active < this.limit) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise<void>((r) => this.waiting.push(r));
  }

  /** Gives a slot back (to the longest waiter, if any). */
  release() {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }

  /** Runs `work` once a slot is free. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await work();
    } finally {
      this.release();
    }
  }
}

/**
 * A gate an app's sends pass through: a 429 with Retry-After pauses every send of that app, not
 * only the one that got the answer.
 */
export class PauseGate {
  private until = 0;
  /** Pauses sends until `ms` from now (keeps a later pause). */
  pause(ms: number) {
    this.until = Math.max(this.until, Date.now() + ms);
  }
  /** Whether no pause is in force now. */
  open(): boolean {
    return this.until === 0 || this.until <= Date.now();
  }

  /** Resolves when no pause is in force. */
  async pass() {
    for (let wait = this.until - Date.now(); wait > 0; wait = this.until - Date.now()) {
      await sleep(wait);
    }
  }
}
