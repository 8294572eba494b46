/**
 * Chat log collection: decrypt a batch of chat messages with the game's secret, validate every
 * message, analyse them with the linked project's lists and store them in one multi-row
 * statement. All or nothing: any bad message rejects the batch and nothing is stored.
 *
 * A batch is stored once: the statement that stores its rows also writes a receipt (game, SHA-256
 * of the batch as sent), and the same batch sent again for the same game while the receipt is
 * younger than CHAT_BATCH_DEDUP_SECONDS is answered success without storing or analysing it again
 * (a client retrying after a lost answer or a 503 that came after the commit). The spec's body has
 * no batch id, so the batch's exact content is its identity: chat_count and every message's
 * time_stamp and ciphertext (AES-ECB is deterministic, so the same messages encrypt the same).
 */
import { z } from "zod";
import type { MatchInfo } from "../abuse/detector.ts";
import type { Services } from "../services.ts";
import { findChatKey } from "./chat_keys.ts";
import { loadProject } from "./projects.ts";
import { analyseTexts } from "./analysis.ts";
import { isIsoTime, openBatch } from "./payload.ts";
import { sha256Hex } from "../crypto/hashing.ts";

/** Largest accepted `msg` (Base64 ciphertext): 2 KB. */
export const MAX_CHAT_MSG_BYTES = 2048;

const ChatMessage = z.object({
  time_stamp: z.string().refine(isIsoTime, "must be an ISO 8601 time with offset"),
  room_num: z.number().int(),
  lang_code: z.number().int().min(1).max(16),
  chat_msg: z.string(),
  chat_mode: z.number().int().refine(
    (m) => m === 100 || m === 200 || m === 300 || (m >= 400 && m <= 499),
    "must be 100, 200, 300 or 4NN",
  ),
  channel_user_id: z.number().int(),
});

/** The batch as the endpoint received it (shape already validated). */
export interface ChatBatch {
  gameKey: string;
  chatCount: number;
  messages: { time_stamp: string; msg: string }[];
}

/** Why a batch was refused; the route maps each to the spec's result code. */
export type ChatRejection =
  | "count_mismatch"
  | "too_large"
  | "unknown_game_key"
  | "bad_secret"
  | "bad_message";

/** Outcome of a collection; `duplicate` when the same batch was already stored (nothing stored). */
export type ChatOutcome =
  | { ok: true; stored: number; flagged: number; duplicate?: true }
  | { ok: false; reason: ChatRejection; message: string };

/** Validates, decrypts, analyses and stores one batch. */
export async function collectChatLog(services: Services, batch: ChatBatch): Promise<ChatOutcome> {
  if (batch.chatCount !== batch.messages.length) {
    return {
      ok: false,
      reason: "count_mismatch",
      message: `chat_count ${batch.chatCount} but msg_array has ${batch.messages.length}`,
    };
  }
  const tooBig = batch.messages.findIndex((m) => m.msg.length > MAX_CHAT_MSG_BYTES);
  if (tooBig >= 0) {
    return { ok: false, reason: "too_large", message: `msg_array[${tooBig}].msg is over 2 KB` };
  }
  const key = await findChatKey(services, batch.gameKey);
  if (!key) return { ok: false, reason: "unknown_game_key", message: "unregistered game key" };
  const opened = openBatch(
    batch.messages.map((m) => ({ time_stamp: m.time_stamp, payload: m.msg })),
    { secret: key.secret, schema: ChatMessage, array: "msg_array", field: "msg" },
  );
  if (!opened.ok) {
    const reason = opened.reason === "bad_secret" ? "bad_secret" : "bad_message";
    return { ok: false, reason, message: opened.message };
  }
  const decoded = opened.values;

  const windowMs = services.config.CHAT_BATCH_DEDUP_SECONDS * 1000;
  const nowMs = services.clock.now();
  const hash = windowMs > 0 ? await batchHash(batch) : null;
  // A batch already stored is answered as it was, without counting its texts again.
  if (hash && await receiptLive(services, key.gameIndex, hash, nowMs - windowMs)) {
    return { ok: true, stored: 0, flagged: 0, duplicate: true };
  }

  const project = key.projectKey ? await loadProject(services, key.projectKey) : null;
  const verdicts = await analyseTexts(services, {
    scope: `chat:${key.gameIndex}`,
    detector: project?.detector ?? null,
    texts: decoded.map((m) => ({
      text: m.chat_msg,
      userId: String(m.channel_user_id),
      lang: m.lang_code,
    })),
  });
  const rows = decoded.map((m, i) => ({
    n: i,
    sent_at: new Date(Date.parse(m.time_stamp)).toISOString(),
    time_stamp: m.time_stamp,
    room_num: m.room_num,
    lang_code: m.lang_code,
    chat_mode: m.chat_mode,
    channel_user_id: m.channel_user_id,
    chat_msg: m.chat_msg,
    forbidden: verdicts[i].forbidden,
    spam: verdicts[i].spam !== null,
    spam_rule: verdicts[i].spam,
    matched_words: verdicts[i].words,
    matches: verdicts[i].matches,
  }));
  const insertRows = `insert into chat_logs (game_index, game_key, sent_at, time_stamp, room_num,
       lang_code, chat_mode, channel_user_id, chat_msg, forbidden, spam, spam_rule, matched_words,
       matches)
     select $1, $2, x.sent_at, x.time_stamp, x.room_num, x.lang_code, x.chat_mode,
       x.channel_user_id, x.chat_msg, x.forbidden, x.spam, x.spam_rule, x.matched_words,
       x.matches
     from jsonb_to_recordset($3::jsonb) as x(n int, sent_at timestamptz, time_stamp text,
       room_num bigint, lang_code int, chat_mode int, channel_user_id bigint, chat_msg text,
       forbidden boolean, spam boolean, spam_rule text, matched_words jsonb, matches jsonb)`;
  if (!hash) {
    await services.db.query(`${insertRows} order by x.n`, [key.gameIndex, key.gameKey, rows]);
  } else {
    // One statement: the receipt is written (or an expired one renewed) and the rows stored
    // together, or neither; a concurrent copy of the batch waits for this one and stores nothing.
    const [done] = await services.db.query<{ stored: number }>(
      `with receipt as (
         insert into chat_batch_receipts (game_index, body_hash, stored_at) values ($1, $4, $5)
         on conflict (game_index, body_hash) do update set stored_at = excluded.stored_at
           where chat_batch_receipts.stored_at <= $6
         returning 1
       ), stored as (
         ${insertRows} where exists (select 1 from receipt) order by x.n returning 1
       )
       select count(*)::int as stored from stored`,
      [key.gameIndex, key.gameKey, rows, hash, new Date(nowMs), new Date(nowMs - windowMs)],
    );
    if (Number(done.stored) === 0) return { ok: true, stored: 0, flagged: 0, duplicate: true };
  }
  return {
    ok: true,
    stored: rows.length,
    flagged: rows.filter((r) => r.forbidden || r.spam).length,
  };
}

/** The identity of a batch as sent: SHA-256 of chat_count and each message's time and ciphertext. */
function batchHash(batch: ChatBatch): Promise<string> {
  return sha256Hex(
    JSON.stringify([batch.chatCount, batch.messages.map((m) => [m.time_stamp, m.msg])]),
  );
}

/** True when the game stored this batch after `since` (epoch ms). */
async function receiptLive(s: Services, gameIndex: number, hash: string, since: number) {
  const rows = await s.db.query(
    `select 1 from chat_batch_receipts
      where game_index = $1 and body_hash = $2 and stored_at > $3`,
    [gameIndex, hash, new Date(since)],
  );
  return rows.length > 0;
}

/** Deletes receipts older than CHAT_BATCH_DEDUP_SECONDS (scheduled), a bounded batch at a time. */
export async function purgeChatBatchReceipts(s: Services, nowMs = s.clock.now()) {
  const before = new Date(nowMs - s.config.CHAT_BATCH_DEDUP_SECONDS * 1000);
  await s.db.query(
    `delete from chat_batch_receipts where (game_index, body_hash) in (
       select game_index, body_hash from chat_batch_receipts where stored_at <= $1 limit 1000)`,
    [before],
  );
}

/** The chat log collection's scheduled job: expired batch receipts are deleted. */
export const chatReceiptsJob = {
  name: "chat-batch-receipts",
  run: (s: Services, nowMs: number) => purgeChatBatchReceipts(s, nowMs),
};

/** A stored chat message as the admin listing shows it. */
export interface StoredChat {
  id: string;
  gameKey: string;
  timeStamp: string;
  roomNum: string;
  langCode: number;
  chatMode: number;
  channelUserId: string;
  chatMsg: string;
  forbidden: boolean;
  spam: boolean;
  spamRule: string | null;
  matchedWords: string[];
  /** Category and severity of each matched word. */
  matches: MatchInfo[];
  receivedAt: string;
}

// A chat_logs row as the SQL port returns it (bigint columns arrive as strings).
interface ChatLogRow {
  id: string;
  game_key: string;
  time_stamp: string;
  room_num: string;
  lang_code: number;
  chat_mode: number;
  channel_user_id: string;
  chat_msg: string;
  forbidden: boolean;
  spam: boolean;
  spam_rule: string | null;
  matched_words: string[];
  matches: MatchInfo[];
  received_at: Date;
}

/** Lists a game's stored messages, newest first, with an id cursor. */
export async function listChatLogs(
  services: Services,
  query: { gameIndex: number; flagged?: boolean; userId?: string; limit: number; cursor?: string },
): Promise<{ items: StoredChat[]; nextCursor: string | null }> {
  const rows = await services.db.query<ChatLogRow>(
    `select id, game_key, time_stamp, room_num, lang_code, chat_mode, channel_user_id, chat_msg,
       forbidden, spam, spam_rule, matched_words, matches, received_at
     from chat_logs
     where game_index = $1
       and ($2::boolean is not true or forbidden or spam)
       and ($3::bigint is null or channel_user_id = $3::bigint)
       and ($4::bigint is null or id < $4::bigint)
     order by id desc limit $5`,
    [
      query.gameIndex,
      query.flagged ?? null,
      query.userId ?? null,
      query.cursor ?? null,
      query.limit + 1,
    ],
  );
  const more = rows.length > query.limit;
  const items = rows.slice(0, query.limit).map((r) => ({
    id: r.id,
    gameKey: r.game_key,
    timeStamp: r.time_stamp,
    roomNum: r.room_num,
    langCode: r.lang_code,
    chatMode: r.chat_mode,
    channelUserId: r.channel_user_id,
    chatMsg: r.chat_msg,
    forbidden: r.forbidden,
    spam: r.spam,
    spamRule: r.spam_rule,
    matchedWords: r.matched_words,
    matches: r.matches,
    receivedAt: r.received_at.toISOString(),
  }));
  return { items, nextCursor: more ? items[items.length - 1].id : null };
}
