/** Admin reads of a game's blockchain records: contracts and transactions of all its apps. */
import type { Sql } from "../db/port.ts";
import { notFound } from "../errors.ts";
import { requireGame } from "../tenancy.ts";
import { iso, keysetPage, type Page, type PageRequest } from "./page.ts";

/** A contract as the admin API shows it. */
export interface ContractView {
  network: string;
  address: string;
  type: string;
  name: string;
  owner: string;
  gameIndex: number;
  symbolUri: string | null;
  createdAt: string;
}

/** The game's contracts, newest first, optionally of one network and type. */
export async function listContracts(
  db: Sql,
  gameIndex: number,
  q: PageRequest & { network?: string; type?: string },
): Promise<Page<ContractView>> {
  return await keysetPage(db, {
    select: "network, address, type, name, owner, game_index, symbol_uri, created_at",
    from: "contracts",
    where: `game_index = $1 and ($2::text is null or network = $2)
        and ($3::text is null or type = $3)`,
    params: [gameIndex, q.network ?? null, q.type ?? null],
    order: { time: "created_at", key: "(network || ':' || address)" },
    page: q,
    gameIndex,
    map: (r: {
      network: string;
      address: string;
      type: string;
      name: string;
      owner: string;
      game_index: number;
      symbol_uri: string | null;
      created_at: Date;
    }) => ({
      network: r.network,
      address: r.address,
      type: r.type,
      name: r.name,
      owner: r.owner,
      gameIndex: r.game_index,
      symbolUri: r.symbol_uri,
      createdAt: iso(r.created_at)!,
    }),
  });
}

/** A transaction request of one of the game's apps. */
export interface TransactionView {
  requestId: string;
  appid: string;
  network: string;
  chainId: number;
  playerId: string;
  txType: string;
  status: string;
  from: string;
  contract: string;
  txHash: string | null;
  nonce: string | null;
  requestParams: Record<string, unknown>;
  callback: { state: string; attempts: number } | null;
  createdAt: string;
  updatedAt: string;
  sentAt: string | null;
}

type TxRow = {
  request_id: string;
  appid: string;
  network: string;
  chain_id: number;
  player_id: string;
  tx_type: string;
  status: string;
  from_address: string;
  contract: string;
  tx_hash: string | null;
  nonce: string | null;
  request_params: Record<string, unknown>;
  callback_url: string | null;
  callback_state: string;
  callback_attempts: number;
  created_at: Date;
  updated_at: Date;
  sent_at: Date | null;
};

function txView(r: TxRow): TransactionView {
  return {
    requestId: r.request_id,
    appid: r.appid,
    network: r.network,
    chainId: r.chain_id,
    playerId: r.player_id,
    txType: r.tx_type,
    status: r.status,
    from: r.from_address,
    contract: r.contract,
    txHash: r.tx_hash,
    nonce: r.nonce === null ? null : String(r.nonce),
    requestParams: r.request_params,
    // The callback address is the app's; its state is enough to see whether it was told.
    callback: r.callback_url ? { state: r.callback_state, attempts: r.callback_attempts } : null,
    createdAt: iso(r.created_at)!,
    updatedAt: iso(r.updated_at)!,
    sentAt: iso(r.sent_at),
  };
}

const TX_COLUMNS = `request_id, appid, network, chain_id, player_id, tx_type, status, from_address,
  contract, tx_hash, nonce, request_params, callback_url, callback_state, callback_attempts,
  created_at, updated_at, sent_at`;

/** Transactions of every app of the game, newest first, with optional filters. */
export async function listGameTransactions(
  db: Sql,
  gameIndex: number,
  q: PageRequest & { status?: string; network?: string; appid?: string },
): Promise<Page<TransactionView>> {
  return await keysetPage(db, {
    select: TX_COLUMNS,
    from: "chain_txs",
    where: `game_index = $1 and ($2::text is null or status = $2)
        and ($3::text is null or network = $3) and ($4::text is null or appid = $4)`,
    params: [gameIndex, q.status ?? null, q.network ?? null, q.appid ?? null],
    order: { time: "created_at", key: "request_id" },
    page: q,
    gameIndex,
    map: txView,
  });
}

/** One transaction of the game, or not_found. */
export async function getGameTransaction(
  db: Sql,
  gameIndex: number,
  requestId: string,
): Promise<TransactionView> {
  await requireGame(db, gameIndex);
  const [row] = await db.query<TxRow>(
    `select ${TX_COLUMNS} from chain_txs where game_index = $1 and request_id = $2`,
    [gameIndex, requestId],
  );
  if (!row) throw notFound(`requestId ${requestId} not found`, "REQUEST_NOT_FOUND");
  return txView(row);
}
