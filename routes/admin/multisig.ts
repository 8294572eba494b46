/** Admin: deploying the Safe contracts on a local chain, and a game's multi-signature wallets. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv, JsonResponse } from "../env.ts";
import { jsonBody, jsonResponse } from "../env.ts";
import { chainUnavailable } from "./params.ts";
import { requireGame } from "../../lib/tenancy.ts";
import { pageMeta } from "../../lib/contracts.ts";
import { requireChain } from "../../lib/chain/sending.ts";
import { deploySafeContracts, safeContracts } from "../../lib/chain/safe/contracts.ts";
import { listSafes } from "../../lib/chain/safe/wallets.ts";
import { gameIndexField } from "./params.ts";

const addresses = z.object({
  singleton: z.string(),
  proxyFactory: z.string(),
  fallbackHandler: z.string(),
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
    query: z.object({
      gameIndex: z.coerce.number().pipe(gameIndexField),
      network: z.enum(["polygon", "xpla"]).optional(),
      page: z.coerce.number().int().min(1).default(1),
      limit: z.coerce.number().int().min(1).max(100).default(20),
    }),
  },
  responses: {
    503: chainUnavailable,
    200: jsonResponse(
      z.object({
        multisig: z.array(z.record(z.string(), z.unknown())),
        meta: z.record(z.string(), z.number()),
      }),
      "wallets: network, chainId, address, gameIndex, owners, threshold, saltNonce, creator, state (CREATING, DEPLOYED), createdAt, deployedAt",
    ),
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
    const s = c.get("services");
    const q = c.req.valid("query");
    await requireGame(s.db, q.gameIndex);
    const { wallets, total } = await listSafes(s, q);
    return c.json(
      { multisig: wallets, meta: pageMeta(total, wallets.length, q.limit, q.page) },
      200,
    ) as JsonResponse;
  });
}
