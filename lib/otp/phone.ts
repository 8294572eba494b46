/** Phone receivers: one stable identity per number, E.164 for providers, and the lookup check. */
import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import { DomainError } from "../errors.ts";

/** A phone receiver as the caller wrote it and as the service keys it. */
interface PhoneReceiver {
  /** Country calling code, digits only ("82"). */
  countryNo: string;
  /** National digits without separators and trunk zeros ("1012345678"). */
  national: string;
}

/** Country calling code digits from "82" or "+82". */
export function countryDigits(toCountryNo: string): string {
  return toCountryNo.trim().replace(/^\+/, "");
}

/**
 * Normalises a number so that "010-1234-5678", "01012345678" and "+82 10 1234 5678" are one
 * receiver. Deliberately simple (no metadata) so sends and verifies always agree.
 */
function phoneReceiver(toCountryNo: string, to: string): PhoneReceiver {
  const countryNo = countryDigits(toCountryNo);
  let digits = to.trim().replace(/[\s\-().]/g, "");
  if (digits.startsWith("+")) {
    digits = digits.slice(1);
    if (digits.startsWith(countryNo)) digits = digits.slice(countryNo.length);
  }
  return { countryNo, national: digits.replace(/^0+/, "") };
}

/** E.164 form for SMS providers ("+821012345678"). */
export function e164(toCountryNo: string, to: string): string {
  const parsed = parsePhoneNumberFromString(to, { defaultCallingCode: countryDigits(toCountryNo) });
  if (parsed) return parsed.number;
  const r = phoneReceiver(toCountryNo, to);
  return `+${r.countryNo}${r.national}`;
}

/**
 * The lookup check: the number must be valid for the given country calling code according to
 * libphonenumber's full metadata; throws INVALID_PHONE_NUMBER otherwise. Answers the number's
 * E.164 form (what `e164` gives for it), so a send with lookup parses the number once.
 */
export function assertValidPhone(toCountryNo: string, to: string): string {
  const countryNo = countryDigits(toCountryNo);
  const parsed = parsePhoneNumberFromString(to, { defaultCallingCode: countryNo });
  if (!parsed || parsed.countryCallingCode !== countryNo || !parsed.isValid()) {
    throw new DomainError(
      "invalid",
      "INVALID_PHONE_NUMBER",
      `to: ${to} is not a valid phone number for country code ${countryNo}`,
    );
  }
  return parsed.number;
}

/** The receiver identity keyed in Redis: "<country code>:<national digits>". */
export function phoneReceiverId(toCountryNo: string, to: string): string {
  const r = phoneReceiver(toCountryNo, to);
  return `${r.countryNo}:${r.national}`;
}
