/** The `Topic` header of OTP requests: resolves the caller's game topic before any handler runs. */
import type { MiddlewareHandler } from "hono";
import { z } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { DomainError } from "../../lib/errors.ts";
import { findTopic, type OtpTopic } from "../../lib/otp/topics.ts";
import { OTP_LANGS } from "../../lib/otp/messages.ts";

declare module "hono" {
  interface ContextVariableMap {
    /** The OTP topic named by the `Topic` header, within the API key's game. */
    otpTopic: OtpTopic;
  }
}

/** Requires a `Topic` header naming a topic of the API key's game (NO_TOPIC otherwise). */
export const requireOtpTopic: MiddlewareHandler<AppEnv> = async (c, next) => {
  const name = c.req.header("topic")?.trim();
  if (!name) throw new DomainError("invalid", "NO_TOPIC", "Topic header is required");
  const topic = await findTopic(c.get("services").db, c.get("apiKey").gameIndex, name);
  if (!topic) {
    throw new DomainError("invalid", "NO_TOPIC", `topic ${name} is not registered for this game`);
  }
  c.set("otpTopic", topic);
  await next();
};

/** The `lang` field: one of the spec's 18 codes, case-insensitive, default en. */
export const langField = z.preprocess(
  (v) => (typeof v === "string" ? v.trim().toLowerCase() : v),
  z.enum(OTP_LANGS),
).nullish().openapi({ description: "language code, default en" });

/** The `toCountryNo` field of sends and verifies: a country calling code, with or without +. */
export const countryNoField = z.string().trim().regex(
  /^\+?[1-9][0-9]{0,3}$/,
  "must be a country calling code such as 82",
);

/** Headers every OTP route documents; a request without Topic is refused (NO_TOPIC). */
export const otpHeaders = z.object({
  topic: z.string().openapi({
    description: "sending information id (Topic); a request without it answers 400 NO_TOPIC",
  }),
});
