/** POST /otp/verify: check an OTP a user entered (SMS: toCountryNo + to; e-mail: receiver). */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv, JsonResponse } from "../env.ts";
import { jsonBody, jsonResponse } from "../env.ts";
import { countryNoField, otpHeaders } from "./topic_header.ts";
import { verifyOtp, type VerifyTarget } from "../../lib/otp/verify.ts";

const VerifyBody = z.object({
  toCountryNo: countryNoField.nullish(),
  to: z.string().trim().min(1).max(32).nullish(),
  receiver: z.string().trim().min(1).max(254).nullish(),
  otp: z.string().trim().min(1).max(16),
}).superRefine((b, ctx) => {
  const phone = Boolean(b.to || b.toCountryNo);
  if (phone && b.receiver) {
    ctx.addIssue({
      code: "custom",
      path: ["receiver"],
      message: "give either to and toCountryNo (SMS) or receiver (e-mail), not both",
    });
  } else if (phone && !b.to) {
    ctx.addIssue({ code: "custom", path: ["to"], message: "to is required with toCountryNo" });
  } else if (phone && !b.toCountryNo) {
    ctx.addIssue({
      code: "custom",
      path: ["toCountryNo"],
      message: "toCountryNo is required with to",
    });
  } else if (!phone && !b.receiver) {
    ctx.addIssue({
      code: "custom",
      path: ["to"],
      message: "to and toCountryNo (SMS) or receiver (e-mail) is required",
    });
  }
});

const route = createRoute({
  method: "post",
  path: "/otp/verify",
  tags: ["otp"],
  summary: "Verify an OTP (each code verifies once; 5 tries void it)",
  request: { headers: otpHeaders, body: jsonBody(VerifyBody) },
  responses: { 200: jsonResponse(z.object({ result: z.boolean() }), "whether the OTP is valid") },
});

/** Registers /otp/verify. */
export function registerVerify(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const target: VerifyTarget = body.receiver
      ? { channel: "email", receiver: body.receiver }
      : { channel: "sms", to: body.to!, toCountryNo: body.toCountryNo! };
    const result = await verifyOtp(c.get("services"), c.get("otpTopic"), target, body.otp);
    return c.json({ result }) as JsonResponse;
  });
}
