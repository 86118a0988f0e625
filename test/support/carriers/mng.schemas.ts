/**
 * MNG Kargo / DHL eCommerce Türkiye REST API contract (apizone, behind IBM API Connect), transcribed by hand for the
 * test double in `mng-double.ts`.
 *
 * Sources (search library; the `fetch` mirror of the repository holds only its two retired-SOAP commits):
 *  - `tcgunel/omniship-mng` README.md at commit 6de5997a ("the REST version"): setup, 3-stage flow, API reference,
 *    JWT caching, status mapping, sandbox vs production, "Gotchas, traps, and lessons learned" 1–11.
 *  - that repository's tests (the REST-era stored versions): tests/Message/CreateShipmentRequestTest.php,
 *    CreateRecipientRequestTest.php, GetTrackingStatusRequestTest.php, CancelShipmentRequestTest.php,
 *    CancelOrderRequestTest.php (at 6de5997a), GetCitiesRequestTest.php, JwtCachingTest.php, CarrierTest.php; and where
 *    a test only mocks, the request/response classes of src/Message/ for field names.
 * Everything the documents do not say is marked "not in the contract" here and in MNG-CONTRACT.md.
 *
 * Binding model (ASP.NET Core + System.Text.Json with the web defaults, which the ProblemDetails answers imply):
 * property names match case-insensitively, numeric strings bind to numbers, numbers do NOT bind to strings, `null` is
 * "not sent", unknown properties are ignored. `bindBody()` does that against the small schemas below.
 */

// --------------------------------------------------------------------------------------------------------------------
// Status list (README "Status mapping"; names with underscores: GetTrackingStatusResponse "per Standard Query swagger")
// --------------------------------------------------------------------------------------------------------------------

export interface MngStatus {
  /** README "Status mapping" description (trackshipment `eventStatus`) */
  text: string;
  /** getshipmentstatus `shipmentStatus` (the swagger enum name; the test example has `Teslim_Edildi`) */
  name: string;
  /** trackshipment `eventStatusEn`; only 1 "Shipment Created" and 5 "Delivered" are in the test example */
  textEn: string;
  /** the side whose branch an event of this status happens at (not in the contract) */
  at: 'origin' | 'destination';
}

export const MNG_STATUSES: Readonly<Record<number, MngStatus>> = {
  1: { text: 'Gönderi Hazırlandı', name: 'Gönderi_Hazırlandı', textEn: 'Shipment Created', at: 'origin' },
  2: { text: 'Transfer Aşamasında', name: 'Transfer_Aşamasında', textEn: 'In Transfer', at: 'origin' },
  3: { text: 'Teslimat Birimine Ulaştı', name: 'Teslimat_Birimine_Ulaştı', textEn: 'Arrived At Delivery Branch', at: 'destination' },
  4: { text: 'Alıcı Adresine Yönlendirildi', name: 'Alıcı_Adresine_Yönlendirildi', textEn: 'Out For Delivery', at: 'destination' },
  5: { text: 'Teslim Edildi', name: 'Teslim_Edildi', textEn: 'Delivered', at: 'destination' },
  6: { text: 'Teslim Edilemedi', name: 'Teslim_Edilemedi', textEn: 'Could Not Be Delivered', at: 'destination' },
  7: { text: 'Geri Geliyor', name: 'Geri_Geliyor', textEn: 'Returning To Sender', at: 'origin' },
  8: { text: 'Destek Gerekiyor', name: 'Destek_Gerekiyor', textEn: 'Support Required', at: 'destination' },
};
export const MNG_STATUS_CODES = Object.keys(MNG_STATUSES).map(Number);
/** What createbarcode starts a shipment in (and what an order without a barcode shows: not in the contract). */
export const MNG_STATUS_PREPARED = 1;
export const MNG_STATUS_DELIVERED = 5;

// --------------------------------------------------------------------------------------------------------------------
// CBS Info: cities (plate codes, "01"…"81") and districts (MNG's own codes)
// --------------------------------------------------------------------------------------------------------------------

// prettier-ignore
const CITY_NAMES = [
  'Adana', 'Adıyaman', 'Afyonkarahisar', 'Ağrı', 'Amasya', 'Ankara', 'Antalya', 'Artvin', 'Aydın', 'Balıkesir', // 1-10
  'Bilecik', 'Bingöl', 'Bitlis', 'Bolu', 'Burdur', 'Bursa', 'Çanakkale', 'Çankırı', 'Çorum', 'Denizli', // 11-20
  'Diyarbakır', 'Edirne', 'Elazığ', 'Erzincan', 'Erzurum', 'Eskişehir', 'Gaziantep', 'Giresun', 'Gümüşhane', 'Hakkari', // 21-30
  'Hatay', 'Isparta', 'Mersin', 'İstanbul', 'İzmir', 'Kars', 'Kastamonu', 'Kayseri', 'Kırklareli', 'Kırşehir', // 31-40
  'Kocaeli', 'Konya', 'Kütahya', 'Malatya', 'Manisa', 'Kahramanmaraş', 'Mardin', 'Muğla', 'Muş', 'Nevşehir', // 41-50
  'Niğde', 'Ordu', 'Rize', 'Sakarya', 'Samsun', 'Siirt', 'Sinop', 'Sivas', 'Tekirdağ', 'Tokat', // 51-60
  'Trabzon', 'Tunceli', 'Şanlıurfa', 'Uşak', 'Van', 'Yozgat', 'Zonguldak', 'Aksaray', 'Bayburt', 'Karaman', // 61-70
  'Kırıkkale', 'Batman', 'Şırnak', 'Bartın', 'Ardahan', 'Iğdır', 'Yalova', 'Karabük', 'Kilis', 'Osmaniye', 'Düzce', // 71-81
];

/** City codes are licence-plate codes (GetCitiesRequestTest: `01` Adana, `34` İstanbul; README: cityCode 1 Adana, 34). */
export const MNG_CITIES: Readonly<Record<number, string>> = Object.fromEntries(CITY_NAMES.map((name, i) => [i + 1, name]));

/** Upper case the Turkish way ("Kadıköy" → "KADIKÖY", "İzmir" → "İZMİR"). */
export const upperTr = (s: string): string => s.toLocaleUpperCase('tr-TR');

/**
 * getcities `name`: README trap 11, "City names from getCities() come back like "ADANA  11" (with the plate code and
 * double-space)". Only Adana's suffix (11) is documented, and it is not Adana's plate code (01): the other suffixes
 * are the double's (the plate code). Strip trailing whitespace and digits before matching.
 */
export const mngCityListName = (code: number): string => `${upperTr(MNG_CITIES[code])}  ${code === 1 ? '11' : String(code).padStart(2, '0')}`;

export interface MngDistrict {
  code: number;
  cityCode: number;
  name: string;
  /**
   * 'document': code and name from the tests/README; 'document-code': the code is in the README, the name is ours;
   * 'invented': made up for tests (codes 9xxx so that they cannot be mistaken for MNG's).
   */
  source: 'document' | 'document-code' | 'invented';
}

export const MNG_DISTRICTS: readonly MngDistrict[] = [
  { code: 85, cityCode: 1, name: 'Çukurova', source: 'document' }, // GetCitiesRequestTest
  { code: 86, cityCode: 1, name: 'Sarıçam', source: 'document' }, // GetCitiesRequestTest
  { code: 100, cityCode: 1, name: 'Seyhan', source: 'document' }, // README quick start / tests: cityCode 1, districtCode 100, "Seyhan"
  { code: 956, cityCode: 34, name: 'Kadıköy', source: 'document-code' }, // README createRecipient: cityCode 34, districtCode 956 (no name)
  // ---- invented for tests ----
  { code: 9601, cityCode: 6, name: 'Çankaya', source: 'invented' },
  { code: 9602, cityCode: 6, name: 'Keçiören', source: 'invented' },
  { code: 9603, cityCode: 6, name: 'Yenimahalle', source: 'invented' },
  { code: 9341, cityCode: 34, name: 'Beşiktaş', source: 'invented' },
  { code: 9342, cityCode: 34, name: 'Üsküdar', source: 'invented' },
  { code: 9351, cityCode: 35, name: 'Bornova', source: 'invented' },
  { code: 9352, cityCode: 35, name: 'Karşıyaka', source: 'invented' },
  { code: 9161, cityCode: 16, name: 'Nilüfer', source: 'invented' },
  { code: 9071, cityCode: 7, name: 'Muratpaşa', source: 'invented' },
];

export const mngDistrict = (code: number | undefined): MngDistrict | undefined => MNG_DISTRICTS.find((d) => d.code === code);

/** Case- and Turkish-letter-insensitive key: "İZMİR", "izmir" → "izmir"; "Kadıköy" → "kadikoy". */
// The Sendeo double's own key, shared rather than copied.
export { foldTurkish } from './sendeo.schemas';

// --------------------------------------------------------------------------------------------------------------------
// Identity numbers, phone, e-mail (README traps 4, 5, 6)
// --------------------------------------------------------------------------------------------------------------------

/** TC Kimlik No: 11 digits, first not 0, the two check digits (README trap 4: 11111111110 passes, 11111111111 fails "the checksum"). */
export function isTcKimlik(s: string): boolean {
  if (!/^[1-9]\d{10}$/.test(s)) return false;
  const d = [...s].map(Number);
  const odd = d[0] + d[2] + d[4] + d[6] + d[8];
  const even = d[1] + d[3] + d[5] + d[7];
  if ((((odd * 7 - even) % 10) + 10) % 10 !== d[9]) return false;
  return d.slice(0, 10).reduce((a, b) => a + b, 0) % 10 === d[10];
}

/** Vergi numarası: 10 digits (README trap 4; its checksum is not checked: not in the contract). */
export const isVergiNo = (s: string): boolean => /^\d{10}$/.test(s);

/** README trap 6: "10 digits, no leading 0, no country code. 5551234567 works; 05551234567, +905551234567, 90 555 123 45 67 don't." */
export const MOBILE_PHONE_PATTERN = /^[1-9]\d{9}$/;

/** Not in the contract (trap 5 says only that an empty e-mail is refused): a plain `local@domain.tld` check. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** README "referenceId … unique, uppercased, ≤30 chars". */
export const MNG_REFERENCE_MAX = 30;

// --------------------------------------------------------------------------------------------------------------------
// Errors
// --------------------------------------------------------------------------------------------------------------------

/**
 * Three answer shapes appear in the contract:
 *  - field validation: HTTP 400 `{"error": {"code": "26056", "message": "Bad Request", "description": "…"}}`
 *    (CreateRecipientRequestTest "surfaces MNG error description from the new error shape");
 *  - the backend's refusals: HTTP 500 `{"error": {"Code": "20001", "Message": "Error", "Description": "<WERR> … </WERR>"}}`
 *    (CreateShipmentRequestTest "retries createBarcode when MNG returns 20001 VARIŞ ŞUBESİ BULUNAMADI", PascalCase there);
 *  - ASP.NET ProblemDetails: `{"title": "Not Found"}` 404 (CancelShipmentRequestTest, CancelOrderRequestTest),
 *    `{"title": "Bad Request", "detail": "…"}` 400 (CreateShipmentRequestTest), "per swagger" in CreateShipmentResponse.
 */
export interface MngError {
  code: string;
  /** `shape: 'field'` → 400 camelCase `description`; `'werr'` → 500 PascalCase `Description` wrapped in <WERR>…</WERR> */
  shape: 'field' | 'werr';
  /** the description; `{ref}` / `{shipmentId}` are replaced */
  description: string;
  /** false: not in the contract, the double's choice */
  documented: boolean;
}

const field = (code: string, description: string, documented = false): MngError => ({ code, shape: 'field', description, documented });
const werr = (code: string, description: string, documented = false): MngError => ({ code, shape: 'werr', description, documented });

export const MNG_ERRORS = {
  // ---- documented ----
  /** CreateRecipientRequestTest (sic "Kimilk"); README trap 4 "Empty values produce error 26056". */
  taxNumber: field('26056', "'Recipient. Tax Number', 11 karakterli TC Kimilk numarasi olmalidir.", true),
  /** CreateShipmentRequestTest (PascalCase shape, HTTP 500); README "3-stage shipment flow". */
  branchNotFound: werr('20001', "<WERR> {ref} NO'LU SİPARİŞ KAYDI İÇİN VARIŞ ŞUBESİ BULUNAMADI ! DAHA SONRA TEKRAR DENEYİN ! </WERR>", true),
  /** README trap 8: "HTTP 500 from the Identity API with code 20013 and a useless message" (the message is ours). */
  environmentMismatch: werr('20013', '<WERR> BEKLENMEYEN BIR HATA OLUSTU ! </WERR>', true),
  // ---- not in the contract ----
  referenceRequired: field('26001', "'Order. Reference Id' bos olmamalidir."),
  referenceTooLong: field('26002', "'Order. Reference Id', 30 karakterden uzun olmamalidir."),
  piecesRequired: field('26003', "'Order Piece List' bos olmamalidir."),
  pieceBarcodeRequired: field('26004', "'Order Piece List. Barcode' bos olmamalidir."),
  paymentType: field('26005', "'Order. Payment Type' gecerli degil (1: Gonderici Oder, 2: Alici Oder)."),
  codAmount: field('26006', "'Order. Cod Amount', kapida odemeli sipariste sifirdan buyuk olmalidir."),
  isCod: field('26007', "'Order. Is COD' 0 veya 1 olmalidir."),
  pieceWeight: field('26008', "'Order Piece List. Kg/Desi' negatif olamaz."),
  fullNameRequired: field('26010', "'Recipient. Full Name' bos olmamalidir."),
  customerIdAndFullName: field('26011', 'if Recipient.CustomerId is filled, Recipient.FullName must be empty.'),
  customerIdUnsupported: field('26012', "'Recipient. Customer Id' bulunamadi."),
  cityCode: field('26013', "'Recipient. City Code' bos olmamalidir."),
  districtCode: field('26014', "'Recipient. District Code' bos olmamalidir."),
  address: field('26015', "'Recipient. Address' bos olmamalidir."),
  email: field('26039', "'Recipient. Email' gecerli bir e-posta adresi olmalidir."),
  mobilePhone: field('26040', "'Recipient. Mobile Phone Number', basinda 0 ve ulke kodu olmadan 10 haneli olmalidir."),
  duplicateReference: werr('20002', "<WERR> {ref} NO'LU SİPARİŞ DAHA ÖNCE KAYDEDİLMİŞ ! </WERR>"),
  cancelAfterAcceptance: werr('20003', '<WERR> {shipmentId} NOLU GÖNDERİ ŞUBE TARAFINDAN KABUL EDİLDİĞİ İÇİN İPTAL EDİLEMEZ ! </WERR>'),
  cancelNotSameDay: werr('20004', '<WERR> {shipmentId} NOLU GÖNDERİ SADECE BARKODUN OLUŞTURULDUĞU GÜN İPTAL EDİLEBİLİR ! </WERR>'),
  cancelOrderWithBarcode: werr('20005', "<WERR> {ref} NO'LU SİPARİŞİN BARKODU İPTAL EDİLMEDEN SİPARİŞ İPTAL EDİLEMEZ ! </WERR>"),
  barcodeAlreadyCreated: werr('20006', "<WERR> {ref} NO'LU SİPARİŞ İÇİN BARKOD DAHA ÖNCE OLUŞTURULMUŞ ! </WERR>"),
} as const;

export type MngErrorName = keyof typeof MNG_ERRORS;

export const describeMngError = (e: MngError, values: { ref?: string; shipmentId?: string } = {}): string =>
  e.description.replace('{ref}', values.ref ?? '').replace('{shipmentId}', values.shipmentId ?? '');

// --------------------------------------------------------------------------------------------------------------------
// Request schemas (canonical camelCase names as the README/tests send them) and the binder
// --------------------------------------------------------------------------------------------------------------------

export type MngField =
  { type: 'string' | 'integer' | 'number'; clr: string } | { type: 'object'; properties: Record<string, MngField> } | { type: 'array'; items: MngField };

const s: MngField = { type: 'string', clr: 'System.String' };
const i32: MngField = { type: 'integer', clr: 'System.Int32' };
const i64: MngField = { type: 'integer', clr: 'System.Int64' };
const dec: MngField = { type: 'number', clr: 'System.Decimal' };
const obj = (properties: Record<string, MngField>): MngField => ({ type: 'object', properties });

/** Recipient (CreateShipmentRequest::buildCustomer, CreateRecipientRequest::getData). Note the contract's spelling `bussinessPhoneNumber`. */
export const recipientSchema = obj({
  customerId: i64,
  refCustomerId: s,
  cityCode: i32,
  cityName: s,
  districtCode: i32,
  districtName: s,
  address: s,
  bussinessPhoneNumber: s,
  email: s,
  taxOffice: s,
  taxNumber: s,
  fullName: s,
  homePhoneNumber: s,
  mobilePhoneNumber: s,
});

/** orderPieceList[] (CreateShipmentRequestTest: barcode `<REF>_PARCA1`, kg, desi; `content`). */
export const pieceSchema = obj({ barcode: s, desi: i32, kg: i32, content: s });

export const MNG_REQUEST_SCHEMAS = {
  /** POST /mngapi/api/token (AbstractMngRequest::fetchJwt) */
  token: obj({ customerNumber: s, password: s, identityType: i32 }),
  /** POST /mngapi/api/pluscmdapi/createRecipient */
  createRecipient: obj({ recipient: recipientSchema }),
  /** POST /mngapi/api/standardcmdapi/createOrder: {order, orderPieceList, recipient} */
  createOrder: obj({
    order: obj({
      referenceId: s,
      barcode: s,
      billOfLandingId: s,
      isCOD: i32,
      codAmount: dec,
      shipmentServiceType: i32,
      packagingType: i32,
      content: s,
      smsPreference1: i32,
      smsPreference2: i32,
      smsPreference3: i32,
      paymentType: i32,
      deliveryType: i32,
      description: s,
      marketPlaceShortCode: s,
      marketPlaceSaleCode: s,
    }),
    orderPieceList: { type: 'array', items: pieceSchema },
    recipient: recipientSchema,
  }),
  /** POST /mngapi/api/barcodecmdapi/createbarcode (CreateShipmentRequest::callCreateBarcode) */
  createbarcode: obj({
    referenceId: s,
    billOfLandingId: s,
    isCOD: i32,
    codAmount: dec,
    printReferenceBarcodeOnError: i32,
    message: s,
    additionalContent1: s,
    additionalContent2: s,
    additionalContent3: s,
    additionalContent4: s,
    orderPieceList: { type: 'array', items: pieceSchema },
    packagingType: i32,
  }),
  /** PUT /mngapi/api/barcodecmdapi/cancelshipment: {referenceId, shipmentId} (CancelShipmentRequestTest: both strings) */
  cancelshipment: obj({ referenceId: s, shipmentId: s }),
} satisfies Record<string, MngField>;

export type MngBodyOperation = keyof typeof MNG_REQUEST_SCHEMAS;

export interface MngBound {
  value: unknown;
  /** ASP.NET Core ModelState keys (`$.recipient.mobilePhoneNumber`) → System.Text.Json messages */
  errors: Record<string, string[]>;
  /** properties the model does not have (ignored silently), e.g. `recipient.customerNo` */
  unknownFields: string[];
}

/**
 * Binds JSON to a schema as ASP.NET Core's System.Text.Json with `JsonSerializerDefaults.Web` would: property names
 * case-insensitive, numbers read from numeric strings (AllowReadingFromString), a number or boolean where a string is
 * expected is an error, `null` = not sent, unknown properties ignored.
 */
export function bindBody(schema: MngField, value: unknown): MngBound {
  const errors: Record<string, string[]> = {};
  const unknownFields: string[] = [];
  const fail = (path: string, clr: string) => (errors[path] ??= []).push(`The JSON value could not be converted to ${clr}. Path: ${path}.`);
  const rel = (path: string) => path.replace(/^\$\.?/, '');

  function bind(f: MngField, v: unknown, path: string): unknown {
    if (v === null || v === undefined) return undefined;
    switch (f.type) {
      case 'object': {
        if (typeof v !== 'object' || Array.isArray(v)) {
          fail(path, 'an object');
          return undefined;
        }
        const byFold = new Map(Object.keys(f.properties).map((k) => [k.toLowerCase(), k]));
        const out: Record<string, unknown> = {};
        for (const [key, raw] of Object.entries(v as Record<string, unknown>)) {
          const canonical = byFold.get(key.toLowerCase());
          if (!canonical) {
            unknownFields.push(rel(`${path}.${key}`));
            continue;
          }
          const bound = bind(f.properties[canonical], raw, `${path}.${canonical}`);
          if (bound === undefined) delete out[canonical];
          else out[canonical] = bound;
        }
        return out;
      }
      case 'array': {
        if (!Array.isArray(v)) {
          fail(path, 'a list');
          return undefined;
        }
        return v.map((item, idx) => bind(f.items, item, `${path}[${idx}]`));
      }
      case 'integer':
        if (typeof v === 'number' && Number.isInteger(v)) return v;
        if (typeof v === 'string' && /^-?\d+$/.test(v)) return Number(v);
        fail(path, f.clr);
        return undefined;
      case 'number':
        if (typeof v === 'number') return v;
        if (typeof v === 'string' && /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(v)) return Number(v);
        fail(path, f.clr);
        return undefined;
      case 'string':
        if (typeof v === 'string') return v;
        fail(path, f.clr);
        return undefined;
    }
  }

  return { value: bind(schema, value, '$'), errors, unknownFields };
}

// --------------------------------------------------------------------------------------------------------------------
// Dates (Turkey: UTC+3 all year)
// --------------------------------------------------------------------------------------------------------------------

const TR_OFFSET_MS = 3 * 3600 * 1000;
const pad = (n: number, w = 2) => String(n).padStart(w, '0');
function trParts(d: Date) {
  const t = new Date(d.getTime() + TR_OFFSET_MS);
  return {
    y: t.getUTCFullYear(),
    mo: pad(t.getUTCMonth() + 1),
    d: pad(t.getUTCDate()),
    h: pad(t.getUTCHours()),
    mi: pad(t.getUTCMinutes()),
    s: pad(t.getUTCSeconds()),
  };
}
/** The Turkish calendar day, "yyyy-MM-dd" (cancelshipment's "same day the barcode was printed"). */
export const trDay = (d: Date): string => {
  const p = trParts(d);
  return `${p.y}-${p.mo}-${p.d}`;
};
/** Token `jwtExpireDate`: "dd.MM.yyyy HH:mm:ss" (CreateShipmentRequestTest tokenResponse: "01.01.2099 00:00:00"). */
export const mngTokenDate = (d: Date): string => {
  const p = trParts(d);
  return `${p.d}.${p.mo}.${p.y} ${p.h}:${p.mi}:${p.s}`;
};
/** trackshipment `eventDateTime`: "dd-MM-yyyy HH:mm:ss" (GetTrackingStatusRequestTest: "12-02-2019 20:30:45"). */
export const mngEventDate = (d: Date): string => {
  const p = trParts(d);
  return `${p.d}-${p.mo}-${p.y} ${p.h}:${p.mi}:${p.s}`;
};
/** trackshipment `eventDateTime2`: "yyyy-MM-dd HH:mm:ss" (GetTrackingStatusRequestTest: "2019-02-12 20:30:45"). */
export const mngEventDate2 = (d: Date): string => {
  const p = trParts(d);
  return `${p.y}-${p.mo}-${p.d} ${p.h}:${p.mi}:${p.s}`;
};
/** getshipmentstatus `deliveryDateTime` "dd-MM-yyyy HH:mm" and `estimatedDeliveryDate` "dd-MM-yyyy" (GetTrackingStatusResponse's parser). */
export const mngDeliveryDateTime = (d: Date): string => mngEventDate(d).slice(0, 16);
export const mngDateOnly = (d: Date): string => mngEventDate(d).slice(0, 10);

// --------------------------------------------------------------------------------------------------------------------
// Barcodes and the ZPL label
// --------------------------------------------------------------------------------------------------------------------

const BARCODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@';

/**
 * A piece's scannable barcode, shaped like the README's "C@6B@H21FMLRPNAAA6J" (19 characters of A–Z, 0–9 and @):
 * `C@` + 17 characters derived from the shipment id and piece number. The real rule is not in the contract.
 */
export function mngPieceBarcode(shipmentId: string, pieceNumber: number): string {
  let x = BigInt(shipmentId) * 1000n + BigInt(pieceNumber);
  let out = '';
  for (let k = 0; k < 17; k++) {
    x = (x * 6364136223846793005n + 1442695040888963407n) % 2n ** 64n;
    out += BARCODE_ALPHABET[Number((x >> 33n) % BigInt(BARCODE_ALPHABET.length))];
  }
  return `C@${out}`;
}

export interface MngLabelPiece {
  referenceId: string;
  shipmentId: string;
  invoiceId: string;
  barcode: string;
  pieceNumber: number;
  pieces: number;
  shipper: string;
  recipient: string;
  address: string;
  district: string;
  city: string;
  phone: string;
  kg: number;
  desi: number;
  isCOD: boolean;
  codAmount: number;
}

const zplText = (v: string) => v.replace(/[\^~]/g, ' ');

/**
 * One piece's label (`barcodes[i].value`): a ZPL II `^XA…^XZ` blob. The contract shows only "^XA...^XZ" and
 * "^XA^FT...^XZ" (the tests), so the layout is the double's; it begins `^XA^FT` as the example does, and carries the
 * piece's `barcode` verbatim in exactly one Code 128 field: `^BCN,…^FD<barcode>^FS` (read it back with
 * `/\^BC[^^]*\^FD([^^]*)\^FS/`), and once more as human-readable text.
 */
export function mngZplLabel(p: MngLabelPiece): string {
  return [
    '^XA^FT40,70^A0N,44,44^FDDHL eCommerce - MNG Kargo^FS',
    '^CI28^PW799^LL1199',
    `^FT40,120^A0N,26,26^FDGonderici: ${zplText(p.shipper)}^FS`,
    `^FT40,170^A0N,34,34^FDAlici: ${zplText(p.recipient)}^FS`,
    `^FO40,190^FB720,3,0,L^A0N,26,26^FD${zplText(p.address)}^FS`,
    `^FT40,300^A0N,32,32^FD${zplText(upperTr(p.district))} / ${zplText(upperTr(p.city))}   Tel: ${zplText(p.phone)}^FS`,
    `^FT40,350^A0N,26,26^FDRef: ${zplText(p.referenceId)}   Parca ${p.pieceNumber}/${p.pieces}   ${p.kg} kg / ${p.desi} desi^FS`,
    `^FT40,390^A0N,26,26^FDGonderi No: ${p.shipmentId}   Fatura: ${p.invoiceId}${p.isCOD ? `   Tahsilat: ${p.codAmount.toFixed(2)} TL` : ''}^FS`,
    `^BY3,2,180^FT60,620^BCN,180,N,N,N^FD${p.barcode}^FS`,
    `^FT60,670^A0N,34,34^FD${p.barcode}^FS`,
    '^XZ',
  ].join('\n');
}

/** The barcode(s) a label's Code 128 field(s) hold, in order. */
export const zplBarcodes = (zpl: string): string[] => [...zpl.matchAll(/\^BC[^^]*\^FD([^^]*)\^FS/g)].map((m) => m[1]);

// --------------------------------------------------------------------------------------------------------------------
// Answer shapes
// --------------------------------------------------------------------------------------------------------------------

/** POST /token (CreateShipmentRequestTest tokenResponse). */
export interface MngTokenAnswer {
  jwt: string;
  refreshToken: string;
  jwtExpireDate: string;
  refreshTokenExpireDate: string;
}

/** createRecipient (README: "carries shipperBranchCode but no customerId"; JwtCachingTest: `{shipperBranchCode}`). */
export interface MngCreateRecipientAnswer {
  shipperBranchCode: string;
}

/** createOrder, one element of the array (CreateShipmentRequestTest "handles MNG array-wrapped responses"). */
export interface MngCreateOrderAnswer {
  orderInvoiceId: string;
  orderInvoiceDetailId: string;
  shipperBranchCode: string;
  referenceId: string;
}

export interface MngBarcodeEntry {
  pieceNumber: number;
  /** the ZPL label (README trap 2) */
  value: string;
  /** the scannable barcode (README trap 2) */
  barcode: string;
}

/** createbarcode, one element of the array. */
export interface MngCreateBarcodeAnswer {
  referenceId: string;
  invoiceId: string;
  shipmentId: string;
  barcodes: MngBarcodeEntry[];
}

/** trackshipment, each element (GetTrackingStatusRequestTest eventsResponse). */
export interface MngTrackEvent {
  referenceId: string;
  eventSequence: string;
  eventStatus: string;
  eventStatusEn: string;
  eventDateTime: string;
  eventDateTime2: string;
  location: string;
  country: string;
  locationAddress: string;
}

/** getshipmentstatus, one element of the array (GetTrackingStatusRequestTest statusResponse; dates: the response parser). */
export interface MngShipmentStatusAnswer {
  orderId: string;
  referenceId: string;
  shipmentId: string | null;
  shipmentStatusCode: number;
  shipmentStatus: string;
  isDelivered: 0 | 1;
  deliveryTo: string | null;
  deliveryDateTime: string | null;
  estimatedDeliveryDate: string | null;
  trackingUrl: string | null;
}

/** getcities / getdistricts rows (GetCitiesRequestTest: codes as two-digit strings). */
export interface MngCityRow {
  code: string;
  name: string;
}
export interface MngDistrictRow {
  cityCode: string;
  cityName: string;
  code: string;
  name: string;
}

/** Tracking URL (GetTrackingStatusRequestTest: "https://www.mngkargo.com.tr/track/14556546" for shipmentId 14556546). */
export const mngTrackingUrl = (shipmentId: string): string => `https://www.mngkargo.com.tr/track/${shipmentId}`;

const PROBLEM_TYPES: Record<number, string> = {
  400: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
  404: 'https://tools.ietf.org/html/rfc9110#section-15.5.5',
  415: 'https://tools.ietf.org/html/rfc9110#section-15.5.16',
};

export const mngResponses = {
  /** 400 field validation (camelCase) */
  fieldError: (code: string, description: string) => ({ error: { code, message: 'Bad Request', description } }),
  /** 500 backend refusal (PascalCase) */
  werr: (code: string, description: string) => ({ error: { Code: code, Message: 'Error', Description: description } }),
  /** ASP.NET Core ProblemDetails (`type` as ASP.NET Core writes it for the status) */
  problem: (status: number, title: string, traceId: string, extra: Record<string, unknown> = {}) => ({
    type: PROBLEM_TYPES[status] ?? 'https://tools.ietf.org/html/rfc9110',
    title,
    status,
    ...extra,
    traceId,
  }),
  /**
   * IBM API Connect (DataPower) gateway answers: `{"httpCode": "401", "httpMessage": "Unauthorized", "moreInformation": "…"}`.
   * The 401 text for an unknown app / missing subscription is the README's (trap 10); the shape and the other texts are
   * API Connect's usual ones (not in the contract).
   */
  gateway: (status: number, httpMessage: string, moreInformation: string) => ({ httpCode: String(status), httpMessage, moreInformation }),
};

export const GATEWAY_TEXTS = {
  noSubscription: 'Cannot find valid subscription for the incoming API request.',
  badSecret: 'Cannot pass the security checks that are required by the target API or operation, Enable debug headers for more details.',
  noRoute: 'No resources match requested URI',
  badMethod: 'The method is not allowed for the requested resource',
} as const;
