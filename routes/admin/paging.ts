/** Schemas shared by the admin read routes: paging parameters and the page envelope. */
import { z } from "@hono/zod-openapi";
import { MAX_PAGE } from "../../lib/reads/page.ts";

/** `limit` (1..200, default 50) and `cursor` (from the previous page's nextCursor). */
export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE).default(50),
  cursor: z.string().max(1024).optional(),
});

/** A page of items with the cursor of the next page. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), nextCursor: z.string().nullable() });
}

/** A key in a path (an appid, key id, transaction id, ...). */
export const PathKey = z.string().min(1).max(256);
