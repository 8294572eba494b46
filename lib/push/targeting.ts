/**
 * Targeting records and their data: a record per game, then uploads of player identifiers. A
 * record is available once it holds data and locked while a campaign using it is sending.
 */
import { z } from "zod";
import { DbError, type Sql } from "../db/port.ts";
import { DomainError, invalid, notFound } from "../errors.ts";
import { appsOfGame, assertCompanyAndGame, type PushCaller } from "./ownership.ts";

/** Most targets one upload call accepts. */
export const MAX_TARGETS_PER_CALL = 10_000;
/** Rows per multi-row insert statement. */
const CHUNK = 2_000;
const INT8_MAX = 9223372036854775807n;
const LONG_TEXT = /^\d{1,19}$/;

/** The identifier kinds a target can carry; exactly one per target. */
export const IDENTIFIER_KINDS = ["playerId", "vid", "uid", "did"] as const;

const Long = z.union([
  z.number().int().nonnegative(),
  // zod runs the refinement even when the pattern failed, so it must not assume digits.
  z.string().regex(LONG_TEXT, "must be a long").refine(
    (s) => !LONG_TEXT.test(s) || BigInt(s) <= INT8_MAX,
    "too big",
  ),
]);

/** One target of an upload. */
export const TargetBody = z.object({
  identifier: z.object({
    playerId: Long.optional(),
    vid: Long.optional(),
    uid: Long.optional(),
    did: Long.optional(),
  }),
  app: z.object({ appid: z.string().trim().min(1, "must not be empty") }),
});

/** An upload body: a JSON array of targets. */
export const TargetList = z.array(TargetBody)
  .min(1, "the target list is empty")
  .max(MAX_TARGETS_PER_CALL, `at most ${MAX_TARGETS_PER_CALL} targets per call`);

/** A targeting record creation body. */
export const TargetingBody = z.object({
  company: z.string(),
  // Stored in push_targetings.company_index, a PostgreSQL integer (int4).
  companyIndex: z.number().int().min(-2_147_483_648).max(2_147_483_647),
  registrant: z.object({ id: z.string().trim().min(1), name: z.string().optional() }),
  description: z.string().trim().min(1, "must not be empty"),
  game: z.object({ gameindex: z.number().int() }),
});

/** A targeting record as the API shows it. */
export interface TargetingRecord {
  id: number;
  company: string;
  companyIndex: number;
  registrant: { id: string; name?: string };
  description: string;
  game: { gameindex: number };
  available: boolean;
  locked: boolean;
}

const RECORD_SELECT = `select t.id, t.company, t.company_index, t.registrant, t.description,
    t.game_index, t.available,
    exists (select 1 from push_campaigns c where c.targeting_id = t.id and c.status = 2) as locked
  from push_targetings t`;

type RecordRow = {
  id: string;
  company: string;
  company_index: number;
  registrant: { id: string; name?: string };
  description: string;
  game_index: number;
  available: boolean;
  locked: boolean;
};

function toRecord(r: RecordRow): TargetingRecord {
  return {
    id: Number(r.id),
    company: r.company,
    companyIndex: r.company_index,
    registrant: r.registrant,
    description: r.description,
    game: { gameindex: r.game_index },
    available: r.available,
    locked: r.locked,
  };
}

/** Creates a targeting record for the API key's game. */
export async function createTargeting(
  db: Sql,
  input: z.infer<typeof TargetingBody>,
  ctx: PushCaller,
): Promise<TargetingRecord> {
  assertCompanyAndGame(input, ctx);
  const [row] = await db.query<{ id: string }>(
    `insert into push_targetings (game_index, company, company_index, registrant, description)
     values ($1, $2, $3, $4::jsonb, $5) returning id`,
    [ctx.gameIndex, input.company, input.companyIndex, input.registrant, input.description],
  );
  return (await findTargeting(db, Number(row.id), ctx.gameIndex))!;
}

/** Loads a targeting record of a game, or null. */
export async function findTargeting(
  db: Sql,
  id: number,
  gameIndex: number,
): Promise<TargetingRecord | null> {
  const [row] = await db.query<RecordRow>(
    `${RECORD_SELECT} where t.id = $1 and t.game_index = $2`,
    [id, gameIndex],
  );
  return row ? toRecord(row) : null;
}

/**
 * Stores an upload: every target checked first (one identifier, an app of the game), then one
 * multi-row insert per chunk inside one transaction. Duplicates are kept once.
 */
export async function uploadTargets(
  db: Sql,
  targetingId: number,
  targets: z.infer<typeof TargetList>,
  ctx: { gameIndex: number },
): Promise<{ received: number }> {
  const record = await findTargeting(db, targetingId, ctx.gameIndex);
  if (!record) throw notFound(`targeting ${targetingId} not found`, "TARGETING_NOT_FOUND");
  if (record.locked) throw lockedError(targetingId);
  const rows = targets.map((t, i) => {
    const given = IDENTIFIER_KINDS.filter((k) => t.identifier[k] !== undefined);
    if (given.length !== 1) {
      throw invalid(`[${i}].identifier must hold exactly one of playerId, vid, uid, did`);
    }
    const kind = given[0];
    return { appid: t.app.appid, kind, value: String(t.identifier[kind]) };
  });
  const appids = [...new Set(rows.map((r) => r.appid))];
  const known = await appsOfGame(db, ctx.gameIndex, appids);
  const unknown = rows.findIndex((r) => !known.has(r.appid));
  if (unknown >= 0) {
    throw invalid(
      `[${unknown}].app.appid ${rows[unknown].appid} is not an app of game ${ctx.gameIndex}`,
    );
  }
  const statements = [];
  for (let i = 0; i < rows.length; i += CHUNK) {
    statements.push({
      // The guard refuses the rows if a campaign using the record started sending meanwhile.
      text: `insert into push_targets (targeting_id, appid, kind, value)
        select $1, x.appid, x.kind, x.value::bigint
        from jsonb_to_recordset($2::jsonb) as x(appid text, kind text, value text)
        where not exists (
          select 1 from push_campaigns where targeting_id = $1 and status = 2)
        on conflict do nothing`,
      params: [targetingId, rows.slice(i, i + CHUNK)],
    });
  }
  statements.push({
    text: `update push_targetings set available = true
      where id = $1 and exists (select 1 from push_targets where targeting_id = $1)`,
    params: [targetingId],
  });
  // Last, inside the same transaction: if a campaign using the record started sending while the
  // batch ran, fail the whole batch (division by zero, SQLSTATE 22012) so nothing is stored and
  // the caller hears "locked" instead of a 200 for rows that were skipped.
  statements.push({
    text: `select 1 / (case when exists (
        select 1 from push_campaigns where targeting_id = $1 and status = 2) then 0 else 1 end)`,
    params: [targetingId],
  });
  try {
    await db.transaction(statements);
  } catch (err) {
    if (err instanceof DbError && err.code === "22012") throw lockedError(targetingId);
    throw err;
  }
  return { received: rows.length };
}

function lockedError(id: number) {
  return new DomainError(
    "conflict",
    "TARGETING_LOCKED",
    `targeting ${id} is locked: a campaign using it is sending`,
  );
}
