/** GET and POST /service/v1/nft/{contract}/tokens/{tokenId}: token URI and stored metadata. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { renderChainOk } from "./envelope.ts";
import { chainOkResponse } from "./schemas.ts";
import { chainPort } from "../../lib/chain/port.ts";

const params = z.object({ contract: z.string().min(1), tokenId: z.string().min(1) });
const responses = chainOkResponse(
  z.object({
    nftContract: z.string(),
    tokenId: z.string(),
    tokenUri: z.string(),
    gatewayUrl: z.string(),
    metadata: z.record(z.string(), z.unknown()),
  }),
  "NFT record",
);

// The method table lists POST, the sample uses GET: both answer, and POST needs no body.
const getRoute = createRoute({
  method: "get",
  path: "/service/v1/nft/{contract}/tokens/{tokenId}",
  tags: ["blockchain"],
  summary: "Get NFT information",
  request: { params },
  responses,
});
const postRoute = createRoute({ ...getRoute, method: "post" });

/** Registers both methods. */
export function registerNftInfo(app: OpenAPIHono<AppEnv>) {
  for (const route of [getRoute, postRoute]) {
    app.openapi(route, async (c) => {
      const { contract, tokenId } = c.req.valid("param");
      const info = await chainPort(c.get("network")).nftInfo(c.get("services"), {
        network: c.get("network"),
        gameIndex: c.get("app").gameIndex,
        contract,
        tokenId,
      });
      return renderChainOk(c, info);
    });
  }
}
