/**
 * E-mail through SendGrid's v3 Mail Send API: `POST /v3/mail/send` with `Authorization: Bearer
 * <API key>` and a JSON body of personalizations, from, subject and content; 202 with an empty
 * body on success, `{errors:[{message, field, help}]}` otherwise.
 */
import type { EmailProvider } from "./provider.ts";
import { callProvider, jsonOf } from "./provider_call.ts";

/** SendGrid settings (from configuration). */
export interface SendgridSettings {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  retries: number;
}

/** Builds the SendGrid e-mail provider. */
export function createSendgridEmail(settings: SendgridSettings): EmailProvider {
  const url = `${settings.baseUrl.replace(/\/+$/, "")}/v3/mail/send`;
  return {
    name: "SENDGRID",
    async send(ctx, message) {
      const body = {
        personalizations: [{ to: [{ email: message.to }] }],
        from: { email: message.from, name: message.fromName },
        subject: message.subject,
        content: [
          { type: "text/plain", value: message.text },
          { type: "text/html", value: message.html },
        ],
        // Codes must not be rewritten or tracked by click tracking.
        tracking_settings: { click_tracking: { enable: false }, open_tracking: { enable: false } },
      };
      await callProvider(ctx.outbound, "e-mail provider SENDGRID", {
        url,
        method: "POST",
        headers: {
          authorization: `Bearer ${settings.apiKey}`,
          "content-type": "application/json",
        },
        body: JSON.stringify(body),
        timeoutMs: settings.timeoutMs,
        retries: settings.retries,
      }, (res) => {
        const parsed = jsonOf(res) as { errors?: { message?: string; field?: string }[] } | null;
        return (parsed?.errors ?? [])
          .map((e) => (e.field ? `${e.field}: ${e.message}` : e.message ?? ""))
          .join("; ");
      });
    },
  };
}
