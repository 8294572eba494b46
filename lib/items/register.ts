/**
 * Registering item requests: one insert records the request and makes it due in the outbox.
 * The same transactionId with the same body is answered like the first time; another body is a
 * conflict.
 */
import { DbError, type Sql } from "../db/port.ts";
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

/** One registration as the statements take it. */
interface RegistrationRow {
  game_index: number;
  transaction_id: string;
  body: string;
  body_hash: string;
  source: string;
  at: string;
  require_endpoint: boolean;
}

/** What the statement answers for one registration. */
interface RegistrationAnswer {
  body_hash: string | null;
  created: boolean;
  endpoint: boolean;
}

// The CTE's insert is invisible to the second branch, which reads the earlier registration.
// Without the required endpoint nothing is inserted and the third branch says so.
const REGISTER_ONE = `with ep as (
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

// The same for many registrations in one statement (`i` numbers them; no key twice).
const REGISTER_MANY = `with x as (
    select * from jsonb_to_recordset($1::jsonb) as x(i int, game_index int,
      transaction_id text, body text, body_hash text, source text, at timestamptz,
      require_endpoint boolean)),
  ep as (
    select x.i, not x.require_endpoint or exists (
      select 1 from item_endpoints e where e.game_index = x.game_index) as ok
      from x),
  ins as (
    insert into item_requests (game_index, transaction_id, body, body_hash, source, status,
      next_attempt_at, created_at, updated_at)
    select x.game_index, x.transaction_id, x.body, x.body_hash, x.source, 'REGISTERED', x.at,
           x.at, x.at
      from x join ep using (i) where ep.ok order by x.i
    on conflict (game_index, transaction_id) do nothing
    returning game_index, transaction_id, body_hash)
  select x.i, ins.body_hash, true as created, true as endpoint
    from x join ins using (game_index, transaction_id)
  union all
  select x.i, q.body_hash, false, true
    from x join ep using (i) join item_requests q using (game_index, transaction_id)
   where ep.ok and not exists (
     select 1 from ins where ins.game_index = x.game_index
       and ins.transaction_id = x.transaction_id)
  union all
  select x.i, null, false, false from x join ep using (i) where not ep.ok`;

function registerOne(db: Sql, r: RegistrationRow): Promise<RegistrationAnswer[]> {
  return db.query<RegistrationAnswer>(REGISTER_ONE, [
    r.game_index,
    r.transaction_id,
    r.body,
    r.body_hash,
    r.source,
    r.at,
    r.require_endpoint,
  ]);
}

interface Pending {
  row: RegistrationRow;
  settle(answer: Promise<RegistrationAnswer | undefined>): void;
}

/** Registrations waiting for a statement, per database handle, and statements under way. */
const queues = new WeakMap<object, { waiting: Pending[]; running: number }>();
/** Statements of registrations under way at once per database handle; more wait and batch. */
const REGISTER_STATEMENTS = 4;
/** Registrations in one statement at most. */
const REGISTER_BATCH = 200;

/**
 * Registers through a group commit: a registration starts its own statement while fewer than
 * REGISTER_STATEMENTS are under way; past that, those that arrive meanwhile wait and go together
 * in one multi-row statement when one finishes. An idle server pays nothing; a busy one writes
 * many registrations per statement.
 */
function submitRegistration(
  db: Sql,
  row: RegistrationRow,
): Promise<RegistrationAnswer | undefined> {
  let queue = queues.get(db);
  if (!queue) queues.set(db, queue = { waiting: [], running: 0 });
  const q = queue;
  const answer = new Promise<RegistrationAnswer | undefined>((resolve, reject) => {
    q.waiting.push({ row, settle: (a) => a.then(resolve, reject) });
  });
  pumpRegistrations(db, q);
  return answer;
}

function pumpRegistrations(db: Sql, q: { waiting: Pending[]; running: number }) {
  while (q.running < REGISTER_STATEMENTS && q.waiting.length > 0) {
    // A key twice in one statement would read as created twice: a repeat waits for the next.
    const keys = new Set<string>();
    const batch: Pending[] = [];
    const later: Pending[] = [];
    for (const p of q.waiting) {
      const key = `${p.row.game_index}\n${p.row.transaction_id}`;
      if (batch.length < REGISTER_BATCH && !keys.has(key)) {
        keys.add(key);
        batch.push(p);
      } else later.push(p);
    }
    q.waiting = later;
    q.running++;
    runRegistrations(db, batch).finally(() => {
      q.running--;
      pumpRegistrations(db, q);
    });
  }
}

async function runRegistrations(db: Sql, batch: Pending[]): Promise<void> {
  if (batch.length === 1) {
    const [p] = batch;
    const answer = registerOne(db, p.row).then((rows) => rows[0]);
    p.settle(answer);
    await answer.catch(() => {});
    return;
  }
  try {
    const rows = await db.query<RegistrationAnswer & { i: number }>(REGISTER_MANY, [
      batch.map((p, i) => ({ i, ...p.row })),
    ]);
    const byIndex = new Map(rows.map((r) => [r.i, r]));
    for (const [i, p] of batch.entries()) p.settle(Promise.resolve(byIndex.get(i)));
  } catch (err) {
    if (err instanceof DbError && err.unavailable) {
      for (const p of batch) p.settle(Promise.reject(err));
      return;
    }
    // One registration refused (e.g. text PostgreSQL cannot store) must not fail the others:
    // each runs alone and gets its own answer.
    await Promise.all(batch.map((p) => {
      const answer = registerOne(db, p.row).then((rows) => rows[0]);
      p.settle(answer);
      return answer.catch(() => {});
    }));
  }
}

/**
 * Registers a request; idempotent on (gameIndex, transactionId). With `requireEndpoint`, the
 * game must have an item endpoint (ITEM_ENDPOINT_MISSING otherwise), checked in the same
 * statement as the insert. Registrations arriving together share statements (see
 * submitRegistration).
 */
export async function registerItemRequest(
  db: Sql,
  input: ItemRequestInput,
  options: { nowMs: number; source?: string; requireEndpoint?: boolean },
): Promise<Registration> {
  const transactionId = input.transactionId ?? newTransactionId();
  const body = itemRecordBody(buildItemRecord({ ...input, transactionId }));
  const registration: RegistrationRow = {
    game_index: input.gameIndex,
    transaction_id: transactionId,
    body,
    body_hash: await sha256Hex(body),
    source: options.source ?? "api",
    at: new Date(options.nowMs).toISOString(),
    require_endpoint: options.requireEndpoint ?? false,
  };
  const bodyHash = registration.body_hash;
  // A concurrent first registration committed after our snapshot: read it again.
  const row = await submitRegistration(db, registration) ??
    (await registerOne(db, registration))[0];
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
