/**
 * Registering item requests: one insert records the request and makes it due in the outbox.
 * The same transactionId with the same body is answered like the first time; another body is a
 * conflict.
 */
import type { Sql } from "../db/port.ts";
import { DomainError } from "../errors.ts";
import { sha256Hex } from "../crypto/hashing.ts";
import { buildItemRecord, itemRecordBody, type ItemRequestInput } from "./record.ts";

/** Statuses of a request. */
export const ITEM_REQUEST_STATUSES = [
  "REGISTERED",
  "RETRYING",
  "DELIVERED",
  "FAILED",
] as const;

/** One of ITEM_REQUEST_STATUSES. */
export type ItemRequestStatus = typeof ITEM_REQUEST_STATUSES[number];

/** The answer to a registration. */
export interface Registration {
  transactionId: string;
  /** False when the same request was already registered (nothing new will be sent). */
  created: boolean;
}

/** A request's delivery state as the GET endpoint shows it. */
export interface ItemRequestView {
  transactionId: string;
  status: ItemRequestStatus;
  attempts: number;
  lastCode: number | null;
  lastMessage: string | null;
  deliveredAt: string | null;
}

/** A new transaction id for requests registered without one. */
export function newTransactionId(): string {
  return crypto.randomUUID().replaceAll("-", "");
}

/**
 * Registers a request; idempotent on (gameIndex, transactionId). With `requireEndpoint`, the
 * game must have an item endpoint (ITEM_ENDPOINT_MISSING otherwise), checked in the same
 * statement as the insert.
 */
export async function registerItemRequest(
  db: Sql,
  input: ItemRequestInput,
  options: { nowMs: number; source?: string; requireEndpoint?: boolean },
): Promise<Registration> {
  const transactionId = input.transactionId ?? newTransactionId();
  const body = itemRecordBody(buildItemRecord({ ...input, transactionId }));
  const bodyHash = await sha256Hex(body);
  const params = [
    input.gameIndex,
    transactionId,
    body,
    bodyHash,
    options.source ?? "api",
    new Date(options.nowMs),
    options.requireEndpoint ?? false,
  ];
  // The CTE's insert is invisible to the second branch, which reads the earlier registration.
  // Without the required endpoint nothing is inserted and the third branch says so.
  const sql = `with ep as (
      select not $7::boolean or exists (select 1 from item_endpoints where game_index = $1) as ok),
    ins as (
      insert into item_requests (game_index, transaction_id, body, body_hash, source, status,
        next_attempt_at, created_at, updated_at)
      select $1, $2, $3, $4, $5, 'REGISTERED', $6, $6, $6 from ep where ep.ok
      on conflict (game_index, transaction_id) do nothing
      returning body_hash)
    select body_hash, true as created, true as endpoint from ins
    union all
    select body_hash, false, true from item_requests, ep
     where ep.ok and game_index = $1 and transaction_id = $2 and not exists (select 1 from ins)
    union all
    select null, false, false from ep where not ep.ok`;
  let rows = await db.query<
    { body_hash: string; created: boolean; endpoint: boolean }
  >(
    sql,
    params,
  );
  // A concurrent first registration committed after our snapshot: read it again.
  if (rows.length === 0) rows = await db.query(sql, params);
  const [row] = rows;
  if (row && !row.endpoint) {
    throw new DomainError(
      "conflict",
      "ITEM_ENDPOINT_MISSING",
      `game ${input.gameIndex} has no item endpoint registered`,
    );
  }
  if (!row) {
    throw new DomainError("internal", "INTERNAL", "registration not recorded");
  }
  if (!row.created && row.body_hash !== bodyHash) {
    throw new DomainError(
      "conflict",
      "TRANSACTION_CONFLICT",
      `transactionId ${transactionId} was already registered with a different body`,
    );
  }
  return { transactionId, created: row.created };
}

/** Loads a request's state, or throws not_found. */
export async function getItemRequest(
  db: Sql,
  key: { gameIndex: number; transactionId: string },
): Promise<ItemRequestView> {
  const { gameIndex, transactionId } = key;
  const [row] = await db.query<{
    status: ItemRequestStatus;
    attempts: number;
    last_code: number | null;
    last_message: string | null;
    delivered_at: Date | null;
  }>(
    `select status, attempts, last_code, last_message, delivered_at from item_requests
     where game_index = $1 and transaction_id = $2`,
    [gameIndex, transactionId],
  );
  if (!row) {
    throw new DomainError(
      "not_found",
      "TRANSACTION_NOT_FOUND",
      `transactionId ${transactionId} not found`,
    );
  }
  return {
    transactionId,
    status: row.status,
    attempts: row.attempts,
    lastCode: row.last_code,
    lastMessage: row.last_message,
    deliveredAt: row.delivered_at ? new Date(row.delivered_at).toISOString() : null,
  };
}
