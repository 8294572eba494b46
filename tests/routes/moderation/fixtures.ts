/** Test fixtures for the moderation endpoints: encrypted chat and text batches. */
import { type EcbPadding, encryptEcb } from "../../../lib/crypto/aes_ecb.ts";
import { DbError, type Sql } from "../../../lib/db/port.ts";
import { createApp } from "../../../routes/mod.ts";
import { testEnv } from "../../harness.ts";

/** A plaintext chat message with sensible defaults. */
export function chatMessage(over: Record<string, unknown> = {}) {
  return {
    time_stamp: "2024-05-01T12:00:00.000+09:00",
    room_num: 7,
    lang_code: 1,
    chat_msg: "안녕하세요",
    chat_mode: 100,
    channel_user_id: 1001,
    ...over,
  };
}

/** A send-chat-log body with each message encrypted (padding alternates unless given). */
export function chatBody(
  gameKey: string,
  secret: string,
  messages: Record<string, unknown>[],
  padding?: EcbPadding,
) {
  return {
    game_key: gameKey,
    chat_log: {
      chat_count: messages.length,
      msg_array: messages.map((m, i) => ({
        time_stamp: "2024-05-01T12:00:01+09:00",
        msg: encryptEcb(JSON.stringify(m), secret, {
          padding: padding ?? (i % 2 === 0 ? "pkcs7" : "spaces"),
        }),
      })),
    },
  };
}

/** A send-text-data body with each text object encrypted. */
export function textBody(
  projectKey: string,
  secret: string,
  texts: (string | Record<string, unknown>)[],
  padding?: EcbPadding,
) {
  return {
    project_key: projectKey,
    text_log: {
      text_count: texts.length,
      text_array: texts.map((t, i) => ({
        time_stamp: "2024-05-01T12:00:00Z",
        text_info: encryptEcb(
          JSON.stringify(
            typeof t === "string"
              ? { user_id: `u-${crypto.randomUUID()}`, lang_code: "en", text: t }
              : t,
          ),
          secret,
          { padding: padding ?? (i % 2 === 0 ? "spaces" : "pkcs7") },
        ),
      })),
    },
  };
}

/** The app built on services whose database is unreachable (for the 506 answers). */
export async function appWithDatabaseDown() {
  const { services } = await testEnv();
  const down: Sql = {
    kind: services.db.kind,
    query: () => Promise.reject(new DbError("connection refused", undefined)),
    transaction: () => Promise.reject(new DbError("connection refused", undefined)),
    close: () => Promise.resolve(),
  };
  return createApp({ ...services, db: down });
}
