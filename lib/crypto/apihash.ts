/**
 * Apihash of the item-delivery spec: hex SHA-1 of `!@#<vendorWord>!@#` followed by the exact body
 * bytes, where the body is JSON with every non-ASCII character escaped as \uXXXX.
 */
import { toHex } from "./hashing.ts";

const enc = new TextEncoder();

/** JSON text with every character above U+007F written as a \uXXXX escape (pure ASCII output). */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u0080-\uffff]/g,
    (ch) => "\\u" + ch.charCodeAt(0).toString(16).padStart(4, "0"),
  );
}

/** Hex SHA-1 Apihash of the body bytes under a vendor word. */
export async function apihashHex(vendorWord: string, body: string | Uint8Array): Promise<string> {
  const prefix = enc.encode(`!@#${vendorWord}!@#`);
  const bytes = typeof body === "string" ? enc.encode(body) : body;
  const joined = new Uint8Array(prefix.length + bytes.length);
  joined.set(prefix);
  joined.set(bytes, prefix.length);
  return toHex(new Uint8Array(await crypto.subtle.digest("SHA-1", joined)));
}
