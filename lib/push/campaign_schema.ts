/**
 * The shape of a campaign request (zod): types and required fields. Rules that need context
 * (dates, codes, the key's game, the targeting record) live in campaign_rules.ts.
 */
import { z } from "zod";

/** Counts Unicode code points, so "é" or "한" is one letter whatever its UTF-8 length. */
function letterCount(text: string): number {
  return [...text].length;
}

const text = z.string();
const required = z.string().trim().min(1, "must not be empty");

const AndroidMessage = z.object({
  title: required,
  message: required,
  messageExpanded: text.optional(),
  imageUrl: text.optional(),
  ticker: text.optional(),
  summaryText: text.optional(),
});

const IosMessage = z.object({ title: required, message: required, mediaUrl: text.optional() });

const FacebookMessage = z.object({
  title: text.refine((t) => letterCount(t) >= 1 && letterCount(t) <= 30, "must be 1 to 30 letters"),
  body: text.refine(
    (t) => letterCount(t) >= 10 && letterCount(t) <= 180,
    "must be 10 to 180 letters",
  ),
  // The spec marks all three required for this channel: media is the image's address.
  media: z.string().trim().min(1, "must not be empty").refine(
    (u) => /^https?:\/\/\S+$/i.test(u),
    "must be an http(s) image address",
  ),
});

/** The message of one language: any of the three channels. */
export const PushMessage = z.object({
  android: AndroidMessage.optional(),
  ios: IosMessage.optional(),
  facebook: FacebookMessage.optional(),
});

/** A campaign registration or edit body. */
export const CampaignBody = z.object({
  id: z.number().int().positive().optional(),
  status: z.number().int().optional(),
  company: z.string(),
  companyIndex: z.number().int(),
  description: required,
  notice: z.boolean().optional(),
  type: z.enum(["B", "T"], { message: "must be B (bulk) or T (targeting)" }),
  targetingId: z.number().int().positive().nullable().optional(),
  registrant: z.object({ id: required, name: text.optional() }),
  reservation: z.object({
    localizing: z.boolean(),
    startDate: z.string(),
    endDate: z.string(),
    time: z.string(),
    repeat: z.boolean(),
    weekday: z.array(z.number().int()).optional(),
    skip: z.array(z.string()).optional(),
  }),
  distribution: z.object({
    enable: z.boolean().optional(),
    interval: z.number().int().optional(),
    count: z.number().int().optional(),
  }).optional(),
  continents: z.array(z.object({
    continent: z.string().optional(),
    name: z.string().optional(),
    countries: z.array(z.string()).optional(),
  })),
  countries: z.array(z.string()),
  game: z.object({
    gameindex: z.number().int(),
    serverIds: z.array(z.string()).optional(),
    apps: z.array(z.object({ appindex: z.number().int(), appid: required })).min(
      1,
      "must name at least one app",
    ),
  }),
  defaultLanguage: z.string(),
  notification: z.record(z.string(), PushMessage).optional(),
  option: z.object({
    badge: z.number().int().min(0).optional(),
    overwrite: z.boolean().optional(),
    collapseKey: text.optional(),
    engagement: text.optional(),
    comment: text.optional(),
    groupKey: text.optional(),
    android: z.object({ icon: text.optional(), sound: text.optional() }).optional(),
    ios: z.object({ sound: text.optional() }).optional(),
  }).optional(),
  dryRun: z.boolean().optional(),
  debug: z.boolean().optional(),
});

/** A campaign body that passed the shape checks. */
export type CampaignInput = z.infer<typeof CampaignBody>;
/** One language's message. */
export type PushMessageInput = z.infer<typeof PushMessage>;
