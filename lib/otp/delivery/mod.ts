/**
 * OTP delivery providers: one SMS provider and one e-mail provider chosen by configuration
 * (Twilio, SendGrid, or the `log` provider of embedded dev mode), built once into Services.
 */
import type { Config } from "../../config.ts";
import { createLogProviders, type OtpOutbox } from "./log.ts";
import { createTwilioSms } from "./twilio.ts";
import { createSendgridEmail } from "./sendgrid.ts";

export type {
  DeliveryContext,
  EmailMessage,
  EmailProvider,
  SmsMessage,
  SmsProvider,
} from "./provider.ts";
import type { EmailProvider, SmsProvider } from "./provider.ts";

/** The providers of this instance, and the log outbox (empty unless a log provider is used). */
export interface OtpProviders {
  sms: SmsProvider;
  email: EmailProvider;
  outbox: OtpOutbox;
}

/** Builds the providers named by OTP_SMS_PROVIDER and OTP_EMAIL_PROVIDER. */
export function createOtpProviders(config: Config): OtpProviders {
  const log = createLogProviders(config.OTP_LOG_OUTBOX_SIZE);
  const delivery = {
    timeoutMs: config.OTP_DELIVERY_TIMEOUT_MS,
    retries: config.OTP_DELIVERY_RETRIES,
  };
  const sms = config.OTP_SMS_PROVIDER === "twilio"
    ? createTwilioSms({
      baseUrl: config.TWILIO_API_BASE_URL,
      accountSid: config.TWILIO_ACCOUNT_SID!,
      authToken: config.TWILIO_AUTH_TOKEN!,
      from: config.TWILIO_FROM,
      messagingServiceSid: config.TWILIO_MESSAGING_SERVICE_SID,
      ...delivery,
    })
    : log.sms;
  const email = config.OTP_EMAIL_PROVIDER === "sendgrid"
    ? createSendgridEmail({
      baseUrl: config.SENDGRID_API_BASE_URL,
      apiKey: config.SENDGRID_API_KEY!,
      ...delivery,
    })
    : log.email;
  return { sms, email, outbox: log.outbox };
}

export type { OtpOutbox, OutboxEntry } from "./log.ts";
