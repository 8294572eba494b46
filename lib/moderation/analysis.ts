/** Shared analysis of one message: forbidden words (project lists) and spam rules. */
import type { Services } from "../services.ts";
import type { Detector, MatchInfo } from "../abuse/detector.ts";
import { contentSpamRule, markRepeatedTexts, type SpamRule } from "../abuse/spam.ts";

/** Verdict on one text. */
export interface Verdict {
  forbidden: boolean;
  words: string[];
  /** Category and severity of each counted word. */
  matches: MatchInfo[];
  masked: string;
  spam: SpamRule | null;
}

/** A message to analyse: the text, who sent it and its language code (selects lexicons). */
export interface AnalysisInput {
  text: string;
  userId: string;
  lang?: string | number;
}

/**
 * Analyses texts of one batch. Content rules run locally; the repeat rule counts each text in
 * the KV store (one call per text, concurrently). When the KV store fails the repeat rule is
 * skipped for the batch (logged) rather than failing collection.
 */
export async function analyseTexts(
  services: Services,
  input: { scope: string; detector: Detector | null; texts: AnalysisInput[] },
): Promise<Verdict[]> {
  const verdicts: Verdict[] = input.texts.map(({ text, lang }) => {
    const found = input.detector?.detect(text, { lang });
    return {
      forbidden: found?.forbidden ?? false,
      words: found?.words ?? [],
      matches: found?.matches ?? [],
      masked: found?.masked ?? text,
      spam: contentSpamRule(text),
    };
  });
  try {
    // Texts already flagged by a content rule are not counted.
    const counted = input.texts.flatMap((_, i) => verdicts[i].spam ? [] : [i]);
    const repeats = await markRepeatedTexts(services.kv, {
      scope: input.scope,
      items: counted.map((i) => input.texts[i]),
    });
    repeats.forEach((repeated, j) => {
      if (repeated) verdicts[counted[j]].spam = "repeat_text";
    });
  } catch (err) {
    services.log.warn("repeat-text rule skipped: KV unavailable", { err });
  }
  return verdicts;
}
