/** GET /metadata/{network}/{contract}/{tokenId}: public NFT metadata, the token URI of minted NFTs. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv, JsonResponse } from "../env.ts";
import { jsonResponse } from "../env.ts";
import { loadMetadata, toOpenSeaJson } from "../../lib/chain/metadata.ts";
import { notFound } from "../../lib/errors.ts";

const route = createRoute({
  method: "get",
  path: "/metadata/{network}/{contract}/{tokenId}",
  tags: ["system"],
  summary: "Public NFT metadata (OpenSea JSON shape), no authentication",
  request: {
    params: z.object({
      network: z.enum(["polygon", "xpla"]),
      contract: z.string().min(1).max(64),
      tokenId: z.string().regex(/^\d{1,78}$/),
    }),
  },
  responses: { 200: jsonResponse(z.record(z.string(), z.unknown()), "token metadata") },
});

/** Registers the route. */
export function registerMetadata(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { network, contract, tokenId } = c.req.valid("param");
    const metadata = await loadMetadata(c.get("services").db, {
      network,
      contract,
      tokenId: BigInt(tokenId).toString(),
    });
    if (!metadata) throw notFound(`no metadata for token ${tokenId}`, "METADATA_NOT_FOUND");
    c.header("cache-control", "public, max-age=60");
    c.header("access-control-allow-origin", "*");
    return c.json(toOpenSeaJson(metadata), 200) as JsonResponse;
  });
}
