/**
 * Spam rules for chat and checked texts. Content rules look at one text; the repeat rule
 * counts identical texts per user in a short window through the KV port.
 *
 * - link: a URL (`http://`, `https://`, `www.`), or a bare domain with a common top-level
 *   domain (`example.com`, `t.me/...`);
 * - contact: an e-mail address, a phone number (9+ digits in groups), or a messenger handle
 *   announced with a separator (`kakao: abc123`, `line id: ...`, `telegram @...`, `카톡: ...`);
 * - repeat_char: one character repeated 15 or more times in a row ("ㅋ" laughter up to 14 is
 *   ordinary chat);
 * - repeat_token: the same word 6 or more times in a row, or a short unit of 2 to 10
 *   characters (not one letter doubled, like "ㅋㅋ") repeated 8 or more times without spaces
 *   ("buybuybuybuy...");
 * - repeat_text: the same text (normalised, case-insensitive) from the same user 3 or more
 *   times within 30 seconds.
 */
import type { Kv } from "../kv/port.ts";

/** Name of the spam rule a text broke. */
export type SpamRule = "link" | "contact" | "repeat_char" | "repeat_token" | "repeat_text";

const TLD = "com|net|org|io|gg|kr|co|me|ly|xyz|info|biz|shop|site|top|link|cn|ru|jp|tk|vip|app";
const RE_LINK = new RegExp(
  `(?:https?://|www\\.)\\S|\\b[a-z0-9][a-z0-9-]{1,62}\\.(?:${TLD})(?:/|\\b)|\\bt\\.me/`,
  "i",
);
const RE_EMAIL = /[\w.+-]+@[a-z0-9-]+\.[a-z0-9.-]*[a-z]{2,}/i;
const RE_PHONE = /(?:\+\d{1,3}[\s.-]?)?\(?\d{2,4}\)?[\s.-]?\d{3,4}[\s.-]?\d{4}(?!\d)/;
const RE_HANDLE =
  /(?:kakao(?:talk)?|katalk|line|telegram|tg|whatsapp|wechat|discord|skype|카톡|카카오톡?|텔레그램|텔레|라인|디코|위챗)\s*(?:id|아이디)?\s*(?:[:：]\s*@?|@)[\w.-]{3,}/i;
const RE_REPEAT_CHAR = /(.)\1{14,}/su;
const RE_REPEAT_UNIT = /((\S)(?!\2)\S{1,9}?)\1{7,}/su;

/** The content rule a text breaks, or null. */
export function contentSpamRule(text: string): SpamRule | null {
  if (hasEmail(text) || RE_HANDLE.test(text)) return "contact";
  if (RE_LINK.test(text)) return "link";
  if (RE_PHONE.test(text) && countDigits(text) >= 9) return "contact";
  if (RE_REPEAT_CHAR.test(text)) return "repeat_char";
  if (RE_REPEAT_UNIT.test(text) || repeatedWords(text)) return "repeat_token";
  return null;
}

/**
 * E-mail test around each "@" only: a regex anchored nowhere would rescan the text from every
 * position (quadratic on long word-character runs, a cheap way to burn CPU).
 */
function hasEmail(text: string): boolean {
  let seen = 0;
  for (let at = text.indexOf("@"); at >= 0 && seen < 32; at = text.indexOf("@", at + 1), seen++) {
    if (RE_EMAIL.test(text.slice(Math.max(0, at - 64), at + 256))) return true;
  }
  return false;
}

function countDigits(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) n++;
  }
  return n;
}

/** True when one word follows itself 6 or more times. */
function repeatedWords(text: string): boolean {
  const words = text.toLowerCase().split(/\s+/);
  let run = 1;
  for (let i = 1; i < words.length; i++) {
    if (words[i] !== "" && words[i] === words[i - 1]) {
      if (++run >= 6) return true;
    } else run = 1;
  }
  return false;
}

/** Settings of the repeat_text rule. */
export const REPEAT_WINDOW_MS = 30_000;
/** Occurrences within the window from which a text counts as spam. */
export const REPEAT_THRESHOLD = 3;

/** A 64-bit FNV-1a hash of the trimmed, lower-cased text, as hex (the KV key part). */
export function textFingerprint(text: string): string {
  let h1 = 0x811c9dc5, h2 = 0x01000193 ^ 0x5bd1e995;
  const t = text.trim().toLowerCase();
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
  }
  return (h1 >>> 0).toString(16).padStart(8, "0") + (h2 >>> 0).toString(16).padStart(8, "0");
}

/**
 * Counts each text for its user (one KV round trip for the whole batch) and tells which are now
 * repeats (the 3rd time or more in the window). `scope` separates tenants (project key or game).
 */
export async function markRepeatedTexts(
  kv: Kv,
  input: { scope: string; items: { userId: string; text: string }[] },
): Promise<boolean[]> {
  const keys = input.items.map(({ userId, text }) =>
    `abuse:repeat:${input.scope}:${userId}:${textFingerprint(text)}`
  );
  const counts = await kv.incrMany(keys, { ttlMs: REPEAT_WINDOW_MS });
  return counts.map((count) => count >= REPEAT_THRESHOLD);
}
