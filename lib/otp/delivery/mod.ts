/**
 * OTP delivery providers: one SMS provider and one e-mail provider chosen by configuration
 * (Twilio, SendGrid, or the `log` provider of embedded dev mode), built once into Services.
 */
import type { Config } from "../../config.ts";
import type { Outbound } from "../../outbound/mod.ts";
import { createLogProviders, type OtpOutbox } from "./log.ts";
import { createTwilioSms } from "./twilio.ts";
import { createSendgridEmail } from "./sendgrid.ts";

/** An SMS to deliver. */
export interface SmsMessage {
  /** Receiver in E.164 ("+821012345678"). */
  to: string;
  text: string;
  lang: string;
  retry: boolean;
  /** When the code in the message stops being valid (the log outbox forgets it then). */
  expiresAtMs: number;
}

/** An e-mail to deliver. */
export interface EmailMessage {
  from: string;
  fromName: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  lang: string;
  expiresAtMs: number;
}

/** What a provider call needs from the running service. */
export interface DeliveryContext {
  outbound: Outbound;
  nowMs: number;
}

/** Sends SMS; throws DomainError PROVIDER_ERROR when the message was not accepted. */
export interface SmsProvider {
  /** Name shown as `provider` in the send answer. */
  readonly name: string;
  send(ctx: DeliveryContext, message: SmsMessage): Promise<void>;
}

/** Sends e-mail; throws DomainError PROVIDER_ERROR when the message was not accepted. */
export interface EmailProvider {
  readonly name: string;
  send(ctx: DeliveryContext, message: EmailMessage): Promise<void>;
}

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
