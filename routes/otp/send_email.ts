/** POST /otp/email and its alias POST /otp/email/send: generate an OTP and send it by e-mail. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv, JsonResponse } from "../env.ts";
import { jsonBody, jsonResponse } from "../env.ts";
import { langField, otpHeaders } from "./topic_header.ts";
import { sendEmailOtp } from "../../lib/otp/send.ts";

const EmailBody = z.object({
  sender: z.string().trim().max(254).email(),
  senderName: z.string().trim().min(1).max(100),
  receiver: z.string().trim().max(254).email(),
  subject: z.string().trim().min(1).max(200),
  lang: langField,
});

const EmailAnswer = z.object({
  otp: z.string(),
  expiry: z.string().openapi({ example: "2026-11-21T08:13:25.943+09:00[Asia/Seoul]" }),
});

function emailRoute(path: "/otp/email" | "/otp/email/send") {
  return createRoute({
    method: "post",
    path,
    tags: ["otp"],
    summary: path === "/otp/email"
      ? "Send an OTP by e-mail"
      : "Send an OTP by e-mail (alias of /otp/email)",
    request: { headers: otpHeaders, body: jsonBody(EmailBody) },
    responses: { 200: jsonResponse(EmailAnswer, "the OTP and its expiry") },
  });
}

/** Registers /otp/email and /otp/email/send. */
export function registerSendEmail(app: OpenAPIHono<AppEnv>) {
  for (const path of ["/otp/email", "/otp/email/send"] as const) {
    app.openapi(emailRoute(path), async (c) => {
      const sent = await sendEmailOtp(c.get("services"), c.get("otpTopic"), c.req.valid("json"));
      return c.json({ otp: sent.otp, expiry: sent.expiry }) as JsonResponse;
    });
  }
}
