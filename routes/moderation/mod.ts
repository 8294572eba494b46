/** Mounts the moderation families: chat log collection and text detection. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { createFamilyApp } from "../env.ts";
import { chatFamily, tadsFamily } from "./envelope.ts";
import { registerSendChatLog } from "./send_chat_log.ts";
import { registerSendTextData } from "./send_text_data.ts";

/** Builds the chat log sub-app. */
export function chatRoutes(): OpenAPIHono<AppEnv> {
  const app = createFamilyApp(chatFamily);
  registerSendChatLog(app);
  return app;
}

/** Builds the text detection sub-app. */
export function tadsRoutes(): OpenAPIHono<AppEnv> {
  const app = createFamilyApp(tadsFamily);
  registerSendTextData(app);
  return app;
}
