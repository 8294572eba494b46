/** Admin reads of tenants: games, their apps (never a secret) and API keys (never the key). */
import type { Sql } from "../db/port.ts";
import { notFound } from "../errors.ts";
import { requireGame } from "../tenancy.ts";
import type { ApiScope } from "../auth/api_keys.ts";
import { iso, keysetPage, type Page, type PageRequest } from "./page.ts";

/** A game in the list, with how much it has configured. */
export interface GameSummary {
  gameIndex: number;
  name: string;
  createdAt: string;
  apps: number;
  activeApiKeys: number;
}

/** Lists games, newest first; `name` filters by a case-insensitive substring. */
export async function listGames(
  db: Sql,
  q: PageRequest & { name?: string },
): Promise<Page<GameSummary>> {
  return await keysetPage(db, {
    select: `g.game_index, g.name, g.created_at,
        (select count(*) from apps a where a.game_index = g.game_index) as apps,
        (select count(*) from api_keys k where k.game_index = g.game_index
           and k.revoked_at is null) as keys`,
    from: "games g",
    where: "$1::text is null or strpos(lower(g.name), lower($1)) > 0",
    params: [q.name ?? null],
    order: { id: "g.game_index" },
    page: q,
    map: (
      r: { game_index: number; name: string; created_at: Date; apps: string; keys: string },
    ) => ({
      gameIndex: r.game_index,
      name: r.name,
      createdAt: iso(r.created_at)!,
      apps: Number(r.apps),
      activeApiKeys: Number(r.keys),
    }),
  });
}

/** A game with what its overview needs: delivery and transaction counts per status. */
export interface GameDetail extends GameSummary {
  deliveries: Record<string, number>;
  transactions: Record<string, number>;
}

/** One game with its counts, or not_found. */
export async function getGame(db: Sql, gameIndex: number): Promise<GameDetail> {
  const [r] = await db.query<{
    name: string;
    created_at: Date;
    apps: string;
    keys: string;
    deliveries: Record<string, string> | null;
    transactions: Record<string, string> | null;
  }>(
    `select g.name, g.created_at,
        (select count(*) from apps a where a.game_index = g.game_index) as apps,
        (select count(*) from api_keys k where k.game_index = g.game_index
           and k.revoked_at is null) as keys,
        (select jsonb_object_agg(status, n) from (select status, count(*) as n
           from item_requests where game_index = g.game_index group by status) d) as deliveries,
        (select jsonb_object_agg(status, n) from (select status, count(*) as n
           from chain_txs where game_index = g.game_index group by status) t) as transactions
       from games g where g.game_index = $1`,
    [gameIndex],
  );
  if (!r) throw notFound(`game ${gameIndex} not found`, "GAME_NOT_FOUND");
  const counts = (o: Record<string, string> | null, keys: string[]) =>
    Object.fromEntries(keys.map((k) => [k, Number(o?.[k] ?? 0)]));
  return {
    gameIndex,
    name: r.name,
    createdAt: iso(r.created_at)!,
    apps: Number(r.apps),
    activeApiKeys: Number(r.keys),
    deliveries: counts(r.deliveries, ["REGISTERED", "RETRYING", "DELIVERED", "FAILED"]),
    transactions: counts(r.transactions, ["WAITING", "PENDING", "SUCCESS", "FAILED"]),
  };
}

/** An app as the admin API shows it: the client id, never the secret. */
export interface AppView {
  appid: string;
  gameIndex: number;
  clientId: string;
  createdAt: string;
}

type AppRow = {
  appid: string;
  game_index: number;
  client_id: string;
  created_at: Date;
};

function appView(r: AppRow): AppView {
  return {
    appid: r.appid,
    gameIndex: r.game_index,
    clientId: r.client_id,
    createdAt: iso(r.created_at)!,
  };
}

/** Lists a game's apps, newest first. */
export async function listApps(
  db: Sql,
  gameIndex: number,
  q: PageRequest,
): Promise<Page<AppView>> {
  return await keysetPage(db, {
    select: "appid, game_index, client_id, created_at",
    from: "apps",
    where: "game_index = $1",
    params: [gameIndex],
    order: { time: "created_at", key: "appid" },
    page: q,
    gameIndex,
    map: appView,
  });
}

/** One app of the game, or not_found (also for an app of another game). */
export async function getAppOfGame(db: Sql, gameIndex: number, appid: string): Promise<AppView> {
  await requireGame(db, gameIndex);
  const [row] = await db.query<AppRow>(
    `select appid, game_index, client_id, created_at from apps
      where appid = $1 and game_index = $2`,
    [appid, gameIndex],
  );
  if (!row) throw notFound(`appid ${appid} is not an app of game ${gameIndex}`, "APP_NOT_FOUND");
  return appView(row);
}

/** An API key as the admin API shows it: never the key itself. */
export interface ApiKeyView {
  keyId: string;
  /** What the key is for, as given when it was issued, or null. */
  name: string | null;
  gameIndex: number;
  scopes: ApiScope[];
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

type KeyRow = {
  key_id: string;
  name: string | null;
  game_index: number;
  scopes: ApiScope[];
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
};

function keyView(r: KeyRow): ApiKeyView {
  return {
    keyId: r.key_id,
    name: r.name,
    gameIndex: r.game_index,
    scopes: r.scopes,
    createdAt: iso(r.created_at)!,
    lastUsedAt: iso(r.last_used_at),
    revokedAt: iso(r.revoked_at),
  };
}

const KEY_COLUMNS = "key_id, name, game_index, scopes, created_at, last_used_at, revoked_at";

/** Lists a game's API keys, newest first; `revoked` false hides revoked keys. */
export async function listApiKeys(
  db: Sql,
  gameIndex: number,
  q: PageRequest & { revoked?: boolean },
): Promise<Page<ApiKeyView>> {
  return await keysetPage(db, {
    select: KEY_COLUMNS,
    from: "api_keys",
    where: "game_index = $1 and ($2::boolean is null or (revoked_at is not null) = $2)",
    params: [gameIndex, q.revoked ?? null],
    order: { time: "created_at", key: "key_id" },
    page: q,
    gameIndex,
    map: keyView,
  });
}

/** One API key of the game, or not_found. */
export async function getApiKeyOfGame(
  db: Sql,
  gameIndex: number,
  keyId: string,
): Promise<ApiKeyView> {
  await requireGame(db, gameIndex);
  const [row] = await db.query<KeyRow>(
    `select ${KEY_COLUMNS} from api_keys where key_id = $1 and game_index = $2`,
    [keyId, gameIndex],
  );
  if (!row) {
    throw notFound(`API key ${keyId} is not a key of game ${gameIndex}`, "API_KEY_NOT_FOUND");
  }
  return keyView(row);
}
