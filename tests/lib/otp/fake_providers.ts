/**
 * Local stand-ins for Twilio and SendGrid that check the documented request format and answer
 * like the real APIs (201 message resource / 202 empty; their JSON errors otherwise).
 */
import { type LocalReceiver, type Received, startReceiver } from "./receiver.ts";

/** Test credentials the fakes accept. */
export const TWILIO = {
  sid: "AC0123456789abcdef0123456789abcdef",
  token: "twilio-token",
  from: "+15005550006",
};
/** Test key the SendGrid fake accepts. */
export const SENDGRID_KEY = "SG.test-key";

function twilioError(status: number, code: number, message: string): Response {
  return Response.json(
    { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status },
    { status },
  );
}

function checkTwilio(r: Received): Response {
  if (r.method !== "POST" || r.path !== `/2010-04-01/Accounts/${TWILIO.sid}/Messages.json`) {
    return twilioError(404, 20404, "The requested resource was not found");
  }
  if (r.headers.get("authorization") !== `Basic ${btoa(`${TWILIO.sid}:${TWILIO.token}`)}`) {
    return twilioError(401, 20003, "Authenticate");
  }
  if (!r.headers.get("content-type")?.startsWith("application/x-www-form-urlencoded")) {
    return twilioError(400, 20001, "content type must be form encoded");
  }
  const form = new URLSearchParams(r.body);
  if (!/^\+[1-9]\d{6,14}$/.test(form.get("To") ?? "")) {
    return twilioError(400, 21211, "Invalid 'To' Phone Number");
  }
  if (form.get("From") !== TWILIO.from && !form.get("MessagingServiceSid")) {
    return twilioError(400, 21603, "A 'From' or 'MessagingServiceSid' parameter is required");
  }
  if (!form.get("Body")) return twilioError(400, 21602, "Message body is required");
  return Response.json({
    sid: `SM${crypto.randomUUID().replaceAll("-", "")}`,
    status: "queued",
    to: form.get("To"),
    body: form.get("Body"),
  }, { status: 201 });
}

/** Starts the Twilio fake; `refuse` makes it answer every request with that Twilio error. */
export function startFakeTwilio(refuse?: { status: number; code: number; message: string }) {
  return startReceiver((r) =>
    refuse ? twilioError(refuse.status, refuse.code, refuse.message) : checkTwilio(r)
  );
}

function sendgridError(status: number, message: string, field: string | null): Response {
  return Response.json({ errors: [{ message, field, help: null }] }, { status });
}

function checkSendgrid(r: Received): Response {
  if (r.method !== "POST" || r.path !== "/v3/mail/send") {
    return sendgridError(404, "not found", null);
  }
  if (r.headers.get("authorization") !== `Bearer ${SENDGRID_KEY}`) {
    return sendgridError(
      401,
      "The provided authorization grant is invalid, expired, or revoked",
      null,
    );
  }
  if (!r.headers.get("content-type")?.startsWith("application/json")) {
    return sendgridError(415, "Content-Type should be application/json.", null);
  }
  // deno-lint-ignore no-explicit-any
  let mail: any;
  try {
    mail = JSON.parse(r.body);
  } catch {
    return sendgridError(400, "Bad Request", null);
  }
  if (!mail.personalizations?.[0]?.to?.[0]?.email) {
    return sendgridError(
      400,
      "The to array is required for all personalization objects",
      "personalizations.0.to",
    );
  }
  if (!mail.from?.email) return sendgridError(400, "The from object must be provided", "from");
  if (!mail.subject) return sendgridError(400, "The subject is required", "subject");
  const types = (mail.content ?? []).map((c: { type: string }) => c.type);
  if (types[0] !== "text/plain" || mail.content.some((c: { value?: string }) => !c.value)) {
    return sendgridError(
      400,
      "text/plain must come first and every content needs a value",
      "content",
    );
  }
  return new Response(null, { status: 202 });
}

/** Starts the SendGrid fake; `refuseStatus` makes it answer every request with that status. */
export function startFakeSendgrid(refuseStatus?: number): LocalReceiver {
  return startReceiver((r) =>
    refuseStatus
      ? sendgridError(
        refuseStatus,
        "The from address does not match a verified Sender Identity",
        "from",
      )
      : checkSendgrid(r)
  );
}
