/**
 * NFT metadata: validation of the mint request's metadata, storage per (network, contract,
 * token, mint request) and the public address that becomes the token URI. A token's public
 * metadata is the one of its successful mint; later requests for the same token id never
 * replace it.
 */
import { z } from "zod";
import type { Sql } from "../db/port.ts";

const attribute = z.object({
  traitType: z.string().optional(),
  maxValue: z.number().optional(),
  value: z.union([z.string(), z.number()]).optional(),
  displayType: z.string().optional(),
}).superRefine((a, ctx) => {
  const numeric = typeof a.value === "number"
    ? a.value
    : typeof a.value === "string" && a.value.trim() !== "" && !isNaN(Number(a.value))
    ? Number(a.value)
    : undefined;
  if (a.maxValue !== undefined && a.value !== undefined) {
    if (numeric === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["value"],
        message: "must be a number when maxValue is set",
      });
    } else if (numeric >= a.maxValue) {
      ctx.addIssue({
        code: "custom",
        path: ["value"],
        message: `must be less than maxValue ${a.maxValue}`,
      });
    }
  }
  if (a.displayType === "date" && a.value !== undefined) {
    // Unix seconds: an integer below 10^11 (a millisecond timestamp is about 10^12).
    if (numeric === undefined || !Number.isInteger(numeric) || numeric < 0 || numeric >= 1e11) {
      ctx.addIssue({
        code: "custom",
        path: ["value"],
        message: "must be a Unix timestamp in seconds when displayType is date",
      });
    }
  }
});

/** The metadata object of a mint entry (spec field names). */
export const NftMetadata = z.object({
  name: z.string().trim().min(1),
  description: z.string().optional(),
  image: z.string().trim().min(1),
  animationUrl: z.string().optional(),
  youtubeUrl: z.string().optional(),
  imageData: z.string().optional(),
  externalUrl: z.string().optional(),
  backgroundColor: z.string().optional(),
  attributes: z.array(attribute).optional(),
});

/** Validated metadata. */
export type NftMetadata = z.infer<typeof NftMetadata>;

/** The public metadata address of a token: `{base}/metadata/{network}/{contract}/{tokenId}`. */
export function tokenUriFor(base: string, network: string, contract: string, tokenId: string) {
  return `${base.replace(/\/+$/, "")}/metadata/${network}/${contract}/${tokenId}`;
}

/** Stores the metadata of a mint request's tokens (one row per token and request, never replaced). */
export async function storeMetadata(db: Sql, q: {
  network: string;
  contract: string;
  requestId: string;
  tokens: { tokenId: string; metadata: NftMetadata }[];
  now: Date;
}) {
  await db.query(
    `insert into nft_metadata (network, contract, token_id, request_id, metadata, created_at)
     select $1, $2, x.token_id, $5, x.metadata, $4
       from jsonb_to_recordset($3::jsonb) as x(token_id text, metadata jsonb)
     on conflict (network, contract, token_id, request_id) do nothing`,
    [
      q.network,
      q.contract.toLowerCase(),
      q.tokens.map((t) => ({ token_id: t.tokenId, metadata: t.metadata })),
      q.now,
      q.requestId,
    ],
  );
}

/**
 * Loads one token's metadata, or null: the successful mint's when there is one; otherwise a
 * row stored before per-request metadata, then the first sent mint, then the first unsigned one
 * (first come: a later mint of the same id reverts once the first is mined). A failed mint's
 * metadata is never served.
 */
export async function loadMetadata(
  db: Sql,
  q: { network: string; contract: string; tokenId: string },
): Promise<NftMetadata | null> {
  const [row] = await db.query<{ metadata: NftMetadata }>(
    `select m.metadata
       from nft_metadata m
       left join chain_txs t on t.request_id = m.request_id
      where m.network = $1 and m.contract = $2 and m.token_id = $3
        and (t.status is null or t.status <> 'FAILED')
      order by case t.status when 'SUCCESS' then 0 when 'PENDING' then 2 when 'WAITING' then 3
                 else 1 end,
               m.created_at, m.request_id
      limit 1`,
    [q.network, q.contract.toLowerCase(), q.tokenId],
  );
  return row?.metadata ?? null;
}

/** Renders metadata in the OpenSea shape wallets and marketplaces read from a token URI. */
export function toOpenSeaJson(m: NftMetadata): Record<string, unknown> {
  const out: Record<string, unknown> = { name: m.name, image: m.image };
  if (m.description !== undefined) out.description = m.description;
  if (m.animationUrl !== undefined) out.animation_url = m.animationUrl;
  if (m.youtubeUrl !== undefined) out.youtube_url = m.youtubeUrl;
  if (m.imageData !== undefined) out.image_data = m.imageData;
  if (m.externalUrl !== undefined) out.external_url = m.externalUrl;
  if (m.backgroundColor !== undefined) out.background_color = m.backgroundColor;
  if (m.attributes) {
    out.attributes = m.attributes.map((a) => ({
      ...(a.traitType !== undefined ? { trait_type: a.traitType } : {}),
      ...(a.value !== undefined ? { value: a.value } : {}),
      ...(a.maxValue !== undefined ? { max_value: a.maxValue } : {}),
      ...(a.displayType !== undefined ? { display_type: a.displayType } : {}),
    }));
  }
  return out;
}
