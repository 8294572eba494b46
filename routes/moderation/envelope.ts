/**
 * Envelopes of chat log collection (`{result:{result_code, result_msg}}`) and text detection
 * (`{result:{result_code, result_text, result_array}}`). Codes are strings from the spec.
 * Both answer HTTP 200 for every result code, a refused body size (507) included: the spec gives
 * no HTTP statuses and clients read result_code.
 */
import type { Context } from "hono";
import type { AppEnv, Failure, Family, JsonResponse } from "../env.ts";

/** Chat result codes. */
export const chatCodes = {
  success: "200",
  badRequest: "500",
  countMismatch: "501",
  badSecret: "502",
  unknownGameKey: "503",
  systemError: "506",
  tooLarge: "507",
} as const;

/** Text-detection result codes and their fixed texts. */
export const tadsCodes = {
  success: { code: "200", text: "success" },
  badRequest: { code: "500", text: "Incorrect request" },
  countMismatch: { code: "501", text: "Incorrect Data Count" },
  badSecret: { code: "502", text: "Incorrect Secret Key" },
  unknownProject: { code: "503", text: "Unregistered ProjectKey" },
  systemError: { code: "506", text: "System Error" },
  tooLarge: { code: "507", text: "The size of message is too large" },
} as const;

/** Renders a chat result. */
export function renderChatResult(c: Context<AppEnv>, code: string, msg: string): JsonResponse {
  return c.json({ result: { result_code: code, result_msg: msg } }, 200) as JsonResponse;
}

/**
 * Renders a text-detection result. result_text is the spec's fixed text; a refusal also says
 * what was wrong, naming the field, in `result_reason` (an addition clients may ignore).
 */
export function renderTadsResult(
  c: Context<AppEnv>,
  entry: { code: string; text: string },
  array: unknown[] = [],
  reason?: string,
): JsonResponse {
  return c.json({
    result: {
      result_code: entry.code,
      result_text: entry.text,
      result_array: array,
      ...(reason ? { result_reason: reason } : {}),
    },
  }, 200) as JsonResponse;
}

function chatCodeOf(f: Failure): string {
  if (f.code === "BODY_TOO_LARGE") return chatCodes.tooLarge;
  if (f.kind === "unavailable" || f.kind === "internal") return chatCodes.systemError;
  return chatCodes.badRequest;
}

/** The chat log family. */
export const chatFamily: Family = {
  name: "chat",
  prefixes: ["/chat/"],
  renderError: (c, f) =>
    renderChatResult(c, chatCodeOf(f), f.kind === "internal" ? "system error" : f.message),
};

/** The text detection family. */
export const tadsFamily: Family = {
  name: "tads",
  prefixes: ["/cads2/"],
  renderError: (c, f) => {
    if (f.code === "BODY_TOO_LARGE") return renderTadsResult(c, tadsCodes.tooLarge, [], f.message);
    if (f.kind === "unavailable" || f.kind === "internal") {
      return renderTadsResult(c, tadsCodes.systemError);
    }
    return renderTadsResult(c, tadsCodes.badRequest, [], f.message);
  },
};
