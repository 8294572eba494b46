/** Mounts the OTP family: API key with scope otp, then the Topic header, then each endpoint. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { createFamilyApp } from "../env.ts";
import { requireApiKey } from "../auth.ts";
import { otpFamily } from "./envelope.ts";
import { requireOtpTopic } from "./topic_header.ts";
import { registerSendSms } from "./send_sms.ts";
import { registerSendEmail } from "./send_email.ts";
import { registerVerify } from "./verify.ts";

/** Builds the OTP sub-app. */
export function otpRoutes(): OpenAPIHono<AppEnv> {
  const app = createFamilyApp(otpFamily);
  app.use("/otp/*", requireApiKey("otp"), requireOtpTopic);
  registerSendSms(app);
  registerSendEmail(app);
  registerVerify(app);
  return app;
}
