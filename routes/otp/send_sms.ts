/** POST /otp/sms and its alias POST /otp/send: generate an OTP and send it by SMS. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv, JsonResponse } from "../env.ts";
import { jsonBody, jsonResponse } from "../env.ts";
import { countryNoField, langField, otpHeaders } from "./topic_header.ts";
import { sendSmsOtp } from "../../lib/otp/send.ts";

const SmsBody = z.object({
  to: z.string().trim().min(1).max(32).regex(
    /^\+?[0-9][0-9\s\-().]*$/,
    "must be a phone number (digits, optional +, spaces or dashes)",
  ),
  toCountryNo: countryNoField,
  retry: z.boolean().nullish(),
  lookup: z.boolean().nullish(),
  lang: langField,
});

const SmsAnswer = z.object({
  otp: z.string(),
  provider: z.string(),
  expiry: z.string().openapi({ example: "2026-11-21T08:13:25.943+09:00[Asia/Seoul]" }),
});

function smsRoute(path: "/otp/sms" | "/otp/send") {
  return createRoute({
    method: "post",
    path,
    tags: ["otp"],
    summary: path === "/otp/sms" ? "Send an OTP by SMS" : "Send an OTP by SMS (alias of /otp/sms)",
    request: { headers: otpHeaders, body: jsonBody(SmsBody) },
    responses: { 200: jsonResponse(SmsAnswer, "the OTP, its provider and its expiry") },
  });
}

/** Registers /otp/sms and /otp/send. */
export function registerSendSms(app: OpenAPIHono<AppEnv>) {
  for (const path of ["/otp/sms", "/otp/send"] as const) {
    app.openapi(smsRoute(path), async (c) => {
      const sent = await sendSmsOtp(c.get("services"), c.get("otpTopic"), c.req.valid("json"));
      return c.json(sent) as JsonResponse;
    });
  }
}
