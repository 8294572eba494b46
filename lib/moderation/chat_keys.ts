/** Chat keys: the game key and AES secret a game server uses to send chat logs. */
import type { Services } from "../services.ts";
import { DomainError } from "../errors.ts";
import { requireGame } from "../tenancy.ts";
import { projectExists } from "./projects.ts";
import { openSecret, randomAlnum, sealSecret } from "./state.ts";

/** A game key as the chat endpoint needs it. */
export interface ChatKey {
  gameKey: string;
  gameIndex: number;
  secret: string;
  projectKey: string | null;
}

/** Issues a game key (16 characters) and secret (32 characters) for a game. */
export async function createChatKey(
  services: Services,
  input: { gameIndex: number; projectKey?: string },
): Promise<{ gameKey: string; secretKey: string; projectKey: string | null }> {
  await requireGame(services.db, input.gameIndex);
  if (input.projectKey !== undefined && !(await projectExists(services, input.projectKey))) {
    throw new DomainError(
      "not_found",
      "PROJECT_NOT_FOUND",
      `projectKey ${input.projectKey} not found`,
    );
  }
  const gameKey = randomAlnum(16);
  const secretKey = randomAlnum(32);
  await services.db.query(
    `insert into chat_keys (game_key, game_index, secret_sealed, project_key)
     values ($1, $2, $3, $4)`,
    [gameKey, input.gameIndex, await sealSecret(services, gameKey, secretKey), input.projectKey],
  );
  return { gameKey, secretKey, projectKey: input.projectKey ?? null };
}

/** Looks up a game key; null when it is not registered. */
export async function findChatKey(services: Services, gameKey: string): Promise<ChatKey | null> {
  const [row] = await services.db.query<{
    game_key: string;
    game_index: number;
    secret_sealed: string;
    project_key: string | null;
  }>(
    "select game_key, game_index, secret_sealed, project_key from chat_keys where game_key = $1",
    [gameKey],
  );
  if (!row) return null;
  return {
    gameKey: row.game_key,
    gameIndex: row.game_index,
    secret: await openSecret(services, row.game_key, row.secret_sealed),
    projectKey: row.project_key,
  };
}

/** Issues a new AES secret for a game key of the game (shown once); the old one stops working. */
export async function rotateChatKeySecret(
  services: Services,
  key: { gameIndex: number; gameKey: string },
): Promise<{ gameKey: string; secretKey: string }> {
  const secretKey = randomAlnum(32);
  const rows = await services.db.query(
    "update chat_keys set secret_sealed = $3 where game_key = $1 and game_index = $2 returning 1",
    [key.gameKey, key.gameIndex, await sealSecret(services, key.gameKey, secretKey)],
  );
  if (rows.length === 0) {
    throw new DomainError(
      "not_found",
      "CHAT_KEY_NOT_FOUND",
      `game key ${key.gameKey} is not a key of game ${key.gameIndex}`,
    );
  }
  return { gameKey: key.gameKey, secretKey };
}
