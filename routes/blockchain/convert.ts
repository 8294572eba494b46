/** POST /service/v1/convert/{type}: exchange game currency and game token through a convert pool. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { jsonBody } from "../env.ts";
import { renderChainOk } from "./envelope.ts";
import { address, txCreationResponse, txFields, txRequest, uintString } from "./tx_fields.ts";
import { chainPort } from "../../lib/chain/port.ts";

const route = createRoute({
  method: "post",
  path: "/service/v1/convert/{type}",
  tags: ["blockchain"],
  summary: "Convert game currency to game token (to-token) or back (to-currency)",
  request: {
    params: z.object({ type: z.enum(["to-token", "to-currency"]) }),
    body: jsonBody(z.object({
      ...txFields,
      owner: address,
      convertPool: address,
      gameTokenAmount: uintString,
      gameCurrencyCode: z.string().trim().min(1).max(64),
      gameCurrencyAmount: uintString,
    })),
  },
  responses: txCreationResponse,
});

/** Registers the route. */
export function registerConvert(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { type } = c.req.valid("param");
    const body = c.req.valid("json");
    const input = {
      direction: type,
      owner: body.owner,
      convertPool: body.convertPool,
      gameTokenAmount: body.gameTokenAmount,
      gameCurrencyCode: body.gameCurrencyCode,
      gameCurrencyAmount: body.gameCurrencyAmount,
    };
    const created = await chainPort(c.get("network")).convert(
      c.get("services"),
      await txRequest(c, body, input),
      input,
    );
    return renderChainOk(c, created);
  });
}
