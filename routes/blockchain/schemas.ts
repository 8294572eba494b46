/** Schemas the blockchain routes share: the success envelope and the paged-list query and meta. */
import { z } from "@hono/zod-openapi";
import { jsonResponse } from "../env.ts";

/** The 200 response `{code: 0, message, data}` (no `data` when no schema is given). */
export function chainOkResponse(data: z.ZodType | undefined, description: string) {
  const envelope = { code: z.literal(0), message: z.string() };
  return {
    200: jsonResponse(z.object(data ? { ...envelope, data } : envelope), description),
  };
}

/** Query fields of a paged list: page 1 and 20 items by default, at most 100 per page. */
export const pageQuery = {
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
};

/** The `meta` of a paged list (lib/contracts.ts PageMeta). */
export const pageMetaSchema = z.object({
  totalItems: z.number(),
  itemCount: z.number(),
  itemsPerPage: z.number(),
  totalPages: z.number(),
  currentPage: z.number(),
});
