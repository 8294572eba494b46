/**
 * Text from outside (game-server replies, provider errors, revert reasons, callback answers)
 * made storable before it is written: PostgreSQL refuses NUL (U+0000) in text and jsonb, and a
 * lone UTF-16 surrogate is not valid UTF-8. Both become U+FFFD, and a length cap never splits a
 * surrogate pair.
 */

/** Returns `text` as PostgreSQL can store it, cut to at most `maxChars` UTF-16 units. */
export function storableText(text: string, maxChars = 2_000): string {
  let out = text.length > maxChars ? text.slice(0, maxChars) : text;
  // A cut between the halves of a pair leaves a lone high surrogate at the end: drop it.
  if (out.length === maxChars && /[\ud800-\udbff]$/.test(out)) out = out.slice(0, -1);
  return out.toWellFormed().replaceAll("\u0000", "\ufffd");
}

/** storableText for an optional value. */
export function storableOrNull(text: string | null | undefined, maxChars?: number): string | null {
  return text === null || text === undefined ? null : storableText(text, maxChars);
}
