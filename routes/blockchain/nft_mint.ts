/** POST /service/v1/nft/{contract}/mint: batch-mint caller-chosen token ids with metadata. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { jsonBody } from "../env.ts";
import { renderChainOk } from "./envelope.ts";
import {
  address,
  publicBaseUrl,
  txCreationResponse,
  txFields,
  txRequest,
  uintString,
} from "./tx_fields.ts";
import { NftMetadata } from "../../lib/chain/metadata.ts";
import { chainPort } from "../../lib/chain/port.ts";
import { DomainError } from "../../lib/errors.ts";

const royalty = z.number().min(0).max(100);

const MintBody = z.object({
  ...txFields,
  from: address,
  to: address,
  // Per entry (field table) or once at the top level (the spec's request sample).
  royaltyPercentage: royalty.optional(),
  mintMsg: z.array(z.object({
    tokenId: uintString,
    royaltyPercentage: royalty.optional(),
    metadata: NftMetadata,
  })).min(1),
});

const route = createRoute({
  method: "post",
  path: "/service/v1/nft/{contract}/mint",
  tags: ["blockchain"],
  summary:
    "Mint NFTs (at most 50 per call on polygon, 200 on xpla); token URIs point at /metadata/...",
  request: {
    params: z.object({ contract: z.string().min(1) }),
    body: jsonBody(MintBody),
  },
  responses: txCreationResponse,
});

/** Registers the route. */
export function registerNftMint(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { contract } = c.req.valid("param");
    const body = c.req.valid("json");
    const entries = body.mintMsg.map((m, i) => {
      const royaltyPercentage = m.royaltyPercentage ?? body.royaltyPercentage;
      if (royaltyPercentage === undefined) {
        throw new DomainError(
          "invalid",
          "VALIDATION_FAILED",
          `mintMsg[${i}].royaltyPercentage is required (or royaltyPercentage at the top level)`,
        );
      }
      return { tokenId: m.tokenId, royaltyPercentage, metadata: m.metadata };
    });
    const req = await txRequest(c, body, {
      contract,
      from: body.from,
      to: body.to,
      mintMsg: entries,
    });
    const created = await chainPort(c.get("network")).mintNfts(c.get("services"), req, {
      contract,
      from: body.from,
      to: body.to,
      entries,
      publicBaseUrl: publicBaseUrl(c),
    });
    return renderChainOk(c, created);
  });
}
