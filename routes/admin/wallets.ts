/** Admin: wallets with their chain state, and funding from a local node's dev account. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv, JsonResponse } from "../env.ts";
import { jsonBody, jsonResponse } from "../env.ts";
import { chainUnavailable } from "./params.ts";
import { PageQuery, pageSchema } from "./paging.ts";
import { fundFromDevAccount, listWallets, walletInfo } from "../../lib/chain/wallet_info.ts";
import { gameIndexField } from "./params.ts";

const walletRecord = z.object({
  address: z.string(),
  gameIndex: z.number().nullable(),
  keyHeld: z.boolean(),
  createdAt: z.string().nullable(),
  polygon: z.object({
    chainId: z.number(),
    balance: z.string(),
    balanceWei: z.string(),
    nonce: z.number(),
    lowBalance: z.boolean().openapi({ description: "balance below POLYGON_LOW_BALANCE_POL" }),
  }).nullable(),
  xplaAddress: z.string(),
  xpla: z.object({
    chainId: z.string(),
    balance: z.string(),
    balanceAxpla: z.string(),
    accountNumber: z.string().nullable(),
    sequence: z.string(),
    active: z.boolean(),
  }).nullable(),
});

const listRoute = createRoute({
  method: "get",
  path: "/admin/v1/wallets",
  tags: ["admin"],
  summary: "A game's held wallets, newest first, with native balance and nonce read from the chain",
  request: { query: PageQuery.extend({ gameIndex: z.coerce.number().pipe(gameIndexField) }) },
  responses: {
    503: chainUnavailable,
    200: jsonResponse(pageSchema(walletRecord), "a page of wallets"),
  },
});

const getRoute = createRoute({
  method: "get",
  path: "/admin/v1/wallets/{address}",
  tags: ["admin"],
  summary:
    "Any address (0x… or xpla1…): its address on both networks, chain state, and whether the service holds its key",
  request: { params: z.object({ address: z.string().min(1).max(64) }) },
  responses: { 503: chainUnavailable, 200: jsonResponse(walletRecord, "wallet") },
});

const fundRoute = createRoute({
  method: "post",
  path: "/admin/v1/wallets/{address}/fund",
  tags: ["admin"],
  summary: "Local development chains only: send native currency from the node's dev account",
  request: {
    params: z.object({ address: z.string().min(1).max(64) }),
    body: jsonBody(z.object({ amount: z.string().regex(/^\d{1,12}(\.\d{1,18})?$/) })),
  },
  responses: {
    503: chainUnavailable,
    200: jsonResponse(
      z.object({ txHash: z.string(), from: z.string(), address: z.string(), amount: z.string() }),
      "funded (mined)",
    ),
  },
});

/** Registers the wallet admin routes. */
export function registerWalletAdmin(app: OpenAPIHono<AppEnv>) {
  app.openapi(listRoute, async (c) => {
    return c.json(
      await listWallets(c.get("services"), c.req.valid("query")),
      200,
    ) as JsonResponse;
  });
  app.openapi(getRoute, async (c) => {
    return c.json(
      await walletInfo(c.get("services"), c.req.valid("param").address),
      200,
    ) as JsonResponse;
  });
  app.openapi(fundRoute, async (c) => {
    const funded = await fundFromDevAccount(c.get("services"), {
      address: c.req.valid("param").address,
      amount: c.req.valid("json").amount,
    });
    return c.json(funded, 200) as JsonResponse;
  });
}
