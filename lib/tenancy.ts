/** Games and their apps: the tenants every other feature hangs off. */
import type { Sql } from "./db/port.ts";
import { DomainError } from "./errors.ts";
import { equalFixed, randomToken, sha256Hex } from "./crypto/hashing.ts";
import type { AppPrincipal } from "./auth/tokens.ts";

/** The largest game index: games.game_index is a PostgreSQL integer (int4). */
export const GAME_INDEX_MAX = 2_147_483_647;

/** A game as the admin API shows it. */
export interface Game {
  gameIndex: number;
  name: string;
}

/** Loads a game or throws not_found. */
export async function requireGame(db: Sql, gameIndex: number): Promise<Game> {
  const [row] = await db.query<{ game_index: number; name: string }>(
    "select game_index, name from games where game_index = $1",
    [gameIndex],
  );
  if (!row) throw new DomainError("not_found", "GAME_NOT_FOUND", `game ${gameIndex} not found`);
  return { gameIndex: row.game_index, name: row.name };
}

/** Registers an app under a game and issues its client credentials (secret shown once). */
export async function registerGameApp(
  db: Sql,
  input: { gameIndex: number; appid: string },
): Promise<{ appid: string; gameIndex: number; clientId: string; clientSecret: string }> {
  await requireGame(db, input.gameIndex);
  const clientId = `cli_${randomToken(12)}`;
  const clientSecret = randomToken(32);
  const rows = await db.query(
    `insert into apps (appid, game_index, client_id, client_secret_hash)
     values ($1, $2, $3, $4) on conflict (appid) do nothing returning appid`,
    [input.appid, input.gameIndex, clientId, await sha256Hex(clientSecret)],
  );
  if (rows.length === 0) {
    throw new DomainError("conflict", "APP_EXISTS", `appid ${input.appid} is already registered`);
  }
  return { appid: input.appid, gameIndex: input.gameIndex, clientId, clientSecret };
}

/** Checks client credentials in constant time; throws unauthorized on any mismatch. */
export async function authenticateClient(
  db: Sql,
  clientId: string,
  clientSecret: string,
): Promise<AppPrincipal> {
  const [row] = await db.query<{ appid: string; game_index: number; client_secret_hash: string }>(
    "select appid, game_index, client_secret_hash from apps where client_id = $1",
    [clientId],
  );
  // Hash even when the client is unknown so timing does not reveal which ids exist.
  const presented = await sha256Hex(clientSecret);
  const expected = row?.client_secret_hash ?? "0".repeat(64);
  if (!equalFixed(presented, expected) || !row) {
    throw new DomainError("unauthorized", "INVALID_CLIENT", "clientId or clientSecret is wrong");
  }
  return { appid: row.appid, gameIndex: row.game_index, clientId };
}

/** Looks up an app's game, for checks that an app belongs to a game. */
export async function findApp(
  db: Sql,
  appid: string,
): Promise<{ appid: string; gameIndex: number } | null> {
  const [row] = await db.query<{ appid: string; game_index: number }>(
    "select appid, game_index from apps where appid = $1",
    [appid],
  );
  return row ? { appid: row.appid, gameIndex: row.game_index } : null;
}

/** Issues a new client secret for an app of the game (shown once); the old one stops working. */
export async function rotateClientSecret(
  db: Sql,
  key: { gameIndex: number; appid: string },
): Promise<{ appid: string; gameIndex: number; clientId: string; clientSecret: string }> {
  const clientSecret = randomToken(32);
  const [row] = await db.query<{ client_id: string }>(
    `update apps set client_secret_hash = $3 where appid = $1 and game_index = $2
     returning client_id`,
    [key.appid, key.gameIndex, await sha256Hex(clientSecret)],
  );
  if (!row) {
    throw new DomainError(
      "not_found",
      "APP_NOT_FOUND",
      `appid ${key.appid} is not an app of game ${key.gameIndex}`,
    );
  }
  return { appid: key.appid, gameIndex: key.gameIndex, clientId: row.client_id, clientSecret };
}
