/** GET /service/v1/contract/owner/{owner}: contracts deployed by an account, for the caller's game. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { jsonResponse } from "../env.ts";
import { renderChainOk } from "./envelope.ts";
import { listContractsByOwner } from "../../lib/contracts.ts";

const route = createRoute({
  method: "get",
  path: "/service/v1/contract/owner/{owner}",
  tags: ["blockchain"],
  summary: "List contracts by owner (deployer) account",
  request: {
    params: z.object({ owner: z.string().min(1) }),
    query: z.object({
      contractType: z.string().optional(),
      page: z.coerce.number().int().min(1).default(1),
      limit: z.coerce.number().int().min(1).max(100).default(20),
    }),
  },
  responses: {
    200: jsonResponse(
      z.object({
        code: z.literal(0),
        message: z.string(),
        data: z.object({ contracts: z.array(z.any()) }),
      }),
      "contracts",
    ),
  },
});

/** Registers the route. */
export function registerContractsByOwner(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { owner } = c.req.valid("param");
    const q = c.req.valid("query");
    const result = await listContractsByOwner(c.var.services.db, {
      network: c.var.network,
      gameIndex: c.var.app.gameIndex,
      owner,
      type: q.contractType,
      page: q.page,
      limit: q.limit,
    });
    return renderChainOk(c, result);
  });
}
