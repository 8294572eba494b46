/**
 * OTP topics: the sending information a game registers (service name, provider or direct
 * sending, validity, time zone, code length), chosen per request by the `Topic` header.
 */
import type { Sql } from "../db/port.ts";
import { invalid } from "../errors.ts";
import { requireGame } from "../tenancy.ts";
import { isTimeZone } from "../time/zones.ts";
import { cacheFor, LruCache } from "../cache/lru.ts";

/** How codes of a topic reach the receiver. */
export type OtpMode = "provider" | "direct";

/** One topic as the API shows it. */
export interface OtpTopic {
  gameIndex: number;
  topic: string;
  serviceName: string;
  mode: OtpMode;
  callbackUrl: string | null;
  expirySeconds: number;
  timeZone: string;
  codeLength: number;
}

/** Defaults of a new topic. */
export const TOPIC_DEFAULTS = { expirySeconds: 180, timeZone: "Asia/Seoul", codeLength: 6 };

/** What an admin sends to register a topic. */
export interface TopicInput {
  topic: string;
  serviceName: string;
  mode: OtpMode;
  callbackUrl?: string;
  expirySeconds?: number;
  timeZone?: string;
  codeLength?: number;
}

/** A topic as its row holds it. */
export type TopicRow = {
  game_index: number;
  topic: string;
  service_name: string;
  mode: OtpMode;
  callback_url: string | null;
  expiry_seconds: number;
  time_zone: string;
  code_length: number;
};

/** The columns a topic is read from. */
export const TOPIC_COLUMNS =
  "game_index, topic, service_name, mode, callback_url, expiry_seconds, time_zone, code_length";

/** A topic from its row. */
export function topicOfRow(r: TopicRow): OtpTopic {
  return {
    gameIndex: r.game_index,
    topic: r.topic,
    serviceName: r.service_name,
    mode: r.mode,
    callbackUrl: r.callback_url,
    expirySeconds: r.expiry_seconds,
    timeZone: r.time_zone,
    codeLength: r.code_length,
  };
}

/** Registers a topic, or replaces the settings of an existing one; `created` tells which. */
export async function saveTopic(
  db: Sql,
  gameIndex: number,
  input: TopicInput,
): Promise<{ topic: OtpTopic; created: boolean }> {
  const timeZone = input.timeZone ?? TOPIC_DEFAULTS.timeZone;
  if (!isTimeZone(timeZone)) {
    throw invalid(`timeZone: unknown time zone ${timeZone}`);
  }
  if (input.mode === "direct" && !input.callbackUrl) {
    throw invalid("callbackUrl is required for mode direct");
  }
  await requireGame(db, gameIndex);
  const [row] = await db.query<TopicRow & { created: boolean }>(
    `insert into otp_topics (${TOPIC_COLUMNS})
     values ($1, $2, $3, $4, $5, $6, $7, $8)
     on conflict (game_index, topic) do update set
       service_name = excluded.service_name, mode = excluded.mode,
       callback_url = excluded.callback_url, expiry_seconds = excluded.expiry_seconds,
       time_zone = excluded.time_zone, code_length = excluded.code_length, updated_at = now()
     returning ${TOPIC_COLUMNS}, (xmax = 0) as created`,
    [
      gameIndex,
      input.topic,
      input.serviceName,
      input.mode,
      input.callbackUrl ?? null,
      input.expirySeconds ?? TOPIC_DEFAULTS.expirySeconds,
      timeZone,
      input.codeLength ?? TOPIC_DEFAULTS.codeLength,
    ],
  );
  const saved = topicOfRow(row);
  topicCaches.get(db)?.set(`${gameIndex}\u0000${saved.topic}`, saved, Date.now() + TOPIC_CACHE_MS);
  return { topic: saved, created: row.created };
}

/** How long a looked-up topic is reused before the database is asked again (other isolates). */
export const TOPIC_CACHE_MS = 5_000;
const topicCaches = new WeakMap<object, LruCache<string, OtpTopic | null>>();

/**
 * Finds a topic of a game, or null. Answers are reused per isolate for TOPIC_CACHE_MS; saving a
 * topic replaces the cached one at once in the saving isolate.
 */
export async function findTopic(
  db: Sql,
  gameIndex: number,
  topic: string,
): Promise<OtpTopic | null> {
  const cache = cacheFor(topicCaches, db, 10_000);
  const key = `${gameIndex}\u0000${topic}`;
  const nowMs = Date.now();
  const cached = cache.get(key, nowMs);
  if (cached !== undefined) return cached;
  const [row] = await db.query<TopicRow>(
    `select ${TOPIC_COLUMNS} from otp_topics where game_index = $1 and topic = $2`,
    [gameIndex, topic],
  );
  const found = row ? topicOfRow(row) : null;
  cache.set(key, found, nowMs + TOPIC_CACHE_MS);
  return found;
}
