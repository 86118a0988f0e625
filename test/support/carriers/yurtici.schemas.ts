/**
 * Tables of Yurtiçi Kargo's ShippingOrderDispatcherServices contract, for the test double (yurtici-double.ts).
 * Source: `tcgunel/omniship-yurtici` README.md (a rewrite of Yurtiçi's official integration document) and the XML
 * schema of the service's WSDL as JAX-WS generated classes show it. What the document leaves open is in
 * YURTICI-CONTRACT.md, marked "not in the document".
 */

/** Target namespace of the WSDL; only the operation element (and the response wrapper) is in it. */
export const YURTICI_NAMESPACE = 'http://yurticikargo.com.tr/ShippingOrderDispatcherServices';
export const SOAP_ENVELOPE_NAMESPACE = 'http://schemas.xmlsoap.org/soap/envelope/';
/** README "WSDL Endpoints": `http://testwebservices.yurticikargo.com:9090/KOPSWebServices/ShippingOrderDispatcherServices`. */
export const YURTICI_SERVICE_PATH = '/KOPSWebServices/ShippingOrderDispatcherServices';

export type YurticiOperation = 'createShipment' | 'queryShipment' | 'cancelShipment';
export const YURTICI_OPERATIONS: readonly YurticiOperation[] = ['createShipment', 'queryShipment', 'cancelShipment'];
export type YurticiLanguage = 'TR' | 'EN';

/** "Payment type is not sent as a parameter — different users (credentials) are assigned to different payment types." */
export type YurticiPaymentType = 'sender' | 'receiver';

export interface YurticiUser {
  userName: string;
  password: string;
  paymentType: YurticiPaymentType;
  /** collection on delivery the user's contract allows (README: "COD Cash, COD Credit Card" users); default none */
  cashOnDelivery?: ('cash' | 'card')[];
  /** YK customer the user belongs to (`senderCustId`); cargoKeys are unique per customer */
  customerId?: number;
  /** sender name shown by queryShipment */
  customerName?: string;
}

/** README "Test Credentials": YKTEST / YK, Sender Pays, TR. */
export const YURTICI_TEST_USER_SENDER_PAYS: YurticiUser = { userName: 'YKTEST', password: 'YK', paymentType: 'sender' };
/** Not in the document (it names only YKTEST): the double's receiver-pays user of the same test customer. */
export const YURTICI_TEST_USER_RECEIVER_PAYS: YurticiUser = { userName: 'YKTESTAO', password: 'YK', paymentType: 'receiver' };
/** Not in the document: the test customer's id (ShippingDeliveryVO.senderCustId). */
export const YURTICI_TEST_CUSTOMER_ID = 1000001;

// --------------------------------------------------------------------------------------------------------------------
// Statuses (README "Tracking Status Codes", "Cancel Operation Statuses", "Return Status", "Reject Status")
// --------------------------------------------------------------------------------------------------------------------

export interface YurticiOperationStatus {
  code: number;
  status: 'NOP' | 'IND' | 'ISR' | 'CNL' | 'ISC' | 'DLV' | 'BI';
  tr: string;
  en: string;
}

export const YURTICI_OPERATION_STATUSES = {
  NOP: { code: 0, status: 'NOP', tr: 'Kargo İşlem Görmemiş', en: 'Not processed' },
  IND: { code: 1, status: 'IND', tr: 'Kargo Teslimattadır', en: 'In delivery' },
  ISR: { code: 2, status: 'ISR', tr: 'Kargo işlem görmüş, faturası henüz düzenlenmemiştir', en: 'Processed, invoice pending' },
  CNL: { code: 3, status: 'CNL', tr: 'Kargo Çıkışı Engellendi', en: 'Dispatch blocked' },
  ISC: { code: 4, status: 'ISC', tr: 'Daha önceden iptal edilmiştir', en: 'Already cancelled' },
  DLV: { code: 5, status: 'DLV', tr: 'Kargo teslim edilmiştir', en: 'Delivered' },
  BI: { code: 6, status: 'BI', tr: 'Fatura şube tarafından iptal edilmiştir', en: 'Invoice cancelled by branch' },
} as const satisfies Record<string, YurticiOperationStatus>;
export type YurticiStatusName = keyof typeof YURTICI_OPERATION_STATUSES;

/** returnStatus: "Return delivery status". */
export const YURTICI_RETURN_STATUSES: Record<number, string> = {
  0: 'Not delivered, return invoice not issued',
  1: 'Delivered, return invoice not issued',
  2: 'Delivered, return invoice issued',
  3: 'Returned to sender',
};

/** rejectStatus: "Values 0, 1, 2, 3, 9, 10 = cargo is in return process. Values 4, 7, 8, 11 = return was initiated but cancelled". */
export const YURTICI_REJECT_STATUSES: Record<number, { text: string; inReturnProcess: boolean }> = {
  0: { text: 'Return request made', inReturnProcess: true },
  1: { text: 'Departure branch approved', inReturnProcess: true },
  2: { text: 'Region approved', inReturnProcess: true },
  3: { text: 'Customer approved', inReturnProcess: true },
  4: { text: 'Awaiting return', inReturnProcess: false },
  7: { text: 'Delivery cancelled', inReturnProcess: false },
  8: { text: 'Billing cancelled', inReturnProcess: false },
  9: { text: 'Return completed', inReturnProcess: true },
  10: { text: 'Return finalized', inReturnProcess: true },
  11: { text: 'Return not approved', inReturnProcess: false },
};

/** README "Return Reason Descriptions (reasonDesc)". */
export const YURTICI_RETURN_REASONS = [
  'Adres Yanlış / Yetersiz',
  'Alıcı Müşteriye Ulaşılamıyor',
  'Çalışma Alanı Olmayan Adres',
  'Hasarlı Kargo İadesi',
  'Alıcı Tarafından Kabul Edilmedi',
  'Ücretinden Dolayı Kabul Edilmedi',
  'Müşteri Adresi Yok',
  'Müşteri Taşınıyor/Ayrılmış/Tatilde',
  'Müşteri İsteği',
  'Not Bırakıldığı Halde Alınmadı',
  'Varış Merkezi Hatası',
] as const;
export type YurticiReturnReason = (typeof YURTICI_RETURN_REASONS)[number];

/**
 * Movement events (invDocCargoVOArray). The document shows one: eventId `YK` "Kargo Indirildi", reasonId `OK`
 * "Sorun Yok". The other ids are **not in the document** (the double's own); an adapter must key on the
 * shipment's operationCode/operationStatus, not on eventId.
 */
export const YURTICI_EVENTS = {
  accepted: { eventId: 'KB', eventName: 'Kargo Kabul Edildi' },
  loaded: { eventId: 'YL', eventName: 'Kargo Yüklendi' },
  unloaded: { eventId: 'YK', eventName: 'Kargo Indirildi' },
  outForDelivery: { eventId: 'DG', eventName: 'Kargo Dağıtıma Çıkarıldı' },
  delivered: { eventId: 'TS', eventName: 'Kargo Teslim Edildi' },
  notDelivered: { eventId: 'TE', eventName: 'Kargo Teslim Edilemedi' },
  returned: { eventId: 'IA', eventName: 'Kargo Göndericiye İade Edildi' },
} as const;
export type YurticiEventKind = keyof typeof YURTICI_EVENTS;
export const YURTICI_REASON_OK = { reasonId: 'OK', reasonName: 'Sorun Yok' } as const;

// --------------------------------------------------------------------------------------------------------------------
// Error codes (README "Error Codes"); `tr` from Turkish rewrites of the same document, `en` from the README
// --------------------------------------------------------------------------------------------------------------------

export interface YurticiError {
  code: number;
  constant: string;
  tr: string;
  en: string;
  /** false: not in the document (the double's choice, see YURTICI-CONTRACT.md) */
  documented: boolean;
}

const e = (code: number, constant: string, tr: string, en: string, documented = true): YurticiError => ({ code, constant, tr, en, documented });

export const YURTICI_ERRORS = {
  unexpected: e(936, '', 'Beklenmeyen hata', 'Unexpected error (contact YK IT)'),
  cargoKeyMissing: e(80859, 'ERR_INTG_CARGO_KEY_PARAM_NOT_FOUND', 'Kargo anahtarı bulunamadı', 'cargoKey missing'),
  cargoKeyLength: e(82500, 'ERR_INTG_CARGO_KEY_PARAM_LENGHT', 'CARGO_KEY parametresi max: 20 uzunluğunda olmalıdır', 'cargoKey too long'),
  cargoKeyExists: e(60020, 'ERR_EXIST_CARGO_KEY_PARAM', 'CARGO_KEY sistemde mevcuttur', 'cargoKey already exists'),
  jobIdNotFound: e(80057, 'MSG_JOB_ID_NOT_FOUND', 'YK talep numarası bulunamadı', 'jobId not found'),
  invoiceKeyMissing: e(60017, 'ERR_INTG_INVOICE_KEY_PARAM_NOT_FOUND', 'Fatura anahtarı bulunamadı', 'invoiceKey missing'),
  invoiceKeyLength: e(82501, 'ERR_INTG_INVOICE_KEY_PARAM_LENGHT', 'INVOICE_KEY parametresi max: 20 uzunluğunda olmalıdır', 'invoiceKey too long'),
  receiverNameMissing: e(60018, 'ERR_INTG_RECEIVER_CUST_NAME_PARAM_NOT_FOUND', 'Alıcı müşteri adı bulunamadı', 'Receiver name missing'),
  receiverNameLength: e(
    82503,
    'ERR_INTG_RECEIVER_CUST_NAME_PARAM_LENGHT',
    'RECEIVER_CUST_NAME parametresi min: 5 max: 200 uzunluğunda olmalıdır',
    'Receiver name too long',
  ),
  receiverAddressMissing: e(60019, 'ERR_INTG_RECEIVER_ADDRESS_PARAM_NOT_FOUND', 'Alıcı adresi bulunamadı', 'Receiver address missing'),
  receiverAddressLength: e(
    82502,
    'ERR_INTG_RECEIVER_ADDRESS_PARAM_LENGHT',
    'RECEIVER_ADDRESS parametresi min: 5 max: 200 uzunluğunda olmalıdır',
    'Receiver address too long',
  ),
  codAmountMissing: e(82505, 'ERR_INTG_TT_INVOICE_AMOUNT_PARAM_NOT_FOUND', 'Tahsilat tutarı bulunamadı', 'COD amount missing'),
  codAmountLength: e(82506, 'ERR_INTG_TT_INVOICE_AMOUNT_PARAM_LENGHT', 'Tahsilat tutarı uzunluk aşımı', 'COD amount too long'),
  codDocumentIdMissing: e(82507, 'ERR_INTG_TT_DOCUMENT_ID_PARAM_NOT_FOUND', 'Tahsilat belge no bulunamadı', 'COD document ID missing'),
  codDocumentIdLength: e(82508, 'ERR_INTG_TT_DOCUMENT_ID_PARAM_LENGHT', 'Tahsilat belge no uzunluk aşımı', 'COD document ID too long'),
  installmentsMissing: e(82509, 'ERR_INTG_DC_SELECTED_CREDIT_NOT_FOUND', 'Taksit seçimi bulunamadı', 'Installment count missing'),
  installmentsLength: e(82510, 'ERR_INTG_DC_SELECTED_CREDIT_LENGHT', 'Taksit seçimi uzunluk aşımı', 'Installment count too long'),
  creditRuleMissing: e(82511, 'ERR_INTG_DC_CREDIT_RULE_NOT_FOUND', 'Kredi kuralı bulunamadı', 'Credit rule missing'),
  paymentTypeMismatch: e(82512, 'ERR_INTG_DC_COLL_CC_WRONG_PARAMETER', 'Müşteri anlaşması ödeme tipi uyuşmuyor', 'Payment type mismatch with contract'),
  codTypeInvalid: e(82513, 'ERR_INTG_TT_COLL_TYPE', 'Hatalı ödeme tipi (0=nakit, 1=kredi kartı)', 'Invalid COD type (must be 0 or 1)'),
  codSaveTypeInvalid: e(82514, 'ERR_INTG_TT_DOC_SAVE_TYPE', 'Hatalı belge kayıt tipi (0=aynı, 1=ayrı)', 'Invalid document save type (must be 0 or 1)'),
  emailInvalid: e(82515, 'ERR_INTG_EMAIL_ADDRESS_INVALID_PARAMETER', 'Geçersiz e-posta adresi', 'Invalid email address'),
  phoneInvalid: e(82516, 'ERR_INTG_RECEIVER_PHONE_INVALID_PARAMETER', 'Geçersiz telefon numarası', 'Invalid phone number'),
  invalidFormat: e(82517, 'ERR_INTG_INVALID_PARAMETER', 'Geçersiz format bilgisi', 'Invalid format'),
  creditRuleInvalid: e(82518, 'ERR_INTG_DC_CREDIT_RULE_WRONG_PARAMETER', 'Kredi kuralı hatalı parametre', 'Invalid credit rule value'),
  cargoKeyNotFound: e(82519, 'ERR_INTG_CARGO_KEY_NOT_FOUND', 'Kullanıcıya ait kargo anahtarı bulunamadı', 'cargoKey not found for this user'),
  cargoKeyCancelled: e(82520, 'ERR_INTG_CARGO_KEY_OPERATION_CANCELLED', 'Kargo anahtarı daha önceden iptal edilmiş', 'cargoKey already cancelled'),
  keysMissing: e(82526, 'ERR_INTG_KEYS_NOT_FOUND', 'KEYS parametresi boş veya eksik', 'keys parameter missing'),
  keyTypeInvalid: e(82527, 'ERR_INTG_KEY_TYPE_NOT_FOUND', 'KEY_TYPE parametresi boş veya eksik', 'keyType parameter invalid'),
  /** Not in the document: the README says only "repeated queries within 1 minute are blocked". Code and text are the double's. */
  queryTooSoon: e(
    82599,
    'ERR_INTG_QUERY_REPEATED_WITHIN_ONE_MINUTE',
    'Aynı kargo 1 dakika içinde tekrar sorgulanamaz',
    'The same shipment cannot be queried again within 1 minute',
    false,
  ),
} as const satisfies Record<string, YurticiError>;
export type YurticiErrorName = keyof typeof YURTICI_ERRORS;

/** Whole-call refusals (outFlag 1, no detail): credentials and language. Not in the document: wording the double's. */
export const YURTICI_CALL_REFUSALS = {
  /** Wording quoted by a Turkish rewrite of the document ("Web servis kullanıcı dili boş olamaz"). */
  languageMissing: { tr: 'Web servis kullanıcı dili boş olamaz', en: 'Web service user language cannot be empty' },
  languageInvalid: { tr: 'Web servis kullanıcı dili geçersiz (TR veya EN)', en: 'Web service user language is invalid (TR or EN)' },
  credentials: { tr: 'Web servis kullanıcı adı veya şifresi hatalı', en: 'Web service user name or password is wrong' },
  noShipment: { tr: 'ShippingOrderVO bilgisi bulunamadı', en: 'No ShippingOrderVO was sent' },
  cargoKeysMissing: { tr: 'CARGO_KEYS parametresi boş veya eksik', en: 'cargoKeys parameter missing' },
} as const;

export const YURTICI_OUT_RESULT = {
  ok: { tr: 'Başarılı', en: 'Successful' },
  someFailed: { tr: 'Bazı kayıtlar hatalı', en: 'Some records have errors' },
  allFailed: { tr: 'Hatalı kayıt', en: 'All records have errors' },
} as const;

// --------------------------------------------------------------------------------------------------------------------
// ShippingOrderVO (README "createShipment Parameters", XML types from the WSDL schema)
// --------------------------------------------------------------------------------------------------------------------

export interface ShippingOrderField {
  name: string;
  /** xs type in the WSDL schema: numbers that are not numbers make the service fault (unmarshalling) */
  xsType: 'string' | 'long' | 'int' | 'double';
  /** README length, String(n) / Long(n) / Integer(n) / Double(p,s) */
  max?: number;
  scale?: number;
}

/** In the WSDL schema's order (propOrder of ShippingOrderVO). */
export const SHIPPING_ORDER_FIELDS: readonly ShippingOrderField[] = [
  { name: 'cargoKey', xsType: 'string', max: 20 },
  { name: 'invoiceKey', xsType: 'string', max: 20 },
  { name: 'receiverCustName', xsType: 'string', max: 200 },
  // README: String(500) column, "min 5, max 200 chars" in the text: the double applies the text (stricter)
  { name: 'receiverAddress', xsType: 'string', max: 200 },
  { name: 'cityName', xsType: 'string', max: 40 },
  { name: 'townName', xsType: 'string', max: 40 },
  { name: 'receiverPhone1', xsType: 'string', max: 20 },
  { name: 'receiverPhone2', xsType: 'string', max: 20 },
  { name: 'receiverPhone3', xsType: 'string', max: 20 },
  { name: 'emailAddress', xsType: 'string', max: 200 },
  { name: 'taxOfficeId', xsType: 'long', max: 8 },
  { name: 'taxNumber', xsType: 'string', max: 11 },
  { name: 'taxOfficeName', xsType: 'string', max: 60 },
  { name: 'desi', xsType: 'double', max: 9, scale: 3 },
  { name: 'kg', xsType: 'double', max: 9, scale: 3 },
  { name: 'cargoCount', xsType: 'int', max: 4 },
  { name: 'waybillNo', xsType: 'string', max: 20 },
  { name: 'specialField1', xsType: 'string', max: 200 },
  { name: 'specialField2', xsType: 'string', max: 100 },
  { name: 'specialField3', xsType: 'string', max: 100 },
  { name: 'ttInvoiceAmount', xsType: 'double', max: 18, scale: 2 },
  { name: 'ttDocumentId', xsType: 'long', max: 12 },
  { name: 'ttCollectionType', xsType: 'string', max: 1 },
  { name: 'ttDocumentSaveType', xsType: 'string', max: 1 },
  { name: 'dcSelectedCredit', xsType: 'long', max: 2 },
  { name: 'dcCreditRule', xsType: 'long', max: 2 },
  { name: 'description', xsType: 'string', max: 255 },
  { name: 'orgGeoCode', xsType: 'string', max: 20 },
  { name: 'privilegeOrder', xsType: 'string', max: 10 },
  { name: 'custProdId', xsType: 'string' },
  { name: 'orgReceiverCustId', xsType: 'string', max: 50 },
];

/** Children of each operation element (unqualified, as the WSDL schema declares them). */
export const OPERATION_FIELDS: Record<YurticiOperation, readonly string[]> = {
  createShipment: ['wsUserName', 'wsPassword', 'userLanguage', 'ShippingOrderVO'],
  queryShipment: ['wsUserName', 'wsPassword', 'wsLanguage', 'keys', 'keyType', 'addHistoricalData', 'onlyTracking'],
  cancelShipment: ['wsUserName', 'wsPassword', 'userLanguage', 'cargoKeys'],
};

/** README "Special Fields": `{fieldId}${value}#…`, e.g. `1$426031#2$397427#`. */
export const SPECIAL_FIELD1_PATTERN = /^(\d+\$[^$#]*#)*$/;
/** README "Phone with area code (10 digits)", example `02123652426`: 10 digits, optionally after a trunk 0. */
export const PHONE_PATTERN = /^0?[1-9]\d{9}$/;
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

// --------------------------------------------------------------------------------------------------------------------
// Turkish time (UTC+3 all year since 2016): eventDate 20110711, eventTime 082304
// --------------------------------------------------------------------------------------------------------------------

const TURKEY_OFFSET_MS = 3 * 3600 * 1000;
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

export function ykDate(d: Date): string {
  const t = new Date(d.getTime() + TURKEY_OFFSET_MS);
  return `${t.getUTCFullYear()}${pad(t.getUTCMonth() + 1)}${pad(t.getUTCDate())}`;
}

export function ykTime(d: Date): string {
  const t = new Date(d.getTime() + TURKEY_OFFSET_MS);
  return `${pad(t.getUTCHours())}${pad(t.getUTCMinutes())}${pad(t.getUTCSeconds())}`;
}

/** The instant of a (YYYYMMDD, HHMMSS) pair in Turkish time, for tests and adapters. */
export function fromYk(date: string, time: string): Date {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(date);
  const n = /^(\d{2})(\d{2})(\d{2})$/.exec(time);
  if (!m || !n) throw new Error(`not a Yurtiçi date/time: ${date} ${time}`);
  return new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +n[1], +n[2], +n[3]) - TURKEY_OFFSET_MS);
}

/** Counts letters (Turkish included) for "min 4 letters" of receiverCustName. */
export const letterCount = (s: string): number => (s.match(/\p{L}/gu) ?? []).length;
