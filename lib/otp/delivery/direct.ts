/**
 * Direct sending: the service does not send the SMS; it posts the spec's callback JSON to the
 * topic's callback address (Standard Webhooks headers, and the older `X-Signature`), and the game sends the SMS itself.
 */
import type { Outbound } from "../../outbound/mod.ts";
import { callProvider } from "./provider_call.ts";

/** The provider name direct sending reports. */
export const DIRECT_PROVIDER = "DIRECTSEND";

/** The callback body, field for field as the spec lists it. */
export interface DirectSendPayload {
  to: string;
  toCountryNo: string;
  lang: string;
  retry: boolean;
  lookup: boolean;
  serviceName: string;
  otp: string;
  provider: typeof DIRECT_PROVIDER;
  expiry: string;
  expiryTimestamp: number;
}

/** Posts the callback; throws PROVIDER_ERROR unless the receiver answers 2xx. */
export async function postDirectCallback(
  outbound: Outbound,
  input: {
    callbackUrl: string;
    payload: DirectSendPayload;
    secret: string;
    timeoutMs: number;
    retries: number;
    /** Standard Webhooks headers for the body (the game's secret). */
    sign?: (body: string | Uint8Array) => Promise<Record<string, string>>;
  },
): Promise<void> {
  await callProvider(outbound, "direct-send callback", {
    url: input.callbackUrl,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(input.payload),
    signWith: input.secret,
    sign: input.sign,
    purpose: "otp-callback",
    timeoutMs: input.timeoutMs,
    retries: input.retries,
  }, () => "");
}
