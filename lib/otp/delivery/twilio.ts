/**
 * SMS through Twilio's Messages API: `POST /2010-04-01/Accounts/{AccountSid}/Messages.json`,
 * form-encoded `To`, `From` (or `MessagingServiceSid`) and `Body`, HTTP Basic auth with the
 * account SID and auth token; 201 with the message resource on success, a JSON error
 * `{code, message, more_info, status}` otherwise.
 */
import { toBase64 } from "../../crypto/hashing.ts";
import type { SmsProvider } from "./provider.ts";
import { callProvider, jsonOf } from "./provider_call.ts";

/** Twilio settings (from configuration). */
export interface TwilioSettings {
  baseUrl: string;
  accountSid: string;
  authToken: string;
  from?: string;
  messagingServiceSid?: string;
  timeoutMs: number;
  retries: number;
}

/** Builds the Twilio SMS provider. */
export function createTwilioSms(settings: TwilioSettings): SmsProvider {
  const url = `${settings.baseUrl.replace(/\/+$/, "")}/2010-04-01/Accounts/${
    encodeURIComponent(settings.accountSid)
  }/Messages.json`;
  const authorization = "Basic " +
    toBase64(new TextEncoder().encode(`${settings.accountSid}:${settings.authToken}`));
  return {
    name: "TWILIO",
    async send(ctx, message) {
      const form = new URLSearchParams({ To: message.to, Body: message.text });
      if (settings.messagingServiceSid) {
        form.set("MessagingServiceSid", settings.messagingServiceSid);
      } else form.set("From", settings.from!);
      await callProvider(ctx.outbound, "SMS provider TWILIO", {
        url,
        method: "POST",
        headers: {
          authorization,
          "content-type": "application/x-www-form-urlencoded",
          accept: "application/json",
        },
        body: form.toString(),
        timeoutMs: settings.timeoutMs,
        retries: settings.retries,
      }, (res) => {
        const body = jsonOf(res) as { code?: number; message?: string } | null;
        return body?.message ? `${body.code ?? ""} ${body.message}` : "";
      });
    },
  };
}
