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
}): Promise<{ contracts: ContractRecord[]; meta: PageMeta }> {
  const rows = await db.query<{
    network: string;
    owner: string;
    address: string;
    type: string;
    name: string;
    game_index: number;
    game_name: string;
    total: string;
  }>(
    `select c.network, c.owner, c.address, c.type, c.name, c.game_index, g.name as game_name,
            count(*) over () as total
       from contracts c join games g on g.game_index = c.game_index
      where c.network = $1 and c.game_index = $2 and lower(c.owner) = lower($3)
        and ($4::text is null or c.type = $4)
      order by c.created_at, c.address
      limit $5 offset $6`,
    [q.network, q.gameIndex, q.owner, q.type ?? null, q.limit, (q.page - 1) * q.limit],
  );
  // Past the last page the window count is empty: count separately so meta stays right.
  const total = rows.length > 0 ? Number(rows[0].total) : q.page > 1
    ? Number(
      (await db.query<{ n: string }>(
        `select count(*) as n from contracts
          where network = $1 and game_index = $2 and lower(owner) = lower($3)
            and ($4::text is null or type = $4)`,
        [q.network, q.gameIndex, q.owner, q.type ?? null],
      ))[0].n,
    )
    : 0;
  return {
    contracts: rows.map((r) => ({
      network: r.network,
      owner: r.owner,
      address: r.address,
      type: r.type,
      name: r.name,
      gameIndex: r.game_index,
      gameName: r.game_name,
    })),
    meta: pageMeta(total, rows.length, q.limit, q.page),
  };
}
