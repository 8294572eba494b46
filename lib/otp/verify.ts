/** Verifying an OTP a user entered, for an SMS receiver or an e-mail receiver of a topic. */
import type { Services } from "../services.ts";
import type { OtpTopic } from "./topics.ts";
import { phoneReceiverId } from "./phone.ts";
import { checkCode } from "./state.ts";
import { derivedOtpHashKey, otpHashKey } from "./code.ts";
import { emailReceiver, topicReceiverKeys } from "./send.ts";

/** Whose code is being checked: a phone number or an e-mail address. */
export type VerifyTarget =
  | { channel: "sms"; to: string; toCountryNo: string }
  | { channel: "email"; receiver: string };

/** True when the code is the receiver's current, unexpired, unused code (then it is used up). */
export async function verifyOtp(
  s: Services,
  topic: OtpTopic,
  target: VerifyTarget,
  otp: string,
): Promise<boolean> {
  const receiver = target.channel === "sms"
    ? phoneReceiverId(target.toCountryNo, target.to)
    : emailReceiver(target.receiver);
  const hashKey = derivedOtpHashKey(s.secrets) ?? await otpHashKey(s.secrets);
  const keys = topicReceiverKeys(hashKey, topic, target.channel, receiver);
  const ok = await checkCode(s.kv, hashKey, { rid: keys.rid, otp, nowMs: s.clock.now() });
  s.metrics.otpVerifications.inc({ outcome: ok ? "valid" : "invalid" });
  return ok;
}
