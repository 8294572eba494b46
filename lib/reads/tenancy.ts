/** Admin reads of tenants: games, their apps (never a secret) and API keys (never the key). */
import type { Sql } from "../db/port.ts";
import { notFound } from "../errors.ts";
import { requireGame } from "../tenancy.ts";
import type { ApiScope } from "../auth/api_keys.ts";
import {
  afterCursor,
  decodeCursor,
  iso,
  microsOf,
  type Page,
  pageOf,
  type PageRequest,
} from "./page.ts";

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
  const after = decodeCursor(q.cursor);
  const rows = await db.query<{
    game_index: number;
    name: string;
    created_at: Date;
    apps: string;
    keys: string;
  }>(
    `select g.game_index, g.name, g.created_at,
        (select count(*) from apps a where a.game_index = g.game_index) as apps,
        (select count(*) from api_keys k where k.game_index = g.game_index
           and k.revoked_at is null) as keys
       from games g
      where ($1::int is null or g.game_index < $1::int)
        and ($2::text is null or strpos(lower(g.name), lower($2)) > 0)
      order by g.game_index desc limit $3`,
    [after ? Number(after[0]) : null, q.name ?? null, q.limit + 1],
  );
  return pageOf(rows, q.limit, (r) => ({
    gameIndex: r.game_index,
    name: r.name,
    createdAt: iso(r.created_at)!,
    apps: Number(r.apps),
    activeApiKeys: Number(r.keys),
  }), (r) => [String(r.game_index), ""]);
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
  us: string;
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
  const after = decodeCursor(q.cursor);
  const rows = await db.query<AppRow>(
    `select appid, game_index, client_id, created_at, ${microsOf("created_at")} as us
       from apps where game_index = $1 and ${afterCursor("created_at", "appid", 2, 3)}
      order by created_at desc, appid desc limit $4`,
    [gameIndex, after?.[0] ?? null, after?.[1] ?? null, q.limit + 1],
  );
  // An empty page may mean an unknown game: only then is the game looked up.
  if (rows.length === 0) await requireGame(db, gameIndex);
  return pageOf(rows, q.limit, appView, (r) => [r.us, r.appid]);
}

/** One app of the game, or not_found (also for an app of another game). */
export async function getAppOfGame(db: Sql, gameIndex: number, appid: string): Promise<AppView> {
  await requireGame(db, gameIndex);
  const [row] = await db.query<AppRow>(
    `select appid, game_index, client_id, created_at, '' as us from apps
      where appid = $1 and game_index = $2`,
    [appid, gameIndex],
  );
  if (!row) throw notFound(`appid ${appid} is not an app of game ${gameIndex}`, "APP_NOT_FOUND");
  return appView(row);
}

/** An API key as the admin API shows it: never the key itself. */
export interface ApiKeyView {
  keyId: string;
  gameIndex: number;
  scopes: ApiScope[];
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

type KeyRow = {
  key_id: string;
  game_index: number;
  scopes: ApiScope[];
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
  us: string;
};

function keyView(r: KeyRow): ApiKeyView {
  return {
    keyId: r.key_id,
    gameIndex: r.game_index,
    scopes: r.scopes,
    createdAt: iso(r.created_at)!,
    lastUsedAt: iso(r.last_used_at),
    revokedAt: iso(r.revoked_at),
  };
}

const KEY_COLUMNS = "key_id, game_index, scopes, created_at, last_used_at, revoked_at";

/** Lists a game's API keys, newest first; `revoked` false hides revoked keys. */
export async function listApiKeys(
  db: Sql,
  gameIndex: number,
  q: PageRequest & { revoked?: boolean },
): Promise<Page<ApiKeyView>> {
  const after = decodeCursor(q.cursor);
  const rows = await db.query<KeyRow>(
    `select ${KEY_COLUMNS}, ${microsOf("created_at")} as us
       from api_keys where game_index = $1 and ${afterCursor("created_at", "key_id", 2, 3)}
        and ($5::boolean is null or (revoked_at is not null) = $5)
      order by created_at desc, key_id desc limit $4`,
    [gameIndex, after?.[0] ?? null, after?.[1] ?? null, q.limit + 1, q.revoked ?? null],
  );
  // An empty page may mean an unknown game: only then is the game looked up.
  if (rows.length === 0) await requireGame(db, gameIndex);
  return pageOf(rows, q.limit, keyView, (r) => [r.us, r.key_id]);
}

/** One API key of the game, or not_found. */
export async function getApiKeyOfGame(
  db: Sql,
  gameIndex: number,
  keyId: string,
): Promise<ApiKeyView> {
  await requireGame(db, gameIndex);
  const [row] = await db.query<KeyRow>(
    `select ${KEY_COLUMNS}, '' as us from api_keys where key_id = $1 and game_index = $2`,
    [keyId, gameIndex],
  );
  if (!row) {
    throw notFound(`API key ${keyId} is not a key of game ${gameIndex}`, "API_KEY_NOT_FOUND");
  }
  return keyView(row);
}
