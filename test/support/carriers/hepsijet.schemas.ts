import { SENDEO_CITIES } from './sendeo.schemas';
/**
 * HepsiJet's integration REST API (https://integration.hepsijet.com, test https://integration-apitest.hepsijet.com),
 * transcribed by hand for the test double in `hepsijet-double.ts`. Contract, sources and every choice where the
 * documents are silent: HEPSIJET-CONTRACT.md next to this file.
 *
 * Sources:
 *  - HepsiJet "Module Design Document – Integration (Customer Services)" v2.0 (PDF in `mhunesi/yii2-hepsijet`, `docs/`)
 *    and its Turkish-annotated v1.9.2 (`.docx` in `Nuri-Akseli/hepsijet-api-integration`, `Documentation/`)
 *  - developers.hepsiburada.com, HepsiJet reference pages (2023): getToken, sendDeliveryOrderEnhanced,
 *    generateZplBarcode, deleteDeliveryOrder, externalRecallDeliveryOrder (recall), getDeliveryTracking,
 *    integration/track, findAvailableDeliveryDatesV2
 *  - third-party clients (used only where the documents are silent, and said so): `mhunesi/yii2-hepsijet` (PHP),
 *    `Nuri-Akseli/hepsijet-api-integration` (PHP), `OmerKilic0/HepsijetIntegration` (Java: DTOs and status enums)
 */

// --------------------------------------------------------------------------------------------------------------------
// Constants and enumerations
// --------------------------------------------------------------------------------------------------------------------

/** "Returns token expired in 60 minutes" (PDF /getToken); "Token kullanım süresi 60 dakikadır" (developers page). */
export const HEPSIJET_TOKEN_LIFETIME_MS = 60 * 60 * 1000;

/** delivery.deliveryType (PDF, docx). */
export const HEPSIJET_DELIVERY_TYPES = ['RETAIL', 'MARKET_PLACE', 'RETURNED', 'EXPRESS'] as const;
export type HepsijetDeliveryType = (typeof HEPSIJET_DELIVERY_TYPES)[number];

/** delivery.product.productCode (PDF, docx) → the label's `productName` (only HX_STD's "Standart Teslimat" is in the documents). */
export const HEPSIJET_PRODUCTS: Readonly<Record<string, { description: string; productName: string }>> = {
  HX_STD: { description: 'Standard Plus Delivery', productName: 'Standart Teslimat' },
  HX_SD: { description: 'Same Day Delivery', productName: 'Aynı Gün Teslimat' },
  HX_ND: { description: 'Next Day Delivery', productName: 'Ertesi Gün Teslimat' },
  HX_EX: { description: 'Express Delivery', productName: 'Ekspres Teslimat' },
  HX_VIP1: { description: 'VIP Delivery in 1 Hour', productName: 'VIP 1 Saat Teslimat' },
  HX_VIP2: { description: 'VIP Delivery in 2 Hours', productName: 'VIP 2 Saat Teslimat' },
  HX_RND: { description: 'Appointed delivery', productName: 'Randevulu Teslimat' },
  HX_CC: { description: 'Click & Collect Delivery', productName: 'Click & Collect Teslimat' },
  '2HOURS': { description: '2 Hours Delivery', productName: '2 Saatte Teslimat' },
};

/** deliverySlotOriginal: 0 slot off (standard deliveries), 1 09:00-13:00, 2 13:00-18:00, 3 18:00-23:00. */
export const HEPSIJET_DELIVERY_SLOTS = ['0', '1', '2', '3'] as const;

/** "customerDeliveryNo bilgisi 9-16 karakter arası" (developers page, docx). */
export const HEPSIJET_DELIVERY_NO_LENGTH = { min: 9, max: 16 } as const;

// --------------------------------------------------------------------------------------------------------------------
// Tracking events (getDeliveryTracking transactions, integration/track details)
// --------------------------------------------------------------------------------------------------------------------

export type HepsijetLocationKind = 'sender' | 'pickup' | 'transfer' | 'arrival' | 'vehicle' | 'recipient';

export interface HepsijetEvent {
  /** getDeliveryTracking `transactionType` (the Java client's TransactionType enum) */
  transactionType: string;
  /** `deliveryStatus` after this event (the Java client's DeliveryStatus enum) */
  deliveryStatus: string;
  /** `operationStatus` after this event (the Java client's OperationStatus enum) */
  operationStatus: string;
  /** the `transaction` text; `{person}` stands for the masked recipient */
  transaction: string;
  /** where the event happens (see locationName in the double) */
  location: HepsijetLocationKind;
  /** integration/track `integrationStatus` shown for this event (none: not shown by the lite service) */
  integrationStatus?: string;
  nonDeliveryReason?: string;
  /** 'document': the combination and text appear in a documented example; 'invented': the double's choice */
  source: 'document' | 'invented';
}

/**
 * The events a delivery goes through, by the name `double.advance()` takes. CREATED is the booking itself, DELETED
 * and RECALLED what deleteDeliveryOrder and externalRecallDeliveryOrder do; the others are HepsiJet's operations.
 */
export const HEPSIJET_EVENTS = {
  CREATED: {
    transactionType: 'RECEIVE_ORDER',
    deliveryStatus: 'NEO',
    operationStatus: 'IN_CUSTOMER',
    transaction: 'Gönderi bilgisi alındı',
    location: 'sender',
    source: 'invented',
  },
  ACCEPTED: {
    transactionType: 'TAKE_CUSTODY',
    deliveryStatus: 'READY',
    operationStatus: 'IN_XDOCK',
    transaction: 'Kargoya verildi',
    location: 'pickup',
    integrationStatus: 'ACCEPTED',
    source: 'document',
  },
  IN_TRANSFER: {
    transactionType: 'LOAD_RING_VEHICLE',
    deliveryStatus: 'TRANSFERRING',
    operationStatus: 'IN_RING_VEHICLE',
    transaction: 'Transfer aracına yüklendi',
    location: 'transfer',
    source: 'invented',
  },
  ARRIVED_AT_BRANCH: {
    transactionType: 'UNLOAD_RING_VEHICLE',
    deliveryStatus: 'DISPATCHING',
    operationStatus: 'IN_XDOCK',
    transaction: 'Teslimat birimine ulaştı',
    location: 'arrival',
    source: 'document',
  },
  OUT_FOR_DELIVERY: {
    transactionType: 'APPROVE_COURIER_DEPART',
    deliveryStatus: 'DELIVERING',
    operationStatus: 'IN_DELIVERY_TRANSIT',
    transaction: 'Dağıtıma çıktı',
    location: 'vehicle',
    integrationStatus: 'OUT_FOR_DELIVERY',
    source: 'document',
  },
  ATTEMPT_RETRY: {
    transactionType: 'DELIVERY_ATTEMPT',
    deliveryStatus: 'RETRY',
    operationStatus: 'IN_DELIVERY_TRANSIT',
    transaction: 'Teslimat Denemesi - Alıcı Adreste Bulunamadı - (Tekrar Denenecek)',
    location: 'vehicle',
    integrationStatus: 'FAILED_ATTEMPT',
    nonDeliveryReason: 'RECIPIENT_NOT_FOUND',
    source: 'document',
  },
  ATTEMPT_RETURN: {
    transactionType: 'DELIVERY_ATTEMPT',
    deliveryStatus: 'UNDELIVERED',
    operationStatus: 'IN_DELIVERY_TRANSIT',
    transaction: 'Teslimat Denemesi - Alıcı Adreste Bulunamadı - (İade Edilecek)',
    location: 'vehicle',
    integrationStatus: 'FAILED_ATTEMPT',
    nonDeliveryReason: 'RECIPIENT_NOT_FOUND',
    source: 'document',
  },
  DELIVERED: {
    transactionType: 'DELIVERY_ATTEMPT',
    deliveryStatus: 'DELIVERED',
    operationStatus: 'IN_RECIPIENT',
    transaction: 'Teslim edildi - {person} (Kendisi)',
    location: 'recipient',
    integrationStatus: 'DELIVERED',
    source: 'document',
  },
  RETURNED: {
    transactionType: 'RETURN',
    deliveryStatus: 'RETURNED',
    operationStatus: 'IN_CUSTOMER',
    transaction: 'Gönderici firmaya iade edildi',
    location: 'sender',
    integrationStatus: 'RETURNED',
    source: 'invented',
  },
  DAMAGED: {
    transactionType: 'SET_DAMAGED',
    deliveryStatus: 'DAMAGED',
    operationStatus: 'IN_XDOCK',
    transaction: 'Gönderi hasarlı',
    location: 'pickup',
    source: 'invented',
  },
  MISSING: {
    transactionType: 'SET_MISSING',
    deliveryStatus: 'MISSING',
    operationStatus: 'IN_XDOCK',
    transaction: 'Gönderi kayıp',
    location: 'pickup',
    source: 'invented',
  },
  DELETED: {
    transactionType: 'DELETE',
    deliveryStatus: 'DELETED',
    operationStatus: 'IN_CUSTOMER',
    transaction: 'Gönderi silindi',
    location: 'sender',
    integrationStatus: 'DELETED',
    source: 'invented',
  },
  RECALLED: {
    transactionType: 'RECALL_DELIVERY',
    deliveryStatus: 'MARK_FOR_RETURN',
    operationStatus: 'IN_XDOCK',
    transaction: 'Gönderi geri çekildi',
    location: 'pickup',
    integrationStatus: 'RECALLED',
    source: 'invented',
  },
} as const satisfies Record<string, HepsijetEvent>;

export type HepsijetEventName = keyof typeof HEPSIJET_EVENTS;
export const HEPSIJET_EVENT_NAMES = Object.keys(HEPSIJET_EVENTS) as HepsijetEventName[];

/** deleteDeliveryOrder: "henüz ilk statüsündeyken" — only before HepsiJET took the parcel. */
export const HEPSIJET_DELETABLE_STATUSES: readonly string[] = ['NEO'];
/** externalRecallDeliveryOrder: after HepsiJET took the parcel (ACCEPTED), until it is out for delivery (DELIVERING). */
export const HEPSIJET_RECALLABLE_STATUSES: readonly string[] = ['READY', 'TRANSFERRING', 'DISPATCHING'];

// --------------------------------------------------------------------------------------------------------------------
// Messages
// --------------------------------------------------------------------------------------------------------------------

export interface HepsijetMessage {
  message: string;
  /** false: not in the documents, the double's choice */
  documented: boolean;
}

const doc = (message: string): HepsijetMessage => ({ message, documented: true });
const own = (message: string): HepsijetMessage => ({ message, documented: false });

export const HEPSIJET_MESSAGES = {
  /** getToken FAIL sample */
  loginFailed: doc('Kullanıcı Adı veya Şifre Hatalı'),
  /** sendDeliveryOrderEnhanced FAIL sample, with "detailStatus": "BARCODE_EXIST" */
  barcodeExists: doc('Gönderi numarası sistemde kayıtlı.'),
  /** getDeliveryTracking FAIL sample; the double also answers it for label, delete and recall of an unknown number */
  deliveryNotFound: doc('Gönderi numarası bulunamadı.'),
  /** deleteDeliveryOrder FAIL sample (developers page); the double also answers it for a recall in the wrong status */
  statusNotSuitable: doc('Gönderi statüsü uygun değil.'),
  /** deleteDeliveryOrder OK sample (developers page; the PDF has "Delivery has been deleted successfully") */
  deleted: doc('Gönderi başarıyla silindi'),
  recallStarted: own('Gönderi geri çekme işlemi başlatıldı.'),
  recallNotForType: own('RETURNED tipli gönderiler geri çekilemez.'),
  companyMismatch: own('company bilgisi hesaba tanımlı firma ile eşleşmiyor.'),
  xDockMismatch: own('currentXDock bilgisi hesaba tanımlı depo ile eşleşmiyor.'),
  senderAddressMismatch: own('senderAddress.companyAddressId hesaba tanımlı gönderici adresi ile eşleşmiyor.'),
  invalidApiKey: own('Geçersiz apikey.'),
} as const;

export const required = (path: string) => `${path} alanı zorunludur.`;

// --------------------------------------------------------------------------------------------------------------------
// Settlement: cities (ids = plate codes, as the documented 34 İstanbul, 41 Kocaeli, 6 Ankara), towns, districts
// --------------------------------------------------------------------------------------------------------------------

/** The 81 provinces by plate code: the same table as Sendeo's city ids (both carriers number cities by plate code). */
export const HEPSIJET_CITIES: Readonly<Record<number, string>> = SENDEO_CITIES;

/** The documented /settlement/cities `order` (İstanbul 1, KOCAELİ 2, Ankara 3); the rest follow by plate code. */
export const HEPSIJET_CITY_ORDER: Readonly<Record<number, number>> = { 34: 1, 41: 2, 6: 3 };

export interface HepsijetTown {
  id: number;
  cityId: number;
  /** upper case, as HepsiJet writes towns (ATAŞEHİR, ÇANKAYA) */
  name: string;
  /** the receiving cross-dock printed on labels (receiverXDock) */
  xDock: string;
  /** 'document': id and name in the documents; 'document-name': the name appears in a document, the id is invented; 'invented' */
  source: 'document' | 'document-name' | 'invented';
}

/**
 * The towns the double knows. A booking to a city listed here must name one of its towns; a booking to another city
 * may name any town (the double has no list for it). Ids of 9xxxx are invented.
 */
export const HEPSIJET_TOWNS: readonly HepsijetTown[] = [
  { id: 2018, cityId: 34, name: 'ATAŞEHİR', xDock: 'ATAŞEHİR', source: 'document' },
  { id: 2003, cityId: 34, name: 'AVCILAR', xDock: 'AVCILAR', source: 'document' },
  { id: 2004, cityId: 34, name: 'BAĞCILAR', xDock: 'BAĞCILAR', source: 'document' },
  { id: 2005, cityId: 34, name: 'BAHÇELİEVLER', xDock: 'BAĞCILAR', source: 'document' },
  { id: 2019, cityId: 34, name: 'BAHÇEŞEHİR', xDock: 'ESENYURT', source: 'document' },
  { id: 1166, cityId: 34, name: 'BAKIRKÖY', xDock: 'BAKIRKÖY', source: 'document' },
  { id: 2020, cityId: 34, name: 'BAŞAKŞEHİR', xDock: 'KÜÇÜKÇEKMECE', source: 'document' },
  { id: 93401, cityId: 34, name: 'BAYRAMPAŞA', xDock: 'TEKSTİLKENT', source: 'document-name' },
  { id: 93402, cityId: 34, name: 'BEŞİKTAŞ', xDock: 'BEŞİKTAŞ', source: 'document-name' },
  { id: 93403, cityId: 34, name: 'ESENYURT', xDock: 'ESENYURT', source: 'document-name' },
  { id: 93404, cityId: 34, name: 'GÜNGÖREN', xDock: 'BAKIRKÖY', source: 'document-name' },
  { id: 93405, cityId: 34, name: 'KADIKÖY', xDock: 'KADIKÖY', source: 'document-name' },
  { id: 93406, cityId: 34, name: 'KARTAL', xDock: 'KARTAL', source: 'document-name' },
  { id: 93407, cityId: 34, name: 'KÜÇÜKÇEKMECE', xDock: 'KÜÇÜKÇEKMECE', source: 'document-name' },
  { id: 93408, cityId: 34, name: 'MALTEPE', xDock: 'MALTEPE', source: 'document-name' },
  { id: 93409, cityId: 34, name: 'SANCAKTEPE', xDock: 'SANCAKTEPE', source: 'document-name' },
  { id: 93410, cityId: 34, name: 'TUZLA', xDock: 'TUZLA', source: 'document-name' },
  { id: 93411, cityId: 34, name: 'ÜMRANİYE', xDock: 'ÜMRANİYE', source: 'document-name' },
  { id: 93412, cityId: 34, name: 'ZEYTİNBURNU', xDock: 'BAKIRKÖY', source: 'document-name' },
  { id: 90601, cityId: 6, name: 'ÇANKAYA', xDock: 'ÇANKAYA', source: 'document-name' },
  { id: 90602, cityId: 6, name: 'KEÇİÖREN', xDock: 'KEÇİÖREN', source: 'invented' },
  { id: 90603, cityId: 6, name: 'YENİMAHALLE', xDock: 'YENİMAHALLE', source: 'invented' },
  { id: 93501, cityId: 35, name: 'ÖDEMİŞ', xDock: 'TORBALI', source: 'document-name' },
  { id: 93502, cityId: 35, name: 'TORBALI', xDock: 'TORBALI', source: 'document-name' },
  { id: 93503, cityId: 35, name: 'BORNOVA', xDock: 'BORNOVA', source: 'invented' },
  { id: 93504, cityId: 35, name: 'KARŞIYAKA', xDock: 'KARŞIYAKA', source: 'invented' },
  { id: 94101, cityId: 41, name: 'GEBZE', xDock: 'GEBZE', source: 'document-name' },
  { id: 94102, cityId: 41, name: 'İZMİT', xDock: 'İZMİT', source: 'invented' },
  { id: 91601, cityId: 16, name: 'NİLÜFER', xDock: 'NİLÜFER', source: 'invented' },
  { id: 91602, cityId: 16, name: 'OSMANGAZİ', xDock: 'OSMANGAZİ', source: 'invented' },
];

export interface HepsijetDistrict {
  id: number;
  townId: number;
  name: string;
  xdock: { id: number; name: string; abbreviationCode: string; xdockType: string };
}

const KUCUKCEKMECE = { id: 2655, name: 'KÜÇÜKÇEKMECE', abbreviationCode: 'KCKCKMC1', xdockType: 'BASIC' };
const ESENYURT = { id: 6, name: 'ESENYURT', abbreviationCode: 'ESNYRT1', xdockType: 'BASIC' };

/** The documented /settlement/town/2020/districts answer (BAŞAKŞEHİR); the double knows no other districts. */
export const HEPSIJET_DISTRICTS: readonly HepsijetDistrict[] = [
  { id: 10562, townId: 2020, name: 'ALTINŞEHİR/BAŞAKŞEHİR', xdock: KUCUKCEKMECE },
  { id: 10117, townId: 2020, name: 'BAHÇEŞEHİR', xdock: ESENYURT },
  { id: 10563, townId: 2020, name: 'BAHÇEŞEHİR 1. KISIM', xdock: ESENYURT },
  { id: 10564, townId: 2020, name: 'BAHÇEŞEHİR 2. KISIM', xdock: ESENYURT },
  { id: 10565, townId: 2020, name: 'BAŞAK', xdock: KUCUKCEKMECE },
  { id: 5002, townId: 2020, name: 'BAŞAKŞEHİR', xdock: KUCUKCEKMECE },
  { id: 5003, townId: 2020, name: 'BAYRAMTEPE', xdock: KUCUKCEKMECE },
  { id: 10566, townId: 2020, name: 'GÜVERCİNTEPE', xdock: KUCUKCEKMECE },
  { id: 10567, townId: 2020, name: 'İKİTELLİ OSB', xdock: KUCUKCEKMECE },
  { id: 5004, townId: 2020, name: 'KAYABAŞI', xdock: KUCUKCEKMECE },
  { id: 5005, townId: 2020, name: 'ŞAHİNTEPE', xdock: KUCUKCEKMECE },
];

/** Country names taken for Türkiye (the examples write "Türkiye" and "TÜRKİYE"). */
export const HEPSIJET_COUNTRY_NAMES = ['turkiye', 'turkey'] as const;

/** Case- and Turkish-letter-insensitive key: "İSTANBUL", "istanbul", "Istanbul" → "istanbul"; "ÇANKAYA" → "cankaya". */
export function foldTurkish(s: string): string {
  return s
    .trim()
    .toLocaleLowerCase('tr-TR')
    .replace(/[çğıöşüâîû]/g, (c) => ({ ç: 'c', ğ: 'g', ı: 'i', ö: 'o', ş: 's', ü: 'u', â: 'a', î: 'i', û: 'u' })[c] ?? c)
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/\s+/g, ' ');
}

export const upperTr = (s: string): string => s.toLocaleUpperCase('tr-TR');

export function findCity(name: string): { id: number; name: string } | undefined {
  const key = foldTurkish(name);
  const hit = Object.entries(HEPSIJET_CITIES).find(([, n]) => foldTurkish(n) === key);
  return hit ? { id: Number(hit[0]), name: hit[1] } : undefined;
}

export const townsOf = (cityId: number): HepsijetTown[] => HEPSIJET_TOWNS.filter((t) => t.cityId === cityId);

// --------------------------------------------------------------------------------------------------------------------
// Request binding (Jackson-like): known fields, types, coercions
// --------------------------------------------------------------------------------------------------------------------

type Kind = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'any';
export interface FieldSpec {
  kind: Kind;
  fields?: Record<string, FieldSpec>;
  items?: FieldSpec;
}

const S: FieldSpec = { kind: 'string' };
const N: FieldSpec = { kind: 'number' };
const B: FieldSpec = { kind: 'boolean' };
const ANY: FieldSpec = { kind: 'any' };
const obj = (fields: Record<string, FieldSpec>): FieldSpec => ({ kind: 'object', fields });
const arr = (items: FieldSpec): FieldSpec => ({ kind: 'array', items });
const named = obj({ name: S });

/** recipientAddress / senderAddress (PDF, docx; `addressLabel` from the Java client's DTO). Note `companyAddressId`, not the table's `companyAddressID`. */
const address = obj({
  companyAddressId: S,
  country: named,
  city: named,
  town: named,
  district: named,
  addressLine1: S,
  addressLine2: S,
  latitude: N,
  longitude: N,
  postalCode: S,
  addressLabel: S,
});

/** POST sendDeliveryOrderEnhanced body: every property the documents (and the Java client's DTO) name. */
export const SEND_DELIVERY_ORDER_ENHANCED: FieldSpec = obj({
  company: obj({ companyCompanyId: S, name: S, abbreviationCode: S }),
  currentXDock: obj({ abbreviationCode: S }),
  delivery: obj({
    customerDeliveryNo: S,
    customerOrderId: S,
    originalDeliveryNo: S,
    deliveryDateOriginal: S,
    deliverySlotOriginal: S,
    customerInvoiceId: S,
    deliveryStartTime: S,
    deliveryEndTime: S,
    deliveryType: S,
    desi: N,
    weight: N,
    width: N,
    height: N,
    lenght: N,
    totalParcels: S,
    deliveryTotalPrice: N,
    receiver: obj({ companyCustomerId: S, firstName: S, lastName: S, citizenshipId: S, phone1: S, phone2: S, email: S }),
    product: obj({ productCode: S }),
    recipientAddressName: S,
    recipientPerson: S,
    recipientPersonPhone1: S,
    recipientPersonPhone2: S,
    recipientAddress: address,
    senderAddress: address,
    isCollected: B,
    deliveryPom: B,
    returnReason: ANY,
  }),
  deliveryContent: arr(obj({ sku: S, description: S, quantity: N, indivisibleQuantity: B })),
  deliveryExtension: obj({ deliveryLocationText: S }),
  deliveryAmountList: arr(ANY),
  serviceType: arr(S),
});

export const DELETE_DELIVERY_ORDER: FieldSpec = obj({ deleteReason: S });
export const GET_DELIVERY_TRACKING: FieldSpec = obj({ deliveries: arr(obj({ customerDeliveryNo: S })) });
export const INTEGRATION_TRACK: FieldSpec = obj({ barcodes: arr(S), dateStart: S, dateEnd: S, isTrackAdded: B });

export interface Bound {
  value: unknown;
  /** Jackson would refuse the body (HTTP 400): `path: message` */
  typeErrors: string[];
  /** properties the DTO does not have (Jackson here ignores them): `delivery.length` */
  unknownFields: string[];
}

/**
 * Binds JSON as a Jackson DTO would: unknown properties ignored (and reported), `null` = not sent, numbers and
 * booleans into string fields as text, numeric strings into number fields, `"true"`/`"false"` into booleans; an
 * object or array where a scalar is expected (or the reverse) is a type error.
 */
export function bind(spec: FieldSpec, value: unknown, path = ''): Bound {
  const out: Bound = { value: undefined, typeErrors: [], unknownFields: [] };
  const at = (key: string | number) => (typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key);
  if (value === null || value === undefined) return out;
  switch (spec.kind) {
    case 'any':
      out.value = value;
      return out;
    case 'string':
      if (typeof value === 'string') out.value = value;
      else if (typeof value === 'number' || typeof value === 'boolean') out.value = String(value);
      else out.typeErrors.push(`${path}: Cannot deserialize value of type \`java.lang.String\` from ${Array.isArray(value) ? 'Array' : 'Object'} value`);
      return out;
    case 'number':
      if (typeof value === 'number') out.value = value;
      else if (typeof value === 'string' && value.trim() === '') out.value = undefined;
      else if (typeof value === 'string' && Number.isFinite(Number(value))) out.value = Number(value);
      else out.typeErrors.push(`${path}: Cannot deserialize value of type \`java.lang.Double\` from ${JSON.stringify(value)}`);
      return out;
    case 'boolean':
      if (typeof value === 'boolean') out.value = value;
      else if (value === 'true' || value === 'false') out.value = value === 'true';
      else out.typeErrors.push(`${path}: Cannot deserialize value of type \`java.lang.Boolean\` from ${JSON.stringify(value)}`);
      return out;
    case 'array': {
      if (!Array.isArray(value)) {
        out.typeErrors.push(`${path}: Cannot deserialize value of type \`java.util.ArrayList\` from ${typeof value} value`);
        return out;
      }
      out.value = value.map((item, i) => {
        const b = bind(spec.items!, item, at(i));
        out.typeErrors.push(...b.typeErrors);
        out.unknownFields.push(...b.unknownFields);
        return b.value;
      });
      return out;
    }
    case 'object': {
      if (typeof value !== 'object' || Array.isArray(value)) {
        out.typeErrors.push(`${path || '(body)'}: Cannot deserialize an object from ${Array.isArray(value) ? 'Array' : typeof value} value`);
        return out;
      }
      const result: Record<string, unknown> = {};
      for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
        const field = spec.fields![key];
        if (!field) {
          out.unknownFields.push(at(key));
          continue;
        }
        const b = bind(field, v, at(key));
        out.typeErrors.push(...b.typeErrors);
        out.unknownFields.push(...b.unknownFields);
        if (b.value !== undefined) result[key] = b.value;
      }
      out.value = result;
      return out;
    }
  }
}

// --------------------------------------------------------------------------------------------------------------------
// sendDeliveryOrderEnhanced: the contract's rules (after binding)
// --------------------------------------------------------------------------------------------------------------------

type Json = Record<string, unknown>;
const o = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const s = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

/** The bound body's fields the double uses (everything else is kept in the delivery's `request`). */
export interface HepsijetBooking {
  company: { name?: string; abbreviationCode?: string };
  currentXDock?: string;
  customerDeliveryNo?: string;
  customerOrderId: string;
  deliveryType: HepsijetDeliveryType;
  productCode: string;
  totalParcels: number;
  desi?: number;
  deliverySlotOriginal: string;
  deliveryDateOriginal?: string;
  receiver: { companyCustomerId: string; firstName: string; lastName: string; phone1: string; phone2?: string; email?: string };
  recipientPerson: string;
  recipientPersonPhone1: string;
  recipientAddress: BookingAddress;
  senderAddress: BookingAddress;
}

export interface BookingAddress {
  companyAddressId?: string;
  country: string;
  city: { id: number; name: string };
  /** as sent */
  town: string;
  /** the double's town, when it knows the city's towns */
  knownTown?: HepsijetTown;
  district?: string;
  addressLine1: string;
}

/** Phone numbers: digits only (spaces, "+", "(", ")", "-" dropped), 10 to 12 of them — examples 5322103344, 05551111111, 905051111111. */
export const HEPSIJET_PHONE = /^\d{10,12}$/;
const cleanPhone = (p: string) => p.replace(/[\s+()-]/g, '');

/**
 * The contract's mandatory fields ("M" in the PDF/docx tables), lengths and value lists. Returns the first refusal's
 * text per violation (`path: message`, in document order) and the booking when there is none.
 */
export function checkSendDeliveryOrderEnhanced(body: Json): { errors: string[]; booking?: HepsijetBooking } {
  const errors: string[] = [];
  const need = (path: string, v: unknown): string | undefined => {
    const text = s(v);
    if (text === undefined) errors.push(required(path));
    return text;
  };
  const company = o(body.company);
  const delivery = o(body.delivery);
  need('company.name', company.name);
  need('company.abbreviationCode', company.abbreviationCode);
  const xDock = need('currentXDock.abbreviationCode', o(body.currentXDock).abbreviationCode);

  const no = s(delivery.customerDeliveryNo);
  if (no !== undefined) {
    if (no.length < HEPSIJET_DELIVERY_NO_LENGTH.min || no.length > HEPSIJET_DELIVERY_NO_LENGTH.max)
      errors.push(`delivery.customerDeliveryNo ${HEPSIJET_DELIVERY_NO_LENGTH.min}-${HEPSIJET_DELIVERY_NO_LENGTH.max} karakter uzunluğunda olmalıdır.`);
    else if (!/^[A-Za-z0-9]+$/.test(no)) errors.push('delivery.customerDeliveryNo yalnızca harf ve rakamdan oluşmalıdır.');
  }
  const orderId = need('delivery.customerOrderId', delivery.customerOrderId);
  const type = need('delivery.deliveryType', delivery.deliveryType);
  if (type !== undefined && !(HEPSIJET_DELIVERY_TYPES as readonly string[]).includes(type)) errors.push(`delivery.deliveryType geçersiz: ${type}`);
  const slot = s(delivery.deliverySlotOriginal) ?? '0';
  if (!(HEPSIJET_DELIVERY_SLOTS as readonly string[]).includes(slot)) errors.push(`delivery.deliverySlotOriginal geçersiz: ${slot}`);
  const date = s(delivery.deliveryDateOriginal);
  if (date !== undefined && !/^\d{4}-\d{2}-\d{2}/.test(date)) errors.push(`delivery.deliveryDateOriginal geçersiz tarih: ${date}`);
  const parcelsText = s(delivery.totalParcels) ?? '1';
  const totalParcels = /^\d+$/.test(parcelsText) ? Number(parcelsText) : NaN;
  if (!(totalParcels >= 1)) errors.push(`delivery.totalParcels geçersiz: ${parcelsText}`);
  const desi = typeof delivery.desi === 'number' ? delivery.desi : undefined;
  if (desi !== undefined && desi < 0) errors.push(`delivery.desi geçersiz: ${desi}`);

  const receiver = o(delivery.receiver);
  const rcId = need('delivery.receiver.companyCustomerId', receiver.companyCustomerId);
  const first = need('delivery.receiver.firstName', receiver.firstName);
  const last = need('delivery.receiver.lastName', receiver.lastName);
  const phone = (path: string, v: unknown, mandatory: boolean): string | undefined => {
    const text = mandatory ? need(path, v) : s(v);
    if (text === undefined) return undefined;
    const digits = cleanPhone(text);
    if (!HEPSIJET_PHONE.test(digits)) errors.push(`${path} geçersiz telefon numarası: ${text}`);
    return digits;
  };
  const phone1 = phone('delivery.receiver.phone1', receiver.phone1, true);
  const phone2 = phone('delivery.receiver.phone2', receiver.phone2, false);
  const email = s(receiver.email);
  if (email !== undefined && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) errors.push(`delivery.receiver.email geçersiz: ${email}`);
  const productCode = need('delivery.product.productCode', o(delivery.product).productCode);
  if (productCode !== undefined && !HEPSIJET_PRODUCTS[productCode]) errors.push(`delivery.product.productCode geçersiz: ${productCode}`);
  const person = need('delivery.recipientPerson', delivery.recipientPerson);
  const personPhone = phone('delivery.recipientPersonPhone1', delivery.recipientPersonPhone1, true);
  phone('delivery.recipientPersonPhone2', delivery.recipientPersonPhone2, false);

  const addressOf = (side: 'recipientAddress' | 'senderAddress'): BookingAddress | undefined => {
    const a = o(delivery[side]);
    const base = `delivery.${side}`;
    const companyAddressId = side === 'recipientAddress' ? need(`${base}.companyAddressId`, a.companyAddressId) : s(a.companyAddressId);
    const country = need(`${base}.country.name`, o(a.country).name);
    if (country !== undefined && !(HEPSIJET_COUNTRY_NAMES as readonly string[]).includes(foldTurkish(country)))
      errors.push(`${base}.country.name geçersiz: ${country}`);
    const cityName = need(`${base}.city.name`, o(a.city).name);
    const town = need(`${base}.town.name`, o(a.town).name);
    const line1 = need(`${base}.addressLine1`, a.addressLine1);
    const city = cityName === undefined ? undefined : findCity(cityName);
    if (cityName !== undefined && !city) errors.push(`${base}.city.name bulunamadı: ${cityName}`);
    let knownTown: HepsijetTown | undefined;
    if (city && town !== undefined) {
      const towns = townsOf(city.id);
      knownTown = towns.find((t) => foldTurkish(t.name) === foldTurkish(town));
      if (towns.length > 0 && !knownTown) errors.push(`${base}.town.name bulunamadı: ${town} (${city.name})`);
    }
    if (country === undefined || !city || town === undefined || line1 === undefined) return undefined;
    return { companyAddressId, country, city, town, knownTown, district: s(o(a.district).name), addressLine1: line1 };
  };
  const recipientAddress = addressOf('recipientAddress');
  const senderAddress = addressOf('senderAddress');

  if (
    errors.length ||
    !orderId ||
    !type ||
    !rcId ||
    !first ||
    !last ||
    !phone1 ||
    !productCode ||
    !person ||
    !personPhone ||
    !recipientAddress ||
    !senderAddress
  )
    return { errors };
  return {
    errors,
    booking: {
      company: { name: s(company.name), abbreviationCode: s(company.abbreviationCode) },
      currentXDock: xDock,
      customerDeliveryNo: no,
      customerOrderId: orderId,
      deliveryType: type as HepsijetDeliveryType,
      productCode,
      totalParcels,
      desi,
      deliverySlotOriginal: slot,
      deliveryDateOriginal: date,
      receiver: { companyCustomerId: rcId, firstName: first, lastName: last, phone1, phone2, email },
      recipientPerson: person,
      recipientPersonPhone1: personPhone,
      recipientAddress,
      senderAddress,
    },
  };
}

// --------------------------------------------------------------------------------------------------------------------
// Dates (Türkiye, UTC+03:00)
// --------------------------------------------------------------------------------------------------------------------

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
function tr(d: Date) {
  const t = new Date(d.getTime() + 3 * 3600 * 1000);
  return {
    y: t.getUTCFullYear(),
    m: pad(t.getUTCMonth() + 1),
    d: pad(t.getUTCDate()),
    h: pad(t.getUTCHours()),
    mi: pad(t.getUTCMinutes()),
    s: pad(t.getUTCSeconds()),
  };
}
/** `2019-03-02T11:31:25+03:00` (transactionDateTime, transactionDate) */
export function hjDateTime(d: Date): string {
  const p = tr(d);
  return `${p.y}-${p.m}-${p.d}T${p.h}:${p.mi}:${p.s}+03:00`;
}
/** `09.07.2023` (the 2023 label sample's deliveryDateOriginal, deliveryDatePromised) */
export function hjDotDate(d: Date): string {
  const p = tr(d);
  return `${p.d}.${p.m}.${p.y}`;
}
/** `09.07.2023 12:16` (barcodePrintDate) */
export function hjPrintDate(d: Date): string {
  const p = tr(d);
  return `${hjDotDate(d)} ${p.h}:${p.mi}`;
}
/** `2023-02-14` (deliveryDateCurrent) */
export function hjIsoDate(d: Date): string {
  const p = tr(d);
  return `${p.y}-${p.m}-${p.d}`;
}

// --------------------------------------------------------------------------------------------------------------------
// Labels
// --------------------------------------------------------------------------------------------------------------------

/** desiSize: "ORTA 5 - 10 DESI" is the documented value; the other bands are the double's. */
export function desiSize(desi: number | undefined): string {
  const d = desi ?? 0;
  if (d < 5) return 'KÜÇÜK 0 - 5 DESI';
  if (d <= 10) return 'ORTA 5 - 10 DESI';
  if (d <= 40) return 'BÜYÜK 10 - 40 DESI';
  return 'XL 40+ DESI';
}

/** One entry of zplBarcodeDTOList / generateZplBarcode `data` (fields of the 2023 developers sample). */
export interface HepsijetLabel {
  sender: string;
  receiverCity: string;
  receiverTown: string;
  receiverDistrict: string;
  receiverXDock: string;
  transferXdockName: string;
  productName: string;
  deliveryDateOriginal: string;
  deliveryDatePromised: string;
  distributionZoneName: string;
  receiver: string;
  receiverAddress: string;
  parcelNo: number;
  totalParcels: number;
  senderXDock: string;
  barcodePrintDate: string;
  desiSize: string;
  zplBarcode: string;
}

/** ^FH\ field data: `\`, `^` and `~` as hexadecimal escapes. */
const zplText = (t: string) => t.replace(/[\\^~]/g, (c) => `\\${c.charCodeAt(0).toString(16).toUpperCase()}`);

function chunks(text: string, width: number, max: number): string[] {
  const words = text.replace(/\s+/g, ' ').trim().split(' ');
  const lines: string[] = [];
  let line = '';
  for (const w of words) {
    if ((line + ' ' + w).trim().length > width && line) {
      lines.push(line);
      line = w;
    } else line = (line + ' ' + w).trim();
  }
  if (line) lines.push(line);
  return lines.slice(0, max);
}

/**
 * A 100×90 mm label laid out as HepsiJet's example (^CI28 UTF-8, ^PW799 ^LL0719). The barcode is HepsiJet's:
 * Code 128 rotated 270° (`^BY2,3,104^FT757,701^BCB,,Y,N`) whose data is the customerDeliveryNo after the subset-B
 * start code `>:` — `^FD>:<customerDeliveryNo>^FS` — on every parcel's label (the PDF's totalParcel=2 example shows
 * the same data on both); the parcel number is printed as text.
 */
export function hepsijetZpl(label: Omit<HepsijetLabel, 'zplBarcode'>, customerDeliveryNo: string): string {
  const field = (x: number, y: number, font: string, text: string) => `^FT${x},${y}^A0${font}^FH\\^FD${zplText(text)}^FS`;
  const address = chunks(label.receiverAddress, 38, 2);
  return [
    '^XA^CI28^MMT^PW799^LL0719^LS0',
    field(31, 39, 'N,25,24', 'GÖNDERİCİ:'),
    field(151, 38, 'N,25,24', label.sender),
    field(33, 82, 'N,23,24', 'VARIŞ İLİ:'),
    field(32, 133, 'N,45,45', label.receiverCity),
    field(32, 168, 'N,23,24', 'VARIŞ İLÇESİ:'),
    field(32, 212, 'N,39,38', label.receiverTown),
    field(32, 244, 'N,23,24', 'VARIŞ MAHALLESİ:'),
    field(31, 288, 'N,39,38', label.receiverDistrict),
    field(32, 321, 'N,23,24', 'DAĞITIM MERKEZİ:'),
    field(31, 393, 'N,68,67', label.receiverXDock),
    field(32, 433, 'N,23,24', 'ÇALIŞMA ALANI:'),
    field(32, 463, 'N,25,24', label.distributionZoneName),
    field(32, 510, 'N,28,28', label.productName),
    field(32, 545, 'N,28,28', `${label.deliveryDateOriginal} / ${label.desiSize}`),
    field(35, 595, 'N,25,24', 'ALICI:'),
    field(98, 594, 'N,25,24', label.receiver),
    field(36, 628, 'N,25,24', 'ADRES:'),
    field(111, 628, 'N,25,24', address[0] ?? ''),
    field(35, 660, 'N,25,24', address[1] ?? ''),
    field(35, 693, 'N,25,24', `PARÇA: ${label.parcelNo}/${label.totalParcels}`),
    '^FO642,127^GB0,575,3^FS',
    field(631, 703, 'B,39,38', label.transferXdockName),
    `^BY2,3,104^FT757,701^BCB,,Y,N^FD>:${customerDeliveryNo}^FS`,
    '^PQ1,0,1,Y^XZ',
  ].join('');
}

/** What an adapter does to read the barcode back from a HepsiJet label: the data of the Code 128 field, without `>:`. */
export function readHepsijetZplBarcode(zpl: string): string | undefined {
  return /\^BC[^^]*\^FD(?:>:)?([^^]+)\^FS/.exec(zpl)?.[1];
}

// --------------------------------------------------------------------------------------------------------------------
// Answers
// --------------------------------------------------------------------------------------------------------------------

export interface HepsijetOk<T = unknown> {
  status: 'OK';
  data?: T;
  message?: string;
}
export interface HepsijetFail {
  status: 'FAIL';
  detailStatus?: string;
  message: string;
}

/** Spring Boot's default error body (malformed JSON, 404, 405, 415, 401 of an unknown token, the 5xx faults). */
export const springError = (at: Date, status: number, error: string, path: string) => ({ timestamp: at.toISOString(), status, error, path });

/** "GAYE Ö***" (the PDF's masked receiver): first name(s) and the surname's first letter. */
export function maskName(name: string): string {
  const parts = name.trim().split(/\s+/);
  if (parts.length < 2) return parts[0] ?? '';
  const last = parts.pop()!;
  return `${parts.join(' ')} ${last.charAt(0)}***`;
}
