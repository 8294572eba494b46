/**
 * Sending OTPs by SMS and e-mail: cooldown, limits and retry detection, a fresh code stored as a
 * keyed hash, delivery by provider or direct-send callback, and the expiry in the topic's zone.
 * A failed delivery removes the code again, so no undelivered code stays valid.
 */
import type { Services } from "../services.ts";
import type { OtpTopic } from "./topics.ts";
import type { OtpLang } from "./messages.ts";
import { otpMessage } from "./messages.ts";
import { derivedOtpHashKey, generateCode, type OtpHashKey, otpHashKey } from "./code.ts";
import { formatZonedExpiry } from "./expiry.ts";
import { assertValidPhone, countryDigits, e164, phoneReceiverId } from "./phone.ts";
import { issueCode, type ReceiverKeys, receiverKeys } from "./state.ts";
import { DIRECT_PROVIDER, postDirectCallback } from "./delivery/direct.ts";
import { DomainError } from "../errors.ts";
import { webhookSigner } from "../webhooks.ts";

/** A validated SMS send request (absent and null optional fields mean the default). */
export interface SmsSendInput {
  to: string;
  toCountryNo: string;
  retry?: boolean | null;
  lookup?: boolean | null;
  lang?: OtpLang | null;
}

/** A validated e-mail send request. */
export interface EmailSendInput {
  sender: string;
  senderName: string;
  receiver: string;
  subject: string;
  lang?: OtpLang | null;
}

/** What a send answers. */
export interface SentOtp {
  otp: string;
  provider: string;
  expiry: string;
}

/** The code being delivered, with what a delivery may need to say about it. */
interface Issued {
  code: string;
  expiresAtMs: number;
  /** The expiry in the topic's zone, as the answer shows it. */
  expiry: string;
  retry: boolean;
}

/** The receiver identity of an e-mail address (case and surrounding space do not matter). */
export function emailReceiver(address: string): string {
  return address.trim().toLowerCase();
}

/** Where a receiver's state lives within a topic. */
export function topicReceiverKeys(
  hashKey: OtpHashKey,
  topic: OtpTopic,
  channel: "sms" | "email",
  receiver: string,
): ReceiverKeys {
  return receiverKeys(hashKey, {
    gameIndex: topic.gameIndex,
    topic: topic.topic,
    channel,
    receiver,
  });
}

async function issue(
  s: Services,
  topic: OtpTopic,
  receiver: { channel: "sms" | "email"; id: string; retry?: boolean | null },
  deliver: (issued: Issued) => Promise<string>,
): Promise<SentOtp> {
  const channel = receiver.channel;
  try {
    const nowMs = s.clock.now();
    const hashKey = derivedOtpHashKey(s.secrets) ?? await otpHashKey(s.secrets);
    const keys = topicReceiverKeys(hashKey, topic, channel, receiver.id);
    const code = generateCode(topic.codeLength);
    const expiresAtMs = nowMs + topic.expirySeconds * 1000;
    const expiry = formatZonedExpiry(expiresAtMs, topic.timeZone);
    // One round trip: cooldown, both limits, retry detection and the code.
    const issued = await issueCode(s.kv, hashKey, {
      keys,
      gameIndex: topic.gameIndex,
      topic: topic.topic,
      code,
      nowMs,
      expiresAtMs,
      cooldownMs: s.config.OTP_COOLDOWN_SECONDS * 1000,
      perReceiverPerDay: s.config.OTP_RECEIVER_PER_DAY,
      perTopicPerMinute: s.config.OTP_TOPIC_PER_MINUTE,
    });
    const retry = receiver.retry ?? issued.retry;
    let provider: string;
    try {
      provider = await deliver({ code, expiresAtMs, expiry, retry });
    } catch (err) {
      // The call still counts for retry detection ("called more than once").
      await issued.withdraw();
      throw err;
    }
    s.metrics.otpSends.inc({ channel, outcome: "sent" });
    return { otp: code, provider, expiry };
  } catch (err) {
    const code = err instanceof DomainError ? err.code : "INTERNAL_ERROR";
    s.metrics.otpSends.inc({ channel, outcome: code });
    if (err instanceof DomainError && (err.kind === "rate_limited" || err.kind === "conflict")) {
      s.metrics.otpLimitRefusals.inc({ limit: code });
    }
    throw err;
  }
}

/** Generates and sends an OTP by SMS (or by the topic's direct-send callback). */
export async function sendSmsOtp(
  s: Services,
  topic: OtpTopic,
  input: SmsSendInput,
): Promise<SentOtp> {
  const lang = input.lang ?? "en";
  const lookup = input.lookup ?? false;
  // With lookup, the validated parse gives the E.164 form too.
  const validated = lookup ? assertValidPhone(input.toCountryNo, input.to) : null;
  return await issue(
    s,
    topic,
    { channel: "sms", id: phoneReceiverId(input.toCountryNo, input.to), retry: input.retry },
    async ({ code, expiresAtMs, expiry, retry }) => {
      if (topic.mode === "direct") {
        try {
          await postDirectCallback(s.outbound, {
            callbackUrl: topic.callbackUrl!,
            secret: s.secrets.webhookSecret,
            sign: await webhookSigner(s, topic.gameIndex, `otp_${crypto.randomUUID()}`),
            timeoutMs: s.config.OTP_DELIVERY_TIMEOUT_MS,
            retries: s.config.OTP_DELIVERY_RETRIES,
            payload: {
              to: input.to.trim(),
              toCountryNo: countryDigits(input.toCountryNo),
              lang,
              retry,
              lookup,
              serviceName: topic.serviceName,
              otp: code,
              provider: DIRECT_PROVIDER,
              expiry,
              expiryTimestamp: expiresAtMs,
            },
          });
          s.metrics.callbacks.inc({ kind: "otp", outcome: "done" });
        } catch (err) {
          s.metrics.callbacks.inc({ kind: "otp", outcome: "failed" });
          throw err;
        }
        return DIRECT_PROVIDER;
      }
      const provider = s.otpProviders.sms;
      await provider.send({ outbound: s.outbound, nowMs: s.clock.now() }, {
        to: validated ?? e164(input.toCountryNo, input.to),
        text: otpMessage(lang, topic, code),
        lang,
        retry,
        expiresAtMs,
      });
      return provider.name;
    },
  );
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** Generates and sends an OTP by e-mail through the configured e-mail provider. */
export async function sendEmailOtp(
  s: Services,
  topic: OtpTopic,
  input: EmailSendInput,
): Promise<SentOtp> {
  const lang = input.lang ?? "en";
  return await issue(
    s,
    topic,
    { channel: "email", id: emailReceiver(input.receiver) },
    async ({ code, expiresAtMs }) => {
      const provider = s.otpProviders.email;
      const text = otpMessage(lang, topic, code);
      await provider.send({ outbound: s.outbound, nowMs: s.clock.now() }, {
        from: input.sender.trim(),
        fromName: input.senderName,
        to: input.receiver.trim(),
        subject: input.subject,
        text,
        html: `<p>${escapeHtml(text)}</p>`,
        lang,
        expiresAtMs,
      });
      return provider.name;
    },
  );
}
