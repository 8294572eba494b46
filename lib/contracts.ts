/** The registry of blockchain contracts the service knows, per network and game. */
import type { Sql } from "./db/port.ts";

/** A contract as the API shows it. */
export interface ContractRecord {
  network: string;
  owner: string;
  address: string;
  type: string;
  name: string;
  gameIndex: number;
  gameName: string;
}

/** Pagination metadata used by the list endpoints. */
export interface PageMeta {
  totalItems: number;
  itemCount: number;
  itemsPerPage: number;
  totalPages: number;
  currentPage: number;
}

/** Builds the `meta` record of a page. */
export function pageMeta(total: number, count: number, limit: number, page: number): PageMeta {
  return {
    totalItems: total,
    itemCount: count,
    itemsPerPage: limit,
    totalPages: Math.ceil(total / limit),
    currentPage: page,
  };
}

/** Lists contracts by owner address (case-insensitive), optionally of one type. */
export async function listContractsByOwner(db: Sql, q: {
  network: string;
  gameIndex: number;
  owner: string;
  type?: string;
  page: number;
  limit: number;
  /** Addresses the chain reports as created by the owner (xpla): listed whatever their owner field. */
  createdOnChain?: string[];
}): Promise<{ contracts: ContractRecord[]; meta: PageMeta }> {
  // One query: the page of matches plus the total, which still comes back (on a row of nulls)
  // when the page lies past the end.
  const rows = await db.query<{
    network: string | null;
    owner: string;
    address: string;
    type: string;
    name: string;
    game_index: number;
    game_name: string;
    total: string;
  }>(
    `with matching as (
       select c.network, c.owner, c.address, c.type, c.name, c.game_index, c.created_at,
              g.name as game_name
         from contracts c join games g on g.game_index = c.game_index
        where c.network = $1 and c.game_index = $2
          and (lower(c.owner) = lower($3)
            or c.address in (select jsonb_array_elements_text($7::jsonb)))
          and ($4::text is null or c.type = $4))
     select (select count(*) from matching) as total, page.*
       from (select 1) as always
       left join (select * from matching order by created_at, address limit $5 offset $6) as page
         on true
      order by page.created_at, page.address`,
    [
      q.network,
      q.gameIndex,
      q.owner,
      q.type ?? null,
      q.limit,
      (q.page - 1) * q.limit,
      q.createdOnChain ?? [],
    ],
  );
  const total = Number(rows[0]?.total ?? 0);
  const found = rows.filter((r) => r.network !== null);
  return {
    contracts: found.map((r) => ({
      network: r.network!,
      owner: r.owner,
      address: r.address,
      type: r.type,
      name: r.name,
      gameIndex: r.game_index,
      gameName: r.game_name,
    })),
    meta: pageMeta(total, found.length, q.limit, q.page),
  };
}
