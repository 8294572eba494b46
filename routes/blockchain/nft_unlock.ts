/** POST /service/v1/lock/contract/{contract}/unlock: return a locked NFT to its owner. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { jsonBody } from "../env.ts";
import { renderChainOk } from "./envelope.ts";
import { address, txCreationResponse, txFields, txRequest, uintString } from "./tx_fields.ts";
import { chainPort } from "../../lib/chain/port.ts";

const route = createRoute({
  method: "post",
  path: "/service/v1/lock/contract/{contract}/unlock",
  tags: ["blockchain"],
  summary: "Unlock an NFT (sent by the lock contract's operator)",
  request: {
    params: z.object({ contract: z.string().min(1) }),
    body: jsonBody(z.object({
      ...txFields,
      from: address,
      nftContract: address,
      tokenId: uintString,
    })),
  },
  responses: txCreationResponse,
});

/** Registers the route. */
export function registerNftUnlock(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { contract } = c.req.valid("param");
    const body = c.req.valid("json");
    const input = {
      lockContract: contract,
      nftContract: body.nftContract,
      from: body.from,
      tokenId: body.tokenId,
    };
    const created = await chainPort(c.get("network")).unlockNft(
      c.get("services"),
      await txRequest(c, body, input),
      input,
    );
    return renderChainOk(c, created);
  });
}
