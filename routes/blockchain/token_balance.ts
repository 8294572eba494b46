/** GET /service/v1/ft/{contract}/account/{from}/balance: a holder's game token balance. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { renderChainOk } from "./envelope.ts";
import { chainOkResponse } from "./schemas.ts";
import { chainPort } from "../../lib/chain/port.ts";

const route = createRoute({
  method: "get",
  path: "/service/v1/ft/{contract}/account/{from}/balance",
  tags: ["blockchain"],
  summary: "Get token balance",
  request: { params: z.object({ contract: z.string().min(1), from: z.string().min(1) }) },
  responses: chainOkResponse(
    z.object({
      value: z.string(),
      rawValue: z.string(),
      decimals: z.number(),
      symbol: z.string(),
      symbolUri: z.string(),
    }),
    "token balance record",
  ),
});

/** Registers the route. */
export function registerTokenBalance(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { contract, from } = c.req.valid("param");
    const balance = await chainPort(c.get("network")).tokenBalance(c.get("services"), {
      network: c.get("network"),
      gameIndex: c.get("app").gameIndex,
      contract,
      holder: from,
    });
    return renderChainOk(c, balance);
  });
}
