/**
 * Text abuse detection for a batch: decrypt each text object with the project secret, run the
 * project's detector and the spam rules, and answer per text flags plus the masked text.
 * The batch is all or nothing like the chat endpoint: one bad element refuses the batch.
 */
import { z } from "zod";
import type { MatchInfo } from "../abuse/detector.ts";
import type { Services } from "../services.ts";
import { loadProject } from "./projects.ts";
import { analyseTexts } from "./analysis.ts";
import { openBatch } from "./payload.ts";

/** Largest accepted text, in UTF-8 bytes of its `text` (5 KB). */
export const MAX_TEXT_BYTES = 5 * 1024;
/** Texts longer than this many characters get long_yn 1 and are not analysed. */
export const LONG_TEXT_CHARS = 5000;
// A text_info that cannot hold a text under the limit once decrypted (Base64 of the limit plus
// room for the other fields) is refused before decryption.
const MAX_TEXT_INFO_CHARS = Math.ceil(((MAX_TEXT_BYTES + 2048) * 4) / 3);

const idLike = z.union([z.string(), z.number()]).transform(String);
const TextObject = z.object({
  user_id: idLike.pipe(z.string().min(1)),
  lang_code: idLike,
  text: z.string(),
  text_type: z.string().optional(),
  room_num: idLike.optional(),
  channel_info: z.string().optional(),
});

/** One result element (spec field names). */
export interface TextResult {
  tads_result: {
    forbidden_yn: "0" | "1";
    spam_yn: "0" | "1";
    aug_yn: "0" | "1";
    long_yn: "0" | "1";
  };
  text_result: { text: string; masking_text: string };
  /**
   * The counted matches with their category and severity: an addition beside the spec's two
   * objects, which keep exactly the spec's fields (README "Severity and category").
   */
  matches: MatchInfo[];
}

/** Why a batch was refused. */
export type TextRejection =
  | "count_mismatch"
  | "unknown_project"
  | "too_large"
  | "bad_secret"
  | "bad_request";

/** Outcome of a detection batch. */
export type TextOutcome =
  | { ok: true; results: TextResult[] }
  | { ok: false; reason: TextRejection; message: string };

const flag = (b: boolean) => (b ? "1" : "0") as "0" | "1";
const encoder = new TextEncoder();

/** Runs detection on one batch. */
export async function detectTexts(
  services: Services,
  batch: {
    projectKey: string;
    textCount: number;
    texts: { time_stamp: string; text_info: string }[];
  },
): Promise<TextOutcome> {
  if (batch.textCount !== batch.texts.length) {
    return {
      ok: false,
      reason: "count_mismatch",
      message: `text_count ${batch.textCount} but text_array has ${batch.texts.length}`,
    };
  }
  const project = await loadProject(services, batch.projectKey);
  if (!project) {
    return { ok: false, reason: "unknown_project", message: "unregistered project key" };
  }
  const tooBig = batch.texts.findIndex((t) => t.text_info.length > MAX_TEXT_INFO_CHARS);
  if (tooBig >= 0) {
    return { ok: false, reason: "too_large", message: `text_array[${tooBig}] is over 5 KB` };
  }
  const opened = openBatch(
    batch.texts.map((t) => ({ time_stamp: t.time_stamp, payload: t.text_info })),
    { secret: project.secret, schema: TextObject, array: "text_array", field: "text_info" },
  );
  if (!opened.ok) {
    const reason = opened.reason === "bad_secret" ? "bad_secret" : "bad_request";
    return { ok: false, reason, message: opened.message };
  }
  const texts = opened.values;
  const tooLong = texts.findIndex((t) => encoder.encode(t.text).length > MAX_TEXT_BYTES);
  if (tooLong >= 0) {
    return { ok: false, reason: "too_large", message: `text_array[${tooLong}] is over 5 KB` };
  }

  const isLong = texts.map((t) =>
    t.text.length > LONG_TEXT_CHARS && [...t.text].length > LONG_TEXT_CHARS
  );
  const checked = texts.map((t, i) => ({ text: t.text, userId: t.user_id, lang: t.lang_code, i }))
    .filter((t) => !isLong[t.i]);
  const verdicts = await analyseTexts(services, {
    scope: `tads:${project.projectKey}`,
    detector: project.detector,
    texts: checked,
  });
  const results: TextResult[] = texts.map((t) => ({
    tads_result: { forbidden_yn: "0", spam_yn: "0", aug_yn: "0", long_yn: "1" },
    text_result: { text: t.text, masking_text: t.text },
    matches: [],
  }));
  checked.forEach(({ i }, k) => {
    const v = verdicts[k];
    results[i] = {
      tads_result: {
        forbidden_yn: flag(v.forbidden),
        spam_yn: flag(v.spam !== null),
        aug_yn: "1",
        long_yn: "0",
      },
      text_result: {
        text: texts[i].text,
        masking_text: project.masking && v.forbidden ? v.masked : texts[i].text,
      },
      matches: v.matches,
    };
  });
  return { ok: true, results };
}
