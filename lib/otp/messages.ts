/** The OTP message text in each of the spec's 18 languages. */

/** The language codes the spec accepts (lowercase). */
export const OTP_LANGS = [
  "ko",
  "en",
  "ja",
  "zh-cn",
  "zh-tw",
  "zh-hans",
  "zh-hant",
  "de",
  "fr",
  "ru",
  "es",
  "pt",
  "id",
  "th",
  "vi",
  "it",
  "tr",
  "ar",
] as const;

/** One accepted language code. */
export type OtpLang = (typeof OTP_LANGS)[number];

type Template = (code: string, minutes: number) => string;

const simplified: Template = (c, m) => `您的验证码是 ${c}，${m} 分钟内有效。`;
const traditional: Template = (c, m) => `您的驗證碼是 ${c}，${m} 分鐘內有效。`;

const templates: Record<OtpLang, Template> = {
  ko: (c, m) => `인증번호 [${c}]를 입력해 주세요. ${m}분 동안 유효합니다.`,
  en: (c, m) => `Your verification code is ${c}. It is valid for ${m} minutes.`,
  ja: (c, m) => `認証コードは ${c} です。${m}分間有効です。`,
  "zh-cn": simplified,
  "zh-hans": simplified,
  "zh-tw": traditional,
  "zh-hant": traditional,
  de: (c, m) => `Ihr Bestätigungscode lautet ${c}. Er ist ${m} Minuten gültig.`,
  fr: (c, m) => `Votre code de vérification est ${c}. Il est valable ${m} minutes.`,
  ru: (c, m) => `Ваш код подтверждения: ${c}. Он действителен ${m} мин.`,
  es: (c, m) => `Tu código de verificación es ${c}. Es válido durante ${m} minutos.`,
  pt: (c, m) => `Seu código de verificação é ${c}. Ele é válido por ${m} minutos.`,
  id: (c, m) => `Kode verifikasi Anda adalah ${c}. Berlaku selama ${m} menit.`,
  th: (c, m) => `รหัสยืนยันของคุณคือ ${c} ใช้ได้ ${m} นาที`,
  vi: (c, m) => `Mã xác minh của bạn là ${c}. Mã có hiệu lực trong ${m} phút.`,
  it: (c, m) => `Il tuo codice di verifica è ${c}. È valido per ${m} minuti.`,
  tr: (c, m) => `Doğrulama kodunuz ${c}. ${m} dakika geçerlidir.`,
  ar: (c, m) => `رمز التحقق الخاص بك هو ${c}. صالح لمدة ${m} دقائق.`,
};

/** The message a receiver gets: `[service] <code sentence>` in the requested language. */
export function otpMessage(
  lang: OtpLang,
  topic: { serviceName: string; expirySeconds: number },
  code: string,
): string {
  const minutes = Math.max(1, Math.ceil(topic.expirySeconds / 60));
  return `[${topic.serviceName}] ${templates[lang](code, minutes)}`;
}
