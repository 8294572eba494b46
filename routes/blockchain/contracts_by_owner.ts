/** GET /service/v1/contract/owner/{owner}: contracts deployed by an account, for the caller's game. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { renderChainOk } from "./envelope.ts";
import { chainOkResponse, pageMetaSchema, pageQuery } from "./schemas.ts";
import { chainPort } from "../../lib/chain/port.ts";

const route = createRoute({
  method: "get",
  path: "/service/v1/contract/owner/{owner}",
  tags: ["blockchain"],
  summary: "List contracts by owner (deployer) account",
  request: {
    params: z.object({ owner: z.string().min(1) }),
    query: z.object({
      contractType: z.string().optional(),
      ...pageQuery,
    }),
  },
  responses: chainOkResponse(
    z.object({ contracts: z.array(z.record(z.string(), z.unknown())), meta: pageMetaSchema }),
    "contracts and meta",
  ),
});

/** Registers the route. */
export function registerContractsByOwner(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { owner } = c.req.valid("param");
    const q = c.req.valid("query");
    const result = await chainPort(c.get("network")).contractsByOwner(c.get("services"), {
      network: c.get("network"),
      gameIndex: c.get("app").gameIndex,
      owner,
      type: q.contractType,
      page: q.page,
      limit: q.limit,
    });
    return renderChainOk(c, result);
  });
}
