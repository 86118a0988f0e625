import type { ErrorCode } from '../domain/errors';

export const LOCALES = ['en', 'tr'] as const;
export type Locale = (typeof LOCALES)[number];

export interface Text {
  en: string;
  tr: string;
}

/** Success messages (envelope `message`). */
export const SUCCESS_MESSAGES = {
  DRAFT_CREATED: { en: 'Draft consignment created successfully.', tr: 'Taslak gönderi başarıyla oluşturuldu.' },
  DRAFT_UPDATED: { en: 'Draft consignment updated successfully.', tr: 'Taslak gönderi başarıyla güncellendi.' },
  DRAFT_DELETED: { en: 'Draft consignment deleted.', tr: 'Taslak gönderi silindi.' },
  DOCUMENT_UPLOADED: { en: 'Document uploaded.', tr: 'Belge yüklendi.' },
  DRAFT_PROCESSED: {
    en: 'Draft consignment processed: the label was created and the consignment sent to the carrier.',
    tr: 'Taslak gönderi işlendi: etiket oluşturuldu ve gönderi kargo firmasına iletildi.',
  },
  CONSIGNMENT_CANCELLED: { en: 'Consignment cancelled successfully.', tr: 'Gönderi başarıyla iptal edildi.' },
  EVENT_ACCEPTED: { en: 'Tracking event accepted.', tr: 'Takip olayı kabul edildi.' },
  EVENTS_ACCEPTED: { en: 'Tracking events accepted.', tr: 'Takip olayları kabul edildi.' },
  WEBHOOK_CREATED: { en: 'Webhook created successfully.', tr: 'Webhook başarıyla oluşturuldu.' },
  WEBHOOK_UPDATED: { en: 'Webhook updated successfully.', tr: 'Webhook başarıyla güncellendi.' },
  WEBHOOK_DELETED: { en: 'Webhook deleted successfully.', tr: 'Webhook başarıyla silindi.' },
  WEBHOOK_REDELIVERY_SCHEDULED: { en: 'Redelivery scheduled.', tr: 'Yeniden gönderim planlandı.' },
  CARRIER_ACCOUNT_CREATED: { en: 'Carrier account created successfully.', tr: 'Kargo hesabı başarıyla oluşturuldu.' },
  CARRIER_ACCOUNT_UPDATED: { en: 'Carrier account updated successfully.', tr: 'Kargo hesabı başarıyla güncellendi.' },
  CARRIER_ACCOUNT_DELETED: { en: 'Carrier account deleted successfully.', tr: 'Kargo hesabı başarıyla silindi.' },
  ORDER_SOURCE_CREATED: {
    en: 'Order source created: register its delivery URL in your shop.',
    tr: 'Sipariş kaynağı oluşturuldu: teslim adresini mağazanıza kaydedin.',
  },
  ORDER_SOURCE_UPDATED: { en: 'Order source updated successfully.', tr: 'Sipariş kaynağı başarıyla güncellendi.' },
  ORDER_SOURCE_DELETED: { en: 'Order source deleted successfully.', tr: 'Sipariş kaynağı başarıyla silindi.' },
  ORDER_EVENT_QUEUED: { en: 'Order received: its draft is being created.', tr: 'Sipariş alındı: taslağı oluşturuluyor.' },
  ORDER_CANCEL_QUEUED: {
    en: 'Order cancellation received: its draft or consignment is being cancelled.',
    tr: 'Sipariş iptali alındı: taslağı veya gönderisi iptal ediliyor.',
  },
  ORDER_EVENT_REDELIVERED: { en: 'Order event already received: nothing was done again.', tr: 'Sipariş olayı zaten alınmıştı: hiçbir işlem tekrarlanmadı.' },
  ORDER_EVENT_IGNORED: { en: 'Event acknowledged: this topic needs no action.', tr: 'Olay alındı: bu konu için bir işlem gerekmiyor.' },
  ORDER_SOURCE_PING: { en: 'Delivery URL reachable.', tr: 'Teslim adresine ulaşılabiliyor.' },
  MARKETPLACE_SOURCE_CREATED: {
    en: 'Order source created: its packages are pulled now and every poll interval. Its webhook credential is shown this once.',
    tr: 'Sipariş kaynağı oluşturuldu: paketleri şimdi ve her sorgu aralığında çekilir. Webhook kimlik bilgisi yalnızca bu kez gösterilir.',
  },
  MARKETPLACE_PULL_TRIGGERED: { en: 'Notice received: the source is pulled now.', tr: 'Bildirim alındı: kaynak şimdi çekiliyor.' },
  IMPORT_ACCEPTED: { en: 'Import accepted: the orders are being created.', tr: 'İçe aktarma kabul edildi: siparişler oluşturuluyor.' },
  IMPORT_CANCELLED: { en: 'Import cancelled: no further orders will be created.', tr: 'İçe aktarma iptal edildi: başka sipariş oluşturulmayacak.' },
} satisfies Record<string, Text>;
export type SuccessCode = keyof typeof SUCCESS_MESSAGES;

/** The one message catalog: every error code has an English and a Turkish text. `{name}` is a parameter. */
export const ERROR_MESSAGES: Record<ErrorCode, Text> = {
  INVALID_API_KEY: { en: 'Invalid API key.', tr: 'Geçersiz API anahtarı.' },
  ROUTE_NOT_FOUND: { en: 'Route {method} {url} not found.', tr: '{method} {url} yolu bulunamadı.' },
  MALFORMED_JSON: { en: 'The request body is not valid JSON.', tr: 'İstek gövdesi geçerli bir JSON değil.' },
  MALFORMED_REQUEST: {
    en: 'The request is not valid HTTP (for example a NUL character or a line break in a header).',
    tr: 'İstek geçerli bir HTTP isteği değil (örneğin bir başlıkta NUL karakteri ya da satır sonu var).',
  },
  REQUEST_TIMEOUT: { en: 'The request did not arrive in time.', tr: 'İstek zamanında ulaşmadı.' },
  HEADERS_TOO_LARGE: { en: 'The request headers are too large.', tr: 'İstek başlıkları çok büyük.' },
  MALFORMED_MULTIPART: { en: 'The request body is not a valid multipart/form-data body.', tr: 'İstek gövdesi geçerli bir multipart/form-data gövdesi değil.' },
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
  SHUTTING_DOWN: { en: 'The service is shutting down.', tr: 'Servis kapanıyor.' },
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
  NOT_ASCENDING: { en: 'These values should be in ascending order.', tr: 'Bu değerler artan sırada olmalıdır.' },
  UNKNOWN_FIELD: { en: 'This field was not expected.', tr: 'Bu alan beklenmiyordu.' },
  INVALID_TEXT: { en: 'This value contains a NUL character or invalid UTF-8.', tr: 'Bu değer NUL karakteri ya da geçersiz UTF-8 içeriyor.' },
  DATE_RANGE_EMPTY: { en: 'This date must be after the start of the range.', tr: 'Bu tarih aralığın başlangıcından sonra olmalıdır.' },
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
  PROVIDER_DISABLED: {
    en: 'Provider {provider_id} is disabled: its carrier account takes no new bookings.',
    tr: '{provider_id} numaralı kargo firması devre dışı: kargo hesabı yeni gönderi kabul etmiyor.',
  },
  CARRIER_REFUSED: { en: 'The carrier refused the consignment: {reason}', tr: 'Kargo firması gönderiyi kabul etmedi: {reason}' },
  CARRIER_FIELD: { en: 'The carrier does not accept this value: {reason}', tr: 'Kargo firması bu değeri kabul etmiyor: {reason}' },
  CARRIER_UNAVAILABLE: {
    en: 'The carrier did not answer in time; nothing is done yet. Please retry later with the same Idempotency-Key.',
    tr: 'Kargo firması zamanında yanıt vermedi; henüz bir işlem yapılmadı. Lütfen daha sonra aynı Idempotency-Key ile tekrar deneyin.',
  },
  ALREADY_DELIVERED: { en: 'Shipment already delivered', tr: 'Gönderi zaten teslim edildi' },
  ALREADY_CANCELLED: { en: 'Shipment already cancelled', tr: 'Gönderi zaten iptal edildi' },
  CANCEL_FAILED: { en: 'Consignment cancel failed: {reason}', tr: 'Gönderi iptali başarısız: {reason}' },
  LABEL_NOT_FOUND: { en: 'Label not found.', tr: 'Etiket bulunamadı.' },
  LABEL_BATCH_ENTRY_INVALID: { en: 'Each entry must be a consignment id or barcode.', tr: 'Her kayıt bir gönderi numarası ya da barkodu olmalıdır.' },
  LABEL_LAYOUT_PDF_ONLY: {
    en: 'A4 sheets are for PDF; ZPL prints one label after another.',
    tr: 'A4 sayfa düzeni yalnızca PDF içindir; ZPL etiketleri art arda basar.',
  },
  LABEL_BATCH_EMPTY: { en: 'None of these consignments has a label to print.', tr: 'Bu gönderilerin hiçbirinin basılacak etiketi yok.' },
  ADDRESS_POSTAL_CODE_MISMATCH: {
    en: 'The postal code {postal_code} belongs to {places}, not to the city and state given.',
    tr: '{postal_code} posta kodu {places} yerine ait; verilen il ve ilçeye değil.',
  },
  ADDRESS_AMBIGUOUS: {
    en: 'This address matches several places: {places}. Give the state or the postal code.',
    tr: 'Bu adres birden fazla yere uyuyor: {places}. İli ya da posta kodunu belirtin.',
  },
  ADDRESS_POSTAL_CODE_UNKNOWN: {
    en: 'The address data of this country has no postal code {postal_code}.',
    tr: 'Bu ülkenin adres verisinde {postal_code} posta kodu yok.',
  },
  ADDRESS_CITY_UNKNOWN: { en: 'The address data of this country has no place named "{city}".', tr: 'Bu ülkenin adres verisinde "{city}" adında bir yer yok.' },
  CUSTOMS_DOCUMENT_UNKNOWN: {
    en: 'No such customs document: cn22.pdf, cn23.pdf or proforma.pdf.',
    tr: 'Böyle bir gümrük belgesi yok: cn22.pdf, cn23.pdf ya da proforma.pdf.',
  },
  CUSTOMS_NOT_INTERNATIONAL: { en: 'Customs documents are for international consignments.', tr: 'Gümrük belgeleri yalnızca yurt dışı gönderiler içindir.' },
  CUSTOMS_NO_ITEMS: {
    en: 'The consignment declares no contents: add its items (packages[].items) first.',
    tr: 'Gönderi içerik bildirmiyor: önce kalemlerini (packages[].items) ekleyin.',
  },
  CUSTOMS_CN22_OVER_CEILING: {
    en: 'A CN22 covers contents worth up to {ceiling} SDR; this consignment declares {value} SDR: its declaration is the CN23.',
    tr: 'CN22 en fazla {ceiling} SDR değerindeki içerik içindir; bu gönderi {value} SDR bildiriyor: beyannamesi CN23’tür.',
  },
  CUSTOMS_CN23_WITHIN_CEILING: {
    en: 'This consignment declares {value} SDR, within the {ceiling} SDR of a CN22: its declaration is the CN22.',
    tr: 'Bu gönderi {value} SDR bildiriyor, CN22’nin {ceiling} SDR sınırı içinde: beyannamesi CN22’dir.',
  },
  LABEL_VOIDED: { en: 'This label was voided: its consignment is cancelled.', tr: 'Bu etiket geçersiz kılındı: gönderisi iptal edildi.' },
  LABEL_LINK_INVALID: { en: 'This label link is not valid.', tr: 'Bu etiket bağlantısı geçerli değil.' },
  DOCUMENT_NOT_FOUND: { en: 'Document not found.', tr: 'Belge bulunamadı.' },
  DOCUMENT_LINK_INVALID: { en: 'This document link is not valid.', tr: 'Bu belge bağlantısı geçerli değil.' },
  DOCUMENT_UNKNOWN: { en: 'There is no such document of yours.', tr: 'Size ait böyle bir belge yok.' },
  DOCUMENT_TOO_LARGE: { en: 'The document is too large: at most {max} MB.', tr: 'Belge çok büyük: en fazla {max} MB olabilir.' },
  MULTIPART_TOO_MANY_PARTS: {
    en: 'The multipart body has more parts or files than this request takes.',
    tr: 'Çok parçalı gövde, bu isteğin aldığından fazla parça ya da dosya içeriyor.',
  },
  MULTIPART_REQUIRED: {
    en: 'The request body must be multipart/form-data with the document as its `file` part.',
    tr: 'İstek gövdesi, belgeyi `file` parçasında taşıyan multipart/form-data olmalıdır.',
  },
  DOCUMENT_TYPE_UNSUPPORTED: { en: 'The document must be a PDF, PNG or JPEG file.', tr: 'Belge PDF, PNG ya da JPEG dosyası olmalıdır.' },
  INVALID_CARRIER_TOKEN: { en: 'Invalid carrier token.', tr: 'Geçersiz kargo firması anahtarı.' },
  NOT_SANDBOX_CONSIGNMENT: {
    en: 'Sandbox events are only available for consignments of sandbox carriers that were processed.',
    tr: 'Sandbox olayları yalnızca sandbox kargo firmalarıyla işlenmiş gönderiler için kullanılabilir.',
  },
  INVALID_COUNTRY_ISO2: { en: 'Invalid countryIso2 code', tr: 'Geçersiz countryIso2 kodu' },
  INVALID_SEARCH_FIELD: {
    en: 'Allowed search fields are postalCode, city, state and place.',
    tr: 'İzin verilen arama alanları postalCode, city, state ve place alanlarıdır.',
  },
  WEBHOOK_NOT_FOUND: { en: 'Webhook not found.', tr: 'Webhook bulunamadı.' },
  CARRIER_ACCOUNT_NOT_FOUND: { en: 'Carrier account not found.', tr: 'Kargo hesabı bulunamadı.' },
  ORDER_SOURCE_NOT_FOUND: { en: 'Order source not found.', tr: 'Sipariş kaynağı bulunamadı.' },
  ORDER_SIGNATURE_INVALID: {
    en: "The webhook signature is missing or wrong: it must be the base64 HMAC-SHA256 of the body with the source's secret.",
    tr: 'Webhook imzası eksik ya da yanlış: gövdenin kaynağın gizli anahtarıyla hesaplanmış base64 HMAC-SHA256 değeri olmalıdır.',
  },
  ORDER_TOPIC_MISSING: { en: "The {header} header is missing: the event's topic cannot be told.", tr: '{header} başlığı eksik: olayın konusu anlaşılamıyor.' },
  ORDER_NOT_JSON: {
    en: 'The body is not JSON: an order webhook sends the order as JSON.',
    tr: "Gövde JSON değil: sipariş webhook'u siparişi JSON olarak gönderir.",
  },
  ORDER_NOT_AN_ORDER: {
    en: 'The body is not a {platform} order (an object with an id and line_items).',
    tr: 'Gövde bir {platform} siparişi değil (id ve line_items içeren bir nesne).',
  },
  ORDER_NOT_DRAFTED: {
    en: 'This order never became a draft of this source: there is nothing to cancel.',
    tr: 'Bu sipariş bu kaynaktan hiç taslağa dönüşmedi: iptal edilecek bir şey yok.',
  },
  ORDER_CREDENTIAL_INVALID: {
    en: "The webhook's credential is missing or wrong: it must be the source's webhook credential (the x-api-key header, or Basic auth with it as the password).",
    tr: "Webhook'un kimlik bilgisi eksik ya da yanlış: kaynağın webhook kimlik bilgisi olmalıdır (x-api-key başlığı ya da parolası bu olan Basic auth).",
  },
  ORDER_CHANGED_AFTER_PROCESSING: {
    en: 'The marketplace changed this package after its consignment was processed ({change}): the change is not applied; check the shipment with the carrier.',
    tr: 'Pazaryeri bu paketi gönderisi işlendikten sonra değiştirdi ({change}): değişiklik uygulanmadı; gönderiyi kargo firmasıyla kontrol edin.',
  },
  ORDER_PACKAGE_SHIPPED: {
    en: 'The package was already shipped when it was first seen ({status}): no draft is made for it.',
    tr: 'Paket ilk görüldüğünde zaten gönderilmişti ({status}): onun için taslak oluşturulmaz.',
  },
  ORDER_FIELD_SHOP_ONLY: {
    en: 'Only a shop source (shopify, woocommerce) takes this field.',
    tr: 'Bu alanı yalnızca bir mağaza kaynağı (shopify, woocommerce) alır.',
  },
  ORDER_FIELD_MARKETPLACE_ONLY: {
    en: 'Only a marketplace source (trendyol, hepsiburada) takes this field.',
    tr: 'Bu alanı yalnızca bir pazaryeri kaynağı (trendyol, hepsiburada) alır.',
  },
  ORDER_SOURCE_PLATFORM_FIXED: {
    en: 'The platform of an order source cannot change: create another source.',
    tr: 'Bir sipariş kaynağının platformu değiştirilemez: başka bir kaynak oluşturun.',
  },
  INVALID_ENDPOINT_URL: { en: 'Invalid endpoint URL', tr: 'Geçersiz endpoint URL' },
  ENDPOINT_NOT_PUBLIC: {
    en: 'Invalid endpoint URL: the host must resolve to public internet addresses only (not loopback, private, link-local or other internal addresses).',
    tr: 'Geçersiz endpoint URL: sunucu adı yalnızca genel internet adreslerine çözümlenmelidir (loopback, özel, link-local veya diğer iç adreslere değil).',
  },
  UNKNOWN_WEBHOOK_EVENT: { en: 'Unknown event. Subscribable events: {events}', tr: 'Bilinmeyen olay. Abone olunabilecek olaylar: {events}' },
  INVALID_HEADER_KEY: {
    en: 'This header name cannot be used: it must be a valid HTTP header name, appear once, and not be one the service sets itself (such as Host, Content-Type, User-Agent or webhook-signature).',
    tr: 'Bu başlık adı kullanılamaz: geçerli bir HTTP başlık adı olmalı, bir kez geçmeli ve hizmetin kendisinin gönderdiği başlıklardan (Host, Content-Type, User-Agent veya webhook-signature gibi) olmamalıdır.',
  },
  INVALID_HEADER_VALUE: {
    en: 'This header value contains characters that cannot be sent in an HTTP header.',
    tr: 'Bu başlık değeri HTTP başlığında gönderilemeyen karakterler içeriyor.',
  },
  WEBHOOK_EVENT_NOT_FOUND: { en: 'Event not found for this webhook.', tr: 'Bu webhook için olay bulunamadı.' },
  WEBHOOK_INACTIVE: {
    en: 'The webhook is not active: set its status to 1 before asking for a redelivery.',
    tr: 'Webhook etkin değil: yeniden gönderim istemeden önce status değerini 1 yapın.',
  },
  IMPORT_NOT_FOUND: { en: 'Import not found.', tr: 'İçe aktarma bulunamadı.' },
  IMPORT_FINISHED: { en: 'The import has already finished ({state}).', tr: 'İçe aktarma zaten sona erdi ({state}).' },
  IMPORT_UNKNOWN_PRESET: {
    en: 'Unknown preset "{preset}". Available presets: {presets}.',
    tr: 'Bilinmeyen ön ayar "{preset}". Kullanılabilir ön ayarlar: {presets}.',
  },
  IMPORT_FILE_EMPTY: { en: 'The file is empty: it has no order rows below the header.', tr: 'Dosya boş: başlık satırının altında sipariş satırı yok.' },
  IMPORT_FILE_TOO_LARGE: { en: 'The file is too large: at most {max} MB.', tr: 'Dosya çok büyük: en fazla {max} MB olabilir.' },
  IMPORT_INVALID_CSV: { en: 'The file is not valid CSV (line {line}): {reason}', tr: 'Dosya geçerli bir CSV değil (satır {line}): {reason}' },
  IMPORT_NOT_UTF8: {
    en: 'The file is not UTF-8 text. Save it as "CSV UTF-8" and upload it again.',
    tr: 'Dosya UTF-8 metin değil. "CSV UTF-8" olarak kaydedip yeniden yükleyin.',
  },
  IMPORT_COLUMNS_MISSING: {
    en: 'The file lacks the column(s) {columns} that the {preset} preset needs.',
    tr: 'Dosyada {preset} ön ayarının gerektirdiği sütun(lar) yok: {columns}.',
  },
  IMPORT_CONSIGNOR_REQUIRED: {
    en: 'The {preset} preset needs the sender: give a consignor in the import options.',
    tr: '{preset} ön ayarı göndericiyi gerektirir: içe aktarma seçeneklerinde consignor belirtin.',
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
