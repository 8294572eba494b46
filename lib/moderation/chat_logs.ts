/**
 * Chat log collection: decrypt a batch of chat messages with the game's secret, validate every
 * message, analyse them with the linked project's lists and store them in one multi-row
 * statement. All or nothing: any bad message rejects the batch and nothing is stored.
 */
import { z } from "zod";
import type { MatchInfo } from "../abuse/detector.ts";
import type { Services } from "../services.ts";
import { findChatKey } from "./chat_keys.ts";
import { loadProject } from "./projects.ts";
import { analyseTexts } from "./analysis.ts";
import { isIsoTime, openBatch } from "./payload.ts";

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

/** Outcome of a collection. */
export type ChatOutcome =
  | { ok: true; stored: number; flagged: number }
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
  await services.db.query(
    `insert into chat_logs (game_index, game_key, sent_at, time_stamp, room_num, lang_code,
       chat_mode, channel_user_id, chat_msg, forbidden, spam, spam_rule, matched_words, matches)
     select $1, $2, x.sent_at, x.time_stamp, x.room_num, x.lang_code, x.chat_mode,
       x.channel_user_id, x.chat_msg, x.forbidden, x.spam, x.spam_rule, x.matched_words,
       x.matches
     from jsonb_to_recordset($3::jsonb) as x(n int, sent_at timestamptz, time_stamp text,
       room_num bigint, lang_code int, chat_mode int, channel_user_id bigint, chat_msg text,
       forbidden boolean, spam boolean, spam_rule text, matched_words jsonb, matches jsonb)
     order by x.n`,
    [key.gameIndex, key.gameKey, rows],
  );
  return {
    ok: true,
    stored: rows.length,
    flagged: rows.filter((r) => r.forbidden || r.spam).length,
  };
}

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
