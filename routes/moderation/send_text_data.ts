/** POST /cads2/send-text-data: check a batch of encrypted texts for forbidden words and spam. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { jsonBody, jsonResponse } from "../env.ts";
import { renderTadsResult, tadsCodes } from "./envelope.ts";
import { detectTexts, type TextRejection } from "../../lib/moderation/text_detection.ts";
import { CATEGORIES } from "../../lib/abuse/detector.ts";

const Flag = z.enum(["0", "1"]);
const TadsResult = z.object({
  result: z.object({
    result_code: z.string(),
    result_text: z.string(),
    result_array: z.array(z.object({
      tads_result: z.object({ forbidden_yn: Flag, spam_yn: Flag, aug_yn: Flag, long_yn: Flag }),
      text_result: z.object({ text: z.string(), masking_text: z.string() }),
      matches: z.array(z.object({
        word: z.string(),
        category: z.enum(CATEGORIES),
        severity: z.number().int().min(1).max(4),
      })).openapi({
        description:
          "Beside the spec's tads_result and text_result (which keep exactly the spec's fields): " +
          "each counted match's listed word, category and severity (1 mild .. 4 severe)",
      }),
    })),
    result_reason: z.string().optional().openapi({
      description: "On a refusal: what was wrong, naming the field (e.g. text_array[0].text)",
    }),
  }),
});

const sendTextData = createRoute({
  method: "post",
  path: "/cads2/send-text-data",
  tags: ["moderation"],
  summary: "Detect forbidden words and spam in a batch of AES-ECB encrypted texts",
  description: "result_code/result_text: 200 success, 500 Incorrect request, 501 Incorrect " +
    "Data Count, 502 Incorrect Secret Key, 503 Unregistered ProjectKey, 506 System Error, " +
    "507 The size of message is too large. result_array holds one entry per text, in order.",
  request: {
    body: jsonBody(z.object({
      project_key: z.string().min(1).max(64),
      text_log: z.object({
        text_count: z.number().int().min(0),
        text_array: z.array(z.object({
          time_stamp: z.string().min(1),
          text_info: z.string().min(1),
        })).min(1).max(1000),
      }),
    })),
  },
  responses: { 200: jsonResponse(TadsResult, "per-text flags and masked text") },
});

const entryOf: Record<TextRejection, { code: string; text: string }> = {
  count_mismatch: tadsCodes.countMismatch,
  unknown_project: tadsCodes.unknownProject,
  too_large: tadsCodes.tooLarge,
  bad_secret: tadsCodes.badSecret,
  bad_request: tadsCodes.badRequest,
};

/** Registers the text detection endpoint. */
export function registerSendTextData(app: OpenAPIHono<AppEnv>) {
  app.openapi(sendTextData, async (c) => {
    const body = c.req.valid("json");
    const outcome = await detectTexts(c.get("services"), {
      projectKey: body.project_key,
      textCount: body.text_log.text_count,
      texts: body.text_log.text_array,
    });
    if (!outcome.ok) return renderTadsResult(c, entryOf[outcome.reason], [], outcome.message);
    return renderTadsResult(c, tadsCodes.success, outcome.results);
  });
}
