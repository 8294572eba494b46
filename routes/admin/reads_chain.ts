/** Admin reads of a game's contracts and the transactions of all its apps. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv, JsonResponse } from "../env.ts";
import { jsonResponse } from "../env.ts";
import { GameIndexParam } from "./params.ts";
import { contractRecord } from "./chain.ts";
import { PageQuery, pageSchema, PathKey } from "./paging.ts";
import { getGameTransaction, listContracts, listGameTransactions } from "../../lib/reads/chain.ts";
import { CONTRACT_TYPES } from "../../lib/chain/registry.ts";

const network = z.enum(["polygon", "xpla"]);

const Contract = contractRecord.extend({ createdAt: z.string() });

const Transaction = z.object({
  requestId: z.string(),
  appid: z.string(),
  network: z.string(),
  chainId: z.number(),
  playerId: z.string(),
  txType: z.string(),
  status: z.string(),
  from: z.string(),
  contract: z.string(),
  txHash: z.string().nullable(),
  nonce: z.string().nullable(),
  requestParams: z.record(z.string(), z.unknown()),
  callback: z.object({ state: z.string(), attempts: z.number() }).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  sentAt: z.string().nullable(),
  failReason: z.string().nullable(),
  minedBlock: z.string().nullable(),
  feeCappedAt: z.string().nullable(),
  cancelRequestedAt: z.string().nullable(),
});

const Attempt = z.object({
  seq: z.number(),
  kind: z.string().openapi({ description: "send, replace, reprice, resign or cancel" }),
  txHash: z.string(),
  nonce: z.string().openapi({ description: "the nonce (XPLA: the account sequence)" }),
  maxFeePerGas: z.string().nullable().openapi({ description: "wei (Polygon)" }),
  maxPriorityFeePerGas: z.string().nullable().openapi({ description: "wei (Polygon)" }),
  fee: z.string().nullable().openapi({ description: "coins paid (XPLA)" }),
  timeoutHeight: z.string().nullable().openapi({ description: "XPLA" }),
  sentAt: z.string().nullable(),
});

const contractsRoute = createRoute({
  method: "get",
  path: "/admin/v1/games/{gameIndex}/contracts",
  tags: ["admin"],
  summary: "The game's registered and deployed contracts, newest first",
  request: {
    params: GameIndexParam,
    query: PageQuery.extend({
      network: network.optional(),
      type: z.enum(CONTRACT_TYPES).optional(),
    }),
  },
  responses: { 200: jsonResponse(pageSchema(Contract), "a page of contracts") },
});

const txsRoute = createRoute({
  method: "get",
  path: "/admin/v1/games/{gameIndex}/transactions",
  tags: ["admin"],
  summary: "Transactions of every app of the game, newest first, with their states",
  request: {
    params: GameIndexParam,
    query: PageQuery.extend({
      status: z.enum(["PENDING", "WAITING", "SUCCESS", "FAILED"]).optional(),
      network: network.optional(),
      appid: z.string().min(1).max(128).optional(),
    }),
  },
  responses: { 200: jsonResponse(pageSchema(Transaction), "a page of transactions") },
});

const txRoute = createRoute({
  method: "get",
  path: "/admin/v1/games/{gameIndex}/transactions/{requestId}",
  tags: ["admin"],
  summary: "One transaction of the game",
  request: { params: GameIndexParam.extend({ requestId: PathKey }) },
  responses: {
    200: jsonResponse(
      Transaction.extend({ attempts: z.array(Attempt) }),
      "the transaction with every broadcast attempt",
    ),
  },
});

/** Registers the chain read routes. */
export function registerChainReads(app: OpenAPIHono<AppEnv>) {
  app.openapi(contractsRoute, async (c) => {
    const { gameIndex } = c.req.valid("param");
    const page = await listContracts(c.get("services").db, gameIndex, c.req.valid("query"));
    return c.json(page, 200) as JsonResponse;
  });
  app.openapi(txsRoute, async (c) => {
    const { gameIndex } = c.req.valid("param");
    const page = await listGameTransactions(c.get("services").db, gameIndex, c.req.valid("query"));
    return c.json(page, 200) as JsonResponse;
  });
  app.openapi(txRoute, async (c) => {
    const { gameIndex, requestId } = c.req.valid("param");
    return c.json(
      await getGameTransaction(c.get("services").db, gameIndex, requestId),
      200,
    ) as JsonResponse;
  });
}
