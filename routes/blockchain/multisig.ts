/**
 * POST /core/v1/multisig (create a multi-signature wallet) and POST /core/v1/multisig/tx[/{address}]
 * (assemble the execution of a prepared Safe transaction from the owners' signatures). On xpla:
 * a legacy amino multisig and its signed transaction bytes (multisig_xpla.ts).
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import { jsonBody } from "../env.ts";
import { renderChainOk } from "./envelope.ts";
import { chainOkResponse } from "./schemas.ts";
import { address } from "./tx_fields.ts";
import { DomainError } from "../../lib/errors.ts";
import { createMultisig, MAX_SIGNERS } from "../../lib/chain/safe/wallets.ts";
import { createMultisigExecution } from "../../lib/chain/safe/transactions.ts";
import { assembleOnXpla, createOnXpla } from "./multisig_xpla.ts";

const createRouteDef = createRoute({
  method: "post",
  path: "/core/v1/multisig",
  tags: ["blockchain"],
  summary:
    "Create a multi-signature wallet (polygon: Safe 1.4.1, `from` signs and sends rawTx; xpla: legacy amino multisig, address only)",
  request: {
    body: jsonBody(z.object({
      from: address,
      signers: z.array(address).min(1).max(MAX_SIGNERS),
      threshold: z.number(),
      /** Optional: the same body and saltNonce give the same wallet (idempotent creation). */
      saltNonce: z.union([z.string().trim().min(1), z.number().int().nonnegative()])
        .transform(String).optional(),
    })),
  },
  responses: chainOkResponse(
    z.object({
      address: z.string(),
      // polygon only: xpla multisig accounts need no creation transaction.
      rawTx: z.string().optional(),
      saltNonce: z.string().optional(),
    }),
    "the wallet's address (known before it is mined) and, on polygon, the unsigned creation transaction",
  ),
});

const TxBody = z.object({
  encoded: z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")]),
  from: address,
  to: address.optional(),
  tx: z.union([z.string().trim().min(1), z.record(z.string(), z.unknown())]),
  signatures: z.array(z.string().max(200)).min(1).max(MAX_SIGNERS),
});

const txResponses = chainOkResponse(
  z.object({
    rawTx: z.union([z.string(), z.record(z.string(), z.unknown())]),
    requestId: z.string(),
    reqeustId: z.string(),
  }),
  "the unsigned execTransaction transaction `from` signs and sends",
);

const txRoute = createRoute({
  method: "post",
  path: "/core/v1/multisig/tx",
  tags: ["blockchain"],
  summary: "Create a multi-signature transaction (the wallet is `to`)",
  request: { body: jsonBody(TxBody) },
  responses: txResponses,
});

const txWalletRoute = createRoute({
  method: "post",
  path: "/core/v1/multisig/tx/{address}",
  tags: ["blockchain"],
  summary: "Create a multi-signature transaction for the wallet in the path",
  request: { params: z.object({ address: z.string().min(1) }), body: jsonBody(TxBody) },
  responses: txResponses,
});

/** Registers the three multi-signature routes. */
export function registerMultisig(app: OpenAPIHono<AppEnv>) {
  app.openapi(createRouteDef, async (c) => {
    const body = c.req.valid("json");
    if (c.get("network") === "xpla") return await createOnXpla(c, body);
    const created = await createMultisig(c.get("services"), {
      network: c.get("network"),
      gameIndex: c.get("app").gameIndex,
      ...body,
    });
    return renderChainOk(c, created);
  });
  const execute = async (c: Context<AppEnv>, body: z.infer<typeof TxBody>, path?: string) => {
    if (path && body.to && path.toLowerCase() !== body.to.toLowerCase()) {
      throw new DomainError(
        "invalid",
        "VALIDATION_FAILED",
        `to ${body.to} and the wallet address in the path ${path} differ`,
      );
    }
    const wallet = path ?? body.to;
    if (!wallet) {
      throw new DomainError("invalid", "VALIDATION_FAILED", "to (the wallet address) is required");
    }
    if (c.get("network") === "xpla") {
      return await assembleOnXpla(c, { ...body, wallet, signatures: [...body.signatures] });
    }
    const result = await createMultisigExecution(c.get("services"), {
      appid: c.get("app").appid,
      gameIndex: c.get("app").gameIndex,
      network: c.get("network"),
      encoded: body.encoded,
      from: body.from,
      wallet,
      tx: body.tx,
      signatures: body.signatures,
    });
    return renderChainOk(c, result);
  };
  app.openapi(txRoute, (c) => execute(c, c.req.valid("json")));
  app.openapi(
    txWalletRoute,
    (c) => execute(c, c.req.valid("json"), c.req.valid("param").address),
  );
}
