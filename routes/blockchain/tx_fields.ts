/**
 * What the transaction-creating endpoints (mint, lock, unlock, convert) share: the common body
 * fields, the creation response schema, and turning a validated body into a TxRequest.
 */
import type { Context } from "hono";
import { z } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import type { TxRequest } from "../../lib/chain/tx_request.ts";
import { assertRegistrableTarget } from "../../lib/outbound/guard.ts";
import { chainOkResponse } from "./schemas.ts";

/** Body fields of every transaction-creating request. */
export const txFields = {
  playerId: z.union([z.string().trim().min(1).max(128), z.number().int()]).transform(String),
  isSend: z.boolean(),
  encoded: z.boolean(),
  callbackUrl: z.string().trim().min(1).max(2048),
  /** Optional caller-chosen request id; a reused one is refused (idempotency). */
  requestId: z.string().trim().min(1).max(64).regex(/^[A-Za-z0-9._:-]+$/).optional(),
};

/** An address-shaped string (checked again, with the field name, in lib/). */
export const address = z.string().trim().min(1).max(64);

/** A token id or amount: a decimal string or a JSON integer (checked as a uint256 in lib/). */
export const uintString = z.union([z.string().trim().min(1), z.number().int().nonnegative()])
  .transform(String);

/** The transaction-creation response. */
export const txCreationResponse = chainOkResponse(
  z.object({
    txhash: z.string().optional(),
    status: z.enum(["PENDING", "WAITING"]),
    rawTx: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
    hashedTx: z.string().optional(),
    requestId: z.string(),
  }),
  "PENDING with txhash (isSend true) or WAITING with rawTx (isSend false; with hashedTx when the sender is a multi-signature wallet)",
);

/**
 * Builds the TxRequest of a validated body. The callback target is checked up front as item
 * endpoints and OTP callbacks are at registration: http(s), no credentials, a public address, and
 * a host name that does not resolve to a private or loopback one (unless ALLOW_PRIVATE_OUTBOUND).
 */
export async function txRequest(
  c: Context<AppEnv>,
  body: {
    playerId: string;
    isSend: boolean;
    encoded: boolean;
    callbackUrl: string;
    requestId?: string;
  },
  params: Record<string, unknown>,
): Promise<TxRequest> {
  const s = c.get("services");
  await assertRegistrableTarget(s.outbound, { url: body.callbackUrl }, {
    allowPrivate: s.config.allowPrivateOutbound,
    field: "callbackUrl",
    code: "CALLBACK_URL_REFUSED",
  });
  return {
    appid: c.get("app").appid,
    gameIndex: c.get("app").gameIndex,
    network: c.get("network"),
    playerId: body.playerId,
    isSend: body.isSend,
    encoded: body.encoded,
    callbackUrl: body.callbackUrl,
    // With an Idempotency-Key and no requestId, the id the key stands for: a second run of the
    // same request (after a crash or a 5xx) finds the first one's record instead of sending again.
    requestId: body.requestId ?? c.get("idempotentRequestId"),
    params,
  };
}

/** The public base address for token URIs: PUBLIC_BASE_URL, else the request's origin. */
export function publicBaseUrl(c: Context<AppEnv>): string {
  return c.get("services").config.PUBLIC_BASE_URL ?? new URL(c.req.url).origin;
}
