/**
 * Checks shared by campaign and targeting requests: what a request names (company, game, apps)
 * must belong to the caller, i.e. the configured companies and the API key's game.
 */
import type { Sql } from "../db/port.ts";
import { invalid } from "../errors.ts";

/** The caller a push request is checked against. */
export interface PushCaller {
  gameIndex: number;
  companies: string[];
}

/** Refuses a company outside the configured list and a game.gameindex other than the key's. */
export function assertCompanyAndGame(
  input: { company: string; game: { gameindex: number } },
  caller: PushCaller,
): void {
  if (!caller.companies.includes(input.company)) {
    throw invalid(`company must be one of ${caller.companies.join(", ")}`);
  }
  if (input.game.gameindex !== caller.gameIndex) {
    throw invalid(`game.gameindex ${input.game.gameindex} is not the API key's game`);
  }
}

/** Which of the named appids are apps of the game (one query for the whole list). */
export async function appsOfGame(
  db: Sql,
  gameIndex: number,
  appids: string[],
): Promise<Set<string>> {
  const rows = await db.query<{ appid: string }>(
    `select appid from apps
     where game_index = $1 and appid in (select jsonb_array_elements_text($2::jsonb))`,
    [gameIndex, appids],
  );
  return new Set(rows.map((r) => r.appid));
}
