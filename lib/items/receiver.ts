/**
 * Game-server receiver kit for item requests. Verifies the Apihash on the raw body bytes (40002),
 * parses (40001), checks required keys, types and values (40003-40006), answers 20001 for a
 * transactionId already applied, and hands the whole request to the game's `apply`, which must
 * apply every detail entry and record the transactionId as one transaction. Transport-neutral:
 * `handle(bytes, apihash)` for sockets, `fetch(request)` for Hono, Deno.serve or Node.
 */
import { apihashHex } from "../crypto/apihash.ts";
import { equalFixed } from "../crypto/hashing.ts";
import { ITEM_REASONS, type ItemRecord } from "./record.ts";

/** One item entry as received (`method` may be missing when another sender built it). */
export interface ReceivedItemDetail extends Omit<ItemRecord["detail"][number], "method"> {
  method?: string;
}

/** A validated item request as the game's handler receives it: the record the platform sends. */
export interface ReceivedItemRequest extends Omit<ItemRecord, "detail" | "templateMessage"> {
  detail: ReceivedItemDetail[];
  templateMessage?: Record<string, { title: string; body: string }> | string;
}

/** The game server's answer (spec code table). */
export interface ItemReply {
  code: number;
  message: string;
}

/** Thrown by a game's handler to refuse the whole request with a code (e.g. 50001, 50005). */
export class ItemRejection extends Error {
  override name = "ItemRejection";
  constructor(readonly code: number, message: string) {
    super(message);
  }
}

/** What the game provides. */
export interface ItemReceiverOptions {
  vendorWord: string;
  /** Check the Apihash header (default true; the spec's PHP sample makes it optional). */
  verifyHash?: boolean;
  /**
   * Applies all entries and records the transactionId in one transaction: nothing is applied if
   * any entry fails (throw ItemRejection with the code). Returns "duplicate" when the
   * transactionId was already applied. Any other error answers 50004.
   */
  apply(request: ReceivedItemRequest): Promise<"applied" | "duplicate">;
}

/** A receiver. */
export interface ItemReceiver {
  /** Handles raw body bytes and the Apihash value (null when absent). */
  handle(body: Uint8Array, apihash: string | null): Promise<ItemReply>;
  /** Fetch-API handler: reads the raw body and the Apihash header, answers JSON. */
  fetch(request: Request): Promise<Response>;
}

/** Item reply codes of the spec. */
export const ItemCode = {
  SUCCESS: 20000,
  DUPLICATE: 20001,
  JSON_ERROR: 40001,
  HASH_ERROR: 40002,
  KEY_OMITTED: 40003,
  KEY_TYPE: 40004,
  KEY_NULL: 40005,
  KEY_WRONG: 40006,
  INVALID_USER: 50001,
  DATABASE_ERROR: 50004,
  PARAMETER_ERROR: 50005,
} as const;

class Invalid extends Error {
  constructor(readonly code: number, message: string) {
    super(message);
  }
}

type Kind = "string" | "integer" | "array";

function check(
  obj: Record<string, unknown>,
  key: string,
  kind: Kind,
  where: string,
): void {
  if (!(key in obj)) {
    throw new Invalid(ItemCode.KEY_OMITTED, `${where}${key} is omitted`);
  }
  const v = obj[key];
  if (v === null) {
    throw new Invalid(ItemCode.KEY_NULL, `${where}${key} is null`);
  }
  const typeOk = kind === "string"
    ? typeof v === "string"
    : kind === "integer"
    ? typeof v === "number" && Number.isInteger(v)
    : Array.isArray(v);
  if (!typeOk) {
    // An empty string where a number or list belongs is an empty value, not a type error.
    if (v === "") {
      throw new Invalid(ItemCode.KEY_NULL, `${where}${key} is empty`);
    }
    throw new Invalid(
      ItemCode.KEY_TYPE,
      `${where}${key} must be ${kind === "string" ? "a string" : `an ${kind}`}`,
    );
  }
  if (
    (typeof v === "string" && v.trim() === "") ||
    (Array.isArray(v) && v.length === 0)
  ) {
    throw new Invalid(ItemCode.KEY_NULL, `${where}${key} is empty`);
  }
}

function optional(
  obj: Record<string, unknown>,
  key: string,
  ok: (v: unknown) => boolean,
) {
  if (key in obj && obj[key] !== null && !ok(obj[key])) {
    throw new Invalid(ItemCode.KEY_TYPE, `${key} has the wrong type`);
  }
}

/** Validates a parsed body against the item request record; throws with the spec's code. */
export function validateItemRequest(value: unknown): ReceivedItemRequest {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Invalid(
      ItemCode.JSON_ERROR,
      "request body must be a JSON object",
    );
  }
  const o = value as Record<string, unknown>;
  for (const key of ["transactionId", "idCategory", "id"]) {
    check(o, key, "string", "");
  }
  check(o, "detail", "array", "");
  check(o, "reason", "string", "");
  check(o, "serverId", "string", "");
  check(o, "gameIndex", "integer", "");
  (o.detail as unknown[]).forEach((entry, i) => {
    const where = `detail[${i}].`;
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
      throw new Invalid(ItemCode.KEY_TYPE, `detail[${i}] must be an object`);
    }
    const e = entry as Record<string, unknown>;
    check(e, "action", "string", where);
    check(e, "assetCode", "string", where);
    check(e, "amount", "integer", where);
    if ((e.amount as number) <= 0) {
      throw new Invalid(ItemCode.KEY_WRONG, `${where}amount must be positive`);
    }
  });
  optional(o, "subReason", (v) => typeof v === "string");
  optional(o, "additionalinfo", (v) => typeof v === "string");
  optional(o, "userMessage", (v) => typeof v === "string");
  optional(o, "duration", (v) => typeof v === "number" && Number.isInteger(v));
  optional(
    o,
    "templateMessage",
    (v) => typeof v === "string" || typeof v === "object",
  );
  if (!(ITEM_REASONS as readonly string[]).includes(o.reason as string)) {
    throw new Invalid(
      ItemCode.KEY_WRONG,
      `reason ${o.reason} is not a known reason code`,
    );
  }
  const d = o.duration;
  if (typeof d === "number" && d !== -1 && (d < 1 || d > 9999)) {
    throw new Invalid(ItemCode.KEY_WRONG, "duration must be 1..9999 or -1");
  }
  if ((o.gameIndex as number) <= 0) {
    throw new Invalid(ItemCode.KEY_WRONG, "gameIndex must be positive");
  }
  return o as unknown as ReceivedItemRequest;
}

/** Creates a receiver around the game's apply function. */
export function createItemReceiver(options: ItemReceiverOptions): ItemReceiver {
  const verify = options.verifyHash ?? true;
  // Serialises requests with one transactionId inside this process, so a duplicate that
  // arrives while the first is being applied waits and then sees it as applied.
  const inFlight = new Map<string, Promise<unknown>>();

  async function applyOnce(request: ReceivedItemRequest): Promise<ItemReply> {
    const previous = inFlight.get(request.transactionId);
    const run = (previous ?? Promise.resolve()).catch(() => {}).then(() => options.apply(request));
    inFlight.set(request.transactionId, run);
    try {
      const result = await run;
      return result === "duplicate"
        ? { code: ItemCode.DUPLICATE, message: "already processed" }
        : { code: ItemCode.SUCCESS, message: "success" };
    } catch (err) {
      if (err instanceof ItemRejection) {
        return { code: err.code, message: err.message };
      }
      return {
        code: ItemCode.DATABASE_ERROR,
        message: "database registration error",
      };
    } finally {
      if (inFlight.get(request.transactionId) === run) {
        inFlight.delete(request.transactionId);
      }
    }
  }

  async function handle(
    body: Uint8Array,
    apihash: string | null,
  ): Promise<ItemReply> {
    if (verify) {
      const expected = await apihashHex(options.vendorWord, body);
      if (!apihash || !equalFixed(apihash.trim().toLowerCase(), expected)) {
        return { code: ItemCode.HASH_ERROR, message: "hash error" };
      }
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(
        new TextDecoder("utf-8", { fatal: true }).decode(body),
      );
    } catch {
      return { code: ItemCode.JSON_ERROR, message: "request JSON error" };
    }
    let request: ReceivedItemRequest;
    try {
      request = validateItemRequest(parsed);
    } catch (err) {
      if (err instanceof Invalid) {
        return { code: err.code, message: err.message };
      }
      throw err;
    }
    return await applyOnce(request);
  }

  return {
    handle,
    async fetch(req) {
      const bytes = new Uint8Array(await req.arrayBuffer());
      const reply = await handle(bytes, req.headers.get("apihash"));
      return new Response(JSON.stringify(reply), {
        headers: { "content-type": "application/json; charset=utf-8" },
      });
    },
  };
}
