/**
 * Sendeo web service contract (https://api.sendeo.com.tr), transcribed by hand for the test double in `sendeo-double.ts`.
 *
 * Sources (search library):
 *  - `SendeoTeknoloji/web-service-doc` (commit 14f90c4a): `README.md` "Web Servis Teknik Dokümanı" (parameter tables,
 *    error tables, status list), `ENTEGRASYON.postman_collection.json`, `Deliverytype {1,2,3} örnek request bilgisi.txt`
 *  - `SendeoTeknoloji/Sendeo.Client.CSharp` (commit 130e278c), `Sendeo.Client/`: the official client's models
 *    (`ResponseBase<T>`, `SetDeliveryRequest`, `Product`, `Measurement`, `TrackDeliveryResponse`, `StatusHistory`, …)
 * Everything the documents do not say is marked "not in the document" here and in SENDEO-CONTRACT.md.
 *
 * Binding model (ASP.NET + Newtonsoft.Json, which the examples imply): property names match case-insensitively
 * (`DeliveryType` = `deliveryType` = `deliverytype`), numeric strings bind to numbers (`"ReceiverCityId": "35"`),
 * numbers bind to strings (`"senderPhone": 905000000000`), `null` is "not sent", unknown properties are ignored.
 * `normalizeBody()` does exactly that against the JSON schemas below; ajv then checks what is left.
 */
import { textPdf } from './text-pdf';

// --------------------------------------------------------------------------------------------------------------------
// Status list (README "Sendeo Statü Listesi")
// --------------------------------------------------------------------------------------------------------------------

export interface SendeoStatus {
  /** statusName (TRACKDELIVERY `StatusHistories[].Status`, `DeliveryDescription`) */
  name: string;
  /** statusDescription (TRACKDELIVERY `StateText`, `StatusHistories[].Description`) */
  description: string;
}

export const SENDEO_STATUSES: Readonly<Record<number, SendeoStatus>> = {
  101: { name: 'Kargo Sevk Emri Alındı', description: 'İş Emri Alındı' },
  102: { name: 'Belge Düzenlendi', description: 'Gönderi Oluşturuldu' },
  103: { name: 'Şube TM Yükleme', description: 'Çıkış Şubesinden Hareket Etti' },
  104: { name: 'TM Şube İndirme', description: 'Teslimat Noktasında' },
  105: { name: 'TM Hat Yükleme', description: 'Hat Aracına Yüklendi' },
  106: { name: 'TM Hat İndirme', description: 'Hat Aracından İndi' },
  107: { name: 'TM Şube Yükleme', description: 'Transfer Merkezinden Şubeye Yüklendi' },
  108: { name: 'Şube TM İndirme', description: 'Transfer Merkezine İndi' },
  109: { name: 'Şube Dağıtım Yükleme', description: 'Dağıtıma Çıkarıldı' },
  110: { name: 'Şube Dağıtım İndirme', description: 'Şube Dağıtım İndirme' },
  111: { name: 'Teslim Edildi', description: 'Teslim Edildi' },
  112: { name: 'Alıcı Telefonu Yanlış', description: 'Alıcı Telefonu Yanlış' },
  113: { name: 'İade Talebi', description: 'İade Talebi' },
  114: { name: 'Alıcı Adresinde Yok', description: 'Alıcı Adresinde Yok' },
  115: { name: 'Alıcı Adresi Yanlış', description: 'Alıcı Adresi Yanlış' },
  117: { name: 'Hasarlı Gönderi', description: 'Hasarlı Gönderi' },
  118: { name: 'Kayıp Kargo', description: 'Kayıp Kargo' },
  119: { name: 'Devir', description: 'Devir' },
  120: { name: 'Eksik Teslim Edildi', description: 'Eksik Teslim Edildi' },
  121: { name: 'Dağıtım Alanı Dışında', description: 'Dağıtım Alanı Dışında' },
  122: { name: 'Ödeme Tipi Kabul Edilmedi', description: 'Ödeme Tipi Kabul Edilmedi' },
  123: { name: 'Randevulu Teslimat', description: 'Randevulu Teslimat' },
  124: { name: 'Mobil Dağıtım Bölgesi', description: 'Mobil Dağıtım Bölgesi' },
  125: { name: 'Eksik Kargo', description: 'Eksik Kargo' },
  126: { name: 'Yönlendirme', description: 'Yönlendirme' },
  127: { name: 'Hat Aracı Gecikmesi', description: 'Hat Aracı Gecikmesi' },
  128: { name: 'Olumsuz Hava Koşulları', description: 'Olumsuz Hava Koşulları' },
  129: { name: 'Taşıma Fiyatı Yüksek Bulundu', description: 'Taşıma Fiyatı Yüksek Bulundu' },
  130: { name: 'Teslim Edilemedi', description: 'Teslim edilemedi' },
  131: { name: 'İade Gönderi', description: 'İade Edilen Gönderi' },
  132: { name: 'Ölçüm Tartım', description: 'Ölçüm Tartım yapıldı' },
  133: { name: 'İptal Gönderi', description: 'İptal Gönderi' },
  134: { name: 'İade Onay', description: 'İade Talebine Onay Verildi' },
  135: { name: 'İş Emri İadesi', description: 'İş Emri ile İade Edilen Gönderi' },
  136: { name: 'İade Red', description: 'Müşteri tarafından red edildi' },
  137: { name: 'Randevulu Alım', description: 'Müşteri Randevu Verdi' },
  138: { name: 'Gönderi Alındı', description: 'Gönderi Alındı' },
  139: { name: 'İptal İş Emri', description: 'İptal İş Emri' },
  140: { name: 'Kurye Teslimatta', description: 'Kurye Teslimatta' },
  141: { name: 'Kurye Zimmete Aldı', description: 'Kurye zimmete alma' },
  142: { name: 'Kurye Zimmetten Çıkardı', description: 'Kurye zimmetten çıkarma' },
  143: { name: 'Kayıp Kargo', description: 'Kayıp Kargo İş Emri' },
  151: { name: 'İade Olarak Teslim', description: 'İade Olarak Teslim' },
};

export const SENDEO_STATUS_IDS = Object.keys(SENDEO_STATUSES).map(Number);
/** A new delivery's status (SETDELIVERY creates an "iş emri"). */
export const SENDEO_STATUS_CREATED = 101;
/** CANCELDELIVERY: "101 statüsünde olduğu durumda cancel işlemi yapılabilir". */
export const SENDEO_STATUS_CANCELLABLE = 101;
/** What a cancelled delivery shows (not in the document: the status list's "İptal İş Emri" is our reading). */
export const SENDEO_STATUS_CANCELLED = 139;

// --------------------------------------------------------------------------------------------------------------------
// Cities (plate codes) and districts (Sendeo's own ids)
// --------------------------------------------------------------------------------------------------------------------

/** City ids are Turkish licence-plate codes (the examples: İstanbul 34, İzmir 35, Ankara 6, Antalya 7, Eskişehir 26, Sivas 58, Batman 72). */
export const SENDEO_CITIES: Readonly<Record<number, string>> = {
  1: 'Adana',
  2: 'Adıyaman',
  3: 'Afyonkarahisar',
  4: 'Ağrı',
  5: 'Amasya',
  6: 'Ankara',
  7: 'Antalya',
  8: 'Artvin',
  9: 'Aydın',
  10: 'Balıkesir',
  11: 'Bilecik',
  12: 'Bingöl',
  13: 'Bitlis',
  14: 'Bolu',
  15: 'Burdur',
  16: 'Bursa',
  17: 'Çanakkale',
  18: 'Çankırı',
  19: 'Çorum',
  20: 'Denizli',
  21: 'Diyarbakır',
  22: 'Edirne',
  23: 'Elazığ',
  24: 'Erzincan',
  25: 'Erzurum',
  26: 'Eskişehir',
  27: 'Gaziantep',
  28: 'Giresun',
  29: 'Gümüşhane',
  30: 'Hakkari',
  31: 'Hatay',
  32: 'Isparta',
  33: 'Mersin',
  34: 'İstanbul',
  35: 'İzmir',
  36: 'Kars',
  37: 'Kastamonu',
  38: 'Kayseri',
  39: 'Kırklareli',
  40: 'Kırşehir',
  41: 'Kocaeli',
  42: 'Konya',
  43: 'Kütahya',
  44: 'Malatya',
  45: 'Manisa',
  46: 'Kahramanmaraş',
  47: 'Mardin',
  48: 'Muğla',
  49: 'Muş',
  50: 'Nevşehir',
  51: 'Niğde',
  52: 'Ordu',
  53: 'Rize',
  54: 'Sakarya',
  55: 'Samsun',
  56: 'Siirt',
  57: 'Sinop',
  58: 'Sivas',
  59: 'Tekirdağ',
  60: 'Tokat',
  61: 'Trabzon',
  62: 'Tunceli',
  63: 'Şanlıurfa',
  64: 'Uşak',
  65: 'Van',
  66: 'Yozgat',
  67: 'Zonguldak',
  68: 'Aksaray',
  69: 'Bayburt',
  70: 'Karaman',
  71: 'Kırıkkale',
  72: 'Batman',
  73: 'Şırnak',
  74: 'Bartın',
  75: 'Ardahan',
  76: 'Iğdır',
  77: 'Yalova',
  78: 'Karabük',
  79: 'Kilis',
  80: 'Osmaniye',
  81: 'Düzce',
};

export interface SendeoDistrict {
  districtId: number;
  cityId: number;
  name: string;
  /**
   * 'document': id and name from the README / example requests / Postman collection;
   * 'document-id': the id is in the Postman collection, the name is our reading of the example's address;
   * 'invented': made up for tests (the real list is `il-ilce.xlsx` / GetCityDistricts, not transcribed).
   */
  source: 'document' | 'document-id' | 'invented';
}

export const SENDEO_DISTRICTS: readonly SendeoDistrict[] = [
  { districtId: 34139, cityId: 34, name: 'Gaziosmanpaşa', source: 'document' },
  { districtId: 34245, cityId: 34, name: 'Kadıköy', source: 'document' },
  { districtId: 3398015, cityId: 34, name: 'Sancaktepe', source: 'document' },
  { districtId: 174032, cityId: 35, name: 'Dikili', source: 'document' },
  { districtId: 131001, cityId: 6, name: 'Sincan', source: 'document' },
  { districtId: 222813, cityId: 6, name: 'Yenimahalle', source: 'document-id' },
  { districtId: 3399265, cityId: 7, name: 'Kaş', source: 'document' },
  { districtId: 174171, cityId: 26, name: 'Odunpazarı', source: 'document' },
  { districtId: 179783, cityId: 26, name: 'Tepebaşı', source: 'document' },
  { districtId: 178189, cityId: 58, name: 'Şarkışla', source: 'document' },
  { districtId: 178325, cityId: 72, name: 'Merkez', source: 'document-id' },
  // ---- invented for tests (ids 99xxxxx so that they cannot be mistaken for Sendeo's) ----
  { districtId: 9906001, cityId: 6, name: 'Çankaya', source: 'invented' },
  { districtId: 9906002, cityId: 6, name: 'Keçiören', source: 'invented' },
  { districtId: 9935001, cityId: 35, name: 'Bornova', source: 'invented' },
  { districtId: 9935002, cityId: 35, name: 'Karşıyaka', source: 'invented' },
  { districtId: 9916001, cityId: 16, name: 'Nilüfer', source: 'invented' },
  { districtId: 9934001, cityId: 34, name: 'Beşiktaş', source: 'invented' },
  { districtId: 9937001, cityId: 37, name: 'Merkez', source: 'invented' },
  { districtId: 9958001, cityId: 58, name: 'Merkez', source: 'invented' },
];

/** Case- and Turkish-letter-insensitive key: "İZMİR", "IZMIR", "izmir", "İzmir" → "izmir"; "Kadıköy" → "kadikoy". */
export function foldTurkish(s: string): string {
  return s
    .trim()
    .toLocaleLowerCase('tr-TR')
    .replace(/[çğıöşüâîû]/g, (c) => ({ ç: 'c', ğ: 'g', ı: 'i', ö: 'o', ş: 's', ü: 'u', â: 'a', î: 'i', û: 'u' })[c] ?? c)
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/\s+/g, ' ');
}

/** Turkish letters → ASCII, case kept (for PDF Helvetica text and ZPL fallbacks). */
export function asciiTurkish(s: string): string {
  return s
    .replace(
      /[İıŞşĞğÜüÖöÇçÂâÎîÛû]/g,
      (c) =>
        ({ İ: 'I', ı: 'i', Ş: 'S', ş: 's', Ğ: 'G', ğ: 'g', Ü: 'U', ü: 'u', Ö: 'O', ö: 'o', Ç: 'C', ç: 'c', Â: 'A', â: 'a', Î: 'I', î: 'i', Û: 'U', û: 'u' })[
          c
        ] ?? c,
    )
    .replace(/[^\x20-\x7e]/g, '?');
}

/** Upper case the Turkish way ("Kadıköy" → "KADIKÖY", "Dikili" → "DİKİLİ"). */
export const upperTr = (s: string): string => s.toLocaleUpperCase('tr-TR');

// --------------------------------------------------------------------------------------------------------------------
// Errors
// --------------------------------------------------------------------------------------------------------------------

export interface SendeoError {
  /** the body's `StatusCode` (HTTP status is 500) */
  code: number;
  message: string;
  /** false: not in the document, the double's choice */
  documented: boolean;
}

const documented = (code: number, message: string): SendeoError => ({ code, message, documented: true });
const invented = (code: number, message: string): SendeoError => ({ code, message, documented: false });

/** SETDELIVERY error table (README "Şekil 7"), CANCELDELIVERY error table ("Şekil 8"), and the double's own additions. */
export const SENDEO_ERRORS = {
  referenceNoNull: documented(102, 'Delivery Reference No Cannot be Null.'),
  wrongDeliveryType: documented(103, 'Wrong Delivery Type'),
  productsNull: documented(104, 'Products Cannot Be Null'),
  paymentTypeNotCorrect: documented(411, 'Payment Type Is Not Correct.'),
  collectionTypeNotFound: documented(105, 'Collection Type Not Found'),
  productPriceZero: documented(410, 'Product Price Cannot Be Zero.'),
  receiverNull: documented(201, 'Receiver Cannot Be Null'),
  receiverPhone: documented(207, 'Please Enter Receiver Phone or GSM Number'),
  receiverAddressNull: documented(202, 'Receiver Address Cannot Be Null'),
  receiverDistrictZero: documented(203, 'Receiver District Id Cannot Be Zero.'),
  receiverCityZero: documented(204, 'Receiver City Id Cannot Be Zero.'),
  receiverCityNotCorrect: documented(205, 'Receiver City Id is Not Correct.'),
  receiverDistrictNotCorrect: documented(206, 'Receiver District Id is Not Correct.'),
  senderNull: documented(301, 'Sender Cannot Be Null.'),
  senderPhone: documented(307, 'Please Enter Sender Phone or GSM Number'),
  senderAddressNull: documented(302, 'Sender Address Cannot Be Null.'),
  senderDistrictZero: documented(303, 'Sender District Id Cannot Be Zero.'),
  senderCityZero: documented(304, 'Sender City Id Cannot Be Zero.'),
  senderCityNotCorrect: documented(305, 'Sender City Id is Not Correct.'),
  senderDistrictNotCorrect: documented(306, 'Sender District Id is Not Correct.'),
  // CANCELDELIVERY
  trackingOrReferenceRequired: documented(701, 'Please Enter Tracking Number or Reference Number.'),
  noDeliveryFound: documented(702, 'No Delivery Found.'),
  alreadySent: documented(703, 'You Cannot Cancel , Delivery Has Already Sent.'),
  // not in the document
  referenceNoExists: invented(106, 'Reference No Already Exists'),
  collectionPriceNotZero: invented(412, 'CollectionPrice Must Be 0 When CollectionType Is 0.'),
  collectionPriceTooHigh: invented(413, 'CollectionPrice Cannot Be More Than 5000.'),
  receiverBranchCodeNull: invented(208, 'ReceiverBranchCode Cannot Be Null For DeliveryType 5.'),
  senderBranchCodeNull: invented(308, 'SenderBranchCode Cannot Be Null For DeliveryType 6.'),
  loginFailed: invented(401, 'Customer Code or Password Is Not Correct.'),
  unauthorized: documented(401, 'Unauthorized'),
} as const;

export type SendeoErrorName = keyof typeof SENDEO_ERRORS;

/** README: CollectionPrice "Bu alan 5000 lira ile sınırlıdır." */
export const SENDEO_MAX_COLLECTION_PRICE = 5000;

// --------------------------------------------------------------------------------------------------------------------
// Request schemas (property names canonical; normalizeBody() maps any casing onto them)
// --------------------------------------------------------------------------------------------------------------------

export type Schema = Record<string, unknown>;

const INT32 = { minimum: -2147483648, maximum: 2147483647 };
const int = (description: string, extra: Schema = {}): Schema => ({ type: 'integer', description, ...INT32, ...extra });
/** C# long (tracking numbers: the Postman example 401281283559 does not fit an int) */
const long = (description: string, extra: Schema = {}): Schema => ({ type: 'integer', description, ...extra });
const dec = (description: string, extra: Schema = {}): Schema => ({ type: 'number', description, ...extra });
const str = (description: string, extra: Schema = {}): Schema => ({ type: 'string', description, ...extra });
const bool = (description: string): Schema => ({ type: 'boolean', description });

/**
 * BarcodeLabelType (README): 0/2 ZPL, 1 Base64, 3 ZPLs, 8 ZPL + AdditionalValue (ZPL), 9 Base64 + AdditionalValue (HTML), 10 Base64 + AdditionalValue
 * (TEXT).
 */
export const SENDEO_BARCODE_LABEL_TYPES = [0, 1, 2, 3, 8, 9, 10] as const;
export type SendeoBarcodeLabelType = (typeof SENDEO_BARCODE_LABEL_TYPES)[number];
export const labelKind = (t: number): 'zpl' | 'base64' | 'zpls' => (t === 3 ? 'zpls' : t === 1 || t === 9 || t === 10 ? 'base64' : 'zpl');

/**
 * TC kimlik no: README "Format kontrolü yapılmaktadır" (senderTc/receiverTC); the rule is not given: 11 digits, not starting with 0 (no checksum: the
 * README's own example 12345678998 fails it). Empty = not sent.
 */
export const TC_PATTERN = '^([1-9][0-9]{10})?$';

/** POST /api/Token/LoginAES (README "Şekil 1", Postman "Login"; C# LoginRequest: `musteri`, `sifre`). */
export const loginAesRequestSchema: Schema = {
  $id: 'sendeo/LoginAES',
  type: 'object',
  required: ['musteri', 'sifre'],
  properties: {
    musteri: str('customer (API user) code, e.g. TEST', { minLength: 1 }),
    sifre: str('password', { minLength: 1 }),
  },
};

/**
 * Products[] (README "Şekil 4"; C# Product). Count required ("Count toplamı kadar barkod numarası oluşur").
 * Deci max 500 / Weigth max 100: Postman collection comments ("deci: 1, // max 500", "weigth: 0, // max 100"), not the README.
 */
const productSchema: Schema = {
  type: 'object',
  required: ['Count'],
  properties: {
    Count: int('pieces of this line (required)', { minimum: 1 }),
    ProductCode: str('"Boş string olarak gönderilmelidir"'),
    Description: str('line description'),
    Deci: int('desi per piece; 0 = not measured (Sendeo measures)', { minimum: 0, maximum: 500 }),
    Weigth: int('weight (kg) per piece — sic: the field is spelt "Weigth"; "Weight" is an unknown field and ignored', { minimum: 0, maximum: 100 }),
    DeciWeight: int('desi/kg', { minimum: 0 }),
    Price: dec('product price (double)', { minimum: 0 }),
  },
};

/**
 * POST /api/Cargo/SETDELIVERY (README "Şekil 3"). Only type checks, [Required]-like checks of fields whose absence
 * has no documented error (ServiceType, BarcodeLabelType, Products[].Count) and value ranges without a documented
 * error live here (→ HTTP 400 problem). Documented refusals (102…306) are business rules in the double (→ HTTP 500).
 */
export const setDeliveryRequestSchema: Schema = {
  $id: 'sendeo/SETDELIVERY',
  type: 'object',
  required: ['ServiceType', 'BarcodeLabelType'],
  properties: {
    DeliveryType: int('1..6, required (missing/other → 103)'),
    ReferenceNo: str('customer reference, required (missing/empty → 102); unique per customer (→ 106, not in the document)'),
    Description: str('free text'),
    Sender: str('sender title; required for DeliveryType 2, 3 (and 6) → 301'),
    SenderId: str('Sendeo customer code of the sender, if registered'),
    SenderAuthority: str('sender contact person'),
    SenderBranchCode: int('return point (DeliveryType 6 only)'),
    SenderAddress: str('sender address; required where Sender is → 302'),
    SenderCityId: int('plate code; required where Sender is → 304/305'),
    SenderDistrictId: int('Sendeo district id; required where Sender is → 303/306'),
    SenderPhone: str('senderPhone: phone or GSM required where Sender is → 307'),
    SenderGSM: str('GSM'),
    SenderEmail: str('e-mail'),
    Receiver: str('receiver title; required for DeliveryType 1, 3 (and 4, 5) → 201'),
    ReceiverId: str('Sendeo customer code of the receiver, if known'),
    ReceiverAuthority: str('receiver contact person'),
    ReceiverBranchCode: int('delivery point (DeliveryType 5 only)'),
    ReceiverAddress: str('receiver address; required for DeliveryType 1, 3 (and 4) → 202'),
    ReceiverCityId: int('plate code → 204/205'),
    ReceiverDistrictId: int('Sendeo district id → 203/206'),
    ReceiverPhone: str('receiverPhone: phone or GSM required where Receiver is → 207'),
    ReceiverGSM: str('GSM'),
    ReceiverEmail: str('e-mail'),
    PaymentType: int('"Standart olarak 1 girilmelidir" (other → 411)'),
    CollectionType: int('0 none, 1 cash, 2 credit card (other → 105)'),
    CollectionPrice: dec('amount to collect; 0 when CollectionType 0; ≤ 5000', { minimum: 0 }),
    DispatchNoteNumber: str('waybill (irsaliye) number'),
    ServiceType: int('1 standard (default), 2 express (Postman comment)', { enum: [1, 2] }),
    BarcodeLabelType: int('0/2 ZPL, 1 Base64, 3 ZPLs, 8/9/10 with AdditionalValue', { enum: [...SENDEO_BARCODE_LABEL_TYPES] }),
    AdditionalValue: str('ZPL (8), HTML (9) or TEXT (10) shown in the 2×10 area under the barcode'),
    CustomerReferenceType: str('further reference detail'),
    SenderTc: str('senderTc: TC kimlik no, format-checked', { pattern: TC_PATTERN }),
    ReceiverTC: str('receiverTC: TC kimlik no, format-checked', { pattern: TC_PATTERN }),
    Products: { type: 'array', description: 'required, non-empty (→ 104)', items: productSchema },
    // sent by the C# client / Postman examples, not in the README table: bound, not used
    FileDatas: { type: 'array', description: 'C# client SetDeliveryRequest.FileDatas (AygFileModel); not used' },
    PayType: int('Postman comment: 1 sender, 2 receiver, 3 platform, 4 unknown; not used'),
    IsReturn: bool('Postman example; not used'),
    SenderTaxpayerId: str('Postman example; not used'),
    ReceiverTaxpayerId: str('Postman example; not used'),
    IntegratorCustomerCode: str('Postman example; not used'),
    BarcodeVersion: str('example requests ("V2"); not used'),
  },
};

/** CANCELDELIVERY JSON body as the C# client sends it (CancelDeliveryRequest: TrackingNo, CustomerReferenceNo), plus the query names. */
export const cancelDeliveryBodySchema: Schema = {
  $id: 'sendeo/CANCELDELIVERY',
  type: 'object',
  properties: {
    TrackingNo: str('C# client (int?) — numbers bind as text'),
    CustomerReferenceNo: str('C# client'),
    TrackingNumber: str('README/Postman query name'),
    ReferenceNo: str('README/Postman query name'),
  },
};

/** CARGOMEASUREMENTUPDATE (README table, Postman, C# Measurement). Every measurement field is "Zorunlu". */
export const cargoMeasurementUpdateRequestSchema: Schema = {
  $id: 'sendeo/CARGOMEASUREMENTUPDATE',
  type: 'object',
  required: ['CustomerReferenceNo', 'Measurements'],
  properties: {
    CustomerReferenceNo: str("the delivery's ReferenceNo", { minLength: 1 }),
    Measurements: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['Quantity', 'Width', 'Length', 'Height', 'Deci', 'Weight'],
        properties: {
          Quantity: int('pieces', { minimum: 1 }),
          Width: int('cm, 0 allowed', { minimum: 0 }),
          Length: int('cm, 0 allowed', { minimum: 0 }),
          Height: int('cm, 0 allowed', { minimum: 0 }),
          Deci: dec('desi', { minimum: 0 }),
          Weight: dec('kg, 0.0 allowed', { minimum: 0 }),
        },
      },
    },
  },
};

/** GETBARCODE (README: barcodeLabelType, referenceNo "integer" — the Postman example sends a string; bound as text). */
export const getBarcodeRequestSchema: Schema = {
  $id: 'sendeo/GETBARCODE',
  type: 'object',
  required: ['BarcodeLabelType', 'ReferenceNo'],
  properties: {
    BarcodeLabelType: int('as SETDELIVERY', { enum: [...SENDEO_BARCODE_LABEL_TYPES] }),
    ReferenceNo: str("the delivery's ReferenceNo", { minLength: 1 }),
  },
};

/** GETBARCODEBYTRACKINGNUMBER (README: trackingNumber integer; Postman sends 401281283559 → a long). */
export const getBarcodeByTrackingNumberRequestSchema: Schema = {
  $id: 'sendeo/GETBARCODEBYTRACKINGNUMBER',
  type: 'object',
  required: ['TrackingNumber'],
  properties: { TrackingNumber: long('tracking number', { minimum: 1 }) },
};

export type SendeoBodyOperation = 'LoginAES' | 'SETDELIVERY' | 'CANCELDELIVERY' | 'CARGOMEASUREMENTUPDATE' | 'GETBARCODE' | 'GETBARCODEBYTRACKINGNUMBER';

export const SENDEO_REQUEST_SCHEMAS: Readonly<Record<SendeoBodyOperation, Schema>> = {
  LoginAES: loginAesRequestSchema,
  SETDELIVERY: setDeliveryRequestSchema,
  CANCELDELIVERY: cancelDeliveryBodySchema,
  CARGOMEASUREMENTUPDATE: cargoMeasurementUpdateRequestSchema,
  GETBARCODE: getBarcodeRequestSchema,
  GETBARCODEBYTRACKINGNUMBER: getBarcodeByTrackingNumberRequestSchema,
};

// --------------------------------------------------------------------------------------------------------------------
// Model binding (Newtonsoft-like): casing, numeric strings, null
// --------------------------------------------------------------------------------------------------------------------

export interface Normalized {
  value: unknown;
  /** binding errors by field path (ASP.NET ModelState keys), Newtonsoft wording */
  errors: Record<string, string[]>;
  /** properties the model does not have (silently ignored by the service), e.g. `Products[0].Weight` */
  unknownFields: string[];
}

const pathOf = (base: string, key: string | number) => (typeof key === 'number' ? `${base}[${key}]` : base ? `${base}.${key}` : key);
const typeOf = (schema: Schema) => schema.type as string | undefined;

/** Binds `value` to `schema` the way ASP.NET + Newtonsoft.Json would. */
export function normalizeBody(schema: Schema, value: unknown): Normalized {
  const errors: Record<string, string[]> = {};
  const unknownFields: string[] = [];
  const fail = (path: string, message: string) => (errors[path || '$'] ??= []).push(`${message} Path '${path}'.`);

  function bind(s: Schema, v: unknown, path: string): unknown {
    if (v === null || v === undefined) return undefined;
    switch (typeOf(s)) {
      case 'object': {
        if (typeof v !== 'object' || Array.isArray(v)) {
          fail(path, `Cannot deserialize the current JSON ${Array.isArray(v) ? 'array' : 'value'} into an object.`);
          return undefined;
        }
        const props = (s.properties ?? {}) as Record<string, Schema>;
        const byFold = new Map(Object.keys(props).map((k) => [k.toLowerCase(), k]));
        const out: Record<string, unknown> = {};
        for (const [key, raw] of Object.entries(v as Record<string, unknown>)) {
          const canonical = byFold.get(key.toLowerCase());
          if (!canonical) {
            unknownFields.push(pathOf(path, key));
            continue;
          }
          const bound = bind(props[canonical], raw, pathOf(path, canonical));
          if (bound === undefined) delete out[canonical];
          else out[canonical] = bound; // a later casing of the same property wins, as Newtonsoft sets it again
        }
        return out;
      }
      case 'array': {
        if (!Array.isArray(v)) {
          fail(path, 'Cannot deserialize the current JSON object into type List because the type requires a JSON array.');
          return undefined;
        }
        const items = s.items as Schema | undefined;
        return items ? v.map((item, i) => (item === null ? null : bind(items, item, pathOf(path, i)))) : v;
      }
      case 'integer': {
        if (typeof v === 'number') {
          if (Number.isInteger(v)) return v;
          fail(path, `Input string '${v}' is not a valid integer.`);
          return undefined;
        }
        if (typeof v === 'string') {
          if (v.trim() === '') return undefined;
          if (/^\s*[+-]?\d+\s*$/.test(v)) return Number(v);
          fail(path, `Could not convert string to integer: ${v}.`);
          return undefined;
        }
        fail(path, `Error reading integer. Unexpected token: ${Array.isArray(v) ? 'StartArray' : typeof v === 'object' ? 'StartObject' : 'Boolean'}.`);
        return undefined;
      }
      case 'number': {
        if (typeof v === 'number') return v;
        if (typeof v === 'string') {
          if (v.trim() === '') return undefined;
          if (/^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(v)) return Number(v);
          fail(path, `Could not convert string to decimal: ${v}.`);
          return undefined;
        }
        fail(path, `Error reading decimal. Unexpected token: ${Array.isArray(v) ? 'StartArray' : typeof v === 'object' ? 'StartObject' : 'Boolean'}.`);
        return undefined;
      }
      case 'string': {
        if (typeof v === 'string') return v;
        if (typeof v === 'number') return String(v);
        if (typeof v === 'boolean') return v ? 'True' : 'False';
        fail(path, `Unexpected character encountered while parsing value: ${Array.isArray(v) ? '[' : '{'}.`);
        return undefined;
      }
      case 'boolean': {
        if (typeof v === 'boolean') return v;
        if (typeof v === 'string' && /^(true|false)$/i.test(v.trim())) return v.trim().toLowerCase() === 'true';
        if (typeof v === 'number') return v !== 0;
        fail(path, `Could not convert to boolean: ${JSON.stringify(v)}.`);
        return undefined;
      }
      default:
        return v;
    }
  }

  return { value: bind(schema, value, ''), errors, unknownFields };
}

/** Case-insensitive lookup of a query-string parameter (ASP.NET binds query names case-insensitively); '' → undefined. */
export function queryValue(query: URLSearchParams, ...names: string[]): string | undefined {
  const wanted = new Set(names.map((n) => n.toLowerCase()));
  for (const [k, v] of query) if (wanted.has(k.toLowerCase()) && v.trim() !== '') return v.trim();
  return undefined;
}

// --------------------------------------------------------------------------------------------------------------------
// Dates (Turkey: UTC+3 all year since 2016)
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
    ms: t.getUTCMilliseconds(),
  };
}
/** "dd/MM/yyyy HH:mm:ss" in Turkish time (TRACKDELIVERY SendDate/UpdateDate, e.g. "02/02/2022 16:55:03"). */
export function sendeoDisplayDate(d: Date): string {
  const p = trParts(d);
  return `${p.d}/${p.mo}/${p.y} ${p.h}:${p.mi}:${p.s}`;
}
/** .NET DateTime (Kind Unspecified) in Turkish time, no offset: "2024-05-02T10:00:27" (StatusHistories[].StatusDate). */
export function sendeoLocalDateTime(d: Date): string {
  const p = trParts(d);
  return `${p.y}-${p.mo}-${p.d}T${p.h}:${p.mi}:${p.s}`;
}
/** .NET DateTimeOffset: "2022-02-04T16:55:17.3590867+03:00" (deliveryPlannedDate). */
export function sendeoOffsetDateTime(d: Date): string {
  const p = trParts(d);
  return `${p.y}-${p.mo}-${p.d}T${p.h}:${p.mi}:${p.s}.${pad(p.ms, 3)}0000+03:00`;
}

// --------------------------------------------------------------------------------------------------------------------
// Labels: ZPL II and a real (tiny) PDF, one label/page per piece
// --------------------------------------------------------------------------------------------------------------------

export interface LabelPiece {
  trackingNumber: string;
  referenceNo: string;
  barcodeNumber: string;
  index: number;
  total: number;
  sender: string;
  receiver: string;
  address: string;
  district: string;
  city: string;
  /** BarcodeLabelType 8 (ZPL), 9 (HTML) or 10 (TEXT) */
  additionalValue?: string;
}

const zplText = (s: string) => s.replace(/[\^~]/g, ' ');

/** One ZPL II label `^XA…^XZ` (UTF-8, ^CI28). BarcodeLabelType 8: the AdditionalValue ZPL goes in as is, under the barcode. */
export function sendeoZplLabel(p: LabelPiece, labelType: number): string {
  return [
    '^XA^CI28^PW799^LL1199',
    '^FO40,30^A0N,56,56^FDSENDEO^FS',
    `^FO40,100^A0N,30,30^FDGonderen: ${zplText(p.sender)}^FS`,
    `^FO40,150^A0N,36,36^FDAlici: ${zplText(p.receiver)}^FS`,
    `^FO40,200^FB720,3,0,L^A0N,28,28^FD${zplText(p.address)}^FS`,
    `^FO40,310^A0N,36,36^FD${zplText(upperTr(p.district))} / ${zplText(upperTr(p.city))}^FS`,
    `^FO40,370^A0N,30,30^FDRef: ${zplText(p.referenceNo)}   Parca ${p.index}/${p.total}^FS`,
    `^FO40,430^BY3^BCN,180,Y,N,N^FD${p.barcodeNumber}^FS`,
    `^FO40,680^A0N,30,30^FDTakip No: ${p.trackingNumber}^FS`,
    ...(labelType === 8 && p.additionalValue ? [`^FO40,740${p.additionalValue}`] : []),
    '^XZ',
  ].join('\n');
}

/** A PDF of text pages, Turkish letters transliterated (Helvetica has none of them). */
export const sendeoPdf = (pages: string[][]): Buffer => textPdf(pages.map((lines) => lines.map(asciiTurkish)));

/** The base64 label (BarcodeLabelType 1, 9, 10): a PDF, one page per piece; 9 (HTML) is shown without tags, 10 (TEXT) as is. */
export function sendeoPdfLabel(pieces: LabelPiece[], labelType: number): string {
  const extra = (p: LabelPiece) =>
    (labelType === 9 || labelType === 10) && p.additionalValue
      ? [
          labelType === 9
            ? p.additionalValue
                .replace(/<[^>]*>/g, ' ')
                .replace(/\s+/g, ' ')
                .trim()
            : p.additionalValue,
        ]
      : [];
  const pages = pieces.map((p) => [
    'SENDEO',
    `Gonderen: ${p.sender}`,
    `Alici: ${p.receiver}`,
    p.address,
    `${upperTr(p.district)} / ${upperTr(p.city)}`,
    `Ref: ${p.referenceNo}   Parca ${p.index}/${p.total}`,
    `Barkod: ${p.barcodeNumber}`,
    `Takip No: ${p.trackingNumber}`,
    ...extra(p),
  ]);
  return sendeoPdf(pages).toString('base64');
}

// --------------------------------------------------------------------------------------------------------------------
// Responses
// --------------------------------------------------------------------------------------------------------------------

/** C# `ResponseBase<T>` (property names as the service writes them: PascalCase and camelCase mixed). */
export interface SendeoEnvelope<T = unknown> {
  RequestId: string;
  exceptionMessage: string | null;
  innerExceptionMessage: string | null;
  exceptionDescription: string | null;
  result: T | null;
  StatusCode: number;
}

export interface SendeoLoginResult {
  Token: string;
  CustomerId: number;
}

export interface SendeoSetDeliveryResult {
  TrackingNumber: string;
  TrackingUrl: string;
  Barcode: string | null;
  BarcodeZpl: string | null;
  BarcodeNumbers: string[];
  BarcodeZpls: string[] | null;
}

export interface SendeoGetBarcodeResult extends SendeoSetDeliveryResult {
  ShipmentId: number;
}

export interface SendeoStatusHistory {
  StatusDate: string;
  StatusId: number;
  Status: string;
  Description: string;
}

export interface SendeoTrackProduct {
  Count: number;
  ProductCode: string;
  Description: string;
  Price: number;
  StockCount: number;
  MinStockCount: number;
}

export interface SendeoTrackDeliveryResult {
  TrackingNo: number;
  ReferenceNo: string;
  SendDate: string;
  Receiver: string;
  CargoAmount: number;
  Sender: string;
  State: number;
  StateText: string;
  UpdateDate: string;
  DeliveryDescription: string;
  DealerId: number;
  DeciWeight: number;
  Quantity: number;
  TotalPrice: number;
  DepartureBranchName: string;
  ArrivalBranchName: string;
  DeliveryPlannedDate: string;
  Products: SendeoTrackProduct[];
  StatusHistories: SendeoStatusHistory[];
}

export interface SendeoCityDistrict {
  CityId: number;
  CityName: string;
  DistrictId: number;
  DistrictName: string;
}

/** ASP.NET Core ValidationProblemDetails (HTTP 400). */
export interface SendeoProblem {
  type: string;
  title: string;
  status: number;
  traceId: string;
  errors?: Record<string, string[]>;
}

export const sendeoResponses = {
  ok<T>(requestId: string, result: T): SendeoEnvelope<T> {
    return { RequestId: requestId, exceptionMessage: null, innerExceptionMessage: null, exceptionDescription: null, result, StatusCode: 200 };
  },
  error(requestId: string, code: number, message: string): SendeoEnvelope<null> {
    return { RequestId: requestId, exceptionMessage: message, innerExceptionMessage: null, exceptionDescription: null, result: null, StatusCode: code };
  },
  validationProblem(traceId: string, errors: Record<string, string[]>): SendeoProblem {
    return { type: 'https://tools.ietf.org/html/rfc7231#section-6.5.1', title: 'One or more validation errors occurred.', status: 400, traceId, errors };
  },
  unsupportedMediaType(traceId: string): SendeoProblem {
    return { type: 'https://tools.ietf.org/html/rfc7231#section-6.5.13', title: 'Unsupported Media Type', status: 415, traceId };
  },
};
