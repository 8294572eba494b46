/**
 * The item request record of the spec: its validation (reason and subReason tables, duration,
 * amounts), the exact body sent to game servers, and the empty record used by health probes.
 */
import { z } from "zod";
import { asciiJson } from "../crypto/apihash.ts";

/** Reason codes from the spec's table. */
// deno-fmt-ignore
export const ITEM_REASONS = [
  "pe", "rge", "rcd", "rce", "ro", "ae", "e", "ea", "mc", "uc", "b", "lb", "co", "p",
  "sr", "tcs", "tgm", "tpm", "tqa", "td", "tg", "tmb", "to", "re", "rr", "mr", "etc",
] as const;

/** What each reason code means (the spec's table). */
export const ITEM_REASON_MEANINGS: Record<(typeof ITEM_REASONS)[number], string> = {
  pe: "payment error",
  rge: "reward: game error",
  rcd: "reward: consumer dissatisfaction",
  rce: "reward: coupon error",
  ro: "reward: overseas",
  ae: "asset exchange",
  e: "event",
  ea: "event, automatic",
  mc: "massive coupon",
  uc: "unique coupon",
  b: "in-game billing (v2 in-app purchase)",
  lb: "billing with a local billing provider",
  co: "CPI offerwall",
  p: "promotion (cross banner, offerwall, UA)",
  sr: "streaming reward",
  tcs: "test: CS",
  tgm: "test: GM",
  tpm: "test: PM",
  tqa: "test: QA",
  td: "test: developer",
  tg: "test: guest",
  tmb: "test: market/business",
  to: "test: overseas",
  re: "retrieve (other)",
  rr: "retrieve: refund",
  mr: "massive request",
  etc: "other",
};

/** subReason values allowed when reason is `p` (promotion): 1..11 of the spec's table. */
// deno-fmt-ignore
export const PROMOTION_SUB_REASONS = [
  "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11",
] as const;

/** What each promotion subReason means (the spec's table). */
export const PROMOTION_SUB_REASON_MEANINGS: Record<(typeof PROMOTION_SUB_REASONS)[number], string> =
  {
    "1": "CPI on cross normal banner",
    "2": "CPA on cross normal banner",
    "3": "CPI on cross interstitial banner",
    "4": "CPA on cross interstitial banner",
    "5": "CPI on offerwall",
    "6": "CPA on offerwall",
    "7": "CPI on offerwall special",
    "8": "CPA on offerwall special",
    "9": "CPI on UA",
    "10": "CPA on UA",
    "11": "CPI on UC",
  };

const text = (max: number) => z.string().trim().min(1).max(max);

/** One item entry of a request. */
export const itemDetailSchema = z.object({
  action: text(32),
  assetCode: text(128),
  amount: z.number().int().positive().max(2_147_483_647),
  method: z.string().max(64).optional(),
});

const templateMessageSchema = z.union([
  z.record(
    z.string().min(1).max(16),
    z.object({ title: z.string(), body: z.string() }),
  ),
  z.literal(""),
]);

/** A request as a caller registers it (transactionId optional: generated when absent). */
export const itemRequestInputSchema = z.object({
  transactionId: z.string().trim().min(1).max(128).regex(/^[\x21-\x7e]+$/, {
    message: "must be printable ASCII without spaces",
  }).optional(),
  gameIndex: z.number().int().positive(),
  idCategory: text(32),
  id: text(128),
  detail: z.array(itemDetailSchema).min(1).max(100),
  reason: z.enum(ITEM_REASONS),
  subReason: z.string().trim().min(1).max(32).optional(),
  serverId: text(64),
  additionalinfo: z.string().max(2000).optional(),
  duration: z.number().int().refine((d) => d === -1 || (d >= 1 && d <= 9999), {
    message: "must be 1..9999 days or -1",
  }).optional(),
  userMessage: z.string().max(2000).optional(),
  templateMessage: templateMessageSchema.optional(),
}).superRefine((v, ctx) => {
  if (
    v.reason === "p" && v.subReason !== undefined &&
    !(PROMOTION_SUB_REASONS as readonly string[]).includes(v.subReason)
  ) {
    ctx.addIssue({
      code: "custom",
      path: ["subReason"],
      message: "must be one of 1..11 when reason is p",
    });
  }
});

/** A validated request. */
export type ItemRequestInput = z.infer<typeof itemRequestInputSchema>;

/** The record sent to the game server, with every field in a fixed order. */
export interface ItemRecord {
  transactionId: string;
  idCategory: string;
  id: string;
  detail: {
    action: string;
    assetCode: string;
    amount: number;
    method: string;
  }[];
  reason: string;
  subReason?: string;
  serverId: string;
  additionalinfo?: string;
  duration?: number;
  userMessage?: string;
  templateMessage?: Record<string, { title: string; body: string }> | "";
  gameIndex: number;
}

/** Builds the record in a fixed key order, so the same input always gives the same bytes. */
export function buildItemRecord(
  input: ItemRequestInput & { transactionId: string },
): ItemRecord {
  const record = {
    transactionId: input.transactionId,
    idCategory: input.idCategory,
    id: input.id,
    detail: input.detail.map((d) => ({
      action: d.action,
      assetCode: d.assetCode,
      amount: d.amount,
      method: d.method ?? "",
    })),
    reason: input.reason,
    subReason: input.subReason,
    serverId: input.serverId,
    additionalinfo: input.additionalinfo,
    duration: input.duration,
    userMessage: input.userMessage,
    templateMessage: input.templateMessage,
    gameIndex: input.gameIndex,
  };
  // Optional keys stay absent when not given: an absent duration means the game's default.
  return Object.fromEntries(
    Object.entries(record).filter(([, value]) => value !== undefined),
  ) as unknown as ItemRecord;
}

/** The exact body bytes (as ASCII text) sent for a record. */
export function itemRecordBody(record: ItemRecord): string {
  return asciiJson(record);
}

/** The health-probe body: the request record with empty field values. */
export function probeRecordBody(): string {
  return asciiJson({
    transactionId: "",
    idCategory: "",
    id: "",
    detail: [],
    reason: "",
    subReason: "",
    serverId: "",
    additionalinfo: "",
    userMessage: "",
    templateMessage: "",
    gameIndex: "",
  });
}
