/**
 * createApp(services): the one Hono application for Deno, Workers and tests. Middleware sets the
 * request id and services; every family is mounted; failures render in the family's envelope.
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import type { Context } from "hono";
import type { Services } from "../lib/services.ts";
import { type AppEnv, type Family, toFailure } from "./env.ts";
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
import { consoleFamily } from "./console/envelope.tsx";
import { consoleRoutes } from "./console/mod.ts";
import { guardBodyReads } from "./body_read.ts";

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

/** The family that owns a path. */
export function familyOf(path: string): Family {
  return families.find((f) => f.prefixes.some((p) => path.startsWith(p))) ?? adminFamily;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Builds the application around its services. */
export function createApp(services: Services): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>();
  app.use("*", async (c, next) => {
    const incoming = c.req.header("x-request-id");
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
    c.set("requestId", requestId);
    c.set("services", services);
    await next();
    c.res.headers.set("X-Request-Id", requestId);
  });
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
  app.use("*", guardBodyReads);
  app.use("*", (c, next) => {
    const path = c.req.path;
    const batch = path.startsWith("/chat/") || path.startsWith("/cads2/");
    return (batch ? batchLimit : generalLimit)(c, next);
  });
  app.onError(async (err, c) => {
    const ctx = c as Context<AppEnv>;
    const failure = toFailure(ctx, err);
    if (failure.code === "BODY_TOO_LARGE") failure.status = 413;
    const res = await familyOf(c.req.path).renderError(ctx, failure);
    if (failure.retryAfterS !== undefined) {
      res.headers.set("Retry-After", String(Math.max(1, Math.ceil(failure.retryAfterS))));
    }
    return res;
  });
  app.notFound((c) =>
    familyOf(c.req.path).renderError(c as Context<AppEnv>, {
      kind: "not_found",
      code: "NOT_FOUND",
      message: `no route for ${c.req.method} ${c.req.path}`,
    })
  );

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
