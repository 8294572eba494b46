/** POST /service/v1/nft/contract/{contract}/lock: move an NFT into a lock escrow. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { jsonBody } from "../env.ts";
import { renderChainOk } from "./envelope.ts";
import { address, txCreationResponse, txFields, txRequest, uintString } from "./tx_fields.ts";
import { chainPort } from "../../lib/chain/port.ts";

const route = createRoute({
  method: "post",
  path: "/service/v1/nft/contract/{contract}/lock",
  tags: ["blockchain"],
  summary: "Lock an NFT (sent by its owner or the lock operator)",
  request: {
    params: z.object({ contract: z.string().min(1) }),
    body: jsonBody(z.object({
      ...txFields,
      from: address,
      lockContract: address,
      tokenId: uintString,
    })),
  },
  responses: txCreationResponse,
});

/** Registers the route. */
export function registerNftLock(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { contract } = c.req.valid("param");
    const body = c.req.valid("json");
    const input = {
      contract,
      lockContract: body.lockContract,
      from: body.from,
      tokenId: body.tokenId,
    };
    const created = await chainPort(c.get("network")).lockNft(
      c.get("services"),
      await txRequest(c, body, input),
      input,
    );
    return renderChainOk(c, created);
  });
}
