/**
 * Trendyol Marketplace seller integration API (developers.trendyol.com, Turkish reference), transcribed by hand for the
 * test double in `trendyol-double.ts`: statuses, limits, answer shapes, request checks, sample data, the common label.
 *
 * Sources, read through the search library (see TRENDYOL-CONTRACT.md for the per-rule citations):
 *  - developers.trendyol.com `.md` pages as a public repository stored them verbatim ("indirildi: 2026-09-28"):
 *    docs/2-authorization, docs/1-servis-limitleri, docs/3-canlı-test-ortam-bilgileri, docs/sipariş-paketlerini-akış-ile-çekme,
 *    docs/webhook-model, reference/getshipmentpackages, reference/getshipmentpackagesstream, reference/createwebhook,
 *    reference/updatewebhook, reference/getwebhooks, reference/activatewebhook, reference/createtestorder,
 *    reference/getcargoproviders;
 *  - the docs corpus pages of developers.trendyol.com (excerpts): getShipmentPackages, updatePackage, updateTrackingNumber
 *    ("Kullanım Dışı"), createCommonLabel / getCommonLabel, splitShipmentPackage, hata-kodları, changelog;
 *  - a public compilation of the Turkish order-integration pages (sections 1–16, same wording) for the paths and bodies
 *    the excerpts cut off: update-tracking-number, unsupplied, split/multi-split/quantity-split/split-packages, test
 *    order status.
 * Everything the documents leave open is marked "not in the contract".
 */

// --------------------------------------------------------------------------------------------------------------------
// Hosts, identity
// --------------------------------------------------------------------------------------------------------------------

/** 3. Canlı-Test Ortam Bilgileri. */
export const TRENDYOL_HOSTS = { production: 'https://apigw.trendyol.com', stage: 'https://stageapigw.trendyol.com' } as const;
export type TrendyolEnvironment = keyof typeof TRENDYOL_HOSTS;

/** 2. Authorization: "Satıcı Id - {Entegrasyon Firması İsmi}" or "Satıcı Id - SelfIntegration"; name alphanumeric, ≤ 30. */
export const USER_AGENT_PATTERN = /^(\d+) - ([A-Za-z0-9]{1,30})$/;
export const SELF_INTEGRATION = 'SelfIntegration';

/** The double's test seller: sellerId 2738 is the one in the documents' examples (createTestOrder, webhook lines); the keys are invented. */
export const TRENDYOL_TEST_SELLER = { sellerId: '2738', apiKey: 'ty-test-api-key', apiSecret: 'ty-test-api-secret' } as const;

// --------------------------------------------------------------------------------------------------------------------
// Statuses
// --------------------------------------------------------------------------------------------------------------------

/**
 * Package statuses. getShipmentPackages `status` filter (reference/getshipmentpackages enum plus the guide's
 * "Repack"/"UnPacked"): Awaiting, Created, Picking, Invoiced, Shipped, Cancelled, Delivered, UnDelivered, Returned,
 * AtCollectionPoint, UnSupplied, UnPacked. The double never produces Repack (the guide names it once, nothing else does).
 */
export const TRENDYOL_PACKAGE_STATUSES = [
  'Awaiting',
  'Created',
  'Picking',
  'Invoiced',
  'Shipped',
  'AtCollectionPoint',
  'Delivered',
  'UnDelivered',
  'Returned',
  'Cancelled',
  'UnSupplied',
  'UnPacked',
] as const;
export type TrendyolPackageStatus = (typeof TRENDYOL_PACKAGE_STATUSES)[number];
/** Accepted by the `status` filter but never produced by the double. */
export const TRENDYOL_FILTER_ONLY_STATUSES = ['Repack'] as const;

/** Stream `packageItemStatuses` (line statuses; reference/getshipmentpackagesstream + the guide adds Verified). */
export const TRENDYOL_LINE_STATUSES = [
  'Awaiting',
  'Created',
  'Picking',
  'Invoiced',
  'Shipped',
  'Cancelled',
  'Delivered',
  'UnDelivered',
  'Returned',
  'UnSupplied',
  'AtCollectionPoint',
  'UnPacked',
  'Verified',
] as const;

/** Webhook `subscribedStatuses` (docs/webhook-model, reference/createwebhook) ↔ package status. VERIFIED has no package status. */
export const TRENDYOL_WEBHOOK_STATUSES = [
  'CREATED',
  'PICKING',
  'INVOICED',
  'SHIPPED',
  'CANCELLED',
  'DELIVERED',
  'UNDELIVERED',
  'RETURNED',
  'UNSUPPLIED',
  'AWAITING',
  'UNPACKED',
  'AT_COLLECTION_POINT',
  'VERIFIED',
] as const;
export type TrendyolWebhookStatus = (typeof TRENDYOL_WEBHOOK_STATUSES)[number];
export const webhookStatusOf = (s: TrendyolPackageStatus): TrendyolWebhookStatus =>
  (s === 'AtCollectionPoint' ? 'AT_COLLECTION_POINT' : s.toUpperCase()) as TrendyolWebhookStatus;

/** updatePackage: "sadece 2 paket statüsü ile güncelleyebilirsiniz" — Picking, then Invoiced. */
export const SELLER_SETTABLE_STATUSES = ['Picking', 'Invoiced'] as const;
/** Test order status update (stage): "Statüler sıralı ilerlemektedir". */
export const TEST_ORDER_STATUS_SEQUENCE = ['Shipped', 'AtCollectionPoint', 'Delivered', 'UnDelivered', 'Returned'] as const;

/** Tedarik Edememe Nedenleri (unsupplied `reasonId`). */
export const UNSUPPLIED_REASONS: Readonly<Record<number, string>> = {
  500: 'Stok tükendi',
  501: 'Kusurlu/Defolu/Bozuk Ürün',
  502: 'Hatalı Fiyat',
  504: 'Entegrasyon Hatası',
  505: 'Toplu Alım',
  506: 'Mücbir Sebep',
};

/** `createdBy` values (guide and webhook model). */
export type TrendyolCreatedBy = 'order-creation' | 'cancel' | 'split' | 'transfer';

// --------------------------------------------------------------------------------------------------------------------
// Carriers
// --------------------------------------------------------------------------------------------------------------------

/**
 * "Ortak barkod süreci TEX, Aras Kargo için Trendyol öder gönderilerde kullanılabilmektedir" (createCommonLabel): the two
 * carriers Trendyol picks for "Trendyol pays" packages with a common label. `name` is `cargoProviderName` ("Trendyol
 * Express" in the documents' package example; "Aras Kargo" is the getCargoProviders naming style: not in the contract),
 * `code` the cargoProvider code of changeCargoProvider (TEXMP, ARASMP).
 */
export const TRENDYOL_PAYS_CARRIERS = {
  TEX: { code: 'TEXMP', name: 'Trendyol Express', firstTrackingNumber: 7280027504111111 },
  ARAS: { code: 'ARASMP', name: 'Aras Kargo', firstTrackingNumber: 7330031064550009 },
} as const;
export type TrendyolPaysCarrier = keyof typeof TRENDYOL_PAYS_CARRIERS;

/** Carriers a seller ships with on its own contract (changeCargoProvider codes; names as getCargoProviders shows them). */
export const SELLER_CARRIERS: Readonly<Record<string, string>> = {
  YKMP: 'Yurtiçi Kargo',
  ARASMP: 'Aras Kargo',
  SURATMP: 'Sürat Kargo',
  HOROZMP: 'Horoz Lojistik',
  DHLECOMMP: 'DHL eCommerce',
  PTTMP: 'PTT Kargo',
  CEVAMP: 'Ceva Lojistik',
  KOLAYGELSINMP: 'Kolay Gelsin',
};

// --------------------------------------------------------------------------------------------------------------------
// Limits
// --------------------------------------------------------------------------------------------------------------------

export const TRENDYOL_LIMITS = {
  /** getShipmentPackages: "size … Maksimum 200"; OpenAPI default 200. */
  pageSizeMax: 200,
  pageSizeDefault: 200,
  /** stream: "size verilmezse default 50 kabul edilir, maksimum 200". */
  streamSizeDefault: 50,
  /** "Maksimum erişilebilir kayıt sayısı 10.000 (maxQueryWindowResult)": page 0–49 at size 200. */
  maxQueryWindowResult: 10_000,
  /** "parametre vermeden … son bir hafta"; "maksimum aralık iki hafta". */
  defaultWindowMs: 7 * 24 * 3600_000,
  maxWindowMs: 14 * 24 * 3600_000,
  /** "Maksimum 1 aylık geçmişe dönük sipariş sorgularını" (the older page said 3 months); stream: "son 3 aylık veri". */
  historyMs: 30 * 24 * 3600_000,
  streamHistoryMs: 90 * 24 * 3600_000,
  /** shipmentPackageIds: "maksimum 50". */
  shipmentPackageIdsMax: 50,
  /** webhook model: "1 satıcı için oluşturulabileceek maksimum webhook sayısı 15 dir. Pasife alınan webhooklarda … dahildir". */
  webhooksPerSeller: 15,
  /** 2. Authorization: "aynı endpointe 10 saniye içerisinde maksimum 50 request". */
  burstPerEndpoint: 50,
  burstWindowMs: 10_000,
} as const;

/** Seller listing tiers (1. Servis Limitleri, "Sipariş Servisleri"). */
export const LISTING_TIERS = ['50000', '75000', '150000', '500000', 'unlimited'] as const;
export type TrendyolListingTier = (typeof LISTING_TIERS)[number];

/** Per-minute limit groups (1. Servis Limitleri). `null` = NO LIMIT. */
export type TrendyolLimitGroup =
  | 'orderPull'
  | 'trackingNumber'
  | 'packageStatus'
  | 'unsupplied'
  | 'split'
  | 'multiSplit'
  | 'quantitySplit'
  | 'splitPackages'
  | 'alternativeDelivery'
  | 'labelCreate'
  | 'labelGet';

const tiered = (a: number, b: number, c: number, d: number | null, e: number | null) => ({ '50000': a, '75000': b, '150000': c, '500000': d, unlimited: e });

export const TRENDYOL_RATE_LIMITS: Readonly<Record<TrendyolLimitGroup, Readonly<Record<TrendyolListingTier, number | null>>>> = {
  /** "Sipariş Paketlerini Çekme": 30/40/50/100/100 (the guide's "1 dakika içinde en fazla 1000" is the older figure). */
  orderPull: tiered(30, 40, 50, 100, 100),
  /** "Kargo Takip Kodu Bildirme". */
  trackingNumber: tiered(300, 300, 500, null, null),
  /** "Paket Statü Bildirimi". */
  packageStatus: tiered(300, 300, 500, null, null),
  /** "Tedarik Edememe Bildirimi". */
  unsupplied: tiered(100, 100, 200, null, null),
  split: tiered(100, 100, 200, null, null),
  multiSplit: tiered(100, 100, 200, null, null),
  quantitySplit: tiered(100, 100, 200, null, null),
  splitPackages: tiered(100, 100, 200, null, null),
  /** "Alternatif Teslimat İle Gönderim". */
  alternativeDelivery: tiered(300, 300, 500, null, null),
  /** Ortak Etiket: "Barkod Talebi" / "Oluşan Barkodun Alınması" 100 req/min (one figure for every tier). */
  labelCreate: tiered(100, 100, 100, 100, 100),
  labelGet: tiered(100, 100, 100, 100, 100),
};

// --------------------------------------------------------------------------------------------------------------------
// Dates
// --------------------------------------------------------------------------------------------------------------------

/** "orderDate, Timestamp (milliseconds) formatında GMT +3 olarak iletilir. createdDate bilgileri ise GMT formatında". */
export const GMT3_OFFSET_MS = 3 * 3600_000;
/** A real instant as Trendyol's "GMT +3 timestamp" (the wall-clock time in Türkiye read as if it were UTC). */
export const toGmt3 = (ms: number): number => ms + GMT3_OFFSET_MS;
export const fromGmt3 = (ms: number): number => ms - GMT3_OFFSET_MS;

// --------------------------------------------------------------------------------------------------------------------
// Answer shapes (field names: the 08.12.2025 renames, old names removed; webhook model / stream example)
// --------------------------------------------------------------------------------------------------------------------

export interface TrendyolAddress {
  id: number;
  firstName: string;
  lastName: string;
  company: string;
  address1: string;
  address2: string;
  city: string;
  cityCode: number;
  district: string;
  districtId: number;
  countyId: number;
  countyName: string;
  shortAddress: string;
  stateName: string;
  addressLines: { addressLine1: string; addressLine2: string };
  postalCode: string;
  countryCode: string;
  neighborhoodId: number;
  neighborhood: string;
  phone: string | null;
  fullAddress: string;
  fullName: string;
  /** invoice address only */
  sector?: string;
  latitude?: string;
  longitude?: string;
  /** invoice address, commercial orders only ("commercial=false ise body içerisinde dönmeyecektir") */
  taxOffice?: string;
  taxNumber?: string;
  eInvoiceAvailable?: boolean;
}

export interface TrendyolDiscountDetail {
  lineItemId: string;
  lineItemPrice: number;
  lineItemSellerDiscount: number;
  lineItemTyDiscount: number;
}

export interface TrendyolLine {
  quantity: number;
  salesCampaignId: number;
  productSize: string;
  stockCode: string;
  productName: string;
  contentId: number;
  productOrigin: string;
  sellerId: number;
  lineGrossAmount: number;
  lineTotalDiscount: number;
  lineSellerDiscount: number;
  lineTyDiscount: number;
  discountDetails: TrendyolDiscountDetail[];
  currencyCode: string;
  productColor: string;
  lineId: number;
  vatRate: number;
  barcode: string;
  orderLineItemStatusName: string;
  lineUnitPrice: number;
  fastDeliveryOptions: string[];
  productCategoryId: number;
  commission: number;
  businessUnit: string;
  cancelledBy: string;
  cancelReason: string;
  cancelReasonCode: number;
}

export interface TrendyolPackageHistory {
  createdDate: number;
  status: string;
}

export interface TrendyolShipmentPackage {
  shipmentAddress: TrendyolAddress;
  orderNumber: string;
  paymentMethod: string;
  orderCountryCode: string;
  packageGrossAmount: number;
  packageSellerDiscount: number;
  packageTyDiscount: number;
  packageTotalDiscount: number;
  discountDisplays: { displayName: string; discountAmount: number }[];
  taxNumber: string | null;
  invoiceAddress: TrendyolAddress;
  customerFirstName: string;
  customerEmail: string;
  customerId: number;
  supplierId: number;
  customerLastName: string;
  channelId: number;
  shipmentPackageId: number;
  /** a number (16 digits) as Trendyol assigns it; what updateTrackingNumber set, as sent (a string unless all digits: not in the contract) */
  cargoTrackingNumber: number | string | null;
  cargoTrackingLink: string | null;
  cargoSenderNumber: string | null;
  sellerDeliveryMethod: string | null;
  sellerOtpCode: string | null;
  cargoProviderName: string;
  lines: TrendyolLine[];
  orderDate: number;
  identityNumber: string | null;
  currencyCode: string;
  packageHistories: TrendyolPackageHistory[];
  shipmentPackageStatus: TrendyolPackageStatus;
  status: TrendyolPackageStatus;
  /** "Eğer satıcı anlaşması ise 1 gelir, trendyol anlaşması ise alan gelmez" */
  whoPays?: 1;
  deliveryType: string;
  timeSlotId: number;
  estimatedDeliveryStartDate: number;
  estimatedDeliveryEndDate: number;
  packageTotalPrice: number;
  deliveryAddressType: 'Shipment' | 'CollectionPoint';
  agreedDeliveryDate: number;
  fastDelivery: boolean;
  originShipmentDate: number;
  lastModifiedDate: number;
  commercial: boolean;
  fastDeliveryType: string;
  deliveredByService: boolean;
  warehouseId: number;
  invoiceLink: string | null;
  invoiceNumber?: string;
  micro: boolean;
  giftBoxRequested: boolean;
  '3pByTrendyol': boolean;
  containsDangerousProduct: boolean;
  cargoDeci: number;
  isCod: boolean;
  createdBy: TrendyolCreatedBy;
  originPackageIds: number[] | null;
  shipmentNumber: number;
  is4P: boolean;
}

/** getShipmentPackages answer. */
export interface TrendyolPage {
  totalElements: number;
  totalPages: number;
  page: number;
  size: number;
  content: TrendyolShipmentPackage[];
}

/** getShipmentPackagesStream answer ("totalElements, totalPages, page … dönmeyecektir"; hasMore, nextCursor, size). */
export interface TrendyolStreamPage {
  hasMore: boolean;
  nextCursor: string;
  size: number;
  content: TrendyolShipmentPackage[];
}

/** getWebhooks element (reference/getwebhooks). */
export interface TrendyolWebhookView {
  id: string;
  createdDate: number;
  lastModifiedDate: number | null;
  url: string;
  username: string | null;
  authenticationType: 'BASIC_AUTHENTICATION' | 'API_KEY';
  status: 'ACTIVE' | 'PASSIVE';
  subscribedStatuses: TrendyolWebhookStatus[] | null;
}

/** getCommonLabel: `{"data": [{"label": "^XA.......^XZ", "format": "ZPL"}]}`. */
export interface TrendyolCommonLabelAnswer {
  data: { label: string; format: 'ZPL' }[];
}

// --------------------------------------------------------------------------------------------------------------------
// Error bodies
// --------------------------------------------------------------------------------------------------------------------

/**
 * The OpenAPI `ErrorResponse` of Trendyol's integration pages (`{"errors": [{"key", "message", "errorCode"}]}`,
 * errorCode = the HTTP status as a string), used by the double for everything but the package pulls.
 */
export const errorsBody = (status: number, key: string, message: string) => ({ errors: [{ key, message, errorCode: String(status) }] });
/** The pulls' OpenAPI `Error` (`{"error": string, "message": string}`: reference/getshipmentpackages, …stream). */
export const pullErrorBody = (error: string, message: string) => ({ error, message });
/** 2. Authorization: 'Hatalı authorization yapılması durumunda status: 401, "exception": "ClientApiAuthenticationException"'. */
export const authErrorBody = () => ({ status: 401, exception: 'ClientApiAuthenticationException' });

/** Messages. Documented ones are quoted; the rest are the double's (Turkish, in the documents' style). */
export const TRENDYOL_MESSAGES = {
  /** updateTrackingNumber page, verbatim. */
  shipmentNotUpdatable: 'Shipment Update Edilebilir Bir Durumda Değil.',
  /** 2. Authorization: "429 status code and it say too.many.requests". */
  tooManyRequests: 'too.many.requests',
  /** createCommonLabel / getCommonLabel 400, verbatim. */
  checkCargoTrackingNumber: 'İletmiş olduğunuz cargoTrackingNumber değerini kontrol ediniz',
  // --- not in the contract (the double's texts) ---
  userAgentMissing: 'User-Agent bilgisi zorunludur. "Satıcı Id - Entegrasyon Firması İsmi" formatında gönderilmelidir.',
  userAgentMalformed: 'User-Agent bilgisi "Satıcı Id - Entegrasyon Firması İsmi" formatında olmalıdır (firma ismi alfanumerik, en fazla 30 karakter).',
  sellerMismatch: 'Bu satıcı için yetkiniz bulunmamaktadır.',
  packageNotFound: 'Sipariş paketi bulunamadı.',
  sizeTooLarge: 'size en fazla 200 olabilir.',
  windowTooLarge: 'Başlangıç ve bitiş tarihleri arasındaki fark en fazla 2 hafta olabilir.',
  maxQueryWindow: 'Erişilebilen maksimum kayıt sayısı 10.000 (maxQueryWindowResult) ile sınırlıdır.',
  invalidStatus: 'Geçersiz statü.',
  invalidCursor: 'Geçersiz nextCursor değeri.',
  cursorFilterMismatch: 'nextCursor ile gönderilen filtreler akışı başlatan filtrelerle aynı olmalıdır.',
  tooManyPackageIds: 'shipmentPackageIds en fazla 50 adet olabilir.',
  pickingBeforeInvoiced: 'Invoiced statüsünden önce Picking statüsü beslenmelidir.',
  statusNotAllowed: 'Paket yalnızca Picking ve Invoiced statülerine güncellenebilir.',
  invoiceNumberRequired: 'Invoiced statüsü için params.invoiceNumber zorunludur.',
  invoiceNumberOnlyInvoiced: 'invoiceNumber yalnızca Invoiced statüsü için gönderilmelidir.',
  packageNotUpdatable: 'Paket bu işlem için uygun statüde değil.',
  lineNotInPackage: 'Gönderilen lineId bu pakete ait değil.',
  invalidQuantity: 'Geçersiz adet.',
  invalidReason: 'Geçersiz reasonId.',
  splitAllLines: 'Paket üzerindeki bütün orderLine değerleri bölme isteğinde gönderilemez.',
  invalidFormat: 'format alanı zorunludur ve yalnızca ZPL olabilir.',
  labelNotReady: 'İlgili cargoTrackingNumber için oluşturulmuş bir barkod bulunamadı.',
  webhookUrlRequired: 'url alanı zorunludur.',
  webhookUrlForbidden: 'Webhook url bilgisi "Trendyol", "Dolap", "Localhost" ibareleri içermemelidir.',
  webhookAuthType: 'authenticationType BASIC_AUTHENTICATION ya da API_KEY olmalıdır.',
  webhookApiKeyRequired: 'authenticationType API_KEY ise apiKey alanı zorunludur.',
  webhookBasicRequired: 'authenticationType BASIC_AUTHENTICATION ise username ve password alanları zorunludur.',
  webhookStatus: 'Geçersiz subscribedStatuses değeri.',
  webhookLimit: 'Bir satıcı için en fazla 15 webhook oluşturulabilir.',
  webhookNotFound: 'Webhook bulunamadı.',
  stageOnly: 'Bu servis yalnızca test ortamında kullanılabilir.',
  unknownBarcode: 'Ürün bulunamadı.',
  testStatusOrder: 'Statüler sıralı ilerlemektedir; geri alınamaz.',
  storeFrontCodeRequired: 'storeFrontCode header bilgisi zorunludur.',
  ipNotAllowed: 'Service Unavailable',
  outage: 'Service Unavailable',
  badBody: 'İstek gövdesi geçersiz.',
} as const;

// --------------------------------------------------------------------------------------------------------------------
// Sample data
// --------------------------------------------------------------------------------------------------------------------

export interface TrendyolProduct {
  barcode: string;
  productName: string;
  stockCode: string;
  /** unit price before discounts, TRY, VAT included */
  price: number;
  vatRate: number;
  contentId: number;
  productCategoryId: number;
  productColor?: string;
  productSize?: string;
  commission?: number;
  businessUnit?: string;
}

/** Barcode 9900000000486 is createTestOrder's example barcode; the other products, and every name and price, are ours. */
export const TRENDYOL_SAMPLE_PRODUCTS: readonly TrendyolProduct[] = [
  {
    barcode: '9900000000486',
    productName: 'Kuş ve Çiçek Desenli Tepsi - Yeşil, 49 cm',
    stockCode: 'TEPSI-49-YSL',
    price: 498.9,
    vatRate: 20,
    contentId: 1239111111,
    productCategoryId: 2710,
    productColor: 'Yeşil',
    productSize: 'Tek Ebat',
    commission: 13,
    businessUnit: 'Home',
  },
  {
    barcode: '8683772071724',
    productName: 'Seramik Kupa 350 ml',
    stockCode: 'KUPA-350',
    price: 149.9,
    vatRate: 20,
    contentId: 1239111112,
    productCategoryId: 2711,
    productColor: 'Beyaz',
    productSize: 'Tek Ebat',
    commission: 13,
    businessUnit: 'Home',
  },
  {
    barcode: '8680000000013',
    productName: 'Pamuklu Tişört - Siyah, M',
    stockCode: 'TSHIRT-SYH-M',
    price: 299.99,
    vatRate: 10,
    contentId: 1239111113,
    productCategoryId: 411,
    productColor: 'Siyah',
    productSize: 'M',
    commission: 18,
    businessUnit: 'Apparel',
  },
];

export interface TrendyolAddressInput {
  firstName: string;
  lastName: string;
  address1: string;
  address2?: string;
  city: string;
  cityCode?: number;
  district: string;
  districtId?: number;
  neighborhood?: string;
  neighborhoodId?: number;
  postalCode?: string;
  phone?: string | null;
  company?: string;
  countryCode?: string;
}

/** The shipment address of the webhook model's example (Sarıyer/İstanbul), with a person's name and phone of ours. */
export const TRENDYOL_SAMPLE_ADDRESS: TrendyolAddressInput = {
  firstName: 'Ayşe',
  lastName: 'Yılmaz',
  address1: 'Maslak Mahallesi Saat Sokak No:5 D:19',
  address2: '',
  city: 'İstanbul',
  cityCode: 34,
  district: 'Sarıyer',
  districtId: 54,
  neighborhood: 'Maslak Mahallesi',
  neighborhoodId: 21111,
  postalCode: '34485',
  phone: '5321234567',
};

// --------------------------------------------------------------------------------------------------------------------
// Common label (ZPL)
// --------------------------------------------------------------------------------------------------------------------

const zplText = (s: string): string => s.replace(/[\^~\\]/g, ' ');

export interface TrendyolLabelBox {
  carrierName: string;
  cargoTrackingNumber: string;
  orderNumber: string;
  shipmentPackageId: number;
  sender: string;
  recipient: string;
  address: string;
  district: string;
  city: string;
  box: number;
  boxes: number;
  volumetricHeight?: number;
}

/**
 * One common label per box (getCommonLabel: "çoklu koliler için birden fazla etiket … Tek koli olması durumunda tek ZPL").
 * The documents show only `"^XA.......^XZ"`; the layout is the double's: UTF-8 (`^CI28`), 4×6 in at 203 dpi, and the
 * cargoTrackingNumber (CODE128, the guide: "cargoTrackingNumber değeri için kullanılan barkod CODE128 formatındadır")
 * in exactly one `^BC` field — read it back with `zplBarcodes()`.
 */
export function trendyolCommonLabel(b: TrendyolLabelBox): string {
  return [
    '^XA^CI28^PW812^LL1218',
    `^FT40,70^A0N,44,44^FD${zplText(b.carrierName)} - Trendyol Ortak Etiket^FS`,
    `^FT40,120^A0N,26,26^FDGonderici: ${zplText(b.sender)}^FS`,
    `^FT40,170^A0N,34,34^FDAlici: ${zplText(b.recipient)}^FS`,
    `^FO40,190^FB720,3,0,L^A0N,26,26^FD${zplText(b.address)}^FS`,
    `^FT40,300^A0N,32,32^FD${zplText(b.district.toLocaleUpperCase('tr-TR'))} / ${zplText(b.city.toLocaleUpperCase('tr-TR'))}^FS`,
    `^FT40,350^A0N,26,26^FDSiparis: ${zplText(b.orderNumber)}   Paket: ${b.shipmentPackageId}   Koli ${b.box}/${b.boxes}${
      b.volumetricHeight === undefined ? '' : `   Desi: ${b.volumetricHeight}`
    }^FS`,
    `^BY3,2,200^FT60,640^BCN,200,N,N,N^FD${b.cargoTrackingNumber}^FS`,
    `^FT60,690^A0N,34,34^FD${b.cargoTrackingNumber}^FS`,
    '^XZ',
  ].join('\n');
}

/** The barcode(s) a label's Code 128 field(s) hold, in order. */
export const zplBarcodes = (zpl: string): string[] => [...zpl.matchAll(/\^BC[^^]*\^FD([^^]*)\^FS/g)].map((m) => m[1]);

// --------------------------------------------------------------------------------------------------------------------
// Small helpers
// --------------------------------------------------------------------------------------------------------------------

export const round2 = (n: number): number => Math.round(n * 100) / 100;
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A JSON integer, or a string of digits (Jackson binds "12" to a long). */
export const asInteger = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isInteger(v) ? v : typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : undefined;
