/**
 * The 16 languages of the abuse-detection spec and how a text's `lang_code` selects the built-in
 * lexicons applied to it: the text's own language plus English (English swearing turns up in
 * every game chat); Simplified and Traditional Chinese go together; an unknown, unsupported or
 * missing code applies every language.
 */

/** Supported languages in chat lang_code order (1 = ko ... 16 = vi). */
export const LANGUAGES = [
  "ko",
  "en",
  "ja",
  "zh",
  "zh-tw",
  "es",
  "ru",
  "de",
  "fr",
  "pt",
  "it",
  "th",
  "id",
  "tr",
  "ms",
  "vi",
] as const;

/** A supported language code. */
export type Language = typeof LANGUAGES[number];

/** Mask selecting every language (also the mask of a studio's own words). */
export const ALL_LANGUAGES = (1 << LANGUAGES.length) - 1;

const ALIASES: Record<string, Language> = {
  "zh-cn": "zh",
  "zh-hans": "zh",
  "zh-sg": "zh",
  "zh-hant": "zh-tw",
  "zh-hk": "zh-tw",
  "zh-mo": "zh-tw",
  in: "id",
};

/** The supported language a code names (ISO 639-1, BCP 47 tag or chat code 1..16), or null. */
export function resolveLanguage(code: string | number | null | undefined): Language | null {
  if (code === null || code === undefined) return null;
  const text = String(code).trim().toLowerCase().replaceAll("_", "-");
  if (/^\d{1,2}$/.test(text)) return LANGUAGES[Number(text) - 1] ?? null;
  if (ALIASES[text]) return ALIASES[text];
  if ((LANGUAGES as readonly string[]).includes(text)) return text as Language;
  const primary = text.split("-")[0];
  if (primary === "zh") return "zh";
  return ALIASES[primary] ??
    ((LANGUAGES as readonly string[]).includes(primary) ? primary as Language : null);
}

/** The bit of one supported language. */
export function languageBit(language: Language): number {
  return 1 << LANGUAGES.indexOf(language);
}

/** The languages applied to a text with this code (see the module comment). */
export function languageMask(code: string | number | null | undefined): number {
  const language = resolveLanguage(code);
  if (!language) return ALL_LANGUAGES;
  let mask = languageBit(language) | languageBit("en");
  if (language === "zh" || language === "zh-tw") mask |= languageBit("zh") | languageBit("zh-tw");
  return mask;
}
