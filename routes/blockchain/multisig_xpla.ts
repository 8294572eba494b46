/**
 * The xpla side of POST /core/v1/multisig and POST /core/v1/multisig/tx[/{address}]: bodies
 * validated here, work done by lib/chain/xpla/multisig.ts. On xpla nothing is sent to create a
 * wallet (the answer is `{address}`), and the assembled transaction is broadcast by the creator
 * as it is (no further signature).
 */
import type { Context } from "hono";
import { z } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { formatIssues } from "../validation.ts";
import { renderChainOk } from "./envelope.ts";
import { DomainError } from "../../lib/errors.ts";
import { requireXpla } from "../../lib/chain/xpla/transactions.ts";
import { assembleXplaMultisigTx, createXplaMultisig } from "../../lib/chain/xpla/multisig.ts";

const address = z.string().trim().min(1).max(128);

/** Body of wallet creation on xpla. */
export const XplaMultisigCreate = z.object({
  from: address,
  signers: z.array(address).min(1),
  threshold: z.number().int(),
});

/** Body of transaction assembly on xpla (`to` may come from the path instead). */
export const XplaMultisigTx = z.object({
  encoded: z.union([z.boolean(), z.string()]).optional(),
  from: address,
  to: address.optional(),
  tx: z.union([z.string().min(1), z.record(z.string(), z.unknown())]),
  signatures: z.array(z.string().min(1)),
});

async function readBody<T extends z.ZodType>(c: Context<AppEnv>, schema: T): Promise<z.infer<T>> {
  let json: unknown;
  try {
    json = await c.req.json();
  } catch {
    throw new DomainError("invalid", "BAD_REQUEST", "request body is not valid JSON");
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new DomainError("invalid", "VALIDATION_FAILED", formatIssues(parsed.error.issues));
  }
  return parsed.data;
}

/** Creates an xpla multisig wallet: `data: {address}`. */
export async function createXplaMultisigRoute(c: Context<AppEnv>) {
  const s = c.var.services;
  const chain = requireXpla(s);
  const body = await readBody(c, XplaMultisigCreate);
  const created = await createXplaMultisig(s, chain, {
    gameIndex: c.var.app.gameIndex,
    ...body,
  });
  return renderChainOk(c, created);
}

/** Assembles a multisig transaction: `data: {rawTx (base64 tx bytes), requestId, reqeustId}`. */
export async function assembleXplaMultisigRoute(c: Context<AppEnv>, pathAddress?: string) {
  const s = c.var.services;
  const chain = requireXpla(s);
  const body = await readBody(c, XplaMultisigTx);
  const to = pathAddress ?? body.to;
  if (!to) {
    throw new DomainError(
      "invalid",
      "VALIDATION_FAILED",
      "to is required (in the body or as the last path segment)",
    );
  }
  if (pathAddress && body.to && body.to !== pathAddress) {
    throw new DomainError("invalid", "VALIDATION_FAILED", "to differs from the path address");
  }
  const { rawTx, requestId } = await assembleXplaMultisigTx(s, chain, {
    gameIndex: c.var.app.gameIndex,
    from: body.from,
    to,
    tx: body.tx,
    signatures: body.signatures,
  });
  const id = requestId ?? crypto.randomUUID();
  return renderChainOk(c, { rawTx, requestId: id, reqeustId: id });
}
