import { XMLParser } from 'fast-xml-parser';
import {
  SURAT_MESSAGES,
  SURAT_TEST_ACCOUNT,
  SURAT_TEST_COD_ACCOUNT,
  startSuratDouble,
  type SuratDouble,
  type SuratOperation,
} from '../../support/carriers/surat-double';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const NS = 'http://tempuri.org/';
const SOAP11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const SOAP12 = 'http://www.w3.org/2003/05/soap-envelope';
const CREATE = 'GonderiyiKargoyaGonderYeniSiparisBarkodOlustur';

let double: SuratDouble;
let clock: Date;

beforeEach(async () => {
  clock = new Date('2026-02-20T07:00:00Z');
  double = await startSuratDouble({ now: () => clock });
});
afterEach(async () => {
  await double.close();
});

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const elements = (fields: Record<string, string | number | boolean | undefined>, prefix = '') =>
  Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `<${prefix}${k}>${esc(String(v))}</${prefix}${k}>`)
    .join('');

interface Answer {
  status: number;
  contentType: string;
  text: string;
  /** the parsed envelope, namespace prefixes removed */
  xml: Json;
}

const parser = new XMLParser({ removeNSPrefix: true, ignoreAttributes: false, attributeNamePrefix: '@_', parseTagValue: false });

async function post(body: string, headers: Record<string, string>, timeoutMs = 5000): Promise<Answer> {
  const res = await fetch(double.serviceUrl, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs) });
  const text = await res.text();
  let xml: Json = {};
  try {
    xml = parser.parse(text) as Json;
  } catch {
    xml = {};
  }
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', text, xml };
}

/** A SOAP 1.1 call as an .asmx client sends it: text/xml, SOAPAction "http://tempuri.org/<op>", the wrapper in tempuri. */
function call(op: SuratOperation | string, inner: string, opts: { version?: '1.1' | '1.2'; timeoutMs?: number } = {}): Promise<Answer> {
  const v = opts.version ?? '1.1';
  const envelope =
    `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${v === '1.1' ? SOAP11 : SOAP12}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">` +
    `<soap:Body><${op} xmlns="${NS}">${inner}</${op}></soap:Body></soap:Envelope>`;
  const headers: Record<string, string> =
    v === '1.1'
      ? { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${NS}${op}"` }
      : { 'content-type': `application/soap+xml; charset=utf-8; action="${NS}${op}"` };
  return post(envelope, headers, opts.timeoutMs);
}

const result = (a: Answer, op: string): Json | string => a.xml.Envelope.Body[`${op}Response`][`${op}Result`];

/** The README's example shipment (Ankara/Çankaya, a mobile), with our reference. */
const gonderi = (overrides: Record<string, string | number | boolean | undefined> = {}) => ({
  KisiKurum: 'Mehmet Demir',
  AliciAdresi: 'Ataturk Cad. No:42',
  Il: 'Ankara',
  Ilce: 'Cankaya',
  TelefonCep: '05559876543',
  Email: 'mehmet@example.com',
  KargoTuru: 3,
  OdemeTipi: 1,
  ReferansNo: 'REF-001',
  OzelKargoTakipNo: 'CF-1001',
  Adet: 1,
  BirimDesi: '3',
  BirimKg: '2.5',
  KapidanOdemeTahsilatTipi: 0,
  KapidanOdemeTutari: '',
  TasimaSekli: 0,
  TeslimSekli: 1,
  GonderiSekli: 0,
  Pazaryerimi: 0,
  Iademi: false,
  ...overrides,
});

function create(
  fields: Record<string, string | number | boolean | undefined> = gonderi(),
  account = SURAT_TEST_ACCOUNT,
  opts: { version?: '1.1' | '1.2'; timeoutMs?: number } = {},
) {
  return call(CREATE, `${elements({ KullaniciAdi: account.cariKodu, Sifre: account.sifre })}<Gonderi>${elements(fields)}</Gonderi>`, opts);
}

const track = (code: string, password = SURAT_TEST_ACCOUNT.webSifre) =>
  call('KargoTakipHareketDetayliV2', elements({ CariKodu: SURAT_TEST_ACCOUNT.cariKodu, Sifre: password, WebSiparisKodu: code }));
const withdraw = (code: string, reason?: string) =>
  call('GonderiGeriCek', elements({ KullaniciAdi: SURAT_TEST_ACCOUNT.cariKodu, Sifre: SURAT_TEST_ACCOUNT.sifre, OzelKargoTakipNo: code, IptalNeden: reason }));
const lookup = (code: string, password = SURAT_TEST_ACCOUNT.webSifre) =>
  call('WebSiparisKodu', elements({ GonderenCariKodu: SURAT_TEST_ACCOUNT.cariKodu, Sifre: password, WebSiparisKodu: code }));

const trackingText = async (code: string) => {
  const r = result(await track(code), 'KargoTakipHareketDetayliV2');
  return typeof r === 'string' ? r : '';
};

describe('GonderiyiKargoyaGonderYeniSiparisBarkodOlustur', () => {
  it('books with the test account and answers MesajTipi with a 14-digit barcode in the .asmx envelope', async () => {
    const a = await create();
    expect(a.status).toBe(200);
    expect(a.contentType).toMatch(/^text\/xml/);
    expect(a.text).toContain(`<${CREATE}Response xmlns="${NS}">`);
    const r = result(a, CREATE) as Json;
    expect(r.isError).toBe('false');
    expect(r.Message).toBe(SURAT_MESSAGES.success);
    expect(r.Barcode['#text']).toMatch(/^\d{14}$/);
    expect(r.Barcode['@_type']).toBe('xsd:string'); // Barcode is an untyped object in the WSDL
    const s = double.shipments.get(r.Barcode['#text'])!;
    expect(s).toMatchObject({ ozelKargoTakipNo: 'CF-1001', account: SURAT_TEST_ACCOUNT.cariKodu, movements: [] });
    expect(s.gonderi).toMatchObject({ KisiKurum: 'Mehmet Demir', KargoTuru: 3, Adet: 1, Iademi: false });
    expect(double.requests.at(-1)).toMatchObject({ operation: CREATE, outcome: 'ok', soapVersion: '1.1', validationErrors: [], unknownFields: [] });
  });

  it('accepts SOAP 1.2 (application/soap+xml; action=…) and answers in a SOAP 1.2 envelope', async () => {
    const a = await create(gonderi(), SURAT_TEST_ACCOUNT, { version: '1.2' });
    expect(a.status).toBe(200);
    expect(a.contentType).toMatch(/^application\/soap\+xml/);
    expect(a.text).toContain(SOAP12);
    expect((result(a, CREATE) as Json).isError).toBe('false');
  });

  it('matches elements by namespace, not by prefix; children outside http://tempuri.org/ are ignored as by XmlSerializer', async () => {
    const prefixed =
      `<e:Envelope xmlns:e="${SOAP11}"><e:Body><t:${CREATE} xmlns:t="${NS}">${elements({ KullaniciAdi: '1038106246', Sifre: '123456' }, 't:')}` +
      `<t:Gonderi>${elements(gonderi({ OzelKargoTakipNo: 'CF-PFX' }), 't:')}</t:Gonderi></t:${CREATE}></e:Body></e:Envelope>`;
    const ok = await post(prefixed, { 'content-type': 'text/xml', soapaction: `${NS}${CREATE}` });
    expect((result(ok, CREATE) as Json).isError).toBe('false');

    // the credentials in no namespace (a forgotten xmlns) bind to null → refused as wrong credentials
    const lost = `<soap:Envelope xmlns:soap="${SOAP11}"><soap:Body><x:${CREATE} xmlns:x="${NS}"><KullaniciAdi>1038106246</KullaniciAdi><Sifre>123456</Sifre></x:${CREATE}></soap:Body></soap:Envelope>`;
    const refused = await post(lost, { 'content-type': 'text/xml', soapaction: `${NS}${CREATE}` });
    expect(result(refused, CREATE)).toMatchObject({ isError: 'true', Message: SURAT_MESSAGES.wrongCredentials });
    expect(double.requests.at(-1)!.unknownFields).toEqual(['KullaniciAdi', 'Sifre']);
  });

  it('refuses the web service password (tracking credential) for booking, and books nothing', async () => {
    const a = await create(gonderi(), { ...SURAT_TEST_ACCOUNT, sifre: SURAT_TEST_ACCOUNT.webSifre });
    expect(result(a, CREATE)).toMatchObject({ isError: 'true', Message: SURAT_MESSAGES.wrongCredentials });
    expect(double.requests.at(-1)!.outcome).toBe('unauthorized');
    expect(double.shipments.size).toBe(0);
  });

  it.each<[string, Record<string, string | number | boolean | undefined>, string]>([
    ['no receiver address', { AliciAdresi: '' }, SURAT_MESSAGES.receiverAddressEmpty],
    ['no receiver name', { KisiKurum: undefined }, SURAT_MESSAGES.receiverNameEmpty],
    ['an unknown province', { Il: 'Atlantis' }, `${SURAT_MESSAGES.cityUnknown}: Atlantis`],
    ['a district not in the province', { Il: 'İstanbul', Ilce: 'Çankaya' }, `${SURAT_MESSAGES.districtUnknown}: Çankaya`],
    ['no district', { Ilce: ' ' }, SURAT_MESSAGES.districtEmpty],
    ['a land line as mobile', { TelefonCep: '02121234567' }, SURAT_MESSAGES.mobileFormat],
    ['a too long name', { KisiKurum: 'x'.repeat(101) }, SURAT_MESSAGES.tooLong('KisiKurum', 100)],
    ['no cargo type (absent int binds to 0)', { KargoTuru: undefined }, SURAT_MESSAGES.cargoType],
    ['payment type 3', { OdemeTipi: 3 }, SURAT_MESSAGES.paymentType],
    ['no pieces', { Adet: 0 }, SURAT_MESSAGES.pieces],
    ['AliciyaSms without a mobile', { EkHizmetler: 'AliciyaSms', TelefonCep: '' }, SURAT_MESSAGES.mobileRequiredForSms],
    ['an unknown extra service', { EkHizmetler: 'GondericiyeSms,Sigorta' }, SURAT_MESSAGES.extraService('Sigorta')],
    ['COD on the standard account', { KapidanOdemeTahsilatTipi: 1, KapidanOdemeTutari: '150.50' }, SURAT_MESSAGES.codNotAllowed],
    ['a COD amount without a COD type', { KapidanOdemeTutari: '150.50' }, SURAT_MESSAGES.codAmountWithoutType],
  ])('refuses %s with isError=true and the message, booking nothing', async (_label, overrides, message) => {
    const a = await create(gonderi(overrides));
    expect(a.status).toBe(200);
    expect(result(a, CREATE)).toMatchObject({ isError: 'true', Message: message });
    expect(double.requests.at(-1)!.outcome).toBe('refused');
    expect(double.shipments.size).toBe(0);
  });

  it('accepts names in any case and without Turkish letters', async () => {
    const a = await create(gonderi({ Il: 'ISTANBUL', Ilce: 'kadikoy' }));
    expect((result(a, CREATE) as Json).isError).toBe('false');
  });

  it('books cash on delivery only on the COD account, with amount and waybill serial/sequence', async () => {
    const cod = { KapidanOdemeTahsilatTipi: 1, KapidanOdemeTutari: '150,50', OzelKargoTakipNo: 'COD-1' };
    const noWaybill = await create(gonderi(cod), SURAT_TEST_COD_ACCOUNT);
    expect(result(noWaybill, CREATE)).toMatchObject({ isError: 'true', Message: SURAT_MESSAGES.codWaybill });
    const noAmount = await create(gonderi({ ...cod, KapidanOdemeTutari: '0', IrsaliyeSeriNo: 'A', IrsaliyeSiraNo: '1' }), SURAT_TEST_COD_ACCOUNT);
    expect(result(noAmount, CREATE)).toMatchObject({ isError: 'true', Message: SURAT_MESSAGES.codAmount });
    const ok = await create(gonderi({ ...cod, IrsaliyeSeriNo: 'A', IrsaliyeSiraNo: '1' }), SURAT_TEST_COD_ACCOUNT);
    expect((result(ok, CREATE) as Json).isError).toBe('false');
    expect(double.find('COD-1')!.account).toBe(SURAT_TEST_COD_ACCOUNT.cariKodu);
  });

  it('refuses a second booking under the same OzelKargoTakipNo; another account may use it', async () => {
    const first = result(await create(), CREATE) as Json;
    const again = await create(gonderi({ KisiKurum: 'Başka Biri' }));
    expect(result(again, CREATE)).toMatchObject({ isError: 'true', Message: SURAT_MESSAGES.duplicateTrackingNo('CF-1001') });
    expect(double.shipments.size).toBe(1);
    expect(double.find('CF-1001')!.barcode).toBe(first.Barcode['#text']);
    const other = await create(gonderi(), SURAT_TEST_COD_ACCOUNT);
    expect((result(other, CREATE) as Json).isError).toBe('false');
  });

  it('answers a SOAP fault (HTTP 500, soap:Client) when an int does not parse, as XmlSerializer', async () => {
    const a = await create(gonderi({ Adet: 'bir' }));
    expect(a.status).toBe(500);
    expect(a.xml.Envelope.Body.Fault).toMatchObject({ faultcode: 'soap:Client' });
    expect(a.xml.Envelope.Body.Fault.faultstring).toMatch(
      /^Server was unable to read request\. ---> There is an error in XML document \(\d+, \d+\)\. ---> Input string was not in a correct format\.$/,
    );
    expect(double.shipments.size).toBe(0);
  });
});

describe('SOAP transport faults', () => {
  it('malformed XML → HTTP 500 soap:Client fault', async () => {
    const a = await post(`<soap:Envelope xmlns:soap="${SOAP11}"><soap:Body><x></soap:Body>`, { 'content-type': 'text/xml', soapaction: `${NS}${CREATE}` });
    expect(a.status).toBe(500);
    expect(a.xml.Envelope.Body.Fault.faultcode).toBe('soap:Client');
    expect(a.xml.Envelope.Body.Fault.faultstring).toMatch(/^Server was unable to read request/);
    expect(double.requests.at(-1)!.outcome).toBe('soap-fault');
  });

  it('unknown SOAPAction → HTTP 500 "Server did not recognize the value of HTTP Header SOAPAction"', async () => {
    const a = await call('KargoyuUcur', '');
    expect(a.status).toBe(500);
    expect(a.xml.Envelope.Body.Fault.faultstring).toBe(`Server did not recognize the value of HTTP Header SOAPAction: ${NS}KargoyuUcur.`);
  });

  it('SOAP 1.2 fault shape, a SOAP 1.1 envelope sent as SOAP 1.2, and a non-SOAP media type', async () => {
    const unknown = await call('KargoyuUcur', '', { version: '1.2' });
    expect(unknown.status).toBe(500);
    expect(unknown.xml.Envelope.Body.Fault.Code.Value).toBe('soap:Sender');
    const mismatch = await post(`<soap:Envelope xmlns:soap="${SOAP11}"><soap:Body/></soap:Envelope>`, {
      'content-type': `application/soap+xml; action="${NS}${CREATE}"`,
    });
    expect(mismatch.status).toBe(500);
    expect(mismatch.xml.Envelope.Body.Fault.Code.Value).toBe('soap:VersionMismatch');
    const json = await post('{}', { 'content-type': 'application/json' });
    expect(json.status).toBe(500);
    expect(json.text).toBe('System.InvalidOperationException: Request format is invalid: application/json.');
  });

  it('other paths → 404; GET → the help page', async () => {
    expect((await fetch(`${double.baseUrl}/service.asmx`, { method: 'POST' })).status).toBe(404);
    const help = await fetch(double.serviceUrl);
    expect(help.status).toBe(200);
    expect(await help.text()).toContain('KargoTakipHareketDetayliV2');
  });
});

describe('KargoTakipHareketDetayliV2', () => {
  it('lists movements as `Durum|yyyy-MM-dd HH:mm:ss|Birim` lines in Turkish time, through to delivery', async () => {
    await create();
    expect(await trackingText('CF-1001')).toBe(''); // booked, not yet picked up
    double.pickUp('CF-1001', { at: new Date('2026-02-20T07:00:00Z') });
    double.inTransit('CF-1001', { at: new Date('2026-02-21T05:00:00Z') });
    double.outForDelivery('CF-1001', { at: new Date('2026-02-22T06:00:00Z') });
    double.deliver('CF-1001', { at: new Date('2026-02-22T11:30:00Z'), location: 'Ankara Cankaya Sube' });
    expect((await trackingText('CF-1001')).split('\n')).toEqual([
      'Kargo Kabul|2026-02-20 10:00:00|Istanbul Kadikoy Sube',
      'Aktarma Merkezinde|2026-02-21 08:00:00|Istanbul Aktarma Merkezi',
      'Dagitima Verildi|2026-02-22 09:00:00|Ankara Cankaya Sube',
      'Teslim Edildi|2026-02-22 14:30:00|Ankara Cankaya Sube',
    ]);
    expect(() => double.returnToSender('CF-1001')).toThrow(/final/);
  });

  it('shows a return; the helpers refuse a movement before pickup and an unknown shipment', async () => {
    await create();
    expect(() => double.deliver('CF-1001')).toThrow(/not been picked up/);
    expect(() => double.pickUp('NOPE')).toThrow(/no shipment/);
    double.pickUp('CF-1001');
    double.returnToSender('CF-1001');
    expect(await trackingText('CF-1001')).toMatch(/\nIade Edildi\|2026-02-20 10:00:00\|Istanbul Kadikoy Sube$/);
  });

  it('needs the web service password: the cari şifresi is refused with a HATA text', async () => {
    await create();
    const r = result(await track('CF-1001', SURAT_TEST_ACCOUNT.sifre), 'KargoTakipHareketDetayliV2');
    expect(r).toBe(SURAT_MESSAGES.trackingWrongCredentials);
    expect(double.requests.at(-1)!.outcome).toBe('unauthorized');
  });

  it('answers an empty result for a code it does not hold', async () => {
    const a = await track('UNKNOWN');
    expect(a.status).toBe(200);
    expect(result(a, 'KargoTakipHareketDetayliV2')).toBe('');
    expect(double.requests.at(-1)!.outcome).toBe('no-record');
  });
});

describe('GonderiGeriCek', () => {
  it('refuses without a reason (IptalNeden) and leaves the shipment as it was', async () => {
    await create();
    for (const reason of [undefined, '   ']) {
      expect(result(await withdraw('CF-1001', reason), 'GonderiGeriCek')).toBe(SURAT_MESSAGES.cancelReasonEmpty);
    }
    expect(double.find('CF-1001')!.withdrawal).toBeUndefined();
  });

  it('withdraws before pickup ("Islem basarili"); tracking shows it; a second withdrawal and movements are refused', async () => {
    await create();
    expect(result(await withdraw('CF-1001', 'Musteri istegi'), 'GonderiGeriCek')).toBe(SURAT_MESSAGES.success);
    expect(double.find('CF-1001')!.withdrawal).toEqual({ reason: 'Musteri istegi', at: clock });
    expect(await trackingText('CF-1001')).toBe('Iptal Edildi|2026-02-20 10:00:00|Istanbul Kadikoy Sube');
    expect(result(await withdraw('CF-1001', 'Musteri istegi'), 'GonderiGeriCek')).toBe(SURAT_MESSAGES.cancelAlreadyWithdrawn);
    expect(() => double.pickUp('CF-1001')).toThrow(/final/);
  });

  it('refuses after pickup, and for a code it does not hold', async () => {
    await create();
    double.pickUp('CF-1001');
    expect(result(await withdraw('CF-1001', 'Musteri istegi'), 'GonderiGeriCek')).toBe(SURAT_MESSAGES.cancelAfterPickup);
    expect(double.find('CF-1001')!.withdrawal).toBeUndefined();
    expect(result(await withdraw('NOPE', 'Musteri istegi'), 'GonderiGeriCek')).toBe(SURAT_MESSAGES.cancelNotFound);
  });
});

describe('WebSiparisKodu (what is held under our reference)', () => {
  it('answers a DataSet row with the barcode (TakipNo), no row for an unknown code, a Mesaj row for a wrong password', async () => {
    const booked = result(await create(), CREATE) as Json;
    const found = await lookup('CF-1001');
    const ds = result(found, 'WebSiparisKodu') as Json;
    expect(ds.schema['@_id']).toBe('NewDataSet');
    expect(ds.diffgram.NewDataSet.Table).toMatchObject({ WebSiparisKodu: 'CF-1001', TakipNo: booked.Barcode['#text'], GonderiTarihi: '2026-02-20 10:00:00' });
    const none = result(await lookup('CF-404'), 'WebSiparisKodu') as Json;
    expect(none.diffgram).toBe('');
    const wrong = result(await lookup('CF-1001', SURAT_TEST_ACCOUNT.sifre), 'WebSiparisKodu') as Json;
    expect(wrong.diffgram.NewDataSet.Table).toMatchObject({ Mesaj: SURAT_MESSAGES.queryWrongCredentials });
  });
});

describe('fault switches', () => {
  it('status 500: a soap:Server fault, nothing booked; only the named operation and only `times` requests', async () => {
    double.failNext({ kind: 'status', status: 500 }, { operation: CREATE, times: 2 });
    expect((await track('CF-1001')).status).toBe(200); // another operation is not affected
    for (let i = 0; i < 2; i++) {
      const a = await create();
      expect(a.status).toBe(500);
      expect(a.xml.Envelope.Body.Fault.faultcode).toBe('soap:Server');
    }
    expect(double.shipments.size).toBe(0);
    expect((await create()).status).toBe(200);
    expect(double.requests.filter((r) => r.fault === 'status')).toHaveLength(2);
  });

  it('status 503: an IIS HTML page', async () => {
    double.failNext({ kind: 'status', status: 503 });
    const a = await create();
    expect(a.status).toBe(503);
    expect(a.contentType).toMatch(/^text\/html/);
  });

  it('hang and drop: no answer and nothing booked', async () => {
    double.failNext({ kind: 'hang' });
    await expect(create(gonderi(), SURAT_TEST_ACCOUNT, { timeoutMs: 300 })).rejects.toThrow();
    double.failNext({ kind: 'drop' });
    await expect(create()).rejects.toThrow();
    expect(double.shipments.size).toBe(0);
  });

  it('applyThenHold: a slow answer that still carries the booking', async () => {
    double.failNext({ kind: 'applyThenHold', ms: 400 });
    const started = Date.now();
    const a = await create();
    expect(Date.now() - started).toBeGreaterThanOrEqual(380);
    expect((result(a, CREATE) as Json).isError).toBe('false');
  });

  it('applyThenDrop and applyThenHang: booked but the answer is lost; the lookup finds it and a re-booking is refused', async () => {
    double.failNext({ kind: 'applyThenDrop' }, { operation: CREATE });
    await expect(create()).rejects.toThrow();
    expect(double.requests.at(-1)).toMatchObject({ fault: 'applyThenDrop', outcome: 'ok' });
    expect(double.requests.at(-1)!.status).toBeUndefined();

    double.failNext({ kind: 'applyThenHang' }, { operation: CREATE });
    await expect(create(gonderi({ OzelKargoTakipNo: 'CF-1002' }), SURAT_TEST_ACCOUNT, { timeoutMs: 300 })).rejects.toThrow();
    expect(double.requests.at(-1)).toMatchObject({ fault: 'applyThenHang', outcome: 'ok' });
    expect(double.requests.at(-1)!.status).toBeUndefined();

    const held = result(await lookup('CF-1002'), 'WebSiparisKodu') as Json;
    expect(held.diffgram.NewDataSet.Table.TakipNo).toBe(double.find('CF-1002')!.barcode);
    expect(result(await create(gonderi({ OzelKargoTakipNo: 'CF-1002' })), CREATE)).toMatchObject({ isError: 'true' });
    expect(double.shipments.size).toBe(2);
  });
});
