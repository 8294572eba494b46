/** Each game's item endpoint (HTTP URL or TCP host:port, vendor word) and its health state. */
import { deriveSealKey, openText, sealText } from "../crypto/seal.ts";
import type { Sql } from "../db/port.ts";
import { DomainError } from "../errors.ts";
import { requireGame } from "../tenancy.ts";

/** Where and how a game server receives item requests. */
export type EndpointTarget =
  | { transport: "http"; url: string }
  | { transport: "tcp"; host: string; port: number };

/** A registered endpoint as loaded for sending. */
export type ItemEndpoint = EndpointTarget & {
  gameIndex: number;
  vendorWord: string;
};

/** The endpoint as the admin API shows it (the vendor word is never shown). */
export type ItemEndpointView = EndpointTarget & {
  gameIndex: number;
  health: {
    healthy: boolean | null;
    lastProbeAt: string | null;
    lastError: string | null;
  };
  configSuspect: boolean;
  suspectReason: string | null;
  updatedAt: string;
};

/** Default TCP port of the item socket. */
export const DEFAULT_ITEM_TCP_PORT = 20080;

/** The stored columns that say where and how to send (the vendor word still sealed). */
export interface StoredEndpoint {
  game_index: number;
  transport: string;
  url: string | null;
  host: string | null;
  port: number | null;
  vendor_word: string;
}

interface EndpointRow extends StoredEndpoint {
  transport: "http" | "tcp";
  healthy: boolean | null;
  last_probe_at: Date | null;
  last_probe_error: string | null;
  config_suspect: boolean;
  suspect_reason: string | null;
  updated_at: Date;
}

/** Turns a stored row into the target it names. */
export function targetOf(
  row: Pick<StoredEndpoint, "transport" | "url" | "host" | "port">,
): EndpointTarget {
  return row.transport === "tcp"
    ? {
      transport: "tcp",
      host: row.host ?? "",
      port: row.port ?? DEFAULT_ITEM_TCP_PORT,
    }
    : { transport: "http", url: row.url ?? "" };
}

/**
 * Registers or replaces a game's endpoint; the health state starts unknown and a probe is due at
 * once. A replaced configuration is no longer suspect.
 */
export async function putItemEndpoint(
  db: Sql,
  gameIndex: number,
  input: EndpointTarget & {
    vendorWord: string;
    nowMs: number;
    masterKey: string;
  },
): Promise<ItemEndpointView> {
  await requireGame(db, gameIndex);
  const now = new Date(input.nowMs);
  const [url, host, port] = input.transport === "http"
    ? [input.url, null, null]
    : [null, input.host, input.port];
  await db.query(
    `insert into item_endpoints
       (game_index, transport, url, host, port, vendor_word, probe_due_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $7)
     on conflict (game_index) do update set transport = excluded.transport, url = excluded.url,
       host = excluded.host, port = excluded.port, vendor_word = excluded.vendor_word,
       healthy = null, last_probe_at = null, last_probe_error = null,
       probe_due_at = excluded.probe_due_at, config_suspect = false, suspect_reason = null,
       updated_at = excluded.updated_at`,
    [
      gameIndex,
      input.transport,
      url,
      host,
      port,
      await sealVendorWord(input.masterKey, gameIndex, input.vendorWord),
      now,
    ],
  );
  return (await viewItemEndpoint(db, gameIndex))!;
}

/** The endpoint with its health state, or null when none is registered. */
export async function viewItemEndpoint(
  db: Sql,
  gameIndex: number,
): Promise<ItemEndpointView | null> {
  const [row] = await db.query<EndpointRow & Record<string, unknown>>(
    "select * from item_endpoints where game_index = $1",
    [gameIndex],
  );
  if (!row) return null;
  return {
    ...targetOf(row),
    gameIndex: row.game_index,
    health: {
      healthy: row.healthy,
      lastProbeAt: row.last_probe_at ? new Date(row.last_probe_at).toISOString() : null,
      lastError: row.last_probe_error,
    },
    configSuspect: row.config_suspect,
    suspectReason: row.suspect_reason,
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/** Throws conflict (ITEM_ENDPOINT_MISSING) unless the game has an endpoint. */
export async function requireItemEndpoint(
  db: Sql,
  gameIndex: number,
): Promise<void> {
  const rows = await db.query(
    "select 1 from item_endpoints where game_index = $1",
    [gameIndex],
  );
  if (rows.length === 0) {
    throw new DomainError(
      "conflict",
      "ITEM_ENDPOINT_MISSING",
      `game ${gameIndex} has no item endpoint registered`,
    );
  }
}

/** Opens a stored endpoint for sending: its target and the unsealed vendor word. */
export async function openItemEndpoint(
  masterKey: string,
  row: StoredEndpoint,
): Promise<ItemEndpoint> {
  return {
    ...targetOf(row),
    gameIndex: row.game_index,
    vendorWord: await openVendorWord(
      masterKey,
      row.game_index,
      row.vendor_word,
    ),
  };
}

/** Seals a vendor word for storage (it is a shared secret, like chat and wallet keys). */
async function sealVendorWord(
  masterKey: string,
  gameIndex: number,
  word: string,
) {
  return await sealText(
    await deriveSealKey(masterKey, "item-vendor-word"),
    `game:${gameIndex}`,
    word,
  );
}

/** Opens a stored (sealed) vendor word. */
async function openVendorWord(
  masterKey: string,
  gameIndex: number,
  stored: string,
) {
  return await openText(
    await deriveSealKey(masterKey, "item-vendor-word"),
    `game:${gameIndex}`,
    stored,
  );
}
