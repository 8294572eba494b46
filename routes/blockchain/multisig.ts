/**
 * POST /core/v1/multisig and POST /core/v1/multisig/tx[/{address}]: on xpla, multi-signature
 * wallets and transactions (multisig_xpla.ts); on polygon not implemented yet. The routes exist
 * so authenticated callers get an explicit 501 with a catalog code instead of a 404 that looks
 * like a wrong path.
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { jsonResponse } from "../env.ts";
import { DomainError } from "../../lib/errors.ts";
import { assembleXplaMultisigRoute, createXplaMultisigRoute } from "./multisig_xpla.ts";

const notImplemented = jsonResponse(
  z.object({ code: z.number(), message: z.string() }),
  "multi-signature wallets are not implemented yet (code 1009)",
);

const routes = [
  { path: "/core/v1/multisig", summary: "Create multi-signature wallet (not implemented: 501)" },
  {
    path: "/core/v1/multisig/tx",
    summary: "Create multi-signature transaction (not implemented: 501)",
  },
  {
    path: "/core/v1/multisig/tx/{address}",
    summary: "Create multi-signature transaction for a wallet (not implemented: 501)",
    params: z.object({ address: z.string() }),
  },
].map((r) =>
  createRoute({
    method: "post",
    path: r.path,
    tags: ["blockchain"],
    summary: r.summary,
    request: r.params ? { params: r.params } : {},
    responses: { 501: notImplemented },
  })
);

function refuse(): never {
  throw new DomainError(
    "unavailable",
    "MULTISIG_NOT_IMPLEMENTED",
    "multi-signature wallets are not implemented yet on polygon",
  );
}

/** Registers the three multi-signature routes (polygon answers 501 after authentication). */
export function registerMultisig(app: OpenAPIHono<AppEnv>) {
  const [create, tx, txAt] = routes;
  // --- xpla branch (multisig_xpla.ts); other networks refuse ---
  app.openapi(create, (c) => c.var.network === "xpla" ? createXplaMultisigRoute(c) : refuse());
  app.openapi(tx, (c) => c.var.network === "xpla" ? assembleXplaMultisigRoute(c) : refuse());
  app.openapi(
    txAt,
    (c) =>
      c.var.network === "xpla" ? assembleXplaMultisigRoute(c, c.req.param("address")) : refuse(),
  );
}
