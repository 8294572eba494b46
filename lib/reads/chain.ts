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
  /** Why it is FAILED (reverted, nonce used by another transaction, cancelled). */
  failReason: string | null;
  /** The block of its mined transaction (while confirmations are awaited, and after). */
  minedBlock: string | null;
  /** When POLYGON_MAX_FEE_GWEI stopped a further fee raise. */
  feeCappedAt: string | null;
  /** When an operator asked to cancel it. */
  cancelRequestedAt: string | null;
}

/**
 * One broadcast of a request. Polygon fills the fee caps (wei, decimal strings); XPLA fills
 * `fee` (coins, e.g. "2000000000000000axpla") and `timeoutHeight`; the other pair is null.
 */
export interface AttemptView {
  seq: number;
  kind: string;
  txHash: string;
  nonce: string;
  maxFeePerGas: string | null;
  maxPriorityFeePerGas: string | null;
  fee: string | null;
  timeoutHeight: string | null;
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
  fail_reason: string | null;
  mined_block: string | null;
  fee_capped_at: Date | null;
  cancel_requested_at: Date | null;
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
    failReason: r.fail_reason,
    minedBlock: r.mined_block === null ? null : String(r.mined_block),
    feeCappedAt: iso(r.fee_capped_at),
    cancelRequestedAt: iso(r.cancel_requested_at),
  };
}

const TX_COLUMNS = `request_id, appid, network, chain_id, player_id, tx_type, status, from_address,
  contract, tx_hash, nonce, request_params, callback_url, callback_state, callback_attempts,
  created_at, updated_at, sent_at, fail_reason, mined_block, fee_capped_at, cancel_requested_at`;

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

/** One transaction of the game with every broadcast attempt, or not_found. */
export async function getGameTransaction(
  db: Sql,
  gameIndex: number,
  requestId: string,
): Promise<TransactionView & { attempts: AttemptView[] }> {
  await requireGame(db, gameIndex);
  const [row] = await db.query<TxRow & { attempts: AttemptView[] | null }>(
    `select ${TX_COLUMNS},
            (select json_agg(json_build_object(
                      'seq', a.seq, 'kind', coalesce(a.reason, a.kind), 'txHash', a.tx_hash,
                      'nonce', a.nonce::text, 'maxFeePerGas', a.max_fee_per_gas::text,
                      'maxPriorityFeePerGas', a.max_priority_fee_per_gas::text, 'fee', a.fee,
                      'timeoutHeight', a.timeout_height::text, 'sentAt', a.sent_at)
                    order by a.seq)
               from chain_tx_attempts a where a.request_id = chain_txs.request_id) as attempts
       from chain_txs where game_index = $1 and request_id = $2`,
    [gameIndex, requestId],
  );
  if (!row) throw notFound(`requestId ${requestId} not found`, "REQUEST_NOT_FOUND");
  return {
    ...txView(row),
    attempts: (row.attempts ?? []).map((a) => ({
      ...a,
      sentAt: a.sentAt === null ? null : new Date(a.sentAt).toISOString(),
    })),
  };
}
