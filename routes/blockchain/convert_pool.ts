/** GET /service/v1/convert/pool/{convertPool}: remaining pool tokens and currency totals. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { renderChainOk } from "./envelope.ts";
import { chainOkResponse } from "./schemas.ts";
import { chainPort } from "../../lib/chain/port.ts";

const route = createRoute({
  method: "get",
  path: "/service/v1/convert/pool/{convertPool}",
  tags: ["blockchain"],
  summary: "Get convert pool information",
  request: { params: z.object({ convertPool: z.string().min(1) }) },
  responses: chainOkResponse(
    z.object({
      convertPoolAmount: z.string(),
      gameCurrency: z.array(z.object({ goodsCode: z.string(), goodsAmount: z.string() })),
    }),
    "convert pool record",
  ),
});

/** Registers the route. */
export function registerConvertPool(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const info = await chainPort(c.get("network")).poolInfo(c.get("services"), {
      network: c.get("network"),
      gameIndex: c.get("app").gameIndex,
      pool: c.req.valid("param").convertPool,
    });
    return renderChainOk(c, info);
  });
}
