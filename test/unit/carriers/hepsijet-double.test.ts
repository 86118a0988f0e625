import {
  HEPSIJET_EVENTS,
  HEPSIJET_MESSAGES,
  HEPSIJET_TEST_ACCOUNT,
  readHepsijetZplBarcode,
  startHepsijetDouble,
  type HepsijetDouble,
  type HepsijetDoubleOptions,
} from '../../support/carriers/hepsijet-double';
import { HEPSIJET_TOKEN_LIFETIME_MS, HEPSIJET_TOWNS, townsOf } from '../../support/carriers/hepsijet.schemas';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Answer {
  status: number;
  headers: Headers;
  body: Json;
}

let double: HepsijetDouble;
let clock: Date;
let token: string;

const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;

async function call(
  method: 'GET' | 'POST',
  path: string,
  opts: { body?: unknown; rawBody?: string; token?: string | null; contentType?: string; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...opts.headers };
  const t = opts.token === undefined ? token : opts.token;
  if (t) headers['x-auth-token'] = t;
  const payload = opts.rawBody ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
  if (payload !== undefined) headers['content-type'] = opts.contentType ?? 'application/json';
  const res = await fetch(`${double.baseUrl}${path}`, { method, headers, body: payload, signal: AbortSignal.timeout(opts.timeoutMs ?? 5000) });
  const text = await res.text();
  let body: Json;
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    body = { text };
  }
  return { status: res.status, headers: res.headers, body };
}

async function getToken(user: string = HEPSIJET_TEST_ACCOUNT.username, pass: string = HEPSIJET_TEST_ACCOUNT.password, headers: Record<string, string> = {}) {
  return call('GET', '/auth/getToken', { token: null, headers: { authorization: basic(user, pass), ...headers } });
}

/** The developers page's sendDeliveryOrderEnhanced body, with the test account's company, sender address and cross-dock. */
const order = (no = 'TST1000000000001'): Json => ({
  company: { name: 'TestCompany', abbreviationCode: 'TSTCMPNY' },
  delivery: {
    customerDeliveryNo: no,
    customerOrderId: no,
    totalParcels: '2',
    desi: '9',
    deliverySlotOriginal: '0',
    deliveryDateOriginal: '2024-05-02',
    deliveryType: 'RETAIL',
    product: { productCode: 'HX_STD' },
    receiver: { companyCustomerId: `TSTCMPNY${no.slice(-6)}`, firstName: 'Mehmet', lastName: 'Polat', phone1: '5321111111', email: 'mehmet@example.com' },
    recipientPerson: 'Mehmet Polat',
    recipientPersonPhone1: '5321111111',
    recipientAddress: {
      companyAddressId: `TSTCMPNY${no.slice(-6)}`,
      country: { name: 'Türkiye' },
      city: { name: 'İzmir' },
      town: { name: 'Ödemiş' },
      district: { name: 'Hürriyet' },
      addressLine1: 'Hürriyet, 1662. Sk. No:4, 35763 Ödemiş/İzmir',
    },
    senderAddress: {
      companyAddressId: 'TSTCMPNY_ADR1',
      country: { name: 'TÜRKİYE' },
      city: { name: 'İSTANBUL' },
      town: { name: 'SANCAKTEPE' },
      addressLine1: 'Samandıra Mah. Depo Sok. No:1 Sancaktepe/İstanbul',
    },
  },
  currentXDock: { abbreviationCode: 'TSTCMPNY_KUSTEPE' },
  deliveryContent: [{ sku: 'KUPA-01', description: 'Kupa', quantity: 2.0 }],
});

const book = (body: Json = order(), path = '/rest/delivery/sendDeliveryOrderEnhanced') => call('POST', path, { body });
const track = (...numbers: string[]) =>
  call('POST', '/rest/deliveryTransaction/getDeliveryTracking', { body: { deliveries: numbers.map((n) => ({ customerDeliveryNo: n })) } });

async function start(options: HepsijetDoubleOptions = {}): Promise<void> {
  double = await startHepsijetDouble({ now: () => clock, ...options });
  const res = await getToken();
  token = res.body.data?.token;
}

beforeEach(async () => {
  clock = new Date('2024-05-02T07:00:00Z');
  await start();
});

afterEach(async () => {
  await double.close();
});

describe('HepsiJet double: getToken and X-Auth-Token', () => {
  it('answers Basic credentials with the token in the X-Auth-Token header and in data.token, a UUID', async () => {
    const res = await getToken();
    expect(res.status).toBe(200);
    expect(res.headers.get('x-auth-token')).toBe(res.body.data.token);
    expect(res.body).toMatchObject({
      status: 'OK',
      data: { username: 'hepsijet-test', language: 'tr', tenant: { name: 'HepsiExpress', abbreviationCode: 'HX' }, company: { abbreviationCode: 'TSTCMPNY' } },
    });
    expect(res.body.data.token).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(double.logins).toBe(2);
  });

  it('refuses wrong or missing credentials with 401 and the documented FAIL message, and POST with 405', async () => {
    const wrong = await getToken('hepsijet-test', 'nope');
    expect([wrong.status, wrong.body]).toEqual([401, { status: 'FAIL', message: 'Kullanıcı Adı veya Şifre Hatalı' }]);
    expect((await call('GET', '/auth/getToken', { token: null })).status).toBe(401);
    const post = await call('POST', '/auth/getToken', { token: null, headers: { authorization: basic('hepsijet-test', 'Test.1234') } });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET']);
    expect(double.requests.slice(-3).map((r) => r.outcome)).toEqual(['unauthorized', 'unauthorized', 'method-not-allowed']);
  });

  it('answers 401 without a token, with an unknown one, 60 minutes after issue and after expireTokens()', async () => {
    expect((await track('TST1000000000001', 'x')).status).toBe(400); // valid token: the call itself is refused (not found)
    const none = await call('POST', '/rest/deliveryTransaction/getDeliveryTracking', { token: null, body: { deliveries: [] } });
    expect([none.status, none.body.error]).toEqual([401, 'Unauthorized']);
    expect((await call('GET', '/settlement/cities', { token: '00000000-0000-4000-8000-000000000000' })).status).toBe(401);
    clock = new Date(clock.getTime() + HEPSIJET_TOKEN_LIFETIME_MS - 1000);
    expect((await call('GET', '/settlement/cities')).status).toBe(200);
    clock = new Date(clock.getTime() + 1000);
    expect((await call('GET', '/settlement/cities')).status).toBe(401);
    token = (await getToken()).body.data.token;
    expect((await call('GET', '/settlement/cities')).status).toBe(200);
    double.expireTokens();
    expect((await call('GET', '/settlement/cities')).status).toBe(401);
    token = (await getToken()).body.data.token;
    expect((await call('GET', '/settlement/cities')).status).toBe(200);
  });

  it('checks the apikey header on every call of an account that has one (403)', async () => {
    await double.close();
    await start({ accounts: [{ ...HEPSIJET_TEST_ACCOUNT, username: 'keyed', apiKey: 'k-123' }] });
    expect(token).toBeUndefined();
    const noKey = await getToken('keyed', HEPSIJET_TEST_ACCOUNT.password);
    expect([noKey.status, noKey.body.status]).toEqual([403, 'FAIL']);
    token = (await getToken('keyed', HEPSIJET_TEST_ACCOUNT.password, { apikey: 'k-123' })).body.data.token;
    expect((await call('GET', '/settlement/cities')).status).toBe(403);
    expect((await call('GET', '/settlement/cities', { headers: { apikey: 'k-123' } })).status).toBe(200);
  });
});

describe('HepsiJet double: sendDeliveryOrderEnhanced', () => {
  it('books under our customerDeliveryNo and answers a ZPL label per parcel carrying it in the Code 128 field', async () => {
    const res = await book();
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('OK');
    expect(res.body.data.customerDeliveryNo).toBe('TST1000000000001');
    const labels = res.body.data.zplBarcodeDTOList;
    expect(labels).toHaveLength(2);
    expect(labels[0]).toMatchObject({
      sender: 'TestCompany',
      receiverCity: 'İzmir',
      receiverTown: 'ÖDEMİŞ',
      receiverDistrict: 'HÜRRİYET',
      receiverXDock: 'TORBALI',
      transferXdockName: 'İzmir TM',
      productName: 'Standart Teslimat',
      deliveryDateOriginal: '02.05.2024',
      deliveryDatePromised: '04.05.2024',
      receiver: 'Mehmet Polat',
      parcelNo: 1,
      totalParcels: 2,
      senderXDock: 'TSTCMPNY_KUSTEPE',
      barcodePrintDate: '02.05.2024 10:00',
      desiSize: 'ORTA 5 - 10 DESI',
    });
    expect(labels[1].parcelNo).toBe(2);
    for (const l of labels) {
      expect(l.zplBarcode).toMatch(/^\^XA\^CI28.*\^XZ$/);
      expect(l.zplBarcode).toContain('^BY2,3,104^FT757,701^BCB,,Y,N^FD>:TST1000000000001^FS');
      expect(readHepsijetZplBarcode(l.zplBarcode)).toBe('TST1000000000001');
    }
    expect(labels[1].zplBarcode).toContain('PARÇA: 2/2');
    const d = double.deliveries.get('TST1000000000001')!;
    expect(d).toMatchObject({ account: 'hepsijet-test', generatedNo: false, booking: { totalParcels: 2, desi: 9, productCode: 'HX_STD' } });
    expect(d.events.map((e) => e.event)).toEqual(['CREATED']);
    expect(double.requests.at(-1)).toMatchObject({
      operation: 'sendDeliveryOrderEnhanced',
      outcome: 'ok',
      restPrefix: true,
      validationErrors: [],
      unknownFields: [],
    });
  });

  it('serves the path without /rest too (the developers page writes /delivery/sendDeliveryOrderEnhanced)', async () => {
    const res = await book(order('TST1000000000002'), '/delivery/sendDeliveryOrderEnhanced');
    expect([res.status, res.body.data.customerDeliveryNo]).toEqual([200, 'TST1000000000002']);
    expect(double.requests.at(-1)!.restPrefix).toBe(false);
  });

  it('refuses a customerDeliveryNo already in the system with the documented BARCODE_EXIST answer, whichever account sent it', async () => {
    await book();
    const again = await book();
    expect([again.status, again.body]).toEqual([400, { status: 'FAIL', detailStatus: 'BARCODE_EXIST', message: 'Gönderi numarası sistemde kayıtlı.' }]);
    expect(double.requests.at(-1)).toMatchObject({ outcome: 'refused', validationErrors: ['delivery.customerDeliveryNo: Gönderi numarası sistemde kayıtlı.'] });
    await double.close();
    const other = { ...HEPSIJET_TEST_ACCOUNT, username: 'other', company: { name: 'Other', abbreviationCode: 'OTHR' } };
    await start({ accounts: [HEPSIJET_TEST_ACCOUNT, other], failHttpStatus: 200 });
    await book();
    token = (await getToken('other', other.password)).body.data.token;
    const fromOther = await book({ ...order(), company: other.company });
    expect([fromOther.status, fromOther.body.detailStatus]).toEqual([200, 'BARCODE_EXIST']);
  });

  it('makes the number up when customerDeliveryNo is not sent (PDF: "Generated and sent in response if null")', async () => {
    const body = order();
    delete body.delivery.customerDeliveryNo;
    const res = await book(body);
    expect(res.status).toBe(200);
    const no = res.body.data.customerDeliveryNo;
    expect(no).toMatch(/^HJ\d{11}$/);
    expect(double.deliveries.get(no)!.generatedNo).toBe(true);
    expect(readHepsijetZplBarcode(res.body.data.zplBarcodeDTOList[0].zplBarcode)).toBe(no);
  });

  it('answers without labels for an account whose printBarcode is off', async () => {
    await double.close();
    await start({ accounts: [{ ...HEPSIJET_TEST_ACCOUNT, printBarcode: false }] });
    const res = await book();
    expect(res.body).toEqual({ status: 'OK', data: { customerDeliveryNo: 'TST1000000000001' } });
  });

  it('refuses missing mandatory fields, naming each, the first in the message', async () => {
    const body = order();
    delete body.delivery.receiver.firstName;
    delete body.delivery.recipientPersonPhone1;
    body.delivery.recipientAddress.town = { name: '' };
    delete body.currentXDock;
    const res = await book(body);
    expect([res.status, res.body]).toEqual([400, { status: 'FAIL', message: 'currentXDock.abbreviationCode alanı zorunludur.' }]);
    expect(double.requests.at(-1)!.outcome).toBe('invalid');
    expect(double.requests.at(-1)!.validationErrors).toEqual([
      'currentXDock.abbreviationCode alanı zorunludur.',
      'delivery.receiver.firstName alanı zorunludur.',
      'delivery.recipientPersonPhone1 alanı zorunludur.',
      'delivery.recipientAddress.town.name alanı zorunludur.',
    ]);
    expect(double.deliveries.size).toBe(0);
  });

  it('checks the customerDeliveryNo length (9-16) and characters, the value lists and the phones', async () => {
    const cases: [(b: Json) => void, string][] = [
      [(b) => (b.delivery.customerDeliveryNo = 'TST10000'), 'delivery.customerDeliveryNo 9-16 karakter uzunluğunda olmalıdır.'],
      [(b) => (b.delivery.customerDeliveryNo = 'TST10000000000001'), 'delivery.customerDeliveryNo 9-16 karakter uzunluğunda olmalıdır.'],
      [(b) => (b.delivery.customerDeliveryNo = 'CF-1001-000'), 'delivery.customerDeliveryNo yalnızca harf ve rakamdan oluşmalıdır.'],
      [(b) => (b.delivery.deliveryType = 'CARGO'), 'delivery.deliveryType geçersiz: CARGO'],
      [(b) => (b.delivery.product.productCode = 'HX_XX'), 'delivery.product.productCode geçersiz: HX_XX'],
      [(b) => (b.delivery.totalParcels = '0'), 'delivery.totalParcels geçersiz: 0'],
      [(b) => (b.delivery.deliverySlotOriginal = '5'), 'delivery.deliverySlotOriginal geçersiz: 5'],
      [(b) => (b.delivery.receiver.phone1 = '12345'), 'delivery.receiver.phone1 geçersiz telefon numarası: 12345'],
      [(b) => (b.delivery.receiver.email = 'nope'), 'delivery.receiver.email geçersiz: nope'],
    ];
    for (const [change, message] of cases) {
      const body = order();
      change(body);
      const res = await book(body);
      expect([res.status, res.body.message]).toEqual([400, message]);
    }
    const spaced = order('TST1000000000009');
    spaced.delivery.deliverySlotOriginal = '0 '; // as in the PDF sample
    spaced.delivery.receiver.phone1 = '0532 111 11 11';
    spaced.delivery.totalParcels = 1;
    expect((await book(spaced)).status).toBe(200);
  });

  it('checks city and town names against its settlement table, ignoring case and Turkish letters', async () => {
    const withAddress = (no: string, city: string, town: string) => {
      const b = order(no);
      b.delivery.recipientAddress.city.name = city;
      b.delivery.recipientAddress.town.name = town;
      return b;
    };
    expect((await book(withAddress('TST1000000000011', 'ankara', 'cankaya'))).status).toBe(200);
    expect((await book(withAddress('TST1000000000012', 'ISTANBUL', 'Kadıköy'))).status).toBe(200);
    expect((await book(withAddress('TST1000000000013', 'Sivas', 'Şarkışla'))).status).toBe(200); // no town list for Sivas: any town
    expect((await book(withAddress('TST1000000000014', 'Atlantis', 'Merkez'))).body.message).toBe('delivery.recipientAddress.city.name bulunamadı: Atlantis');
    expect((await book(withAddress('TST1000000000015', 'İstanbul', 'Çankaya'))).body.message).toBe(
      'delivery.recipientAddress.town.name bulunamadı: Çankaya (İstanbul)',
    );
    const foreign = order('TST1000000000016');
    foreign.delivery.recipientAddress.country.name = 'Germany';
    expect((await book(foreign)).body.message).toBe('delivery.recipientAddress.country.name geçersiz: Germany');
    for (const t of HEPSIJET_TOWNS) expect(townsOf(t.cityId)).toContain(t);
  });

  it("refuses a company, sender address or cross-dock that is not the account's", async () => {
    const company = order();
    company.company.abbreviationCode = 'OTHER';
    expect((await book(company)).body).toEqual({ status: 'FAIL', message: HEPSIJET_MESSAGES.companyMismatch.message });
    const sender = order();
    sender.delivery.senderAddress.companyAddressId = 'ELSEWHERE';
    expect((await book(sender)).body.message).toBe(HEPSIJET_MESSAGES.senderAddressMismatch.message);
    const noSender = order();
    delete noSender.delivery.senderAddress.companyAddressId;
    expect((await book(noSender)).body.message).toBe('delivery.senderAddress.companyAddressId alanı zorunludur.');
    const xDock = order();
    xDock.currentXDock.abbreviationCode = 'MRHP_SANCAKTEPE';
    expect((await book(xDock)).body.message).toBe(HEPSIJET_MESSAGES.xDockMismatch.message);
    expect(double.deliveries.size).toBe(0);
  });

  it('ignores (and records) properties the DTO does not have, e.g. deliveryContent inside delivery, "length", "companyAddressID"', async () => {
    const body = order();
    body.delivery.deliveryContent = body.deliveryContent;
    delete body.deliveryContent;
    body.delivery.length = 7;
    body.delivery.recipientAddress.companyAddressID = 'X';
    body.cod = { amount: 100 };
    expect((await book(body)).status).toBe(200);
    expect(double.requests.at(-1)!.unknownFields).toEqual(['delivery.recipientAddress.companyAddressID', 'delivery.deliveryContent', 'delivery.length', 'cod']);
  });

  it('answers Spring errors for a body Jackson cannot read: 400 for broken JSON or wrong types, 415 for another media type', async () => {
    const broken = await call('POST', '/rest/delivery/sendDeliveryOrderEnhanced', { rawBody: '{"delivery": ' });
    expect([broken.status, broken.body.error, broken.body.path]).toEqual([400, 'Bad Request', '/rest/delivery/sendDeliveryOrderEnhanced']);
    const wrongType = order();
    wrongType.delivery.receiver = 'Mehmet Polat';
    wrongType.delivery.desi = 'dokuz';
    const typed = await book(wrongType);
    expect(typed.status).toBe(400);
    expect(double.requests.at(-1)!.validationErrors).toEqual([
      'delivery.desi: Cannot deserialize value of type `java.lang.Double` from "dokuz"',
      'delivery.receiver: Cannot deserialize an object from string value',
    ]);
    const form = await call('POST', '/rest/delivery/sendDeliveryOrderEnhanced', { rawBody: 'a=b', contentType: 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(415);
    expect((await call('POST', '/rest/delivery/sendDeliveryOrderEnhanced', { rawBody: '' })).status).toBe(400);
  });
});

describe('HepsiJet double: generateZplBarcode', () => {
  it('answers the labels again for the totalParcel of the path, with or without /rest', async () => {
    await book();
    const res = await call('GET', '/delivery/generateZplBarcode/TST1000000000001/3');
    expect(res.status).toBe(200);
    expect(res.body.data.map((l: Json) => [l.parcelNo, l.totalParcels, readHepsijetZplBarcode(l.zplBarcode)])).toEqual([
      [1, 3, 'TST1000000000001'],
      [2, 3, 'TST1000000000001'],
      [3, 3, 'TST1000000000001'],
    ]);
    expect((await call('GET', '/rest/delivery/generateZplBarcode/TST1000000000001/1')).body.data).toHaveLength(1);
  });

  it('refuses an unknown number, a bad totalParcel and a deleted delivery', async () => {
    await book();
    const unknown = await call('GET', '/delivery/generateZplBarcode/TST9999999999999/1');
    expect([unknown.status, unknown.body]).toEqual([400, { status: 'FAIL', message: 'Gönderi numarası bulunamadı.' }]);
    expect((await call('GET', '/delivery/generateZplBarcode/TST1000000000001/0')).body.message).toBe('totalParcel geçersiz: 0');
    await call('POST', '/rest/delivery/deleteDeliveryOrder/TST1000000000001', { body: { deleteReason: 'IPTAL' } });
    expect((await call('GET', '/delivery/generateZplBarcode/TST1000000000001/2')).body.message).toBe('Gönderi statüsü uygun değil.');
  });
});

describe('HepsiJet double: getDeliveryTracking and integration/track', () => {
  it('finds a delivery by our customerDeliveryNo right after booking (look-up for exactly-once booking)', async () => {
    await book();
    const res = await track('TST1000000000001');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toMatchObject({
      customerDeliveryNo: 'TST1000000000001',
      barcode: 'TST1000000000001',
      deliveryType: 'RETAIL',
      deliveryStatus: 'NEO',
      operationStatus: 'IN_CUSTOMER',
      transactionType: 'RECEIVE_ORDER',
      receiver: 'Mehmet P***',
      recipientName: 'Mehmet P***',
      sender: 'TestCompany',
      company: { abbreviationCode: 'TSTCMPNY', companyType: 'CUSTOMER' },
      transactions: [{ deliveryStatus: 'NEO', transactionType: 'RECEIVE_ORDER', transactionDateTime: '2024-05-02T10:00:00+03:00', location: 'TestCompany' }],
    });
  });

  it("shows HepsiJet's statuses and texts as advance() moves the delivery on", async () => {
    await book();
    const steps: [keyof typeof HEPSIJET_EVENTS, string][] = [
      ['ACCEPTED', '2024-05-02T15:31:25Z'],
      ['ARRIVED_AT_BRANCH', '2024-05-03T06:10:44Z'],
      ['OUT_FOR_DELIVERY', '2024-05-03T06:12:11Z'],
      ['ATTEMPT_RETRY', '2024-05-03T10:05:53Z'],
      ['OUT_FOR_DELIVERY', '2024-05-04T05:38:16Z'],
      ['DELIVERED', '2024-05-04T09:06:41Z'],
    ];
    for (const [event, at] of steps) double.advance('TST1000000000001', event, { at: new Date(at) });
    const d = (await track('TST1000000000001')).body.data[0];
    expect(d).toMatchObject({
      deliveryStatus: 'DELIVERED',
      operationStatus: 'IN_RECIPIENT',
      transactionType: 'DELIVERY_ATTEMPT',
      currentLocation: 'Alıcıda',
      lastTransaction: 'Teslim edildi - Mehmet P*** (Kendisi)',
      arrivalBranch: 'TORBALI Dağıtım Merkezi',
      deliveredPerson: 'Mehmet P***',
      deliveredDate: '2024-05-04T12:06:41+03:00',
    });
    expect(d.transactions.map((t: Json) => [t.deliveryStatus, t.operationStatus, t.transactionType, t.location, t.transaction])).toEqual([
      ['NEO', 'IN_CUSTOMER', 'RECEIVE_ORDER', 'TestCompany', 'Gönderi bilgisi alındı'],
      ['READY', 'IN_XDOCK', 'TAKE_CUSTODY', 'TSTCMPNY_KUSTEPE Transfer Merkezi', 'Kargoya verildi'],
      ['DISPATCHING', 'IN_XDOCK', 'UNLOAD_RING_VEHICLE', 'TORBALI Dağıtım Merkezi', 'Teslimat birimine ulaştı'],
      ['DELIVERING', 'IN_DELIVERY_TRANSIT', 'APPROVE_COURIER_DEPART', 'Dağıtım Aracında', 'Dağıtıma çıktı'],
      ['RETRY', 'IN_DELIVERY_TRANSIT', 'DELIVERY_ATTEMPT', 'Dağıtım Aracında', 'Teslimat Denemesi - Alıcı Adreste Bulunamadı - (Tekrar Denenecek)'],
      ['DELIVERING', 'IN_DELIVERY_TRANSIT', 'APPROVE_COURIER_DEPART', 'Dağıtım Aracında', 'Dağıtıma çıktı'],
      ['DELIVERED', 'IN_RECIPIENT', 'DELIVERY_ATTEMPT', 'Alıcıda', 'Teslim edildi - Mehmet P*** (Kendisi)'],
    ]);
    expect(d.transactions[4].nonDeliveryReason).toBe('RECIPIENT_NOT_FOUND');

    const lite = await call('POST', '/rest/delivery/integration/track', { body: { barcodes: ['TST1000000000001'], isTrackAdded: true } });
    expect(lite.body.data).toEqual([
      {
        barcode: 'TST1000000000001',
        trackingUrl: 'https://hepsijet.com/gonderi-takibi/TST1000000000001',
        details: [
          { transactionLocation: 'TSTCMPNY_KUSTEPE Transfer Merkezi', transactionDate: '2024-05-02T18:31:25+03:00', integrationStatus: 'ACCEPTED' },
          { transactionLocation: 'Dağıtım Aracında', transactionDate: '2024-05-03T09:12:11+03:00', integrationStatus: 'OUT_FOR_DELIVERY' },
          {
            transactionLocation: 'Dağıtım Aracında',
            transactionDate: '2024-05-03T13:05:53+03:00',
            integrationStatus: 'FAILED_ATTEMPT',
            nonDeliveryReason: 'RECIPIENT_NOT_FOUND',
          },
          { transactionLocation: 'Dağıtım Aracında', transactionDate: '2024-05-04T08:38:16+03:00', integrationStatus: 'OUT_FOR_DELIVERY' },
          { transactionLocation: 'Alıcıda', transactionDate: '2024-05-04T12:06:41+03:00', integrationStatus: 'DELIVERED', deliveredPerson: 'Mehmet Polat' },
        ],
      },
    ]);
  });

  it('answers many numbers at once, only the known ones; none known → the documented FAIL; another account sees none', async () => {
    await book();
    await book(order('TST1000000000002'));
    const both = await track('TST1000000000001', 'TST9999999999999', 'TST1000000000002');
    expect(both.body.data.map((x: Json) => x.customerDeliveryNo)).toEqual(['TST1000000000001', 'TST1000000000002']);
    const none = await track('TST9999999999999');
    expect([none.status, none.body]).toEqual([400, { status: 'FAIL', message: 'Gönderi numarası bulunamadı.' }]);
    expect((await call('POST', '/rest/deliveryTransaction/getDeliveryTracking', { body: { deliveries: [] } })).body.message).toBe(
      'deliveries[].customerDeliveryNo alanı zorunludur.',
    );
    const lite = await call('POST', '/rest/delivery/integration/track', { body: { barcodes: ['TST1000000000002'] } });
    expect(lite.body.data[0].details).toEqual([]); // nothing operational yet: "OK" with no steps
    const byDate = await call('POST', '/rest/delivery/integration/track', { body: { dateStart: '2024-05-02', dateEnd: '2024-05-03' } });
    expect(byDate.body.data.map((x: Json) => x.barcode)).toEqual(['TST1000000000001', 'TST1000000000002']);

    await double.close();
    const other = { ...HEPSIJET_TEST_ACCOUNT, username: 'other' };
    await start({ accounts: [HEPSIJET_TEST_ACCOUNT, other] });
    await book();
    token = (await getToken('other', other.password)).body.data.token;
    expect((await track('TST1000000000001')).body.message).toBe('Gönderi numarası bulunamadı.');
  });

  it('refuses advance() to an unknown delivery or event', async () => {
    await book();
    expect(() => double.advance('TST9999999999999', 'ACCEPTED')).toThrow('no delivery');
    expect(() => double.advance('TST1000000000001', 'CREATED')).toThrow('not an event');
    expect(() => double.advance('TST1000000000001', 'LOST' as never)).toThrow('not an event');
  });
});

describe('HepsiJet double: deleteDeliveryOrder and externalRecallDeliveryOrder', () => {
  const del = (no: string, body: unknown = { deleteReason: 'IPTAL' }) => call('POST', `/rest/delivery/deleteDeliveryOrder/${no}`, { body });
  const recall = (no: string, method: 'GET' | 'POST' = 'POST') => call(method, `/deliveryReturn/externalRecallDeliveryOrder/${no}`);

  it('deletes a delivery HepsiJET has not taken yet; tracking then shows DELETED', async () => {
    await book();
    const res = await del('TST1000000000001');
    expect([res.status, res.body]).toEqual([200, { status: 'OK', message: 'Gönderi başarıyla silindi' }]);
    const d = (await track('TST1000000000001')).body.data[0];
    expect([d.deliveryStatus, d.transactionType]).toEqual(['DELETED', 'DELETE']);
    expect((await del('TST1000000000001')).body.message).toBe('Gönderi statüsü uygun değil.');
    expect((await book()).body.detailStatus).toBe('BARCODE_EXIST'); // the number stays taken
  });

  it('refuses deletion after pickup with the documented message, and an unknown number, and a missing deleteReason', async () => {
    await book();
    double.advance('TST1000000000001', 'ACCEPTED');
    expect((await del('TST1000000000001')).body).toEqual({ status: 'FAIL', message: 'Gönderi statüsü uygun değil.' });
    expect((await del('TST9999999999999')).body.message).toBe('Gönderi numarası bulunamadı.');
    expect((await del('TST1000000000001', {})).body.message).toBe('deleteReason alanı zorunludur.');
    expect((await call('POST', '/rest/delivery/deleteDeliveryOrder/TST1000000000001')).status).toBe(400); // no body at all
  });

  it('recalls after pickup until out for delivery (POST or GET), not before, not after, not RETURNED deliveries', async () => {
    await book();
    expect((await recall('TST1000000000001')).body).toEqual({ status: 'FAIL', message: 'Gönderi statüsü uygun değil.' });
    double.advance('TST1000000000001', 'ACCEPTED');
    const res = await recall('TST1000000000001');
    expect([res.status, res.body]).toEqual([200, { status: 'OK', message: HEPSIJET_MESSAGES.recallStarted.message }]);
    const d = (await track('TST1000000000001')).body.data[0];
    expect([d.deliveryStatus, d.transactionType]).toEqual(['MARK_FOR_RETURN', 'RECALL_DELIVERY']);
    expect((await recall('TST1000000000001')).body.message).toBe('Gönderi statüsü uygun değil.');

    await book(order('TST1000000000002'));
    double.advance('TST1000000000002', 'ACCEPTED');
    double.advance('TST1000000000002', 'IN_TRANSFER');
    expect((await recall('TST1000000000002', 'GET')).status).toBe(200);

    await book(order('TST1000000000003'));
    double.advance('TST1000000000003', 'ACCEPTED');
    double.advance('TST1000000000003', 'OUT_FOR_DELIVERY');
    expect((await recall('TST1000000000003')).body.message).toBe('Gönderi statüsü uygun değil.');

    const returned = order('TST1000000000004');
    returned.delivery.deliveryType = 'RETURNED';
    await book(returned);
    double.advance('TST1000000000004', 'ACCEPTED');
    expect((await recall('TST1000000000004')).body.message).toBe(HEPSIJET_MESSAGES.recallNotForType.message);
    expect((await recall('TST9999999999999')).body.message).toBe('Gönderi numarası bulunamadı.');
  });
});

describe('HepsiJet double: settlement', () => {
  it('lists cities (İstanbul, Kocaeli, Ankara first), towns of a city and the documented districts of BAŞAKŞEHİR', async () => {
    const cities = await call('GET', '/settlement/cities');
    expect(cities.body.data.slice(0, 3)).toEqual([
      { id: 34, name: 'İstanbul', order: 1 },
      { id: 41, name: 'Kocaeli', order: 2 },
      { id: 6, name: 'Ankara', order: 3 },
    ]);
    expect(cities.body.data).toHaveLength(81);
    const towns = await call('GET', '/settlement/city/34/towns');
    expect(towns.body.data).toEqual(
      expect.arrayContaining([
        { id: 2018, name: 'ATAŞEHİR' },
        { id: 2020, name: 'BAŞAKŞEHİR' },
      ]),
    );
    const districts = await call('GET', '/settlement/town/2020/districts');
    expect(districts.body.data[0]).toEqual({
      id: 10562,
      name: 'ALTINŞEHİR/BAŞAKŞEHİR',
      xdock: { id: 2655, name: 'KÜÇÜKÇEKMECE', abbreviationCode: 'KCKCKMC1', xdockType: 'BASIC' },
    });
    expect((await call('GET', '/settlement/city/58/towns')).body).toEqual({ status: 'OK', data: [] });
  });
});

describe('HepsiJet double: routing and fault switches', () => {
  it('answers 404 for unknown paths (and /rest/auth/getToken), 405 with Allow for the wrong method, ignores a trailing slash', async () => {
    expect((await call('GET', '/rest/delivery/nope')).status).toBe(404);
    expect((await call('GET', '/rest/auth/getToken', { token: null })).status).toBe(404);
    const wrong = await call('GET', '/rest/delivery/sendDeliveryOrderEnhanced');
    expect([wrong.status, wrong.headers.get('allow')]).toEqual([405, 'POST']);
    expect((await call('GET', '/settlement/cities/')).status).toBe(200);
    expect(double.requests.slice(-4).map((r) => r.outcome)).toEqual(['not-found', 'not-found', 'method-not-allowed', 'ok']);
  });

  it('status: answers the status with Retry-After before auth, for the chosen operation and times', async () => {
    double.failNext({ kind: 'status', status: 503, retryAfterSeconds: 7 }, { operation: 'sendDeliveryOrderEnhanced', times: 2 });
    expect((await track('TST9999999999999')).status).toBe(400); // another operation: not affected
    const first = await call('POST', '/rest/delivery/sendDeliveryOrderEnhanced', { body: order(), token: null });
    expect([first.status, first.headers.get('retry-after'), first.body.status]).toEqual([503, '7', 503]);
    double.failNext({ kind: 'status', status: 500 }, { operation: 'sendDeliveryOrderEnhanced' });
    expect((await book()).status).toBe(503);
    expect((await book()).status).toBe(500);
    expect((await book()).status).toBe(200);
    expect(double.requests.map((r) => r.fault ?? '-')).toEqual(['-', '-', 'status', 'status', 'status', '-']);
  });

  it('delay: answers late, and the operation takes effect only after the wait', async () => {
    double.failNext({ kind: 'delay', ms: 300 }, { operation: 'sendDeliveryOrderEnhanced' });
    const started = Date.now();
    const pending = book();
    await new Promise((r) => setTimeout(r, 100));
    expect(double.deliveries.size).toBe(0);
    const res = await pending;
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    expect(double.requests.at(-1)).toMatchObject({ fault: 'delay', outcome: 'ok', status: 200 });
  });

  it('hang: the client times out and nothing is booked', async () => {
    double.failNext({ kind: 'hang' });
    await expect(call('POST', '/rest/delivery/sendDeliveryOrderEnhanced', { body: order(), timeoutMs: 300 })).rejects.toThrow();
    expect(double.deliveries.size).toBe(0);
    expect(double.requests.at(-1)).toMatchObject({ fault: 'hang', outcome: 'fault' });
    expect((await book()).status).toBe(200);
  });

  it('drop: closes the connection without doing anything', async () => {
    double.failNext({ kind: 'drop' }, { operation: 'sendDeliveryOrderEnhanced' });
    await expect(book()).rejects.toThrow();
    expect(double.deliveries.size).toBe(0);
    expect(double.requests.at(-1)).toMatchObject({ operation: 'sendDeliveryOrderEnhanced', fault: 'drop', outcome: 'fault' });
    expect(double.requests.at(-1)!.status).toBeUndefined();
  });

  it('applyThenDrop (book and lose the answer): the delivery exists, booking again is BARCODE_EXIST, tracking finds it', async () => {
    double.failNext({ kind: 'applyThenDrop' }, { operation: 'sendDeliveryOrderEnhanced' });
    await expect(book()).rejects.toThrow();
    expect(double.deliveries.get('TST1000000000001')?.events.map((e) => e.event)).toEqual(['CREATED']);
    expect(double.requests.at(-1)).toMatchObject({ fault: 'applyThenDrop', outcome: 'ok' });
    expect(double.requests.at(-1)!.status).toBeUndefined();
    expect((await book()).body.detailStatus).toBe('BARCODE_EXIST');
    expect((await track('TST1000000000001')).body.data[0].deliveryStatus).toBe('NEO');
    expect((await call('GET', '/delivery/generateZplBarcode/TST1000000000001/2')).body.data).toHaveLength(2);
  });

  it('applyThenHold: the delivery exists at once, the answer comes after the hold', async () => {
    double.failNext({ kind: 'applyThenHold', ms: 300 }, { operation: 'sendDeliveryOrderEnhanced' });
    const pending = book();
    await new Promise((r) => setTimeout(r, 100));
    expect(double.deliveries.has('TST1000000000001')).toBe(true);
    expect((await pending).status).toBe(200);
  });

  it('unauthorized and expireTokens(): the token expires mid-run; a new getToken carries on', async () => {
    double.failNext({ kind: 'unauthorized' });
    expect((await book()).status).toBe(401);
    expect((await book()).status).toBe(200);
    double.expireTokens();
    expect((await book(order('TST1000000000002'))).status).toBe(401);
    token = (await getToken()).body.data.token;
    expect((await book(order('TST1000000000002'))).status).toBe(200);
    expect(double.requests.filter((r) => r.outcome === 'unauthorized').map((r) => r.validationErrors)).toEqual([['X-Auth-Token: expired']]);
  });
});
