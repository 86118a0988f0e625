/**
 * Sürat Kargo web service contract (`services.asmx`, ASP.NET ASMX, SOAP 1.1 and 1.2), transcribed by hand for the test
 * double in `surat-double.ts`.
 *
 * Sources (search library):
 *  - `tcgunel/omniship-surat` (commit 0279727): `README.md` (hosts, the three credentials, test accounts, operations,
 *    the `Gonderi` field table, COD and EkHizmetler notes), `src/Message/*.php` (the request parameters each operation
 *    sends) and `tests/Message/*Test.php` (the only answer samples: `MesajTipi` {isError, Message, Barcode},
 *    `GonderiGeriCekResult` strings, `KargoTakipHareketDetayliV2Result` lines `Durum|yyyy-MM-dd HH:mm:ss|Birim`).
 *  - `yalcinicoz/ECSProsAI` (commit c61c22d7) `docs/APIDocs/SuratWSDL.xml`: the production service description (element
 *    names, XML types, minOccurs, the namespace `http://tempuri.org/`, SOAP 1.1 and 1.2 bindings, SOAPAction values).
 * Everything the documents do not say is marked "not in the document" here and in SURAT-CONTRACT.md.
 *
 * Binding model (ASP.NET XmlSerializer, document/literal, elementFormDefault="qualified"): elements match by exact
 * local name AND the namespace `http://tempuri.org/` (a prefix is only a prefix); order does not matter; unknown
 * elements are ignored; a missing `s:int` is 0 and a missing `s:boolean` false; a value that does not parse as the
 * declared type makes the whole request fail with a SOAP fault ("Server was unable to read request").
 */
import { XMLBuilder, XMLValidator } from 'fast-xml-parser';
import { parseXmlElement, type XmlElement } from './xml-elements';

// --------------------------------------------------------------------------------------------------------------------
// Transport constants
// --------------------------------------------------------------------------------------------------------------------

/** The WSDL's targetNamespace: request wrappers, their children and answers live in it. */
export const SURAT_NAMESPACE = 'http://tempuri.org/';
export const SOAP11_ENVELOPE_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
export const SOAP12_ENVELOPE_NS = 'http://www.w3.org/2003/05/soap-envelope';
const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';
const XSD_NS = 'http://www.w3.org/2001/XMLSchema';

/** README "API Endpoints" (the legacy GonderiWebService and esatis endpoints "may return 404"; not emulated). */
export const SURAT_HOSTS = {
  production: 'https://webservices.suratkargo.com.tr/services.asmx',
  test: 'https://prova.suratkargo.com.tr/services.asmx',
} as const;
export const SURAT_SERVICE_PATH = '/services.asmx';

// --------------------------------------------------------------------------------------------------------------------
// Accounts (README "Credentials", "Test Credentials")
// --------------------------------------------------------------------------------------------------------------------

export interface SuratAccount {
  /** Cari Kodu (10 digits): `KullaniciAdi` of create/cancel, `CariKodu`/`GonderenCariKodu` of the queries */
  cariKodu: string;
  /** Cari Şifresi: `Sifre` of create and GonderiGeriCek */
  sifre: string;
  /** Web Servis Şifresi (set by the customer on ekargo): `Sifre` of KargoTakipHareketDetayliV2 and WebSiparisKodu */
  webSifre: string;
  /** may book cash-on-delivery shipments (README lists a separate "COD Cari Kodu") */
  cashOnDelivery: boolean;
}

export const SURAT_TEST_ACCOUNT: Readonly<SuratAccount> = { cariKodu: '1038106246', sifre: '123456', webSifre: '123456.Ff', cashOnDelivery: false };
/** README "COD Cari Kodu/Sifresi". Its web service password is not in the document: the double gives it the same `123456.Ff`. */
export const SURAT_TEST_COD_ACCOUNT: Readonly<SuratAccount> = { cariKodu: '1038106247', sifre: '1234567', webSifre: '123456.Ff', cashOnDelivery: true };

// --------------------------------------------------------------------------------------------------------------------
// Operations and their parameters (WSDL <s:element name="…"> of each operation)
// --------------------------------------------------------------------------------------------------------------------

export const SURAT_OPERATIONS = ['GonderiyiKargoyaGonderYeniSiparisBarkodOlustur', 'KargoTakipHareketDetayliV2', 'GonderiGeriCek', 'WebSiparisKodu'] as const;
export type SuratOperation = (typeof SURAT_OPERATIONS)[number];

export type XmlType = 'string' | 'int' | 'boolean' | 'GonderiModel';

/** Request wrapper children, as the WSDL declares them (all minOccurs="0": a missing one binds to null). */
export const OPERATION_PARAMETERS: Readonly<Record<SuratOperation, Readonly<Record<string, XmlType>>>> = {
  GonderiyiKargoyaGonderYeniSiparisBarkodOlustur: { KullaniciAdi: 'string', Sifre: 'string', Gonderi: 'GonderiModel' },
  KargoTakipHareketDetayliV2: { CariKodu: 'string', Sifre: 'string', WebSiparisKodu: 'string' },
  GonderiGeriCek: { KullaniciAdi: 'string', Sifre: 'string', OzelKargoTakipNo: 'string', IptalNeden: 'string' },
  WebSiparisKodu: { GonderenCariKodu: 'string', Sifre: 'string', WebSiparisKodu: 'string' },
};

/**
 * WSDL `GonderiModel` (every field, in the WSDL's order). The `s:int`/`s:boolean` fields are minOccurs="1" in the WSDL
 * but XmlSerializer still binds a missing one to 0/false; `GonderiSekli` is nillable. `AlimSaati` is in the WSDL only.
 */
export const GONDERI_MODEL: Readonly<Record<string, 'string' | 'int' | 'boolean'>> = {
  KisiKurum: 'string',
  SahisBirim: 'string',
  AliciAdresi: 'string',
  Il: 'string',
  Ilce: 'string',
  TelefonEv: 'string',
  TelefonIs: 'string',
  TelefonCep: 'string',
  Email: 'string',
  AliciKodu: 'string',
  KargoTuru: 'int',
  OdemeTipi: 'int',
  IrsaliyeSeriNo: 'string',
  IrsaliyeSiraNo: 'string',
  ReferansNo: 'string',
  OzelKargoTakipNo: 'string',
  Adet: 'int',
  BirimDesi: 'string',
  BirimKg: 'string',
  KargoIcerigi: 'string',
  KapidanOdemeTahsilatTipi: 'int',
  KapidanOdemeTutari: 'string',
  EkHizmetler: 'string',
  TasimaSekli: 'int',
  TeslimSekli: 'int',
  SevkAdresi: 'string',
  GonderiSekli: 'int',
  TeslimSubeKodu: 'string',
  Pazaryerimi: 'int',
  EntegrasyonFirmasi: 'string',
  Iademi: 'boolean',
  AlimSaati: 'string',
};

/** The bound `Gonderi` (null = element absent or xsi:nil; strings as sent, untrimmed). */
export interface SuratGonderi {
  KisiKurum: string | null;
  SahisBirim: string | null;
  AliciAdresi: string | null;
  Il: string | null;
  Ilce: string | null;
  TelefonEv: string | null;
  TelefonIs: string | null;
  TelefonCep: string | null;
  Email: string | null;
  AliciKodu: string | null;
  KargoTuru: number;
  OdemeTipi: number;
  IrsaliyeSeriNo: string | null;
  IrsaliyeSiraNo: string | null;
  ReferansNo: string | null;
  OzelKargoTakipNo: string | null;
  Adet: number;
  BirimDesi: string | null;
  BirimKg: string | null;
  KargoIcerigi: string | null;
  KapidanOdemeTahsilatTipi: number;
  KapidanOdemeTutari: string | null;
  EkHizmetler: string | null;
  TasimaSekli: number;
  TeslimSekli: number;
  SevkAdresi: string | null;
  GonderiSekli: number | null;
  TeslimSubeKodu: string | null;
  Pazaryerimi: number;
  EntegrasyonFirmasi: string | null;
  Iademi: boolean;
  AlimSaati: string | null;
}

/** README: KargoTuru 1=Dosya, 2=Mi, 3=Koli. */
export const SURAT_CARGO_TYPES: Readonly<Record<number, string>> = { 1: 'Dosya', 2: 'Mi', 3: 'Koli' };
/** README: OdemeTipi 1=Peşin (sender pays), 2=Ücret Alıcı (receiver pays). */
export const SURAT_PAYMENT_TYPES: Readonly<Record<number, string>> = { 1: 'Pesin', 2: 'Ucret Alici' };
/** README: KapidanOdemeTahsilatTipi 1=Nakit, 2=POS; 0 = no COD (what omniship sends without COD). */
export const SURAT_COD_COLLECTION_TYPES: Readonly<Record<number, string>> = { 0: 'Yok', 1: 'Nakit', 2: 'POS' };
/** README: TeslimSekli 1=Address delivery, 2=Branch pickup. */
export const SURAT_DELIVERY_METHODS: Readonly<Record<number, string>> = { 1: 'Adrese Teslim', 2: 'Subeden Teslim' };
/** README "Notes": EkHizmetler is a comma-separated list of these names. */
export const SURAT_EXTRA_SERVICES = ['GondericiyeSms', 'TelefonIhbar', 'AliciyaSms', 'AdrestenAlim'] as const;

/**
 * Maximum lengths. **Not in the document** (the WSDL declares plain `s:string`, the README no lengths): the double's
 * own bounds, generous for real data, so that an adapter that passes unbounded user input is caught.
 */
export const SURAT_MAX_LENGTHS: Readonly<Record<string, number>> = {
  KisiKurum: 100,
  SahisBirim: 100,
  AliciAdresi: 250,
  Email: 100,
  AliciKodu: 50,
  IrsaliyeSeriNo: 20,
  IrsaliyeSiraNo: 20,
  ReferansNo: 50,
  OzelKargoTakipNo: 50,
  KargoIcerigi: 100,
  SevkAdresi: 250,
  TeslimSubeKodu: 20,
  EntegrasyonFirmasi: 50,
};

// --------------------------------------------------------------------------------------------------------------------
// Answers: messages
// --------------------------------------------------------------------------------------------------------------------

/**
 * `MesajTipi.Message` and `GonderiGeriCekResult` texts. Only `success` ("Islem basarili"), `receiverAddressEmpty`
 * ("Alici adresi bos olamaz") and `cancelNotFound` ("HATA: Gonderi bulunamadi") appear in the contract (omniship's test
 * fixtures); every other text is the double's own wording in the same style: an adapter must decide on `isError` / the
 * "HATA" prefix, never on the text.
 */
export const SURAT_MESSAGES = {
  success: 'Islem basarili',
  wrongCredentials: 'Kullanici adi veya sifre hatali',
  gonderiMissing: 'Gonderi bilgisi bos olamaz',
  receiverNameEmpty: 'Alici adi (KisiKurum) bos olamaz',
  receiverAddressEmpty: 'Alici adresi bos olamaz',
  cityEmpty: 'Il bos olamaz',
  cityUnknown: 'Il bilgisi hatali',
  districtEmpty: 'Ilce bos olamaz',
  districtUnknown: 'Ilce bilgisi hatali',
  tooLong: (field: string, max: number) => `${field} en fazla ${max} karakter olabilir`,
  mobileFormat: 'Cep telefonu (TelefonCep) formati hatali',
  phoneFormat: (field: string) => `${field} formati hatali`,
  mobileRequiredForSms: 'AliciyaSms hizmeti icin cep telefonu (TelefonCep) zorunludur',
  emailFormat: 'Email formati hatali',
  cargoType: 'Kargo turu hatali (1=Dosya, 2=Mi, 3=Koli)',
  paymentType: 'Odeme tipi hatali (1=Pesin, 2=Ucret Alici)',
  pieces: 'Adet en az 1 olmalidir',
  desi: 'Birim desi hatali',
  kg: 'Birim kg hatali',
  codType: 'Kapidan odeme tahsilat tipi hatali (1=Nakit, 2=POS)',
  codNotAllowed: 'Bu cari kapidan odemeli gonderi olusturamaz',
  codAmount: 'Kapidan odeme tutari hatali',
  codAmountWithoutType: 'Kapidan odeme tutari girildi ancak tahsilat tipi secilmedi',
  codWaybill: 'Kapidan odemeli gonderide irsaliye seri no ve sira no bos olamaz',
  extraService: (name: string) => `Ek hizmet hatali: ${name}`,
  deliveryMethod: 'Teslim sekli hatali (1=Adrese Teslim, 2=Subeden Teslim)',
  branchRequired: 'Subeden teslimde teslim sube kodu bos olamaz',
  duplicateTrackingNo: (code: string) => `Bu OzelKargoTakipNo ile daha once gonderi olusturulmus: ${code}`,
  // GonderiGeriCek (a plain string answer; errors start with "HATA", as omniship's fixture)
  cancelWrongCredentials: 'HATA: Kullanici adi veya sifre hatali',
  cancelTrackingNoEmpty: 'HATA: OzelKargoTakipNo bos olamaz',
  cancelReasonEmpty: 'HATA: Iptal nedeni (IptalNeden) bos olamaz',
  cancelNotFound: 'HATA: Gonderi bulunamadi',
  cancelAlreadyWithdrawn: 'HATA: Gonderi daha once geri cekilmis',
  cancelAfterPickup: 'HATA: Gonderi kargoya teslim edilmis, geri cekilemez',
  // KargoTakipHareketDetayliV2 (a plain string answer)
  trackingWrongCredentials: 'HATA: Cari kodu veya web servis sifresi hatali',
  // WebSiparisKodu (a DataSet row with the single column `Mesaj`)
  queryWrongCredentials: 'Cari kodu veya web servis sifresi hatali',
} as const;

// --------------------------------------------------------------------------------------------------------------------
// Movements (KargoTakipHareketDetayliV2)
// --------------------------------------------------------------------------------------------------------------------

export type SuratMovementKind = 'pickedUp' | 'inTransit' | 'outForDelivery' | 'delivered' | 'returned' | 'withdrawn';

/**
 * Movement texts. The first five are the status keywords of omniship's tracking parser and its fixtures ("Kargo
 * Kabul", "Aktarma Merkezinde", "Dagitima Verildi", "Teslim Edildi", "Iade Edildi"); "Iptal Edildi" (after
 * GonderiGeriCek) is our reading of its `Iptal` keyword. Sürat's full movement vocabulary is not in the document.
 */
export const SURAT_MOVEMENTS: Readonly<Record<SuratMovementKind, string>> = {
  pickedUp: 'Kargo Kabul',
  inTransit: 'Aktarma Merkezinde',
  outForDelivery: 'Dagitima Verildi',
  delivered: 'Teslim Edildi',
  returned: 'Iade Edildi',
  withdrawn: 'Iptal Edildi',
};

/** Kinds after which nothing more happens to a shipment. */
export const SURAT_FINAL_MOVEMENTS: ReadonlySet<SuratMovementKind> = new Set(['delivered', 'returned', 'withdrawn']);

/** Turkish time (UTC+3 all year since 2016) as `yyyy-MM-dd HH:mm:ss`, the fixtures' form. */
export function suratLocalTime(d: Date): string {
  return new Date(d.getTime() + 3 * 3600 * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

// --------------------------------------------------------------------------------------------------------------------
// Cities and districts (Il / Ilce are free text in the WSDL; the README requires both)
// --------------------------------------------------------------------------------------------------------------------

/** The 81 provinces by plate code. */
// prettier-ignore
export const SURAT_CITIES: readonly string[] = [
  'Adana', 'Adıyaman', 'Afyonkarahisar', 'Ağrı', 'Amasya', 'Ankara', 'Antalya', 'Artvin', 'Aydın', 'Balıkesir', 'Bilecik',
  'Bingöl', 'Bitlis', 'Bolu', 'Burdur', 'Bursa', 'Çanakkale', 'Çankırı', 'Çorum', 'Denizli', 'Diyarbakır', 'Edirne',
  'Elazığ', 'Erzincan', 'Erzurum', 'Eskişehir', 'Gaziantep', 'Giresun', 'Gümüşhane', 'Hakkari', 'Hatay', 'Isparta',
  'Mersin', 'İstanbul', 'İzmir', 'Kars', 'Kastamonu', 'Kayseri', 'Kırklareli', 'Kırşehir', 'Kocaeli', 'Konya', 'Kütahya',
  'Malatya', 'Manisa', 'Kahramanmaraş', 'Mardin', 'Muğla', 'Muş', 'Nevşehir', 'Niğde', 'Ordu', 'Rize', 'Sakarya', 'Samsun',
  'Siirt', 'Sinop', 'Sivas', 'Tekirdağ', 'Tokat', 'Trabzon', 'Tunceli', 'Şanlıurfa', 'Uşak', 'Van', 'Yozgat', 'Zonguldak',
  'Aksaray', 'Bayburt', 'Karaman', 'Kırıkkale', 'Batman', 'Şırnak', 'Bartın', 'Ardahan', 'Iğdır', 'Yalova', 'Karabük',
  'Kilis', 'Osmaniye', 'Düzce',
];

/**
 * Districts the double checks, for three provinces (complete lists). **Not in the document:** Sürat publishes no
 * district list in the contract; for any other province every non-empty `Ilce` is accepted.
 */
// prettier-ignore
export const SURAT_DISTRICTS: Readonly<Record<string, readonly string[]>> = {
  İstanbul: [
    'Adalar', 'Arnavutköy', 'Ataşehir', 'Avcılar', 'Bağcılar', 'Bahçelievler', 'Bakırköy', 'Başakşehir', 'Bayrampaşa', 'Beşiktaş',
    'Beykoz', 'Beylikdüzü', 'Beyoğlu', 'Büyükçekmece', 'Çatalca', 'Çekmeköy', 'Esenler', 'Esenyurt', 'Eyüpsultan', 'Fatih',
    'Gaziosmanpaşa', 'Güngören', 'Kadıköy', 'Kağıthane', 'Kartal', 'Küçükçekmece', 'Maltepe', 'Pendik', 'Sancaktepe', 'Sarıyer',
    'Silivri', 'Sultanbeyli', 'Sultangazi', 'Şile', 'Şişli', 'Tuzla', 'Ümraniye', 'Üsküdar', 'Zeytinburnu',
  ],
  Ankara: [
    'Akyurt', 'Altındağ', 'Ayaş', 'Bala', 'Beypazarı', 'Çamlıdere', 'Çankaya', 'Çubuk', 'Elmadağ', 'Etimesgut', 'Evren', 'Gölbaşı',
    'Güdül', 'Haymana', 'Kahramankazan', 'Kalecik', 'Keçiören', 'Kızılcahamam', 'Mamak', 'Nallıhan', 'Polatlı', 'Pursaklar',
    'Sincan', 'Şereflikoçhisar', 'Yenimahalle',
  ],
  İzmir: [
    'Aliağa', 'Balçova', 'Bayındır', 'Bayraklı', 'Bergama', 'Beydağ', 'Bornova', 'Buca', 'Çeşme', 'Çiğli', 'Dikili', 'Foça',
    'Gaziemir', 'Güzelbahçe', 'Karabağlar', 'Karaburun', 'Karşıyaka', 'Kemalpaşa', 'Kınık', 'Kiraz', 'Konak', 'Menderes',
    'Menemen', 'Narlıdere', 'Ödemiş', 'Seferihisar', 'Selçuk', 'Tire', 'Torbalı', 'Urla',
  ],
};

/** Folds case and Turkish letters (`İSTANBUL` = `istanbul` = `Istanbul`, `Kadıköy` = `kadikoy`) and collapses spaces. */
export function foldTurkish(s: string): string {
  return s
    .trim()
    .toLocaleLowerCase('tr-TR')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ı/g, 'i')
    .replace(/\s+/g, ' ');
}

/** The province named (folded comparison), or undefined. */
export const findCity = (name: string): string | undefined => SURAT_CITIES.find((c) => foldTurkish(c) === foldTurkish(name));

/** false only when the double knows the province's districts and `district` is not among them. */
export function districtKnown(city: string, district: string): boolean {
  const list = SURAT_DISTRICTS[city];
  return !list || list.some((d) => foldTurkish(d) === foldTurkish(district));
}

/**
 * Turkish phone numbers. **Not in the document** (the README only says TelefonCep is the mobile): after removing spaces,
 * dashes, dots and parentheses, an optional `+90`/`90`/`0` prefix and then 10 digits; a mobile starts with 5, a land
 * line with 2, 3, 4 or 8 (5 is accepted there too).
 */
export function phoneDigits(raw: string): string | undefined {
  const compact = raw.replace(/[\s\-.()]/g, '');
  const m = /^(?:\+90|90|0)?(\d{10})$/.exec(compact);
  return m?.[1];
}
export const isMobile = (raw: string): boolean => /^5\d{9}$/.test(phoneDigits(raw) ?? '');
export const isLandOrMobile = (raw: string): boolean => /^[23458]\d{9}$/.test(phoneDigits(raw) ?? '');

/** A decimal as the service would read a string amount: dot or comma, at most 2 decimals (not in the document). */
export function parseDecimal(raw: string): number | undefined {
  const m = /^\s*(\d{1,9})(?:[.,](\d{1,3}))?\s*$/.exec(raw);
  return m ? Number(`${m[1]}.${m[2] ?? '0'}`) : undefined;
}

// --------------------------------------------------------------------------------------------------------------------
// XML: parsing with namespaces, the envelope, XmlSerializer binding
// --------------------------------------------------------------------------------------------------------------------

export type { XmlElement } from './xml-elements';

/** A request the service could not read: becomes a SOAP fault. */
export class SoapReadError extends Error {
  constructor(
    message: string,
    readonly faultCode: 'Client' | 'Server' | 'VersionMismatch' = 'Client',
  ) {
    super(message);
  }
}

/** 1-based line and column of `needle` in `raw` (for the "There is an error in XML document (l, c)" text). */
function position(raw: string, needle: string | undefined): string {
  const i = needle ? Math.max(raw.indexOf(needle), 0) : 0;
  const before = raw.slice(0, i).split('\n');
  return `(${before.length}, ${before[before.length - 1].length + 1})`;
}

export interface SoapRequest {
  version: '1.1' | '1.2';
  /** the first element of the Body */
  operationElement?: XmlElement;
  /** SOAP header elements (the service defines none; recorded as unknown) */
  headerElements: XmlElement[];
}

/** Well-formedness, the Envelope (1.1 or 1.2) and its Body, as ASMX checks them. */
export function parseSoapEnvelope(raw: string): SoapRequest {
  const valid = XMLValidator.validate(raw);
  if (valid !== true)
    throw new SoapReadError(
      `Server was unable to read request. ---> There is an error in XML document (${valid.err.line}, ${valid.err.col}). ---> ${valid.err.msg}`,
    );
  const root = parseXmlElement(raw);
  if (!root) throw new SoapReadError('Server was unable to read request. ---> There is an error in XML document (0, 0). ---> Root element is missing.');
  const version = root.ns === SOAP11_ENVELOPE_NS ? '1.1' : root.ns === SOAP12_ENVELOPE_NS ? '1.2' : undefined;
  if (root.local !== 'Envelope' || !version)
    throw new SoapReadError(
      `Server was unable to read request. ---> There is an error in XML document ${position(raw, `<${root.qname}`)}. ---> <${root.local} xmlns='${root.ns}'> was not expected.`,
    );
  const header = root.children.find((c) => c.local === 'Header' && c.ns === root.ns);
  const body = root.children.find((c) => c.local === 'Body' && c.ns === root.ns);
  if (!body)
    throw new SoapReadError(
      `Server was unable to read request. ---> There is an error in XML document ${position(raw, `<${root.qname}`)}. ---> The Body element is missing.`,
    );
  return { version, operationElement: body.children[0], headerElements: header?.children ?? [] };
}

export interface Bound<T> {
  value: T;
  /** elements the model does not have (other names, other namespaces, wrong case), e.g. `Gonderi.kisikurum` */
  unknownFields: string[];
}

const isNil = (e: XmlElement) => Object.entries(e.attributes).some(([k, v]) => (k === 'nil' || k.endsWith(':nil')) && v.trim() === 'true');

function bindScalar(e: XmlElement, type: 'string' | 'int' | 'boolean', raw: string): string | number | boolean | null {
  if (isNil(e)) return null;
  if (type === 'string') return e.text;
  const t = e.text.trim();
  const where = `There is an error in XML document ${position(raw, `<${e.qname}`)}.`;
  if (type === 'int') {
    if (!/^[+-]?\d+$/.test(t)) throw new SoapReadError(`Server was unable to read request. ---> ${where} ---> Input string was not in a correct format.`);
    const n = Number(t);
    if (n > 2147483647 || n < -2147483648)
      throw new SoapReadError(`Server was unable to read request. ---> ${where} ---> Value was either too large or too small for an Int32.`);
    return n;
  }
  if (t === 'true' || t === '1') return true;
  if (t === 'false' || t === '0') return false;
  throw new SoapReadError(`Server was unable to read request. ---> ${where} ---> The string '${t}' is not a valid Boolean value.`);
}

const DEFAULTS = { string: null, int: 0, boolean: false } as const;

function bindGonderi(e: XmlElement, raw: string, unknown: string[]): SuratGonderi {
  const out: Record<string, unknown> = Object.fromEntries(Object.entries(GONDERI_MODEL).map(([k, t]) => [k, k === 'GonderiSekli' ? 0 : DEFAULTS[t]]));
  for (const c of e.children) {
    const type = c.ns === SURAT_NAMESPACE ? GONDERI_MODEL[c.local] : undefined;
    if (!type) {
      unknown.push(`Gonderi.${c.ns && c.ns !== SURAT_NAMESPACE ? `{${c.ns}}` : ''}${c.local}`);
      continue;
    }
    out[c.local] = bindScalar(c, type, raw);
  }
  return out as unknown as SuratGonderi;
}

/** Binds the operation element's children as XmlSerializer would (see the file comment). */
export function bindParameters(operation: SuratOperation, e: XmlElement, raw: string): Bound<Record<string, unknown>> {
  const params = OPERATION_PARAMETERS[operation];
  const value: Record<string, unknown> = Object.fromEntries(Object.keys(params).map((k) => [k, null]));
  const unknownFields: string[] = [];
  for (const c of e.children) {
    const type = c.ns === SURAT_NAMESPACE ? params[c.local] : undefined;
    if (!type) {
      unknownFields.push(`${c.ns && c.ns !== SURAT_NAMESPACE ? `{${c.ns}}` : ''}${c.local}`);
      continue;
    }
    value[c.local] = type === 'GonderiModel' ? (isNil(c) ? null : bindGonderi(c, raw, unknownFields)) : bindScalar(c, type, raw);
  }
  return { value, unknownFields };
}

// --------------------------------------------------------------------------------------------------------------------
// XML: answers
// --------------------------------------------------------------------------------------------------------------------

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', suppressEmptyNode: true, format: false });

/** The `.asmx` envelope around one body element (ASMX declares xsi and xsd on the Envelope). */
export function soapEnvelope(version: '1.1' | '1.2', body: Record<string, unknown>): string {
  return builder.build({
    '?xml': { '@_version': '1.0', '@_encoding': 'utf-8' },
    'soap:Envelope': {
      '@_xmlns:soap': version === '1.1' ? SOAP11_ENVELOPE_NS : SOAP12_ENVELOPE_NS,
      '@_xmlns:xsi': XSI_NS,
      '@_xmlns:xsd': XSD_NS,
      'soap:Body': body,
    },
  }) as string;
}

/** `<OpResponse xmlns="http://tempuri.org/"><OpResult>…</OpResult></OpResponse>`. */
export function operationResponse(version: '1.1' | '1.2', operation: SuratOperation, result: unknown): string {
  return soapEnvelope(version, { [`${operation}Response`]: { '@_xmlns': SURAT_NAMESPACE, [`${operation}Result`]: result } });
}

/** WSDL `MesajTipi`; `Barcode` has no declared type (an `object`), so ASMX writes the string with `xsi:type`. */
export interface SuratMesajTipi {
  isError: boolean;
  Message: string;
  Barcode: string;
}
export const mesajTipiXml = (m: SuratMesajTipi) => ({ isError: m.isError, Message: m.Message, Barcode: { '@_xsi:type': 'xsd:string', '#text': m.Barcode } });

/** A SOAP fault as ASMX writes it: HTTP 500, faultcode soap:Client / soap:Server (1.2: soap:Sender / soap:Receiver). */
export type SoapFaultCode = 'Client' | 'Server' | 'VersionMismatch';
export function soapFault(version: '1.1' | '1.2', code: SoapFaultCode, text: string): string {
  if (version === '1.1') return soapEnvelope('1.1', { 'soap:Fault': { faultcode: `soap:${code}`, faultstring: text, detail: '' } });
  const value = code === 'Client' ? 'soap:Sender' : code === 'Server' ? 'soap:Receiver' : 'soap:VersionMismatch';
  return soapEnvelope('1.2', {
    'soap:Fault': {
      'soap:Code': { 'soap:Value': value },
      'soap:Reason': { 'soap:Text': { '@_xml:lang': 'en', '#text': text } },
      'soap:Detail': '',
    },
  });
}

/**
 * A `System.Data.DataSet` as ASMX serializes it into a `…Result` of type `<s:element ref="s:schema"/><s:any/>`: an
 * inline XSD of `NewDataSet` with one table `Table`, then a diffgram with the rows. Every column is `xs:string` here
 * (the real column types are not in the document).
 */
export function dataSetXml(columns: readonly string[], rows: Record<string, string>[]): Record<string, unknown> {
  return {
    'xs:schema': {
      '@_id': 'NewDataSet',
      '@_xmlns': '',
      '@_xmlns:xs': XSD_NS,
      '@_xmlns:msdata': 'urn:schemas-microsoft-com:xml-msdata',
      'xs:element': {
        '@_name': 'NewDataSet',
        '@_msdata:IsDataSet': 'true',
        '@_msdata:UseCurrentLocale': 'true',
        'xs:complexType': {
          'xs:choice': {
            '@_minOccurs': '0',
            '@_maxOccurs': 'unbounded',
            'xs:element': {
              '@_name': 'Table',
              'xs:complexType': {
                'xs:sequence': { 'xs:element': columns.map((c) => ({ '@_name': c, '@_type': 'xs:string', '@_minOccurs': '0' })) },
              },
            },
          },
        },
      },
    },
    'diffgr:diffgram': {
      '@_xmlns:msdata': 'urn:schemas-microsoft-com:xml-msdata',
      '@_xmlns:diffgr': 'urn:schemas-microsoft-com:xml-diffgram-v1',
      ...(rows.length
        ? {
            NewDataSet: {
              '@_xmlns': '',
              Table: rows.map((r, i) => ({ '@_diffgr:id': `Table${i + 1}`, '@_msdata:rowOrder': String(i), ...r })),
            },
          }
        : {}),
    },
  };
}

/** Columns of the WebSiparisKodu row. **Not in the document** (the WSDL says only "DataSet"): the double's choice. */
export const WEB_SIPARIS_KODU_COLUMNS = [
  'WebSiparisKodu',
  'TakipNo',
  'ReferansNo',
  'KisiKurum',
  'Il',
  'Ilce',
  'Adet',
  'GonderiTarihi',
  'SonDurum',
  'SonIslemTarihi',
] as const;

/** A small ASMX-like help page for GET (the double does not serve the WSDL: use the published one). */
export function helpPage(): string {
  const items = SURAT_OPERATIONS.map((o) => `<li>${o}</li>`).join('');
  return `<html><head><title>services Web Service</title></head><body><h1>services</h1><p>The following operations are supported (Sürat Kargo test double):</p><ul>${items}</ul></body></html>`;
}
