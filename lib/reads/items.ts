/** Admin reads of item delivery: endpoint health history, the delivery log, CPA campaigns. */
import type { Sql } from "../db/port.ts";
import { notFound } from "../errors.ts";
import { requireGame } from "../tenancy.ts";
import type { ItemRequestStatus } from "../items/register.ts";
import { iso, keysetPage, type Page, type PageRequest } from "./page.ts";

/** One probe round's result. */
export interface ProbeRecord {
  healthy: boolean;
  error: string | null;
  probedAt: string;
}

/** The game's probe history, newest first. */
export async function listProbes(
  db: Sql,
  gameIndex: number,
  q: PageRequest,
): Promise<Page<ProbeRecord>> {
  return await keysetPage(db, {
    select: "healthy, error, probed_at",
    from: "item_endpoint_probes",
    where: "game_index = $1",
    params: [gameIndex],
    order: { id: "id" },
    page: q,
    gameIndex,
    map: (r: { healthy: boolean; error: string | null; probed_at: Date }) => ({
      healthy: r.healthy,
      error: r.error,
      probedAt: iso(r.probed_at)!,
    }),
  });
}

/** One item request in the delivery log. */
export interface DeliveryRecord {
  transactionId: string;
  gameIndex: number;
  status: ItemRequestStatus;
  source: string;
  attempts: number;
  lastCode: number | null;
  lastMessage: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** The record sent to the game server (player id, items, reason; no secret). */
  record: Record<string, unknown>;
}

type DeliveryRow = {
  transaction_id: string;
  game_index: number;
  status: ItemRequestStatus;
  source: string;
  attempts: number;
  last_code: number | null;
  last_message: string | null;
  next_attempt_at: Date;
  delivered_at: Date | null;
  created_at: Date;
  updated_at: Date;
  body: string;
};

function deliveryView(r: DeliveryRow): DeliveryRecord {
  let record: Record<string, unknown> = {};
  try {
    record = JSON.parse(r.body);
  } catch { /* the body is always JSON text; an unreadable one is shown empty */ }
  const waiting = r.status === "REGISTERED" || r.status === "RETRYING";
  return {
    transactionId: r.transaction_id,
    gameIndex: r.game_index,
    status: r.status,
    source: r.source,
    attempts: r.attempts,
    lastCode: r.last_code,
    lastMessage: r.last_message,
    nextAttemptAt: waiting ? iso(r.next_attempt_at) : null,
    deliveredAt: iso(r.delivered_at),
    createdAt: iso(r.created_at)!,
    updatedAt: iso(r.updated_at)!,
    record,
  };
}

const DELIVERY_COLUMNS = `transaction_id, game_index, status, source, attempts, last_code,
  last_message, next_attempt_at, delivered_at, created_at, updated_at, body`;

/** The game's delivery log, newest first, filtered by status and/or transactionId. */
export async function listDeliveries(
  db: Sql,
  gameIndex: number,
  q: PageRequest & { status?: ItemRequestStatus; transactionId?: string },
): Promise<Page<DeliveryRecord>> {
  return await keysetPage(db, {
    select: DELIVERY_COLUMNS,
    from: "item_requests",
    where: `game_index = $1 and ($2::text is null or status = $2)
        and ($3::text is null or transaction_id = $3)`,
    params: [gameIndex, q.status ?? null, q.transactionId ?? null],
    order: { time: "created_at", key: "transaction_id" },
    page: q,
    gameIndex,
    map: deliveryView,
  });
}

/** One request of the game's delivery log, or not_found. */
export async function getDelivery(
  db: Sql,
  gameIndex: number,
  transactionId: string,
): Promise<DeliveryRecord> {
  await requireGame(db, gameIndex);
  const [row] = await db.query<DeliveryRow>(
    `select ${DELIVERY_COLUMNS} from item_requests
      where game_index = $1 and transaction_id = $2`,
    [gameIndex, transactionId],
  );
  if (!row) {
    throw notFound(`transactionId ${transactionId} not found`, "TRANSACTION_NOT_FOUND");
  }
  return deliveryView(row);
}

/** A CPA campaign as registered. */
export interface CpaCampaignView {
  appid: string;
  cpaCode: string;
  gameIndex: number;
  subReason: string;
  detail: unknown[];
  rewarded: number;
  createdAt: string;
}

/** The game's CPA campaigns, newest first, optionally of one app. */
export async function listCpaCampaigns(
  db: Sql,
  gameIndex: number,
  q: PageRequest & { appid?: string },
): Promise<Page<CpaCampaignView>> {
  return await keysetPage(db, {
    select: `c.appid, c.cpa_code, c.game_index, c.sub_reason, c.detail, c.created_at,
        (select count(*) from cpa_achievements a
          where a.appid = c.appid and a.cpa_code = c.cpa_code) as rewarded`,
    from: "cpa_campaigns c",
    where: "c.game_index = $1 and ($2::text is null or c.appid = $2)",
    params: [gameIndex, q.appid ?? null],
    order: { time: "c.created_at", key: "(c.appid || chr(10) || c.cpa_code)" },
    page: q,
    gameIndex,
    map: (r: {
      appid: string;
      cpa_code: string;
      game_index: number;
      sub_reason: string;
      detail: unknown[];
      rewarded: string;
      created_at: Date;
    }) => ({
      appid: r.appid,
      cpaCode: r.cpa_code,
      gameIndex: r.game_index,
      subReason: r.sub_reason,
      detail: r.detail,
      rewarded: Number(r.rewarded),
      createdAt: iso(r.created_at)!,
    }),
  });
}
