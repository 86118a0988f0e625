/**
 * Tables, field rules, XML helpers and answer builders of the Aras Kargo test double (aras-double.ts). Sources and every
 * choice where Aras' documents are silent: ARAS-CONTRACT.md next to this file.
 */
import { XMLBuilder, XMLValidator } from 'fast-xml-parser';
import { parseXmlElement, type XmlElement } from './xml-elements';
import { SENDEO_CITIES, foldTurkish, upperTr } from './sendeo.schemas';

export { foldTurkish, upperTr };

// --------------------------------------------------------------------------------------------------------------------
// Services, namespaces, test accounts
// --------------------------------------------------------------------------------------------------------------------

/** Sevkiyat Entegrasyonu test link path (`…/arascargoservice/arascargoservice.asmx`); the live path `/arascargoservice.asmx` is served too. */
export const ARAS_ORDER_SERVICE_PATH = '/arascargoservice/arascargoservice.asmx';
export const ARAS_ORDER_SERVICE_LIVE_PATH = '/arascargoservice.asmx';
/** Müşteri Bilgi Sorgulama test link path (a WCF service: `ArasCargoIntegrationService.svc`). */
export const ARAS_QUERY_SERVICE_PATH = '/ArasCargoIntegrationService.svc';

export const TEMPURI = 'http://tempuri.org/';
export const SOAP11_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
export const SOAP12_NS = 'http://www.w3.org/2003/05/soap-envelope';
/** The WCF service contract name in the query service's SOAPAction (`http://tempuri.org/IArasCargoIntegrationService/GetQueryJSON`). */
export const ARAS_QUERY_CONTRACT = 'IArasCargoIntegrationService';

/** Sevkiyat Entegrasyonu "Test Ortamı İçin" credentials (SetOrder, GetOrder, GetOrderWithIntegrationCode, CancelDispatch). */
export const ARAS_TEST_ORDER_CREDENTIALS = { userName: 'neodyum', password: 'nd2580' } as const;
/** Müşteri Bilgi Sorgulama "Test Ortamı Bilgileri": its own LoginInfo (UserName, Password, CustomerCode). */
export const ARAS_TEST_QUERY_CREDENTIALS = { userName: 'neodyum', password: 'nd2580', customerCode: '1932448851342' } as const;

export type ArasOrderOperation = 'SetOrder' | 'GetOrder' | 'GetOrderWithIntegrationCode' | 'CancelDispatch';
export type ArasQueryOperation = 'GetQueryJSON' | 'GetQueryXML';
export type ArasOperation = ArasOrderOperation | ArasQueryOperation;
export const ARAS_ORDER_OPERATIONS: readonly ArasOrderOperation[] = ['SetOrder', 'GetOrder', 'GetOrderWithIntegrationCode', 'CancelDispatch'];
export const ARAS_QUERY_OPERATIONS: readonly ArasQueryOperation[] = ['GetQueryJSON', 'GetQueryXML'];

// --------------------------------------------------------------------------------------------------------------------
// Result codes (ArasKargoSevkiyatEntegrasyonu.pdf: SetOrder "geri dönüş kodları", CancelDispatch "geri dönüş kodları")
// --------------------------------------------------------------------------------------------------------------------

export interface ArasResult {
  code: number;
  message: string;
}

/** SetOrder's table. Messages that start "Sipariş Numaralı" get the IntegrationCode in front (see ARAS-CONTRACT.md). */
export const ARAS_SETORDER_RESULTS = {
  success: { code: 0, message: 'Başarılı' },
  phoneNotNumeric: { code: 935, message: 'ReceiverPhone1 (Telefon 1) alanı sadece sayılardan oluşmalıdır.' },
  updateError: { code: 936, message: 'Güncelleme hatası' },
  integrationCodeRequired: { code: 937, message: 'Sipariş Numarasını Girmeniz Gerekmektedir' },
  receiverAddressRequired: { code: 938, message: 'Alıcı Adresini Girmeniz Gerekmektedir' },
  receiverNameRequired: { code: 939, message: 'Alıcı Adını Girmeniz Gerekmektedir' },
  cityRequired: { code: 940, message: 'Şehir Adını Girmeniz Gerekmektedir' },
  townRequired: { code: 941, message: 'İlçe Adını Girmeniz Gerekmektedir' },
  receiverPaysCod: { code: 942, message: 'Alıcı Ödemeli Tahsilatlı Kargo Gönderisi Yapılamamaktadır' },
  wrongCredentials: { code: 1000, message: 'Kullanıcı Adı ve Şifreniz Yanlıştır' },
  waybillCut: { code: 60020, message: 'Sipariş Numaralı gönderinin irsaliyesi kesildiği için bilgilerini güncelleyemezsiniz' },
  noOrder: { code: 60021, message: 'En az bir adet sipariş bilgisi göndermeniz gerekmektedir' },
  addressTooLong: { code: 70018, message: 'ReceiverAddress alanı en fazla 250 karakter olabilir' },
  invoiceTooLong: { code: 70019, message: 'InvoiceKey alanı en fazla 20 karakter olabilir' },
  pieceCountMismatch: { code: 70020, message: 'Toplam parça sayısı ile gönderilen parça sayısı eşit değil' },
  pieceCountRequired: { code: 70021, message: 'Toplam parça sayısını göndermeniz gerekmektedir' },
  barcodeMissing: { code: 70022, message: 'Sipariş Numaralı gönderinin parça bilgilerinde barcode bilgisi eksik' },
  volumeNotDecimal: { code: 70026, message: 'Volume değeri decimal bir alan olmalıdır' },
  barcodeUsed: { code: 70027, message: 'Bu barkod daha önce gönderilmiş' },
  kgNotDecimal: { code: 70028, message: 'Kg değeri decimal bir alan olmalıdır' },
  duplicateBarcode: { code: 70030, message: 'Parçaların barkod numaraları aynı olamaz' },
  payorType: { code: 70032, message: 'Ödeme Tipi (PayorTypeCode) sadece 1 veya 2 olabilir. Farklı bir değer göndermemeniz gerekmektedir.' },
  codCollectionType: { code: 70033, message: 'Tahsilat Tipi (CodCollectionType) sadece 0 veya 1 olabilir. Farklı bir değer göndermemeniz gerekmektedir.' },
  isCod: { code: 70034, message: '(IsCod) sadece 0 veya 1 olabilir. Farklı bir değer göndermemeniz gerekmektedir.' },
  tooManyUpdates: {
    code: 70035,
    message: 'Bir siparişe ait bilgileri en fazla 20 kez gönderebilirsiniz. Bu siparişe ait yeni bir bilgi gönderemezsiniz.',
  },
} as const satisfies Record<string, ArasResult>;

/** "Bir siparişe ait bilgileri en fazla 20 kez gönderebilirsiniz" (70035). */
export const ARAS_MAX_SENDS_PER_ORDER = 20;

/** CancelDispatch's table. Success is documented twice: 0 "Başarılı" and 1 "orderCode + ' Başarılı bir şekilde silindi.'". */
export const ARAS_CANCEL_RESULTS = {
  waybillCut: { code: 999, message: 'İrsaliyesi Kesilmiş Sipariş İptal Edilemez.' },
  error: { code: 936, message: 'Hata oluştu' },
  success: { code: 0, message: 'Başarılı' },
  deleted: { code: 1, message: ' Başarılı bir şekilde silindi.' },
  notFound: { code: -1, message: 'Kayıt bulunamadı' },
  wrongCredentials: { code: -2, message: 'Kullanıcı adı ve Şifreniz hatalıdır.' },
} as const satisfies Record<string, ArasResult>;

// --------------------------------------------------------------------------------------------------------------------
// Order fields (SetOrder "Servis Parametreleri" and PieceDetail tables)
// --------------------------------------------------------------------------------------------------------------------

export type FieldKind = 'string' | 'decimal' | 'integer';
export interface FieldRule {
  kind: FieldKind;
  /** String(n): characters; Integer(n)/Long(n): digits */
  max?: number;
  /** Double(p, s): digits after the point */
  scale?: number;
}

/** The Order element's children in the table's order (plus SenderAccountAddressId, which only the XML example shows). */
export const ARAS_ORDER_FIELDS: Readonly<Record<string, FieldRule>> = {
  UserName: { kind: 'string' },
  Password: { kind: 'string' },
  TradingWaybillNumber: { kind: 'string', max: 16 },
  InvoiceNumber: { kind: 'string', max: 20 },
  IntegrationCode: { kind: 'string', max: 32 },
  ReceiverName: { kind: 'string', max: 100 },
  ReceiverAddress: { kind: 'string', max: 250 },
  // String(10) in the table, but both of the document's own examples send 11 digits ("02165385562"): see the contract
  ReceiverPhone1: { kind: 'string', max: 11 },
  ReceiverPhone2: { kind: 'string', max: 11 },
  ReceiverPhone3: { kind: 'string', max: 11 },
  ReceiverCityName: { kind: 'string', max: 40 },
  ReceiverTownName: { kind: 'string', max: 16 },
  VolumetricWeight: { kind: 'decimal', max: 9, scale: 3 },
  Weight: { kind: 'decimal', max: 9, scale: 3 },
  PieceCount: { kind: 'integer', max: 2 },
  SpecialField1: { kind: 'string', max: 200 },
  SpecialField2: { kind: 'string', max: 100 },
  SpecialField3: { kind: 'string', max: 100 },
  IsCod: { kind: 'string', max: 1 },
  CodAmount: { kind: 'decimal', max: 18, scale: 2 },
  CodCollectionType: { kind: 'string', max: 1 },
  CodBillingType: { kind: 'string', max: 1 },
  Description: { kind: 'string', max: 255 },
  TaxNumber: { kind: 'string', max: 15 },
  TaxOffice: { kind: 'integer', max: 8 },
  PrivilegeOrder: { kind: 'string', max: 20 },
  CityCode: { kind: 'string', max: 32 },
  TownCode: { kind: 'string', max: 32 },
  ReceiverDistrictName: { kind: 'string', max: 64 },
  ReceiverQuarterName: { kind: 'string', max: 64 },
  ReceiverAvenueName: { kind: 'string', max: 64 },
  ReceiverStreetName: { kind: 'string', max: 64 },
  PayorTypeCode: { kind: 'integer', max: 1 },
  IsWorldWide: { kind: 'integer', max: 1 },
  SenderAccountAddressId: { kind: 'string' },
};
/** `PieceDetails` is a list of `PieceDetail`, handled apart from the scalar fields. */
export const ARAS_ORDER_LIST_FIELD = 'PieceDetails';

export const ARAS_PIECE_FIELDS: Readonly<Record<string, FieldRule>> = {
  VolumetricWeight: { kind: 'string', max: 6 },
  Weight: { kind: 'string', max: 6 },
  BarcodeNumber: { kind: 'string', max: 64 },
  ProductNumber: { kind: 'string', max: 32 },
  Description: { kind: 'string', max: 64 },
};

/** A decimal as .NET parses it with the invariant culture: digits, an optional point and fraction ("1,5" is not one). */
export const isDecimal = (v: string): boolean => /^\d+(\.\d+)?$/.test(v.trim());
export const isDigits = (v: string): boolean => /^\d+$/.test(v.trim());

// --------------------------------------------------------------------------------------------------------------------
// Cities and towns
// --------------------------------------------------------------------------------------------------------------------

/** The 81 provinces by plate code (shared with the Sendeo double: it is Türkiye's list, not a carrier's). */
export const ARAS_CITIES: Readonly<Record<number, string>> = SENDEO_CITIES;

/**
 * Towns (ilçe) the double checks ReceiverTownName against, for the three biggest cities. Other cities take any town name
 * (the double does not know their lists). Former names still in use are listed as aliases (Eyüp, Kazan).
 */
export const ARAS_TOWNS: Readonly<Record<string, readonly string[]>> = {
  İstanbul: [
    'Adalar',
    'Arnavutköy',
    'Ataşehir',
    'Avcılar',
    'Bağcılar',
    'Bahçelievler',
    'Bakırköy',
    'Başakşehir',
    'Bayrampaşa',
    'Beşiktaş',
    'Beykoz',
    'Beylikdüzü',
    'Beyoğlu',
    'Büyükçekmece',
    'Çatalca',
    'Çekmeköy',
    'Esenler',
    'Esenyurt',
    'Eyüpsultan',
    'Eyüp',
    'Fatih',
    'Gaziosmanpaşa',
    'Güngören',
    'Kadıköy',
    'Kağıthane',
    'Kartal',
    'Küçükçekmece',
    'Maltepe',
    'Pendik',
    'Sancaktepe',
    'Sarıyer',
    'Silivri',
    'Sultanbeyli',
    'Sultangazi',
    'Şile',
    'Şişli',
    'Tuzla',
    'Ümraniye',
    'Üsküdar',
    'Zeytinburnu',
  ],
  Ankara: [
    'Akyurt',
    'Altındağ',
    'Ayaş',
    'Bala',
    'Beypazarı',
    'Çamlıdere',
    'Çankaya',
    'Çubuk',
    'Elmadağ',
    'Etimesgut',
    'Evren',
    'Gölbaşı',
    'Güdül',
    'Haymana',
    'Kahramankazan',
    'Kazan',
    'Kalecik',
    'Keçiören',
    'Kızılcahamam',
    'Mamak',
    'Nallıhan',
    'Polatlı',
    'Pursaklar',
    'Sincan',
    'Şereflikoçhisar',
    'Yenimahalle',
  ],
  İzmir: [
    'Aliağa',
    'Balçova',
    'Bayındır',
    'Bayraklı',
    'Bergama',
    'Beydağ',
    'Bornova',
    'Buca',
    'Çeşme',
    'Çiğli',
    'Dikili',
    'Foça',
    'Gaziemir',
    'Güzelbahçe',
    'Karabağlar',
    'Karaburun',
    'Karşıyaka',
    'Kemalpaşa',
    'Kınık',
    'Kiraz',
    'Konak',
    'Menderes',
    'Menemen',
    'Narlıdere',
    'Ödemiş',
    'Seferihisar',
    'Selçuk',
    'Tire',
    'Torbalı',
    'Urla',
  ],
};

/** The province a city name means (ignoring case and Turkish letters: "İSTANBUL", "istanbul", "Istanbul"), or undefined. */
export function arasCity(name: string): string | undefined {
  const folded = foldTurkish(name);
  return Object.values(ARAS_CITIES).find((c) => foldTurkish(c) === folded);
}

/** Whether the town is known in the city: always for cities without a list in ARAS_TOWNS. */
export function arasTownKnown(city: string, town: string): boolean {
  const towns = ARAS_TOWNS[city];
  return !towns || towns.some((t) => foldTurkish(t) === foldTurkish(town));
}

// --------------------------------------------------------------------------------------------------------------------
// Shipment statuses (Müşteri Bilgi Sorgulama: DURUM KODU, TİP KODU, DEVİR KODLARI)
// --------------------------------------------------------------------------------------------------------------------

/** DURUM KODU: "1:Çıkış Şubesinde, 2:Yolda, 3:Teslimat Şubesinde, 4:Teslimatta, 5:Parçalı Teslimat, 6:Teslim Edildi, 7:Yönlendirildi". */
export const ARAS_STATUSES: Readonly<Record<number, { tr: string; en: string }>> = {
  1: { tr: 'ÇIKIŞ ŞUBESİNDE', en: 'AT DEPARTURE BRANCH' },
  2: { tr: 'YOLDA', en: 'IN TRANSIT' },
  3: { tr: 'TESLİMAT ŞUBESİNDE', en: 'AT DELIVERY BRANCH' },
  4: { tr: 'TESLİMATTA', en: 'OUT FOR DELIVERY' },
  5: { tr: 'PARÇALI TESLİMAT', en: 'PARTIALLY DELIVERED' },
  6: { tr: 'TESLİM EDİLDİ', en: 'DELIVERED' },
  7: { tr: 'YÖNLENDİRİLDİ', en: 'REDIRECTED' },
};

/** TİP KODU: "1:Normal, 2:Yönlendirildi, 3:İade edildi". */
export const ARAS_TYPE_NORMAL = 1;
export const ARAS_TYPE_REDIRECTED = 2;
export const ARAS_TYPE_RETURNED = 3;

/** DEVİR KODLARI VE NEDENLERİ (section 2.3): code → [ID, reason]. */
export const ARAS_DEVIR_CODES: Readonly<Record<string, { id: number; reason: string }>> = {
  AY: { id: 10, reason: 'ADRES YANLIŞ/YETERSİZ' },
  NT: { id: 11, reason: 'UĞRAMA NOTU BIRAKILDI (1-2)' },
  MD: { id: 12, reason: 'MOBİL DAĞITIM GÜNÜNDE TESLİMATA ÇIKARILACAK' },
  TL: { id: 14, reason: 'TATİL DOLAYISIYLA TESLİMAT YAPILAMADI' },
  ŞA: { id: 15, reason: 'MÜŞTERİ KARGOSUNU ŞUBEDEN ALACAK' },
  AD: { id: 17, reason: 'ALICI ADRESİ DAĞITIM ALANI DIŞINDA' },
  TG: { id: 18, reason: 'TESLİMAT GÜN İÇERİSİNDE YAPILAMADI' },
  AA: { id: 20, reason: 'ALICI ADRESTE TANINMIYOR' },
  HT: { id: 22, reason: 'HASARLI/TAZMİNLİK KARGO/SORUNLU KARGO(İADE-GÖNDERİCİ VE ALICININ KABUL ETMEDİĞİ)' },
  KG: { id: 26, reason: 'KARGO GÜMRÜKTE' },
  PR: { id: 32, reason: 'PRATİK 7/24' },
  ÜR: { id: 33, reason: 'ALICI TAŞIMA ÜCRETİNİ ÖDEMEYİ REDDETTİ' },
  KE: { id: 34, reason: 'ALICI KARGOYU KABUL ETMİYOR' },
  TT: { id: 45, reason: 'TERCİHLİ TESLİMAT' },
  PS: { id: 47, reason: 'PARÇA SORUNLU/TESLİM EDİLEMEDİ' },
  TO: { id: 51, reason: 'TOPLUMSAL OLAYLAR' },
};

/**
 * The steps the double's `advance()` moves a shipment through. `received` is the branch accepting the cargo and cutting
 * the waybill (irsaliye): the tracking number exists from then on, and CancelDispatch and SetOrder updates are refused.
 */
export type ArasStep =
  'received' | 'inTransit' | 'atDeliveryBranch' | 'outForDelivery' | 'delivered' | 'partiallyDelivered' | 'notDelivered' | 'returned' | 'redirected';

/** What each step does to DURUM KODU / TİP KODU and the movement (İŞLEM, AÇIKLAMA) QueryType 9 shows. */
export const ARAS_STEPS: Readonly<Record<ArasStep, { status: number; type?: number; operation: string; description: string }>> = {
  received: { status: 1, operation: 'Kargo kabul', description: 'Kargo çıkış şubesinde teslim alındı, irsaliye düzenlendi' },
  inTransit: { status: 2, operation: 'Şubede araç yükleme', description: 'Kargo transfer merkezine gönderilmek üzere araca yüklendi' },
  atDeliveryBranch: { status: 3, operation: 'Şubede araç indirme', description: 'Kargo teslimat şubesine ulaştı' },
  outForDelivery: { status: 4, operation: 'Dağıtıma çıkış', description: 'Kargo teslim edilmek üzere dağıtıma çıkarıldı' },
  partiallyDelivered: { status: 5, operation: 'Parçalı teslimat', description: 'Kargonun bir kısmı alıcıya teslim edildi' },
  delivered: { status: 6, operation: 'Teslimat', description: 'Kargo teslim edildi' },
  notDelivered: { status: 3, operation: 'Devir', description: 'Kargo teslim edilemedi, teslimat şubesinde bekliyor' },
  returned: { status: 2, type: ARAS_TYPE_RETURNED, operation: 'İade', description: 'Kargo göndericisine iade edildi' },
  redirected: { status: 7, type: ARAS_TYPE_REDIRECTED, operation: 'Yönlendirme', description: 'Kargo başka bir şubeye yönlendirildi' },
};

// --------------------------------------------------------------------------------------------------------------------
// Turkish time
// --------------------------------------------------------------------------------------------------------------------

/** Türkiye is on UTC+3 all year since 2016: the double renders every time as Turkish wall-clock time, without an offset. */
const TR_OFFSET_MS = 3 * 3600 * 1000;
const two = (n: number) => String(n).padStart(2, '0');
const trParts = (d: Date) => {
  const t = new Date(d.getTime() + TR_OFFSET_MS);
  return {
    y: t.getUTCFullYear(),
    mo: two(t.getUTCMonth() + 1),
    d: two(t.getUTCDate()),
    h: two(t.getUTCHours()),
    mi: two(t.getUTCMinutes()),
    s: two(t.getUTCSeconds()),
  };
};
/** `dd.MM.yyyy` (the documents' date format, "01.02.2015"). */
export function arasDate(d: Date): string {
  const p = trParts(d);
  return `${p.d}.${p.mo}.${p.y}`;
}
/** `HH:mm` (TESLİM SAATİ). */
export function arasTime(d: Date): string {
  const p = trParts(d);
  return `${p.h}:${p.mi}`;
}
/** `dd.MM.yyyy HH:mm:ss` (İŞLEM TARİHİ). */
export function arasDateTime(d: Date): string {
  const p = trParts(d);
  return `${p.d}.${p.mo}.${p.y} ${p.h}:${p.mi}:${p.s}`;
}
/** A `gg.aa.yyyy` / `gg,aa,yyyy` / `gg/aa/yyyy` date (GetDispatch's accepted formats) as the Turkish day's `dd.MM.yyyy`. */
export function parseArasDate(v: string): string | undefined {
  const m = /^\s*(\d{1,2})[.,/](\d{1,2})[.,/](\d{4})\s*$/.exec(v);
  if (!m) return undefined;
  const [day, month, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCDate() !== day || probe.getUTCMonth() !== month - 1) return undefined;
  return `${two(day)}.${two(month)}.${year}`;
}

// --------------------------------------------------------------------------------------------------------------------
// XML: parsing with namespaces
// --------------------------------------------------------------------------------------------------------------------

export type { XmlElement } from './xml-elements';

/** Where the XML is not well-formed: `{line, col, message}`, or undefined when it is. */
export function xmlError(xml: string): { line: number; col: number; message: string } | undefined {
  const r = XMLValidator.validate(xml);
  return r === true ? undefined : { line: r.err.line, col: r.err.col, message: r.err.msg };
}

/** Parses well-formed XML (check with xmlError first) into its root element, resolving namespaces; undefined for no root. */
export const parseXml = parseXmlElement;

export const child = (el: XmlElement | undefined, local: string, ns?: string): XmlElement | undefined =>
  el?.children.find((c) => c.local === local && (ns === undefined || c.ns === ns));

/** `{ns}name` for messages about elements in an unexpected namespace. */
export const clark = (el: XmlElement): string => (el.ns ? `{${el.ns}}${el.local}` : el.local);

// --------------------------------------------------------------------------------------------------------------------
// XML: answers
// --------------------------------------------------------------------------------------------------------------------

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', suppressEmptyNode: true, processEntities: true });
const DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';

export type SoapVersion = '1.1' | '1.2';

/** The .asmx answer envelope (`soap:` prefix, xsi/xsd declared as ASP.NET writes them) around one body element. */
export function asmxEnvelope(version: SoapVersion, body: Record<string, unknown>): string {
  return (
    DECLARATION +
    builder.build({
      'soap:Envelope': {
        '@_xmlns:soap': version === '1.1' ? SOAP11_NS : SOAP12_NS,
        '@_xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
        '@_xmlns:xsd': 'http://www.w3.org/2001/XMLSchema',
        'soap:Body': body,
      },
    })
  );
}

/** The WCF basicHttpBinding answer envelope (`s:` prefix, no declaration) around one body element. */
export function wcfEnvelope(body: Record<string, unknown>): string {
  return builder.build({ 's:Envelope': { '@_xmlns:s': SOAP11_NS, 's:Body': body } });
}

/** A SOAP fault as ASP.NET .asmx writes it: SOAP 1.1 faultcode/faultstring, SOAP 1.2 Code/Reason. */
export function asmxFault(version: SoapVersion, side: 'Client' | 'Server', message: string): string {
  if (version === '1.1') {
    return asmxEnvelope('1.1', { 'soap:Fault': { faultcode: `soap:${side}`, faultstring: message, detail: '' } });
  }
  return asmxEnvelope('1.2', {
    'soap:Fault': {
      'soap:Code': { 'soap:Value': side === 'Client' ? 'soap:Sender' : 'soap:Receiver' },
      'soap:Reason': { 'soap:Text': { '@_xml:lang': 'en', '#text': message } },
      'soap:Detail': '',
    },
  });
}

/** A WCF fault: `faultcode` may be a dispatcher code (`a:ActionNotSupported`) declared in its own namespace. */
export function wcfFault(code: string, message: string): string {
  const dispatcher = code.startsWith('a:');
  return wcfEnvelope({
    's:Fault': {
      faultcode: dispatcher ? { '@_xmlns:a': 'http://schemas.microsoft.com/net/2005/12/windowscommunicationfoundation/dispatcher', '#text': code } : code,
      faultstring: { '@_xml:lang': 'en-US', '#text': message },
    },
  });
}

export const asmxResponse = (operation: string, result: unknown): Record<string, unknown> => ({
  [`${operation}Response`]: { '@_xmlns': TEMPURI, [`${operation}Result`]: result },
});

// --------------------------------------------------------------------------------------------------------------------
// Query results (GetQueryJSON / GetQueryXML)
// --------------------------------------------------------------------------------------------------------------------

export type QueryRow = Record<string, string>;

/**
 * How a result with one row is written in GetQueryJSON: `xml-node` (default) as Json.NET's SerializeXmlNode writes a
 * DataSet's XML, i.e. one row as an object and several as an array; `array` always an array.
 */
export type ArasJsonRowShape = 'xml-node' | 'array';

/** `{"QueryResult": {"<table>": row | rows}}`, or `{"QueryResult": null}` with no rows; every value a string. */
export function queryJson(table: string, rows: QueryRow[], shape: ArasJsonRowShape): string {
  if (rows.length === 0) return JSON.stringify({ QueryResult: null });
  return JSON.stringify({ QueryResult: { [table]: rows.length === 1 && shape === 'xml-node' ? rows[0] : rows } });
}

/** `<QueryResult><table>…</table>…</QueryResult>` (DataSet.GetXml), `<QueryResult />` with no rows. */
export function queryXml(table: string, rows: QueryRow[]): string {
  if (rows.length === 0) return '<QueryResult />';
  return builder.build({ QueryResult: { [table]: rows } });
}

/** QueryType 1/11/100 columns (the ASCII upper-snake names of QueryType 37/39, which the JSON keys use). Empty columns are left out. */
export const ARAS_CARGO_COLUMNS = [
  'MUSTERI_OZEL_KODU',
  'IRSALIYE_NUMARA',
  'GONDERICI',
  'ALICI',
  'KARGO_LINK_NO',
  'KARGO_TAKIP_NO',
  'CIKIS_SUBE',
  'VARIS_SUBE',
  'CIKIS_TARIH',
  'ADET',
  'DESI',
  'ODEME_TIPI',
  'TUTAR',
  'REFERANS',
  'TESLIM_ALAN',
  'TESLIM_TARIHI',
  'TESLIM_SAATI',
  'VARIS_KODU',
  'TIP_KODU',
  'DURUM_KODU',
  'DURUMU',
  'IADE_SEBEBI',
  'DEVIR_KODU',
  'WORLDWIDE',
  'KARGO_KODU',
  'DURUM_EN',
] as const;

/** QueryType 11's extra columns (tahsilatlı kargo). */
export const ARAS_COD_COLUMNS = ['TAHSILAT_TUTARI', 'TAHSILAT_TIPI'] as const;

/** QueryType 9 columns: İŞLEM TARİHİ, BİRİM, İŞLEM, AÇIKLAMA. */
export const ARAS_MOVEMENT_COLUMNS = ['ISLEM_TARIHI', 'BIRIM', 'ISLEM', 'ACIKLAMA'] as const;

/** Keeps the columns in `columns` order and drops empty ones (a DataSet's XML has no element for a NULL column). */
export function row(columns: readonly string[], values: Record<string, string | number | undefined>): QueryRow {
  const out: QueryRow = {};
  for (const c of columns) {
    const v = values[c];
    if (v !== undefined && v !== '') out[c] = String(v);
  }
  return out;
}

/** Escapes text for a hand-built XML string (the loginInfo/queryInfo parameters). */
export const escapeXml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
