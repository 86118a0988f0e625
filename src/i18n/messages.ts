import type { ErrorCode } from '../domain/errors';

export const LOCALES = ['en', 'tr'] as const;
export type Locale = (typeof LOCALES)[number];

interface Text {
  en: string;
  tr: string;
}

/** Success messages (envelope `message`). */
export const SUCCESS_MESSAGES = {
  DRAFT_CREATED: { en: 'Draft consignment created successfully.', tr: 'Taslak gönderi başarıyla oluşturuldu.' },
  DRAFT_UPDATED: { en: 'Draft consignment updated successfully.', tr: 'Taslak gönderi başarıyla güncellendi.' },
  DRAFT_PROCESSED: {
    en: 'Draft consignment processed: the label was created and the consignment sent to the carrier.',
    tr: 'Taslak gönderi işlendi: etiket oluşturuldu ve gönderi kargo firmasına iletildi.',
  },
  CONSIGNMENT_CANCELLED: { en: 'Consignment cancelled successfully.', tr: 'Gönderi başarıyla iptal edildi.' },
  EVENT_ACCEPTED: { en: 'Tracking event accepted.', tr: 'Takip olayı kabul edildi.' },
} satisfies Record<string, Text>;
export type SuccessCode = keyof typeof SUCCESS_MESSAGES;

/** The one message catalog: every error code has an English and a Turkish text. `{name}` is a parameter. */
export const ERROR_MESSAGES: Record<ErrorCode, Text> = {
  INVALID_API_KEY: { en: 'Invalid API key.', tr: 'Geçersiz API anahtarı.' },
  ROUTE_NOT_FOUND: { en: 'Route {method} {url} not found.', tr: '{method} {url} yolu bulunamadı.' },
  MALFORMED_JSON: { en: 'The request body is not valid JSON.', tr: 'İstek gövdesi geçerli bir JSON değil.' },
  UNSUPPORTED_MEDIA_TYPE: { en: 'The request body must be application/json.', tr: 'İstek gövdesi application/json olmalıdır.' },
  BODY_TOO_LARGE: { en: 'The request body is too large.', tr: 'İstek gövdesi çok büyük.' },
  RATE_LIMITED: { en: 'Rate limit exceeded.', tr: 'İstek sınırı aşıldı.' },
  IDEMPOTENCY_KEY_REUSED: {
    en: 'This Idempotency-Key was already used with a different request body.',
    tr: 'Bu Idempotency-Key farklı bir istek gövdesiyle zaten kullanıldı.',
  },
  IDEMPOTENCY_KEY_INVALID: {
    en: 'The Idempotency-Key header must be 1 to 255 visible characters.',
    tr: 'Idempotency-Key başlığı 1 ile 255 arasında görünür karakterden oluşmalıdır.',
  },
  SERVICE_UNAVAILABLE: { en: 'The service is temporarily unavailable. Please retry.', tr: 'Hizmet geçici olarak kullanılamıyor. Lütfen tekrar deneyin.' },
  INTERNAL_ERROR: { en: 'An unexpected error occurred.', tr: 'Beklenmeyen bir hata oluştu.' },
  VALIDATION_FAILED: { en: 'The request is not valid.', tr: 'İstek geçerli değil.' },
  NOT_BLANK: { en: 'This value should not be blank.', tr: 'Bu değer boş bırakılmamalıdır.' },
  TOO_LONG: {
    en: 'This value is too long. It should have {max} characters or less.',
    tr: 'Bu değer çok uzun. En fazla {max} karakter olmalıdır.',
  },
  TOO_SHORT: {
    en: 'This value is too short. It should have {min} characters or more.',
    tr: 'Bu değer çok kısa. En az {min} karakter olmalıdır.',
  },
  LENGTH_EXACT: { en: 'This value should have exactly {length} characters.', tr: 'Bu değer tam olarak {length} karakter olmalıdır.' },
  INVALID_TYPE: { en: 'This value should be of type {type}.', tr: 'Bu değerin türü {type} olmalıdır.' },
  INVALID_CHOICE: { en: 'The value you selected is not a valid choice.', tr: 'Seçtiğiniz değer geçerli bir seçenek değil.' },
  INVALID_COUNTRY: { en: 'This value is not a valid country.', tr: 'Bu değer geçerli bir ülke değil.' },
  INVALID_EMAIL: { en: 'This value is not a valid email address.', tr: 'Bu değer geçerli bir e-posta adresi değil.' },
  NOT_POSITIVE: { en: 'This value should be positive.', tr: 'Bu değer pozitif olmalıdır.' },
  TOO_SMALL: { en: 'This value should be {min} or more.', tr: 'Bu değer {min} veya daha büyük olmalıdır.' },
  TOO_LARGE: { en: 'This value should be {max} or less.', tr: 'Bu değer {max} veya daha küçük olmalıdır.' },
  TOO_MANY_ENTRIES: {
    en: 'This collection should contain {max} elements or less.',
    tr: 'Bu koleksiyon en fazla {max} öğe içermelidir.',
  },
  UNKNOWN_FIELD: { en: 'This field was not expected.', tr: 'Bu alan beklenmiyordu.' },
  INVALID_ID: { en: 'This value should be a positive integer id.', tr: 'Bu değer pozitif bir tam sayı kimlik olmalıdır.' },
  CONSIGNMENT_NOT_FOUND: { en: 'Consignment not found.', tr: 'Gönderi bulunamadı.' },
  NOT_DRAFT: { en: 'Consignment not found or not in draft status.', tr: 'Gönderi bulunamadı veya taslak durumunda değil.' },
  REFERENCE_USED: {
    en: 'reference_no: This reference number is already used. Please use a unique reference number.',
    tr: 'reference_no: Bu referans numarası zaten kullanılıyor. Lütfen benzersiz bir referans numarası kullanın.',
  },
  PREFERENCE_RULE: {
    en: 'When preference is specific, provider_id must not be null',
    tr: 'Tercih belirli olduğunda provider_id boş olmamalıdır',
  },
  PROVIDER_NOT_FOUND: { en: 'Provider {provider_id} does not exist.', tr: '{provider_id} numaralı kargo firması bulunamadı.' },
  DRAFT_NOT_FOUND: { en: 'Consignment not found or not in draft status.', tr: 'Gönderi bulunamadı veya taslak durumunda değil.' },
  NO_CARRIER_AVAILABLE: {
    en: 'No carrier can take this shipment: {reason}',
    tr: 'Bu gönderiyi taşıyabilecek kargo firması yok: {reason}',
  },
  ALREADY_DELIVERED: { en: 'Shipment already delivered', tr: 'Gönderi zaten teslim edildi' },
  ALREADY_CANCELLED: { en: 'Shipment already cancelled', tr: 'Gönderi zaten iptal edildi' },
  CANCEL_FAILED: { en: 'Consignment cancel failed: {reason}', tr: 'Gönderi iptali başarısız: {reason}' },
  LABEL_NOT_FOUND: { en: 'Label not found.', tr: 'Etiket bulunamadı.' },
  LABEL_VOIDED: { en: 'This label was voided: its consignment is cancelled.', tr: 'Bu etiket geçersiz kılındı: gönderisi iptal edildi.' },
  LABEL_LINK_INVALID: { en: 'This label link is not valid.', tr: 'Bu etiket bağlantısı geçerli değil.' },
  NOT_SANDBOX_CONSIGNMENT: {
    en: 'Sandbox events are only available for consignments of sandbox carriers that were processed.',
    tr: 'Sandbox olayları yalnızca sandbox kargo firmalarıyla işlenmiş gönderiler için kullanılabilir.',
  },
  INVALID_COUNTRY_ISO2: { en: 'Invalid countryIso2 code', tr: 'Geçersiz countryIso2 kodu' },
  INVALID_SEARCH_FIELD: {
    en: 'Allowed search fields are postalCode, city, state and place.',
    tr: 'İzin verilen arama alanları postalCode, city, state ve place alanlarıdır.',
  },
};

export function translate(text: Text, locale: Locale, params: Record<string, string | number> = {}): string {
  return text[locale].replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/**
 * Picks `tr` or `en` from an Accept-Language header (RFC 9110 q-values; `tr-TR` counts as `tr`).
 * Anything else, or no header, is English.
 */
export function negotiateLocale(header: string | undefined): Locale {
  if (!header) return 'en';
  let best: { locale: Locale; q: number } | undefined;
  for (const part of header.split(',')) {
    const [range, ...parameters] = part.trim().toLowerCase().split(';');
    const qParam = parameters.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q) || q <= 0) continue;
    const primary = range.trim().split('-')[0];
    const locale = (LOCALES as readonly string[]).includes(primary) ? (primary as Locale) : undefined;
    if (locale && (!best || q > best.q)) best = { locale, q };
  }
  return best?.locale ?? 'en';
}
