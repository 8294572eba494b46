/** Admin: deploying the Safe contracts on a local chain, and a game's multi-signature wallets. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv, JsonResponse } from "../env.ts";
import { jsonBody, jsonResponse } from "../env.ts";
import { chainUnavailable } from "./params.ts";
import { requireGame } from "../../lib/tenancy.ts";
import { PageQuery, pageSchema } from "./paging.ts";
import { requireChain } from "../../lib/chain/sending.ts";
import { deploySafeContracts, safeContracts } from "../../lib/chain/safe/contracts.ts";
import { listSafes } from "../../lib/chain/safe/wallets.ts";
import { gameIndexField } from "./params.ts";

const addresses = z.object({
  singleton: z.string(),
  proxyFactory: z.string(),
  fallbackHandler: z.string(),
});

const SafeRecord = z.object({
  network: z.string(),
  chainId: z.number(),
  address: z.string(),
  gameIndex: z.number(),
  owners: z.array(z.string()),
  threshold: z.number(),
  saltNonce: z.string(),
  creator: z.string(),
  state: z.enum(["CREATING", "DEPLOYED"]).openapi({
    description: "CREATING until the wallet's code is on chain",
  }),
  createdAt: z.string(),
  deployedAt: z.string().nullable(),
});

const deployRoute = createRoute({
  method: "post",
  path: "/admin/v1/multisig/contracts",
  tags: ["admin"],
  summary: "Deploy Safe 1.4.1 (SafeL2, proxy factory, fallback handler) on a chain that lacks it",
  request: {
    body: jsonBody(z.object({
      network: z.literal("polygon"),
      gameIndex: gameIndexField,
      from: z.string().min(1).max(64),
    })),
  },
  responses: {
    503: chainUnavailable,
    201: jsonResponse(addresses.extend({ txHashes: z.array(z.string()) }), "deployed"),
  },
});

const contractsRoute = createRoute({
  method: "get",
  path: "/admin/v1/multisig/contracts",
  tags: ["admin"],
  summary: "The Safe contracts the chain uses (source: config, deployed, canonical)",
  request: { query: z.object({ network: z.literal("polygon").default("polygon") }) },
  responses: {
    503: chainUnavailable,
    200: jsonResponse(addresses.extend({ source: z.string() }), "addresses"),
  },
});

const listRoute = createRoute({
  method: "get",
  path: "/admin/v1/multisig",
  tags: ["admin"],
  summary: "A game's multi-signature wallets, newest first",
  request: {
    query: PageQuery.extend({
      gameIndex: z.coerce.number().pipe(gameIndexField),
      network: z.enum(["polygon", "xpla"]).optional(),
    }),
  },
  responses: {
    200: jsonResponse(pageSchema(SafeRecord), "a page of multi-signature wallets"),
  },
});

/** Registers the multi-signature admin routes. */
export function registerMultisigAdmin(app: OpenAPIHono<AppEnv>) {
  app.openapi(deployRoute, async (c) => {
    const s = c.get("services");
    const body = c.req.valid("json");
    await requireGame(s.db, body.gameIndex);
    const deployed = await deploySafeContracts(s, requireChain(s, body.network), body);
    return c.json(deployed, 201) as JsonResponse;
  });
  app.openapi(contractsRoute, async (c) => {
    const s = c.get("services");
    const chain = requireChain(s, c.req.valid("query").network);
    return c.json(await safeContracts(s, chain), 200) as JsonResponse;
  });
  app.openapi(listRoute, async (c) => {
    return c.json(await listSafes(c.get("services"), c.req.valid("query")), 200) as JsonResponse;
  });
}
