/**
 * Tables, shapes, date handling and sample data of the Hepsiburada order integration ("Sipariş Entegrasyonu", OMS
 * external API) test double. What each rule rests on: HEPSIBURADA-CONTRACT.md next to this file. The server:
 * hepsiburada-double.ts.
 */

// ----------------------------------------------------------------------------------------------------------------------
// Hosts, limits, messages
// ----------------------------------------------------------------------------------------------------------------------

/** "Bu dokümanda yer alan endpoint url'leri test ortamına aittir … "-sit" ifadesi kaldırılarak" (Sipariş Entegrasyonu Önemli Bilgiler). */
export const HEPSIBURADA_HOSTS = {
  sit: 'https://oms-external-sit.hepsiburada.com',
  production: 'https://oms-external.hepsiburada.com',
} as const;

/** Ödemesi Tamamlanmış Siparişleri Listeleme: "en fazla ve varsayılan olarak 100 adet" (OpenAPI `limit`; Ocak 2023 changelog). */
export const HB_ORDERS_MAX_LIMIT = 100;
/** Paket Bilgilerini Listeleme: "en fazla ve varsayılan olarak 10 paket" (OpenAPI `limit`; Eylül 2022 changelog). */
export const HB_PACKAGES_MAX_LIMIT = 10;
/** Cancelled / shipped / delivered / undelivered / missing-invoice lists: "en fazla ve varsayılan olarak 50 adet" (OpenAPI). */
export const HB_STATUS_LISTS_MAX_LIMIT = 50;
/** begindate/enddate "24 saatlik sorgular için geçerlidir" (Ocak 2023 and Eylül 2022 changelogs). */
export const HB_DATE_WINDOW_MS = 24 * 3600 * 1000;
/** Packages without timespan/begindate: "son 24 saat içerisinde paketlenen paketleri listelemektedir" (Eylül 2022). */
export const HB_DEFAULT_TIMESPAN_HOURS = 24;
/** intransit / deliver / undeliver dates "son 7 günden eski tarih gönderilemez" (reference pages `…-intransit-1` etc.; Temmuz 2022). */
export const HB_STATUS_DATE_MAX_AGE_MS = 7 * 24 * 3600 * 1000;
/** "1 saniye içerisinde 1k" requests, then 429 (Önemli Bilgiler "Hepsiburada Sipariş Entegrasyonu Limitleri"; Kasım 2025 changelog). */
export const HB_RATE_LIMIT = { limit: 1000, windowMs: 1000 } as const;
/** "Servis Anahtarı alfanumerik, 12 karakter" (Ocak 2024 / Ağustos 2024 changelogs). */
export const HB_SERVICE_KEY_PATTERN = /^[A-Za-z0-9]{12}$/;
/** Iptal Bilgisi Gonderme (`…-cancelbymerchant-1`): "ReasonId : 83 (Ürün tedarik edilemedi.)" — the only reason the pages name. */
export const HB_CANCEL_REASON_NOT_SUPPLIED = 83;
/** Mağaza hesabı (own carrier): "cargoCompany alanı sadece MP değerini alabilir … Elden teslim durumunda bu alana ET" (Paketleme `-1` page). */
export const HB_OWN_CARRIER_CARGO_COMPANY = 'MP';
export const HB_HAND_DELIVERY_CARRIER = 'ET';

/** Refusal texts. Documented ones are verbatim; the rest are the double's (HEPSIBURADA-CONTRACT.md says which). */
export const HB_MESSAGES = {
  /** Mayıs 2024 changelog, verbatim. */
  limitOffsetRequired: 'Bad Request limit and offset parameters are required',
  /** Paketleme `-1` page, verbatim. */
  ongoingAddressChange: 'Order has an ongoing change address demand',
  // ---- the double's own texts (not in the contract) ----
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  tooManyRequests: 'Too Many Requests',
  serviceUnavailable: 'Service Unavailable',
  notFound: 'Not Found',
  methodNotAllowed: 'Method Not Allowed',
  limitTooSmall: 'Bad Request limit must be greater than 0',
  offsetInvalid: 'Bad Request offset must be 0 or greater',
  badDate: 'Bad Request begindate/enddate must be in yyyy-MM-dd HH:mm format',
  badBodyDate: (field: string) => `Bad Request ${field} must be an ISO 8601 date`,
  endDateWithoutBegin: 'Bad Request begindate is required when enddate is given',
  badTimespan: 'Bad Request timespan must be a positive number of hours',
  badJson: 'Bad Request request body is not valid JSON',
  lineNotFound: 'Line item not found',
  packageNotFound: 'Package not found',
  orderNotFound: 'Order not found',
  lineNotPackageable: 'Line item is not in a packageable status',
  quantityExceeded: 'Requested quantity exceeds the open quantity of the line item',
  linesNotPackageableTogether: 'Line items can not be packaged together',
  lineNotCancellable: 'Line item is not cancellable',
  ownCarrierFieldsRequired: 'cargoCompany must be MP and carrier is required for merchant carrier (Mağaza Hesabı) packages',
  unknownCarrier: 'Unknown cargo company short name',
  notOwnCarrierPackage: 'Status can only be sent for merchant carrier (Mağaza Hesabı) packages',
  wrongPackageStatus: 'Package status does not allow this operation',
  dateTooOld: 'Date can not be older than 7 days',
  dateBeforePacking: 'Intransit date can not be before the packaging date',
  dateInFuture: 'Date can not be in the future',
  fieldRequired: (field: string) => `${field} is required`,
  splitMustCoverPackage: 'Every line of the package must be in packageDetails or cancelledItems with its whole quantity',
  cargoNotChangeable: 'Cargo company of this package can not be changed',
  labelOnlyForHbCarrier: 'Common barcode is only available for packages carried by a Hepsiburada contracted cargo company',
  unsupportedLabelFormat: 'Unsupported label format',
} as const;

// ----------------------------------------------------------------------------------------------------------------------
// Statuses
// ----------------------------------------------------------------------------------------------------------------------

/**
 * Line (kalem) statuses. `Open` is the listed "Paketlenecek" state (a third-party SDK's summary of the webhook pages names
 * `Open` and `Unpacked`); the others are the double's names (not in the contract).
 */
export const HB_LINE_STATUSES = ['Open', 'Packed', 'InTransit', 'Delivered', 'Undelivered', 'Cancelled'] as const;
export type HbLineStatus = (typeof HB_LINE_STATUSES)[number];

/** Package statuses: the double's names (the OpenAPI types `status` as a free string). */
export const HB_PACKAGE_STATUSES = ['Packed', 'InTransit', 'Delivered', 'Undelivered', 'Unpacked'] as const;
export type HbPackageStatus = (typeof HB_PACKAGE_STATUSES)[number];

// ----------------------------------------------------------------------------------------------------------------------
// Cargo companies (the double's table: Ids, names and logo URLs are invented; MP and ET are documented short names)
// ----------------------------------------------------------------------------------------------------------------------

export interface HbCargoCompany {
  Id: number;
  Name: string;
  ShortName: string;
  LogoUrl: string;
  IsActive: boolean;
  /** the double's: tracking page prefix for the package's trackingInfoUrl */
  trackingUrl: string;
  /** a Hepsiburada contracted carrier (common barcode available) rather than the merchant's own account */
  hbContracted: boolean;
}

export const HB_CARGO_COMPANIES: readonly HbCargoCompany[] = [
  {
    Id: 1,
    Name: 'HepsiJet',
    ShortName: 'HX',
    LogoUrl: 'https://images.hepsiburada.net/cargo/hx.png',
    IsActive: true,
    trackingUrl: 'https://www.hepsijet.com/gonderi-takibi/',
    hbContracted: true,
  },
  {
    Id: 2,
    Name: 'Yurtiçi Kargo',
    ShortName: 'YK',
    LogoUrl: 'https://images.hepsiburada.net/cargo/yk.png',
    IsActive: true,
    trackingUrl: 'https://www.yurticikargo.com/tr/online-servisler/gonderi-sorgula?code=',
    hbContracted: true,
  },
  {
    Id: 3,
    Name: 'Aras Kargo',
    ShortName: 'AR',
    LogoUrl: 'https://images.hepsiburada.net/cargo/ar.png',
    IsActive: true,
    trackingUrl: 'https://kargotakip.araskargo.com.tr/mainpage.aspx?code=',
    hbContracted: true,
  },
  {
    Id: 4,
    Name: 'MNG Kargo',
    ShortName: 'MNG',
    LogoUrl: 'https://images.hepsiburada.net/cargo/mng.png',
    IsActive: true,
    trackingUrl: 'https://www.mngkargo.com.tr/gonderi-takip/?code=',
    hbContracted: true,
  },
  {
    Id: 5,
    Name: 'Sürat Kargo',
    ShortName: 'SK',
    LogoUrl: 'https://images.hepsiburada.net/cargo/sk.png',
    IsActive: true,
    trackingUrl: 'https://suratkargo.com.tr/KargoTakip/?kargotakipno=',
    hbContracted: false,
  },
  {
    Id: 6,
    Name: 'PTT Kargo',
    ShortName: 'PTT',
    LogoUrl: 'https://images.hepsiburada.net/cargo/ptt.png',
    IsActive: true,
    trackingUrl: 'https://gonderitakip.ptt.gov.tr/Track/Verify?q=',
    hbContracted: false,
  },
  {
    Id: 89100,
    Name: 'Mağaza Hesabı',
    ShortName: 'MP',
    LogoUrl: 'https://images.hepsiburada.net/cargo/mp.png',
    IsActive: true,
    trackingUrl: '',
    hbContracted: false,
  },
];

export const hbCargoByShortName = (shortName: string | undefined): HbCargoCompany | undefined =>
  HB_CARGO_COMPANIES.find((c) => c.ShortName.toUpperCase() === (shortName ?? '').trim().toUpperCase());

export const hbCargoByName = (name: string | undefined): HbCargoCompany | undefined => HB_CARGO_COMPANIES.find((c) => c.Name === name || c.ShortName === name);

// ----------------------------------------------------------------------------------------------------------------------
// Shapes
// ----------------------------------------------------------------------------------------------------------------------

export interface HbMoney {
  currency: string;
  amount: number;
}

export const money = (amount: number, currency = 'TRY'): HbMoney => ({ currency, amount: Math.round(amount * 100) / 100 });

/** shippingAddress / invoice.address / deliveryAddress (OpenAPI `…Address` schema). */
export interface HbAddress {
  addressId: string;
  address: string;
  name: string;
  email: string;
  countryCode: string;
  phoneNumber: string;
  alternatePhoneNumber: string;
  district: string;
  city: string;
  town: string;
  postalCode: string;
  directions?: string;
}

export interface HbInvoice {
  turkishIdentityNumber: string;
  taxNumber: string;
  taxOffice: string;
  address: HbAddress;
}

// ----------------------------------------------------------------------------------------------------------------------
// Dates
// ----------------------------------------------------------------------------------------------------------------------

const TR_OFFSET_MS = 3 * 3600 * 1000;
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** Turkish local time, no offset, as the webhook examples write it: `2020-06-24T10:36:53.593`. Not in the contract: which zone. */
export function hbDateTime(d: Date): string {
  const t = new Date(d.getTime() + TR_OFFSET_MS);
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}T${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}:${pad(t.getUTCSeconds())}.${pad(t.getUTCMilliseconds(), 3)}`;
}

/** UTC with Z, as the intransit/deliver webhook examples write it: `2020-04-16T10:14:17.707Z`. */
export const hbUtc = (d: Date): string => d.toISOString();

/** The query's `yyyy-MM-dd HH:mm` (changelog examples), for building requests. Turkish local time. */
export function hbQueryDate(d: Date): string {
  const t = new Date(d.getTime() + TR_OFFSET_MS);
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())} ${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}`;
}

/**
 * Parses `begindate`/`enddate`. Documented form `yyyy-MM-dd HH:mm` (changelogs); the double also takes `:ss` and a `T`
 * separator. Turkish local time (not in the contract). Undefined when it does not parse.
 */
export function parseHbQueryDate(s: string): Date | undefined {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(s.trim());
  if (!m) return undefined;
  const [y, mo, d, h, mi, se] = m.slice(1).map((x) => (x === undefined ? 0 : Number(x)));
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 59) return undefined;
  const ms = Date.UTC(y, mo - 1, d, h, mi, se) - TR_OFFSET_MS;
  const back = new Date(ms + TR_OFFSET_MS);
  if (back.getUTCDate() !== d) return undefined; // 2026-02-31
  return new Date(ms);
}

/** Parses the ISO dates a merchant sends in intransit/deliver/undeliver bodies ("2020-04-16T10:14:17.707Z"); no offset = UTC. */
export function parseHbBodyDate(s: unknown): Date | undefined {
  if (typeof s !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,7})?)?(Z|[+-]\d{2}:?\d{2})?$/.test(s.trim())) return undefined;
  const text = /(Z|[+-]\d{2}:?\d{2})$/.test(s.trim()) ? s.trim() : `${s.trim()}Z`;
  const d = new Date(text.replace(/(\.\d{3})\d+/, '$1'));
  return Number.isNaN(d.getTime()) ? undefined : d;
}

// ----------------------------------------------------------------------------------------------------------------------
// Ids
// ----------------------------------------------------------------------------------------------------------------------

/** EAN-13 check digit, for package barcodes that look like the examples' `6220131054891`. */
export function ean13(first12: string): string {
  const digits = first12.split('').map(Number);
  const sum = digits.reduce((s, d, i) => s + d * (i % 2 === 0 ? 1 : 3), 0);
  return first12 + String((10 - (sum % 10)) % 10);
}

/** A UUID-looking id made from a counter (stable across runs; the pages' ids are GUIDs). */
export function hbGuid(prefix: number, n: number): string {
  const hex = (prefix.toString(16).padStart(8, '0') + n.toString(16).padStart(24, '0')).slice(-32);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

// ----------------------------------------------------------------------------------------------------------------------
// Common barcode (labels): ZPL the double makes
// ----------------------------------------------------------------------------------------------------------------------

const zplText = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ı/g, 'i')
    .replace(/İ/g, 'I')
    .replace(/[\^~\\]/g, ' ');

export function hbLabelZpl(p: {
  packageNumber: string;
  barcode: string;
  cargoCompany: string;
  recipient: string;
  address: string;
  town: string;
  city: string;
  phone: string;
  deci: number;
  parcel: number;
  parcels: number;
  orderNumbers: string[];
}): string {
  return [
    '^XA',
    '^CI28',
    '^PW812',
    '^LL1218',
    `^FO30,30^A0N,40,40^FDhepsiburada^FS`,
    `^FO500,30^A0N,30,30^FD${zplText(p.cargoCompany)}^FS`,
    `^FO30,100^A0N,28,28^FDAlici: ${zplText(p.recipient)}^FS`,
    `^FO30,140^A0N,24,24^FD${zplText(p.address)}^FS`,
    `^FO30,175^A0N,24,24^FD${zplText(p.town)} / ${zplText(p.city)}^FS`,
    `^FO30,210^A0N,24,24^FDTel: ${zplText(p.phone)}^FS`,
    `^FO30,260^A0N,24,24^FDSiparis: ${p.orderNumbers.join(', ')}^FS`,
    `^FO30,295^A0N,24,24^FDPaket: ${p.packageNumber}  Desi: ${p.deci}  Koli: ${p.parcel}/${p.parcels}^FS`,
    `^FO60,360^BY3^BCN,200,Y,N,N^FD${p.barcode}^FS`,
    '^XZ',
  ].join('\n');
}

/** The barcode a ZPL label carries (`^BC…^FD<barcode>^FS`). */
export function readHbLabelBarcode(zpl: string): string | undefined {
  return /\^BC[^^]*\^FD([^^]+)\^FS/.exec(zpl)?.[1];
}

// ----------------------------------------------------------------------------------------------------------------------
// Sample data
// ----------------------------------------------------------------------------------------------------------------------

export const HB_SAMPLE_ADDRESS: HbAddress = {
  addressId: 'a1b2c3d4-0000-4000-8000-000000000001',
  address: 'Caferağa Mah. Moda Cad. No:15 D:3',
  name: 'Ayşe Yılmaz',
  email: 'ayse.yilmaz@example.com',
  countryCode: 'TR',
  phoneNumber: '05321234567',
  alternatePhoneNumber: '',
  district: 'Caferağa',
  city: 'İstanbul',
  town: 'Kadıköy',
  postalCode: '34710',
};

export interface HbSampleLine {
  sku: string;
  merchantSku: string;
  name: string;
  quantity: number;
  unitPrice: number;
  vatRate?: number;
  productBarcode?: string;
  /** the carrier the buyer's checkout assigned (short name); default HX (HepsiJet) */
  cargoCompany?: string;
}

export const HB_SAMPLE_LINES: readonly HbSampleLine[] = [
  {
    sku: 'HBV00000NE0YY',
    merchantSku: 'PEYNIR-250',
    name: 'Tahsildaroğlu Çeçil Peyniri 250 gr',
    quantity: 1,
    unitPrice: 14.95,
    vatRate: 8,
    productBarcode: '8690000000017',
  },
  { sku: 'HBCV00001ABCDE', merchantSku: 'KUPA-350', name: 'Seramik Kupa 350 ml', quantity: 2, unitPrice: 120, vatRate: 20, productBarcode: '8690000000024' },
];
