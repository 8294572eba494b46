/**
 * Encrypted payloads of the chat and text-detection batches: each element carries an ISO 8601
 * time stamp and a Base64 AES-ECB ciphertext of a JSON object under the game's or project's secret.
 */
import type { z } from "zod";
import { ecbDecryptor } from "../crypto/aes_ecb.ts";

// ISO 8601 with seconds and an offset or Z, e.g. 2024-05-01T12:00:00.123+09:00.
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

/** True for a valid ISO 8601 time with an offset. */
export function isIsoTime(value: string): boolean {
  return ISO_TIME.test(value) && !Number.isNaN(Date.parse(value));
}

/**
 * An opener for one batch's payloads (key schedule expanded once): the parsed JSON, or undefined
 * when a payload does not decrypt to JSON, which means the wrong secret or a corrupt message (every
 * payload fails when the secret is not an AES key size).
 */
export function jsonPayloadOpener(secret: string): (base64: string) => unknown {
  const decrypt = ecbDecryptor(secret);
  return (base64) => {
    const plain = decrypt?.(base64);
    if (!plain?.ok) return undefined;
    try {
      return JSON.parse(plain.text);
    } catch {
      return undefined;
    }
  };
}

/** Why a batch element was refused: a bad field (500) or a payload that does not open (502). */
export type OpenRefusal = { ok: false; reason: "bad_field" | "bad_secret"; message: string };

/** One zod issue as "field is required" or "field: what is wrong", the field named in full. */
export function describeIssue(prefix: string, issue: z.core.$ZodIssue, input: unknown): string {
  const field = [prefix, ...issue.path.map(String)].join(".");
  let value = input;
  for (const key of issue.path) value = (value as Record<PropertyKey, unknown>)?.[key];
  return value === undefined ? `${field} is required` : `${field}: ${issue.message}`;
}

/**
 * Opens every element of a chat or text batch the same way: the time stamp must be ISO 8601 with
 * an offset, the payload must decrypt to JSON under the secret, and the JSON must match the
 * schema. Answers the parsed payloads in order, or the first refusal naming the element's field
 * (`msg_array[3].msg.room_num is required`).
 */
export function openBatch<S extends z.ZodType>(
  items: { time_stamp: string; payload: string }[],
  options: { secret: string; schema: S; array: string; field: string },
): { ok: true; values: z.infer<S>[] } | OpenRefusal {
  const open = jsonPayloadOpener(options.secret);
  const values: z.infer<S>[] = [];
  for (const [i, item] of items.entries()) {
    const at = `${options.array}[${i}]`;
    if (!isIsoTime(item.time_stamp)) {
      return {
        ok: false,
        reason: "bad_field",
        message: `${at}.time_stamp must be an ISO 8601 time with offset`,
      };
    }
    const json = open(item.payload);
    // Garbage after decryption means the wrong key (or a corrupt message).
    if (json === undefined) {
      return {
        ok: false,
        reason: "bad_secret",
        message: `${at}.${options.field}: incorrect secret key`,
      };
    }
    const parsed = options.schema.safeParse(json);
    if (!parsed.success) {
      return {
        ok: false,
        reason: "bad_field",
        message: describeIssue(`${at}.${options.field}`, parsed.error.issues[0], json),
      };
    }
    values.push(parsed.data);
  }
  return { ok: true, values };
}
