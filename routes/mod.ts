/**
 * createApp(services): the one Hono application for Deno, Workers and tests. Middleware sets the
 * request id and services; every family is mounted; failures render in the family's envelope.
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import type { Context, Next } from "hono";
import type { Services } from "../lib/services.ts";
import { type AppEnv, type Family, toFailure, UNAVAILABLE_RETRY_AFTER_S } from "./env.ts";
import { DomainError } from "../lib/errors.ts";
import { adminFamily } from "./admin/envelope.ts";
import { blockchainFamily } from "./blockchain/envelope.ts";
import { chatFamily, tadsFamily } from "./moderation/envelope.ts";
import { cpaFamily } from "./promotion/envelope.ts";
import { itemsFamily } from "./items/envelope.ts";
import { pushFamily } from "./push/envelope.ts";
import { otpFamily } from "./otp/envelope.ts";
import { adminRoutes } from "./admin/mod.ts";
import { blockchainRoutes } from "./blockchain/mod.ts";
import { chatRoutes, tadsRoutes } from "./moderation/mod.ts";
import { pushRoutes } from "./push/mod.ts";
import { otpRoutes } from "./otp/mod.ts";
import { itemsRoutes } from "./items/mod.ts";
import { promotionRoutes } from "./promotion/mod.ts";
import { systemRoutes } from "./system/mod.ts";
import { registerDocs } from "./system/docs.ts";
import { requestObserver } from "./observe.ts";
import { consoleFamily } from "./console/envelope.tsx";
import { consoleRoutes } from "./console/mod.ts";
import { guardBodyReads } from "./body_read.ts";
import { SegmentRouter } from "./router.ts";
import { requestOrigin } from "./auth.ts";
import { cameOverHttps } from "../lib/proxy_trust.ts";

/** Every family, most specific prefix first; admin is the fallback. */
export const families: Family[] = [
  blockchainFamily,
  chatFamily,
  tadsFamily,
  cpaFamily,
  itemsFamily,
  pushFamily,
  otpFamily,
  consoleFamily,
  adminFamily,
];

/** The family that owns a path, by trying every family's prefixes in order. */
export function familyByPrefix(path: string): Family {
  for (const family of families) {
    for (const prefix of family.prefixes) if (path.startsWith(prefix)) return family;
  }
  return adminFamily;
}

// The prefixes by the character after their leading slash, in the families' order: a path is
// compared only with the prefixes that can match it (one to four of them), without a loop over
// every family on every request line.
const prefixesByChar: [string, Family][][] = [];
for (const family of families) {
  for (const prefix of family.prefixes) {
    if (prefix.length < 2 || prefix[0] !== "/") throw new Error(`family prefix ${prefix}`);
    (prefixesByChar[prefix.charCodeAt(1)] ??= []).push([prefix, family]);
  }
}

/** The family that owns a path (the first family with a prefix of it; admin otherwise). */
export function familyOf(path: string): Family {
  const candidates = prefixesByChar[path.charCodeAt(1)];
  if (candidates !== undefined) {
    for (let i = 0; i < candidates.length; i++) {
      if (path.startsWith(candidates[i][0])) return candidates[i][1];
    }
  }
  return adminFamily;
}

/** Strict-Transport-Security for answers sent over HTTPS: a year, this host only. */
const HSTS = "max-age=31536000";

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Renders any failure in the envelope of the family that owns the path. */
async function renderFailure(err: Error, c: Context): Promise<Response> {
  const ctx = c as Context<AppEnv>;
  const failure = toFailure(ctx, err);
  if (failure.code === "BODY_TOO_LARGE") failure.status = 413;
  ctx.set("errorCode", failure.code);
  const res = await familyOf(c.req.path).renderError(ctx, failure);
  if (failure.retryAfterS !== undefined) {
    res.headers.set("Retry-After", String(Math.max(1, Math.ceil(failure.retryAfterS))));
  }
  return res;
}

/** Builds the application around its services. */
export function createApp(services: Services): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ router: new SegmentRouter() });
  const observe = requestObserver(familyOf);
  // Chat and text batches carry up to 1,000 encrypted messages of up to 2 KB (5 KB for texts)
  // each, so their paths get the larger batch limit; everything else the general one.
  const tooLarge = () => {
    throw new DomainError("invalid", "BODY_TOO_LARGE", "request body too large");
  };
  const generalLimit = bodyLimit({ maxSize: services.config.MAX_BODY_BYTES, onError: tooLarge });
  const batchLimit = bodyLimit({
    maxSize: services.config.MAX_BATCH_BODY_BYTES,
    onError: tooLarge,
  });
  // The body guards only matter for a request with a body; a GET goes straight to the route.
  // What they throw is rendered here (a route's own errors are rendered by Hono at the route).
  const withBody = async (c: Context<AppEnv>, next: Next): Promise<void> => {
    if (!c.req.raw.body) return await next();
    const path = c.req.path;
    const limit = path.startsWith("/chat/") || path.startsWith("/cads2/")
      ? batchLimit
      : generalLimit;
    try {
      await guardBodyReads(c, async () => {
        await limit(c, next);
      });
    } catch (err) {
      if (!(err instanceof Error)) throw err;
      c.res = await renderFailure(err, c);
    }
  };
  // One middleware in front of every route (request id, request line and metrics, body guards,
  // security headers): each middleware layer or async function costs every request a step.
  app.use("*", async (c, next) => {
    const incoming = c.req.header("x-request-id");
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
    c.set("requestId", requestId);
    c.set("services", services);
    const started = observe.begin(c);
    // A request without a body goes to the route without the body guards' async step.
    await (c.req.raw.body ? withBody(c, next) : next());
    const observed = observe.end(c, started);
    if (observed) await observed;
    const headers = c.res.headers;
    headers.set("X-Request-Id", requestId);
    // No answer is content-sniffed into another type (an HTML page, a JSON error, an asset), and
    // one that went out over HTTPS tells the browser to use nothing else for a year.
    headers.set("X-Content-Type-Options", "nosniff");
    const https = c.req.url.startsWith("https:") ||
      (c.req.header("x-forwarded-proto") !== undefined &&
        cameOverHttps(requestOrigin(c), services.config.TRUSTED_PROXIES));
    if (https) {
      headers.set("Strict-Transport-Security", HSTS);
    }
    // Every refusal a client may retry says when (unless the route said more precisely).
    const status = c.res.status;
    if ((status === 429 || status === 503) && !c.res.headers.has("Retry-After")) {
      c.res.headers.set("Retry-After", status === 429 ? "60" : String(UNAVAILABLE_RETRY_AFTER_S));
    }
  });
  app.onError(renderFailure);
  app.notFound((c) => {
    c.set("errorCode", "NOT_FOUND");
    return familyOf(c.req.path).renderError(c as Context<AppEnv>, {
      kind: "not_found",
      code: "NOT_FOUND",
      message: `no route for ${c.req.method} ${c.req.path}`,
    });
  });

  app.route("/", systemRoutes());
  app.route("/", adminRoutes());
  app.route("/", blockchainRoutes());
  app.route("/", chatRoutes());
  app.route("/", tadsRoutes());
  app.route("/", pushRoutes());
  app.route("/", otpRoutes());
  app.route("/", itemsRoutes());
  app.route("/", promotionRoutes());
  app.route("/", consoleRoutes(() => app));
  registerDocs(app);
  return app;
}
