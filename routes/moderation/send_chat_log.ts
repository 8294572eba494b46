/** POST /chat/api/v1/send-chat-log: a game server sends a batch of encrypted chat messages. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { jsonBody, jsonResponse } from "../env.ts";
import { chatCodes, renderChatResult } from "./envelope.ts";
import { type ChatRejection, collectChatLog } from "../../lib/moderation/chat_logs.ts";

const ChatResult = z.object({
  result: z.object({ result_code: z.string(), result_msg: z.string() }),
});

const sendChatLog = createRoute({
  method: "post",
  path: "/chat/api/v1/send-chat-log",
  tags: ["moderation"],
  summary: "Collect a batch of AES-ECB encrypted chat messages for abuse analysis",
  description: "result_code: 200 success, 500 incorrect request, 501 chat_count mismatch, " +
    "502 incorrect secret key, 503 unregistered game key, 506 system error, 507 msg over 2 KB. " +
    "The batch is stored all or nothing, and once: the same batch sent again for the game within " +
    "CHAT_BATCH_DEDUP_SECONDS (a day) is answered 200 success without a second copy.",
  request: {
    body: jsonBody(z.object({
      game_key: z.string().min(1).max(64),
      chat_log: z.object({
        chat_count: z.number().int().min(0),
        msg_array: z.array(z.object({
          time_stamp: z.string().min(1),
          msg: z.string().min(1),
        })).min(1).max(1000),
      }),
    })),
  },
  responses: { 200: jsonResponse(ChatResult, "result_code and result_msg (see description)") },
});

const codeOf: Record<ChatRejection, string> = {
  count_mismatch: chatCodes.countMismatch,
  too_large: chatCodes.tooLarge,
  unknown_game_key: chatCodes.unknownGameKey,
  bad_secret: chatCodes.badSecret,
  bad_message: chatCodes.badRequest,
};

/** Registers the chat log endpoint. */
export function registerSendChatLog(app: OpenAPIHono<AppEnv>) {
  app.openapi(sendChatLog, async (c) => {
    const body = c.req.valid("json");
    const outcome = await collectChatLog(c.get("services"), {
      gameKey: body.game_key,
      chatCount: body.chat_log.chat_count,
      messages: body.chat_log.msg_array,
    });
    if (!outcome.ok) return renderChatResult(c, codeOf[outcome.reason], outcome.message);
    return renderChatResult(c, chatCodes.success, "success");
  });
}
