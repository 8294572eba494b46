/** The OTP provider interfaces (a leaf module: providers and the factory both import it). */
import type { Outbound } from "../../outbound/mod.ts";

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
