import { XMLParser } from 'fast-xml-parser';
import {
  YURTICI_ERRORS,
  YURTICI_NAMESPACE,
  YURTICI_QUERY_COOLDOWN_MS,
  YURTICI_SERVICE_PATH,
  YURTICI_TEST_USER_RECEIVER_PAYS,
  YURTICI_TEST_USER_SENDER_PAYS,
  fromYk,
  startYurticiDouble,
  type YurticiDouble,
  type YurticiDoubleOptions,
} from '../../support/carriers/yurtici-double';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const SOAP_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
const REPEATED = new Set(['shippingOrderDetailVO', 'shippingDeliveryDetailVO', 'shippingCancelDetailVO', 'invDocCargoVOArray']);
const responseParser = new XMLParser({ removeNSPrefix: true, parseTagValue: false, isArray: (name) => REPEATED.has(name) });

let double: YurticiDouble;
let clock: Date;

interface SoapAnswer {
  status: number;
  contentType: string | null;
  text: string;
  /** the operation's result VO (ShippingOrderResultVO / ShippingDeliveryVO), or the Fault */
  result: Json;
}

async function post(xml: string, opts: { contentType?: string; path?: string; timeoutMs?: number; method?: string } = {}): Promise<SoapAnswer> {
  const res = await fetch(`${double.baseUrl}${opts.path ?? YURTICI_SERVICE_PATH}`, {
    method: opts.method ?? 'POST',
    headers: { 'content-type': opts.contentType ?? 'text/xml; charset=utf-8', soapaction: '""' },
    body: opts.method === 'GET' ? undefined : xml,
    signal: AbortSignal.timeout(opts.timeoutMs ?? 5000),
  });
  const text = await res.text();
  let result: Json = {};
  if (text.startsWith('<?xml')) {
    const body = (responseParser.parse(text) as Json).Envelope.Body as Json;
    const wrapper = Object.values(body)[0] as Json;
    result = body.Fault ? (body.Fault as Json) : (Object.values(wrapper).find((v) => typeof v === 'object') as Json);
  }
  return { status: res.status, contentType: res.headers.get('content-type'), text, result };
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const fields = (o: Record<string, string | number | boolean | undefined>) =>
  Object.entries(o)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `<${k}>${esc(String(v))}</${k}>`)
    .join('');

function envelope(operation: string, inner: string, prefix = 'ship'): string {
  const open = prefix ? `<${prefix}:${operation}>` : `<${operation} xmlns="${YURTICI_NAMESPACE}">`;
  const close = prefix ? `</${prefix}:${operation}>` : `</${operation}>`;
  // children are unqualified: a default namespace on the operation element would capture them, so reset it
  const body = prefix ? inner : inner.replace(/<(\w+)>/g, '<$1 xmlns="">');
  return (
    `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="${SOAP_NS}" xmlns:${prefix || 'x'}="${YURTICI_NAMESPACE}">` +
    `<soapenv:Header/><soapenv:Body>${open}${body}${close}</soapenv:Body></soapenv:Envelope>`
  );
}

const SENDER = { wsUserName: YURTICI_TEST_USER_SENDER_PAYS.userName, wsPassword: YURTICI_TEST_USER_SENDER_PAYS.password };
const RECEIVER = { wsUserName: YURTICI_TEST_USER_RECEIVER_PAYS.userName, wsPassword: YURTICI_TEST_USER_RECEIVER_PAYS.password };

/** The README's invoice-based example (Mehmet Yılmaz, Eski Büyükdere Cad. No:3, Maslak/Istanbul, 02123652426). */
const order = (over: Record<string, string | number | undefined> = {}) => ({
  cargoKey: 'ORDER-001',
  invoiceKey: 'INV-001',
  receiverCustName: 'Mehmet Yılmaz',
  receiverAddress: 'Eski Büyükdere Cad. No:3',
  cityName: 'Istanbul',
  townName: 'Maslak',
  receiverPhone1: '02123652426',
  emailAddress: 'mehmet@example.com',
  desi: 3,
  kg: 2.5,
  cargoCount: 1,
  description: 'Elektronik ürün',
  ...over,
});

const createXml = (
  orders: Record<string, string | number | undefined>[],
  creds: Record<string, string> = SENDER,
  lang: Record<string, string> = { userLanguage: 'TR' },
) => envelope('createShipment', fields({ ...creds, ...lang }) + orders.map((o) => `<ShippingOrderVO>${fields(o)}</ShippingOrderVO>`).join(''));

const create = (orders: Record<string, string | number | undefined>[], creds?: Record<string, string>) => post(createXml(orders, creds));

const queryXml = (
  keys: string[],
  opts: { keyType?: number; historical?: boolean; onlyTracking?: boolean; creds?: Record<string, string>; lang?: Record<string, string> } = {},
) =>
  envelope(
    'queryShipment',
    fields({ ...(opts.creds ?? SENDER), ...(opts.lang ?? { wsLanguage: 'TR' }) }) +
      keys.map((k) => `<keys>${esc(k)}</keys>`).join('') +
      fields({ keyType: opts.keyType ?? 0, addHistoricalData: opts.historical ?? true, onlyTracking: opts.onlyTracking ?? false }),
  );

const query = (keys: string[], opts: Parameters<typeof queryXml>[1] = {}) => post(queryXml(keys, opts));

const cancel = (keys: string[], creds: Record<string, string> = SENDER) =>
  post(envelope('cancelShipment', fields({ ...creds, userLanguage: 'TR' }) + keys.map((k) => `<cargoKeys>${esc(k)}</cargoKeys>`).join('')));

const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};

async function withDouble(options: YurticiDoubleOptions, fn: () => Promise<void>): Promise<void> {
  const saved = double;
  double = await startYurticiDouble({ now: () => clock, ...options });
  try {
    await fn();
  } finally {
    await double.close();
    double = saved;
  }
}

beforeEach(async () => {
  clock = new Date('2025-03-10T09:00:00Z'); // 12:00 in Turkey
  double = await startYurticiDouble({ now: () => clock });
});

afterEach(async () => {
  await double.close();
});

describe('Yurtiçi double: createShipment', () => {
  it("books the README example and answers ShippingOrderResultVO in the service's namespace with a jobId", async () => {
    const res = await create([order()]);
    expect(res.status).toBe(200);
    expect(res.contentType).toMatch(/^text\/xml/);
    expect(res.text).toContain(`<ns2:createShipmentResponse xmlns:ns2="${YURTICI_NAMESPACE}">`);
    expect(res.result).toMatchObject({ outFlag: '0', count: '1' });
    expect(Number(res.result.jobId)).toBeGreaterThan(0);
    expect(res.result.shippingOrderDetailVO).toEqual([{ cargoKey: 'ORDER-001', errCode: '0', invoiceKey: 'INV-001' }]);
    const s = double.shipments.get('ORDER-001')!;
    expect(s).toMatchObject({ status: 'NOP', userName: 'YKTEST', paymentType: 'sender', jobId: Number(res.result.jobId) });
    expect(s.docId).toBeUndefined(); // README: the YK shipment number only comes with queryShipment, after the branch
    expect(double.requests.at(-1)).toMatchObject({ operation: 'createShipment', userName: 'YKTEST', outcome: 'ok', unknownFields: [], errors: [] });
  });

  it('accepts any prefix for the operation element, and a default namespace', async () => {
    expect((await post(createXml([order()]).replace(/ship:/g, 'yk:').replace('xmlns:ship', 'xmlns:yk'))).result.outFlag).toBe('0');
    expect(
      (
        await post(
          envelope('createShipment', fields({ ...SENDER, userLanguage: 'TR' }) + `<ShippingOrderVO>${fields(order({ cargoKey: 'K2' }))}</ShippingOrderVO>`, ''),
        )
      ).result.outFlag,
    ).toBe('0');
    expect([...double.shipments.keys()]).toEqual(['ORDER-001', 'K2']);
  });

  it('does not bind children qualified with the namespace (the schema declares them unqualified): the call lacks credentials', async () => {
    const xml = envelope('createShipment', '<ship:wsUserName>YKTEST</ship:wsUserName><ship:wsPassword>YK</ship:wsPassword><userLanguage>TR</userLanguage>');
    const res = await post(xml);
    expect(res.result).toMatchObject({ outFlag: '1', outResult: 'Web servis kullanıcı adı veya şifresi hatalı' });
    expect(double.requests.at(-1)!.unknownFields).toEqual([`{${YURTICI_NAMESPACE}}wsUserName`, `{${YURTICI_NAMESPACE}}wsPassword`]);
  });

  it.each([
    ['cargoKey missing', { cargoKey: undefined }, 80859, 'cargoKey', /Kargo anahtarı bulunamadı/],
    ['cargoKey over 20', { cargoKey: 'K'.repeat(21) }, 82500, 'cargoKey', /CARGO_KEY .*max: 20/],
    ['invoiceKey missing', { invoiceKey: '' }, 60017, 'invoiceKey', /Fatura anahtarı/],
    ['invoiceKey over 20', { invoiceKey: 'I'.repeat(21) }, 82501, 'invoiceKey', /INVOICE_KEY .*max: 20/],
    ['receiver name missing', { receiverCustName: undefined }, 60018, 'receiverCustName', /Alıcı müşteri adı/],
    ['receiver name under 5', { receiverCustName: 'Ali' }, 82503, 'receiverCustName', /RECEIVER_CUST_NAME parametresi min: 5 max: 200/],
    ['receiver name under 4 letters', { receiverCustName: 'A 123 45' }, 82517, 'receiverCustName', /en az 4 harf/],
    ['address missing', { receiverAddress: undefined }, 60019, 'receiverAddress', /Alıcı adresi/],
    ['address under 5', { receiverAddress: 'No:3' }, 82502, 'receiverAddress', /RECEIVER_ADDRESS parametresi min: 5 max: 200/],
    ['address over 200', { receiverAddress: 'A'.repeat(201) }, 82502, 'receiverAddress', /RECEIVER_ADDRESS/],
    ['phone missing', { receiverPhone1: undefined }, 82516, 'receiverPhone1', /telefon/],
    ['phone not 10 digits', { receiverPhone1: '0212365242' }, 82516, 'receiverPhone1', /telefon/],
    ['phone with +90', { receiverPhone1: '+902123652426' }, 82516, 'receiverPhone1', /telefon/],
    ['second phone invalid', { receiverPhone2: '123' }, 82516, 'receiverPhone2', /telefon/],
    ['email invalid', { emailAddress: 'mehmet@' }, 82515, 'emailAddress', /e-posta/],
    ['cityName over 40', { cityName: 'C'.repeat(41) }, 82517, 'cityName', /Geçersiz format bilgisi: cityName/],
    ['desi with 4 decimals', { desi: '3.1234' }, 82517, 'desi', /: desi$/],
    ['taxNumber not 10/11 digits', { taxNumber: '123' }, 82517, 'taxNumber', /: taxNumber$/],
    ['specialField1 not id$value#', { specialField1: '1$134096' }, 82517, 'specialField1', /: specialField1$/],
  ])('refuses %s with the document code and a message naming the rule', async (_name, over, code, field, text) => {
    const res = await create([order(over)]);
    expect(res.result).toMatchObject({ outFlag: '1', jobId: '0' });
    const [detail] = res.result.shippingOrderDetailVO;
    expect(detail.errCode).toBe(String(code));
    expect(detail.errMessage).toMatch(text);
    expect(double.shipments.size).toBe(0);
    expect(double.requests.at(-1)!.outcome).toBe('refused');
    expect(double.requests.at(-1)!.errors).toEqual([expect.stringMatching(new RegExp(`^ShippingOrderVO\\[0\\]\\.${field}: ${code} `))]);
  });

  it('answers English messages for userLanguage EN', async () => {
    const res = await post(createXml([order({ receiverAddress: 'No:3' })], SENDER, { userLanguage: 'EN' }));
    expect(res.result.shippingOrderDetailVO[0]).toMatchObject({ errCode: '82502', errMessage: 'Receiver address too long' });
    expect(res.result.outResult).toBe('All records have errors');
  });

  it('books the valid records of a batch (outFlag 0) and refuses the others in their detail', async () => {
    const res = await create([order({ cargoKey: 'B-1', invoiceKey: 'I-1' }), order({ cargoKey: 'B-2', invoiceKey: 'I-2', receiverPhone1: '12' })]);
    expect(res.result).toMatchObject({ outFlag: '0', count: '2' });
    expect(res.result.shippingOrderDetailVO.map((d: Json) => d.errCode)).toEqual(['0', '82516']);
    expect([...double.shipments.keys()]).toEqual(['B-1']);
    expect(double.requests.at(-1)!.outcome).toBe('partial');
  });

  it('refuses a cargoKey already used (60020), also by the receiver-pays user of the same customer and within one call', async () => {
    await create([order()]);
    const again = await create([order({ invoiceKey: 'INV-002' })]);
    expect(again.result.shippingOrderDetailVO[0]).toMatchObject({ errCode: '60020', errMessage: 'CARGO_KEY sistemde mevcuttur' });
    const otherUser = await create([order({ invoiceKey: 'INV-003' })], RECEIVER);
    expect(otherUser.result.shippingOrderDetailVO[0].errCode).toBe('60020');
    const sameCall = await create([order({ cargoKey: 'D-1', invoiceKey: 'I-D' }), order({ cargoKey: 'D-1', invoiceKey: 'I-D' })]);
    expect(sameCall.result.shippingOrderDetailVO.map((d: Json) => d.errCode)).toEqual(['0', '60020']);
  });

  it('lets the pieces of one shipment share an invoiceKey (package mode) but not another receiver', async () => {
    const pieces = await create(['10012', '10013', '10014'].map((k) => order({ cargoKey: k, invoiceKey: 'A123456', waybillNo: 'A123456', cargoCount: 3 })));
    expect(pieces.result.shippingOrderDetailVO.map((d: Json) => d.errCode)).toEqual(['0', '0', '0']);
    const other = await create([order({ cargoKey: '10015', invoiceKey: 'A123456', receiverCustName: 'Ayşe Demir' })]);
    expect(other.result.shippingOrderDetailVO[0]).toMatchObject({ errCode: '82517', errMessage: expect.stringMatching(/INVOICE_KEY/) });
  });

  it('ties the payment type to the user: a receiver-pays booking belongs to YKTESTAO', async () => {
    await create([order({ cargoKey: 'AO-1' })], RECEIVER);
    expect(double.shipments.get('AO-1')).toMatchObject({ userName: 'YKTESTAO', paymentType: 'receiver' });
  });

  it('refuses collection on delivery for a user whose contract has none (82512) and checks the COD fields of a COD user', async () => {
    const cod = { ttCollectionType: '0', ttInvoiceAmount: '45.35', ttDocumentId: '5146846', ttDocumentSaveType: '0' };
    expect((await create([order(cod)])).result.shippingOrderDetailVO[0].errCode).toBe('82512');
    const codUser = { userName: 'YKTESTCOD', password: 'YK', paymentType: 'sender' as const, cashOnDelivery: ['cash' as const, 'card' as const] };
    await withDouble({ users: [codUser] }, async () => {
      const creds = { wsUserName: 'YKTESTCOD', wsPassword: 'YK' };
      const codes = async (over: Record<string, string>) => (await create([order({ ...cod, ...over })], creds)).result.shippingOrderDetailVO[0].errCode;
      expect(await codes({ cargoKey: 'C-1' })).toBe('0');
      expect(await codes({ cargoKey: 'C-2', ttCollectionType: '2' })).toBe('82513');
      expect(await codes({ cargoKey: 'C-3', ttInvoiceAmount: '45.355' })).toBe('82506');
      expect(await codes({ cargoKey: 'C-4', ttDocumentId: '1234567890123' })).toBe('82508');
      expect(await codes({ cargoKey: 'C-5', ttDocumentSaveType: '' })).toBe('82514');
      expect(await codes({ cargoKey: 'C-6', ttCollectionType: '1' })).toBe('82509');
      expect(await codes({ cargoKey: 'C-7', ttCollectionType: '1', dcSelectedCredit: '5' })).toBe('82511');
      expect(await codes({ cargoKey: 'C-8', ttCollectionType: '1', dcSelectedCredit: '5', dcCreditRule: '3' })).toBe('82518');
      expect(await codes({ cargoKey: 'C-9', ttCollectionType: '1', dcSelectedCredit: '5', dcCreditRule: '1' })).toBe('0');
    });
  });

  it('faults (SOAP Client, HTTP 500) on a number that is not one, e.g. a COD amount with a comma', async () => {
    const res = await create([order({ desi: '3,5' })]);
    expect(res.status).toBe(500);
    expect(res.result).toMatchObject({ faultcode: 'S:Client', faultstring: 'Unmarshalling Error: For input string: "3,5"' });
    expect(double.shipments.size).toBe(0);
    expect(double.requests.at(-1)!.outcome).toBe('soap-fault');
  });

  it('refuses wrong credentials and a missing userLanguage as a whole call (outFlag 1, no detail)', async () => {
    const wrong = await create([order()], { wsUserName: 'YKTEST', wsPassword: 'yk' });
    expect(wrong.result).toMatchObject({ outFlag: '1', outResult: 'Web servis kullanıcı adı veya şifresi hatalı', jobId: '0' });
    expect(wrong.result.shippingOrderDetailVO).toBeUndefined();
    // queryShipment's wsLanguage on createShipment: the service does not read it
    const lang = await post(createXml([order()], SENDER, { wsLanguage: 'TR' }));
    expect(lang.result).toMatchObject({ outFlag: '1', outResult: 'Web servis kullanıcı dili boş olamaz' });
    expect(double.requests.at(-1)!.unknownFields).toEqual(['wsLanguage']);
    expect(double.shipments.size).toBe(0);
  });

  it('records the elements the schema does not know, e.g. a misspelt field', async () => {
    await create([order({ receiverCity: 'Istanbul' })]);
    expect(double.requests.at(-1)!.unknownFields).toEqual(['ShippingOrderVO[0].receiverCity']);
  });
});

describe('Yurtiçi double: queryShipment', () => {
  it('answers several keys in one call: not processed, delivered with history in Turkish time, and unknown', async () => {
    await create([order({ cargoKey: 'Q-1', invoiceKey: 'QI-1' }), order({ cargoKey: 'Q-2', invoiceKey: 'QI-2' })]);
    double.pickUp('Q-2', { at: new Date('2025-03-10T10:15:30Z') });
    double.move('Q-2', 'loaded', { at: new Date('2025-03-10T18:00:00Z') });
    double.move('Q-2', 'unloaded', {
      at: new Date('2025-03-11T05:23:04Z'),
      unitId: '8070',
      unitName: 'AFSIN IRTIBAT',
      cityName: 'Kahramanmaras',
      townName: 'Afsin',
    });
    double.move('Q-2', 'outForDelivery', { at: new Date('2025-03-11T06:00:00Z') });
    double.deliver('Q-2', { at: new Date('2025-03-11T11:45:00Z'), receiverInfo: 'MEHMET YILMAZ (KENDİSİ)' });

    const res = await query(['Q-1', 'Q-2', 'NOPE']);
    expect(res.result).toMatchObject({ outFlag: '0', count: '3' });
    const [q1, q2, nope] = res.result.shippingDeliveryDetailVO;
    expect(q1).toMatchObject({ cargoKey: 'Q-1', errCode: '0', operationCode: '0', operationStatus: 'NOP', operationMessage: 'Kargo İşlem Görmemiş' });
    expect(q1.shippingDeliveryItemDetailVO).toBeUndefined();
    expect(q2).toMatchObject({ cargoKey: 'Q-2', invoiceKey: 'QI-2', operationCode: '5', operationStatus: 'DLV', operationMessage: 'Kargo teslim edilmiştir' });
    const item = q2.shippingDeliveryItemDetailVO;
    expect(item.docId).toBe(double.shipments.get('Q-2')!.docId);
    expect(item).toMatchObject({
      deliveryDate: '20250311',
      deliveryTime: '144500',
      receiverInfo: 'MEHMET YILMAZ (KENDİSİ)',
      documentDate: '20250310',
      documentTime: '131530',
    });
    expect(item.trackingUrl).toContain(item.docId);
    expect(item.invDocCargoVOArray).toHaveLength(5);
    expect(item.invDocCargoVOArray[2]).toEqual({
      unitId: '8070',
      unitName: 'AFSIN IRTIBAT',
      eventId: 'YK',
      eventName: 'Kargo Indirildi',
      reasonId: 'OK',
      reasonName: 'Sorun Yok',
      eventDate: '20250311',
      eventTime: '082304',
      cityName: 'Kahramanmaras',
      townName: 'Afsin',
    });
    expect(fromYk(item.invDocCargoVOArray[2].eventDate, item.invDocCargoVOArray[2].eventTime)).toEqual(new Date('2025-03-11T05:23:04Z'));
    expect(nope).toMatchObject({ cargoKey: 'NOPE', errCode: '82519' });
    expect(double.requests.at(-1)!.outcome).toBe('partial');
  });

  it('refuses the same key asked again within a minute, per key, and answers it once the minute is over', async () => {
    await create([order({ cargoKey: 'M-1', invoiceKey: 'MI-1' }), order({ cargoKey: 'M-2', invoiceKey: 'MI-2' })]);
    expect((await query(['M-1'])).result.outFlag).toBe('0');
    advance(30_000);
    const soon = await query(['M-1', 'M-2']);
    expect(soon.result).toMatchObject({ outFlag: '0' });
    const [m1, m2] = soon.result.shippingDeliveryDetailVO;
    expect(m1).toMatchObject({
      cargoKey: 'M-1',
      errCode: String(YURTICI_ERRORS.queryTooSoon.code),
      errMessage: 'Aynı kargo 1 dakika içinde tekrar sorgulanamaz',
    });
    expect(m2).toMatchObject({ cargoKey: 'M-2', errCode: '0' });
    advance(29_999);
    expect((await query(['M-1'])).result).toMatchObject({ outFlag: '1', shippingDeliveryDetailVO: [{ errCode: '82599' }] });
    advance(1);
    expect((await query(['M-1'])).result).toMatchObject({ outFlag: '0', shippingDeliveryDetailVO: [{ errCode: '0' }] });
  });

  it('has no one-minute rule when queryCooldownMs is 0', async () => {
    await withDouble({ queryCooldownMs: 0 }, async () => {
      await create([order()]);
      expect((await query(['ORDER-001'])).result.outFlag).toBe('0');
      expect((await query(['ORDER-001'])).result.outFlag).toBe('0');
    });
    expect(YURTICI_QUERY_COOLDOWN_MS).toBe(60_000);
  });

  it('finds by invoiceKey with keyType 1 (every piece), only for the user that booked, and onlyTracking gives the link only', async () => {
    await create(['P-1', 'P-2'].map((k) => order({ cargoKey: k, invoiceKey: 'INV-P' })));
    double.pickUp('P-1');
    const res = await query(['INV-P'], { keyType: 1, onlyTracking: true });
    expect(res.result.shippingDeliveryDetailVO.map((d: Json) => [d.cargoKey, d.operationStatus])).toEqual([
      ['P-1', 'IND'],
      ['P-2', 'NOP'],
    ]);
    expect(Object.keys(res.result.shippingDeliveryDetailVO[0].shippingDeliveryItemDetailVO)).toEqual(['cargoKey', 'docId', 'trackingUrl']);
    const other = await query(['P-1'], { creds: RECEIVER });
    expect(other.result).toMatchObject({ outFlag: '1', shippingDeliveryDetailVO: [{ cargoKey: 'P-1', errCode: '82519' }] });
  });

  it('refuses missing keys (82526), a missing or invalid keyType (82527) and userLanguage instead of wsLanguage', async () => {
    expect((await query([])).result).toMatchObject({ outFlag: '1', errCode: '82526' });
    const noKeyType = envelope('queryShipment', fields({ ...SENDER, wsLanguage: 'TR', keys: 'X' }));
    expect((await post(noKeyType)).result).toMatchObject({ outFlag: '1', errCode: '82527' });
    expect((await query(['X'], { keyType: 2 })).result).toMatchObject({ outFlag: '1', errCode: '82527' });
    expect((await query(['X'], { lang: { userLanguage: 'TR' } })).result).toMatchObject({ outFlag: '1', outResult: 'Web servis kullanıcı dili boş olamaz' });
  });

  it('leaves out the movement history without addHistoricalData and shows return values when set', async () => {
    await create([order()]);
    double.pickUp('ORDER-001');
    double.notDelivered('ORDER-001', 'Alıcı Müşteriye Ulaşılamıyor');
    const item = (await query(['ORDER-001'], { historical: false })).result.shippingDeliveryDetailVO[0].shippingDeliveryItemDetailVO;
    expect(item.invDocCargoVOArray).toBeUndefined();
    expect(item).toMatchObject({
      rejectStatus: '0',
      returnStatus: '0',
      rejectReasonExplanation: 'Alıcı Müşteriye Ulaşılamıyor',
      cargoReasonExplanation: 'Alıcı Müşteriye Ulaşılamıyor',
    });
  });
});

describe('Yurtiçi double: status helpers', () => {
  it('moves a shipment NOP → IND (picked up) → DLV, or back to the sender', async () => {
    await create([order({ cargoKey: 'S-1', invoiceKey: 'SI-1' }), order({ cargoKey: 'S-2', invoiceKey: 'SI-2' })]);
    expect(double.pickUp('S-1').status).toBe('IND');
    expect(double.deliver('S-1').status).toBe('DLV');
    double.pickUp('S-2');
    double.notDelivered('S-2', 'Adres Yanlış / Yetersiz');
    expect(double.returnToSender('S-2')).toMatchObject({ status: 'IND', rejectStatus: 9, returnStatus: 3 });
    const [s1, s2] = (await query(['S-1', 'S-2'])).result.shippingDeliveryDetailVO;
    expect(s1.operationStatus).toBe('DLV');
    expect(s2.shippingDeliveryItemDetailVO).toMatchObject({ rejectStatus: '9', returnStatus: '3', returnStatusExplanation: 'Returned to sender' });
  });

  it('refuses impossible moves and values outside the tables', async () => {
    await create([order()]);
    expect(() => double.deliver('ORDER-001')).toThrow(/cannot deliver ORDER-001 in status NOP/);
    expect(() => double.pickUp('NOPE')).toThrow(/no shipment/);
    double.pickUp('ORDER-001');
    expect(() => double.setReturn('ORDER-001', { rejectStatus: 5 })).toThrow(/rejectStatus 5/);
    expect(double.cancelByBranch('ORDER-001').status).toBe('BI');
  });
});

describe('Yurtiçi double: cancelShipment', () => {
  it('cancels before pickup (NOP or scanned ISR): CNL; a second cancel answers 82520 with ISC', async () => {
    await create([order({ cargoKey: 'X-1', invoiceKey: 'XI-1' }), order({ cargoKey: 'X-2', invoiceKey: 'XI-2' })]);
    double.scan('X-2');
    const res = await cancel(['X-1', 'X-2']);
    expect(res.result).toMatchObject({ outFlag: '0', count: '2' });
    expect(res.result.shippingCancelDetailVO.map((d: Json) => [d.cargoKey, d.errCode, d.operationCode, d.operationStatus])).toEqual([
      ['X-1', '0', '3', 'CNL'],
      ['X-2', '0', '3', 'CNL'],
    ]);
    expect(double.shipments.get('X-1')!.status).toBe('CNL');
    const again = await cancel(['X-1']);
    expect(again.result).toMatchObject({ outFlag: '1', shippingCancelDetailVO: [{ errCode: '82520', operationCode: '4', operationStatus: 'ISC' }] });
  });

  it('does not cancel after pickup: answers the current status (IND, "Kargo Teslimattadır") and the shipment goes on', async () => {
    await create([order()]);
    double.pickUp('ORDER-001');
    const res = await cancel(['ORDER-001']);
    expect(res.result.shippingCancelDetailVO[0]).toMatchObject({
      errCode: '0',
      operationCode: '1',
      operationStatus: 'IND',
      operationMessage: 'Kargo Teslimattadır',
    });
    expect(res.result.shippingCancelDetailVO[0].docId).toBe(double.shipments.get('ORDER-001')!.docId);
    expect(double.shipments.get('ORDER-001')!.status).toBe('IND');
    expect(double.requests.at(-1)!.outcome).toBe('partial');
  });

  it("answers 82519 for an unknown cargoKey and for another user's", async () => {
    await create([order()]);
    expect((await cancel(['NOPE'])).result).toMatchObject({ outFlag: '1', shippingCancelDetailVO: [{ errCode: '82519' }] });
    expect((await cancel(['ORDER-001'], RECEIVER)).result.shippingCancelDetailVO[0].errCode).toBe('82519');
    expect(double.shipments.get('ORDER-001')!.status).toBe('NOP');
  });
});

describe('Yurtiçi double: SOAP envelope, transport and faults', () => {
  it('faults on malformed XML, an unknown operation and a SOAP 1.2 envelope; 415 for another media type', async () => {
    const broken = await post('<soapenv:Envelope xmlns:soapenv="x"><soapenv:Body>');
    expect(broken.status).toBe(500);
    expect(broken.result.faultcode).toBe('S:Client');
    const unknownOp = await post(envelope('createShipments', fields(SENDER)));
    expect(unknownOp.result).toMatchObject({ faultcode: 'S:Client', faultstring: `Cannot find dispatch method for {${YURTICI_NAMESPACE}}createShipments` });
    const soap12 = await post(createXml([order()]).replace(SOAP_NS, 'http://www.w3.org/2003/05/soap-envelope'));
    expect(soap12.result.faultcode).toBe('S:VersionMismatch');
    const json = await post(createXml([order()]), { contentType: 'application/soap+xml' });
    expect(json.status).toBe(415);
    expect(double.shipments.size).toBe(0);
  });

  it('answers 404 off the service path and 405 for GET', async () => {
    expect((await post(createXml([order()]), { path: '/KOSWebService/ShippingOrderDispatcherServices' })).status).toBe(404);
    expect((await post('', { method: 'GET' })).status).toBe(405);
  });

  it('status 500: a SOAP Server fault, once, for the chosen operation only', async () => {
    double.failNext({ kind: 'status', status: 500 }, { operation: 'createShipment' });
    const res = await create([order()]);
    expect([res.status, res.result.faultstring]).toEqual([500, 'Internal Server Error']);
    expect(double.requests.at(-1)).toMatchObject({ outcome: 'fault', status: 500, fault: 'status' });
    expect(double.requests.at(-1)!.response).toContain('<faultcode>S:Server</faultcode>');
    expect(double.shipments.size).toBe(0);
    expect((await create([order()])).result.outFlag).toBe('0');
  });

  it('status 503: an HTML answer', async () => {
    double.failNext({ kind: 'status', status: 503 });
    const res = await create([order()]);
    expect([res.status, res.contentType]).toEqual([503, 'text/html']);
  });

  it('slow: books at once and answers after the delay', async () => {
    double.failNext({ kind: 'slow', ms: 300 });
    const started = Date.now();
    const res = await create([order({ cargoKey: 'SLOW-1' })]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    expect(res.result.outFlag).toBe('0');
  });

  it('slow with a short client timeout: the booking exists though the caller saw a timeout', async () => {
    double.failNext({ kind: 'slow', ms: 2000 });
    await expect(post(createXml([order({ cargoKey: 'SLOW-3' })]), { timeoutMs: 200 })).rejects.toThrow();
    expect(double.shipments.get('SLOW-3')!.status).toBe('NOP');
  });

  it('hang: no answer and nothing booked', async () => {
    double.failNext({ kind: 'hang' });
    await expect(post(createXml([order()]), { timeoutMs: 200 })).rejects.toThrow();
    expect(double.shipments.size).toBe(0);
    expect(double.requests.at(-1)).toMatchObject({ outcome: 'fault', fault: 'hang' });
    expect(double.requests.at(-1)!.status).toBeUndefined();
  });

  it('drop: the connection closes and nothing is booked', async () => {
    double.failNext({ kind: 'drop' });
    await expect(create([order()])).rejects.toThrow();
    expect(double.shipments.size).toBe(0);
  });

  it('applyThenDrop ("book and lose the answer"): a connection error, yet the booking exists and booking again is refused 60020', async () => {
    double.failNext({ kind: 'applyThenDrop' }, { operation: 'createShipment' });
    await expect(create([order()])).rejects.toThrow();
    expect(double.shipments.get('ORDER-001')!.status).toBe('NOP');
    expect(double.requests.at(-1)).toMatchObject({ fault: 'applyThenDrop', outcome: 'ok' });
    expect(double.requests.at(-1)!.status).toBeUndefined();
    expect((await create([order()])).result.shippingOrderDetailVO[0].errCode).toBe('60020');
    // the way to learn what happened: ask for the key
    expect((await query(['ORDER-001'])).result.shippingDeliveryDetailVO[0]).toMatchObject({ errCode: '0', operationStatus: 'NOP' });
  });

  it('applyThenHang: the caller times out, the booking exists', async () => {
    double.failNext({ kind: 'applyThenHang' });
    await expect(post(createXml([order()]), { timeoutMs: 200 })).rejects.toThrow();
    expect(double.shipments.has('ORDER-001')).toBe(true);
  });

  it('applyThenDrop on a query starts the one-minute rule though the caller saw nothing', async () => {
    await create([order()]);
    double.failNext({ kind: 'applyThenDrop' }, { operation: 'queryShipment' });
    await expect(query(['ORDER-001'])).rejects.toThrow();
    expect((await query(['ORDER-001'])).result.shippingDeliveryDetailVO[0].errCode).toBe('82599');
    double.forgetQueries();
    expect((await query(['ORDER-001'])).result.shippingDeliveryDetailVO[0].errCode).toBe('0');
  });
});
