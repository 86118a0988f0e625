import { SENDEO_STATUSES, SENDEO_TEST_CUSTOMER, startSendeoDouble, type SendeoDouble, type SendeoDoubleOptions } from '../../support/carriers/sendeo-double';
import { SENDEO_DISTRICTS, type SendeoEnvelope } from '../../support/carriers/sendeo.schemas';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Answer {
  status: number;
  headers: Headers;
  body: Json;
}

let double: SendeoDouble;
let clock: Date;
let token: string;

async function call(
  method: 'GET' | 'POST',
  path: string,
  opts: { body?: unknown; rawBody?: string; query?: Record<string, string>; token?: string | null; contentType?: string; timeoutMs?: number } = {},
): Promise<Answer> {
  const url = new URL(`${double.baseUrl}${path}`);
  for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, v);
  const headers: Record<string, string> = {};
  const bearer = opts.token === undefined ? token : opts.token;
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  const payload = opts.rawBody ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
  if (payload !== undefined) headers['content-type'] = opts.contentType ?? 'application/json';
  const res = await fetch(url, { method, headers, body: payload, signal: AbortSignal.timeout(opts.timeoutMs ?? 5000) });
  const text = await res.text();
  let body: Json;
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    body = { text };
  }
  return { status: res.status, headers: res.headers, body };
}

const post = (op: string, body: unknown, opts: Parameters<typeof call>[2] = {}) => call('POST', `/api/Cargo/${op}`, { ...opts, body });

async function login(musteri: string = SENDEO_TEST_CUSTOMER.code, sifre: string = SENDEO_TEST_CUSTOMER.password): Promise<string> {
  const res = await call('POST', '/api/Token/LoginAES', { body: { musteri, sifre }, token: null });
  expect(res.status).toBe(200);
  return res.body.result.Token;
}

async function withDouble(options: SendeoDoubleOptions, fn: () => Promise<void>): Promise<void> {
  const saved = { double, token };
  double = await startSendeoDouble({ now: () => clock, ...options });
  try {
    token = await login();
    await fn();
  } finally {
    await double.close();
    ({ double, token } = saved);
  }
}

/** README `Deliverytype 1 örnek request bilgisi.txt`, with its missing comma after "barcodeVersion" restored. */
const dt1Example = (): Json => ({
  DeliveryType: 1,
  ReferenceNo: 'test',
  Description: 'test',
  Sender: 'Test Gönderen',
  SenderId: '',
  SenderAuthority: 'Test',
  SenderAddress: 'örnek adres',
  SenderCityId: 34,
  SenderDistrictId: 34139,
  senderPhone: '2121111111',
  SenderGSM: '2121111111',
  SenderEmail: '',
  Receiver: 'Test Alıcı',
  ReceiverId: '',
  ReceiverAuthority: '',
  ReceiverAddress: 'örnek adres',
  ReceiverCityId: '35',
  ReceiverDistrictId: '174032',
  receiverPhone: '5321111111',
  ReceiverEmail: 'test@mail.com',
  PaymentType: 1,
  CollectionType: 0,
  CollectionPrice: 0,
  dispatchNoteNumber: '111111111',
  ServiceType: 1,
  additionalZpl: '1',
  barcodeLabelType: 1,
  customerReferenceType: '',
  barcodeVersion: 'V2',
  products: [
    { Deci: 5, Count: 1, ProductCode: '', Description: '' },
    { Deci: 10, Count: 1, ProductCode: '', Description: '' },
  ],
});

/** README `Deliverytype 2 örnek request bilgisi.txt` (comma restored). */
const dt2Example = (): Json => ({
  DeliveryType: 2,
  ReferenceNo: '1221122122',
  Sender: 'Test Gönderen',
  SenderAddress: 'xxx caddesi yyy sokak zzz mahallesi No:5 Kat:5 Gaziosmanpaşa/İstanbul',
  SenderCityId: 34,
  SenderDistrictId: 34139,
  SenderGSM: '5321111111',
  Receiver: 'Test Alıcı',
  ReceiverId: '',
  ReceiverAddress: 'xxx caddesi yyy sokak zzz mahallesi No:5 Kat:5 Dikili /İzmir',
  ReceiverCityId: 35,
  ReceiverDistrictId: 174032,
  ReceiverGSM: '5322111111',
  PaymentType: 1,
  CollectionType: 0,
  CollectionPrice: 0,
  ServiceType: 1,
  barcodeLabelType: 1,
  barcodeVersion: 'V2',
  products: [{ Count: 2, ProductCode: '', Description: '', Deci: '1', Price: 3 }],
});

/** README `Deliverytype 3 örnek request bilgisi.txt` (lower-case keys, "deliverytype"; comma restored): both sides required. */
const dt3Example = (): Json => ({
  deliverytype: 3,
  referenceNo: '1221122123',
  sender: 'Test Gönderen',
  senderAddress: 'xxx caddesi yyy sokak zzz mahallesi No:5 Kat:5 Gaziosmanpaşa/İstanbul',
  senderId: '',
  senderCityId: 34,
  senderDistrictId: 34139,
  senderPhone: '2121111111',
  senderGSM: '5321111111',
  receiver: 'Test Alıcı',
  receiverAddress: 'xxx caddesi yyy sokak zzz mahallesi No:5 Kat:5 Dikili /İzmir',
  receiverId: '',
  receiverCityId: 35,
  receiverDistrictId: 174032,
  receiverPhone: '2121111111',
  receiverGSM: '5321111111',
  paymentType: 1,
  collectionType: 0,
  collectionPrice: 0,
  serviceType: 1,
  barcodeLabelType: 3,
  barcodeVersion: 'V2',
  products: [{ count: 3, productCode: 'Test Data', description: 'Test Data', deci: 3, weigth: 3, deciWeight: 3, price: 3 }],
});

async function book(body: Json = dt1Example()): Promise<Answer['body']['result']> {
  const res = await post('SETDELIVERY', body);
  expect([res.status, res.body.exceptionMessage]).toEqual([200, null]);
  return res.body.result;
}

const track = (query: Record<string, string>) => call('GET', '/api/Cargo/TRACKDELIVERY', { query });

beforeEach(async () => {
  clock = new Date('2024-05-02T07:00:27Z'); // 10:00:27 in Turkey
  double = await startSendeoDouble({ now: () => clock });
  token = await login();
});
afterEach(async () => {
  await double.close();
});

describe('Sendeo double: LoginAES and tokens', () => {
  it('issues a 20-hour JWT-shaped token and the CustomerId in the ResponseBase envelope', async () => {
    const res = await call('POST', '/api/Token/LoginAES', { body: { musteri: 'TEST', sifre: 'TesT.43e54' }, token: null });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      RequestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      exceptionMessage: null,
      innerExceptionMessage: null,
      exceptionDescription: null,
      result: { Token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/), CustomerId: 925999 },
      StatusCode: 200,
    });
    const claims = JSON.parse(Buffer.from(res.body.result.Token.split('.')[1], 'base64url').toString());
    expect(claims.carikod).toBe('925999');
    expect(Number(claims.exp) - Number(claims.nbf)).toBe(20 * 3600);
    expect(double.logins).toBe(2); // beforeEach + this one
  });

  it('answers wrong credentials with 401 and the error envelope, and a missing field with a 400 naming it', async () => {
    const wrong = await call('POST', '/api/Token/LoginAES', { body: { musteri: 'TEST', sifre: 'nope' }, token: null });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ result: null, StatusCode: 401, exceptionMessage: expect.any(String) });
    const missing = await call('POST', '/api/Token/LoginAES', { body: { musteri: 'TEST' }, token: null });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual({ sifre: ['The sifre field is required.'] });
    expect(double.logins).toBe(1);
  });

  it('refuses calls without a token, with an unknown token and with a token after expireTokens()', async () => {
    const none = await call('GET', '/api/Cargo/TRACKDELIVERY', { query: { referenceNo: 'x' }, token: null });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect(none.body).toMatchObject({ StatusCode: 401, exceptionMessage: 'Unauthorized' });
    expect((await call('GET', '/api/Cargo/TRACKDELIVERY', { query: { referenceNo: 'x' }, token: `${token}x` })).status).toBe(401);
    double.expireTokens();
    const expired = await post('SETDELIVERY', dt1Example());
    expect(expired.status).toBe(401);
    expect(double.deliveries.size).toBe(0);
    token = await login();
    expect((await post('SETDELIVERY', dt1Example())).status).toBe(200);
  });

  it("expires a token 20 hours after login on the double's clock", async () => {
    clock = new Date(clock.getTime() + 20 * 3600 * 1000 - 1000);
    expect((await track({ referenceNo: 'none' })).status).toBe(500); // still authenticated: 702
    clock = new Date(clock.getTime() + 1000);
    const expired = await track({ referenceNo: 'none' });
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toContain('expired');
    expect(double.requests.at(-1)).toMatchObject({ operation: 'TRACKDELIVERY', outcome: 'unauthorized', status: 401 });
  });
});

describe('Sendeo double: SETDELIVERY', () => {
  it('accepts the README DeliveryType 1 example and answers tracking number, tracking URL, a base64 PDF and one barcode per piece', async () => {
    const result = await book(dt1Example());
    expect(result.TrackingNumber).toMatch(/^\d{12}$/);
    expect(result.TrackingUrl).toBe('https://sube.sendeo.com.tr/takip?ccode=925999&musref=test');
    const pdf = Buffer.from(result.Barcode, 'base64').toString('latin1');
    expect(pdf.startsWith('%PDF-1.4')).toBe(true);
    expect(pdf).toContain('/Count 2');
    expect(pdf.trimEnd().endsWith('%%EOF')).toBe(true);
    expect(result.BarcodeNumbers).toEqual([`${result.TrackingNumber}001`, `${result.TrackingNumber}002`]);
    expect([result.BarcodeZpl, result.BarcodeZpls]).toEqual([null, null]);
    const d = double.deliveries.get('test')!;
    expect(d).toMatchObject({ trackingNumber: result.TrackingNumber, customer: 'TEST', customerId: 925999, deliveryType: 1, pieces: 2, cancelled: false });
    expect(d.statuses).toEqual([{ statusId: 101, at: clock }]);
    expect(d.request.ReceiverCityId).toBe(35); // "35" bound as a number
    const rec = double.requests.at(-1)!;
    expect(rec).toMatchObject({ operation: 'SETDELIVERY', outcome: 'ok', status: 200, validationErrors: [], customer: 'TEST' });
    expect(rec.unknownFields).toEqual(['additionalZpl']); // not a field of the model: ignored
  });

  it('accepts the README DeliveryType 2 example (numeric string Deci, Count 2 → 2 barcodes)', async () => {
    const result = await book(dt2Example());
    expect(result.BarcodeNumbers).toHaveLength(2);
    expect(double.deliveries.get('1221122122')?.request.Products).toEqual([{ Count: 2, ProductCode: '', Description: '', Deci: 1, Price: 3 }]);
  });

  it('binds property names case-insensitively: the DeliveryType 3 example (lower case, "deliverytype") and mixed casings', async () => {
    const result = await book(dt3Example());
    expect(result.BarcodeZpls).toHaveLength(3);
    for (const zpl of result.BarcodeZpls) expect(zpl).toMatch(/^\^XA[\s\S]*\^XZ$/);
    const weird = Object.fromEntries(Object.entries(dt1Example()).map(([k, v]) => [k.toUpperCase(), v]));
    weird.REFERENCENO = 'upper-case';
    expect((await book(weird)).TrackingNumber).toMatch(/^\d+$/);
    expect(double.deliveries.get('upper-case')?.deliveryType).toBe(1);
  });

  it('makes a ZPL label per piece for BarcodeLabelType 0/2 and puts AdditionalValue under the barcode for 8', async () => {
    const zpl = await book({ ...dt1Example(), ReferenceNo: 'zpl', barcodeLabelType: 2 });
    expect(zpl.Barcode).toBeNull();
    expect(zpl.BarcodeZpl.match(/\^XA/g)).toHaveLength(2);
    expect(zpl.BarcodeZpl).toContain(`^FD${zpl.BarcodeNumbers[0]}^FS`);
    expect(zpl.BarcodeZpl).toContain('DİKİLİ / İZMİR');
    const eight = await book({ ...dt1Example(), ReferenceNo: 'eight', barcodeLabelType: 8, AdditionalValue: '^A0N,30,30^FDRAF 12^FS' });
    expect(eight.BarcodeZpl).toContain('^FDRAF 12^FS');
  });

  it.each<[string, number, string, (b: Json) => void]>([
    ['ReferenceNo missing', 102, 'Delivery Reference No Cannot be Null.', (b) => delete b.referenceNo],
    ['ReferenceNo blank', 102, 'Delivery Reference No Cannot be Null.', (b) => (b.referenceNo = '  ')],
    ['DeliveryType missing', 103, 'Wrong Delivery Type', (b) => delete b.deliverytype],
    ['DeliveryType 7', 103, 'Wrong Delivery Type', (b) => (b.deliverytype = 7)],
    ['Products missing', 104, 'Products Cannot Be Null', (b) => delete b.products],
    ['Products empty', 104, 'Products Cannot Be Null', (b) => (b.products = [])],
    ['PaymentType 2', 411, 'Payment Type Is Not Correct.', (b) => (b.paymentType = 2)],
    ['PaymentType missing', 411, 'Payment Type Is Not Correct.', (b) => delete b.paymentType],
    ['CollectionType 3', 105, 'Collection Type Not Found', (b) => (b.collectionType = 3)],
    ['CollectionType missing', 105, 'Collection Type Not Found', (b) => delete b.collectionType],
    ['CollectionType 1 without a price', 410, 'Product Price Cannot Be Zero.', (b) => (b.collectionType = 1)],
    ['Receiver empty', 201, 'Receiver Cannot Be Null', (b) => (b.receiver = '')],
    ['no receiver phone or GSM', 207, 'Please Enter Receiver Phone or GSM Number', (b) => ((b.receiverPhone = ''), delete b.receiverGSM)],
    ['ReceiverAddress missing', 202, 'Receiver Address Cannot Be Null', (b) => delete b.receiverAddress],
    ['ReceiverDistrictId 0', 203, 'Receiver District Id Cannot Be Zero.', (b) => (b.receiverDistrictId = 0)],
    ['ReceiverCityId missing', 204, 'Receiver City Id Cannot Be Zero.', (b) => delete b.receiverCityId],
    ['ReceiverCityId 82', 205, 'Receiver City Id is Not Correct.', (b) => (b.receiverCityId = 82)],
    ['ReceiverDistrictId of another city', 206, 'Receiver District Id is Not Correct.', (b) => (b.receiverDistrictId = 34245)],
    ['ReceiverDistrictId unknown', 206, 'Receiver District Id is Not Correct.', (b) => (b.receiverDistrictId = 123)],
    ['Sender missing', 301, 'Sender Cannot Be Null.', (b) => delete b.sender],
    ['no sender phone or GSM', 307, 'Please Enter Sender Phone or GSM Number', (b) => (delete b.senderPhone, delete b.senderGSM)],
    ['SenderAddress blank', 302, 'Sender Address Cannot Be Null.', (b) => (b.senderAddress = ' ')],
    ['SenderDistrictId missing', 303, 'Sender District Id Cannot Be Zero.', (b) => delete b.senderDistrictId],
    ['SenderCityId 0', 304, 'Sender City Id Cannot Be Zero.', (b) => (b.senderCityId = 0)],
    ['SenderCityId 99', 305, 'Sender City Id is Not Correct.', (b) => (b.senderCityId = 99)],
    ['SenderDistrictId of İzmir for İstanbul', 306, 'Sender District Id is Not Correct.', (b) => (b.senderDistrictId = 174032)],
  ])('refuses %s: HTTP 500, StatusCode %i, %s', async (_name, code, message, mutate) => {
    const body = dt3Example();
    mutate(body);
    const res = await post('SETDELIVERY', body);
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ StatusCode: code, exceptionMessage: message, result: null, RequestId: expect.any(String) });
    expect(double.deliveries.size).toBe(0);
    expect(double.requests.at(-1)).toMatchObject({ outcome: 'refused', status: 500 });
    expect(double.requests.at(-1)!.validationErrors[0]).toContain(message);
  });

  it('needs the receiver only for DeliveryType 1/3 and the sender only for 2/3', async () => {
    const { Sender: _s, SenderAddress: _a, SenderCityId: _c, SenderDistrictId: _d, senderPhone: _p, SenderGSM: _g, ...noSender } = dt1Example();
    await book({ ...noSender, ReferenceNo: 'dt1-no-sender' });
    const { Receiver: _r, ReceiverAddress: _ra, ReceiverCityId: _rc, ReceiverDistrictId: _rd, ReceiverGSM: _rg, ...noReceiver } = dt2Example();
    await book({ ...noReceiver, ReferenceNo: 'dt2-no-receiver' });
    const res = await post('SETDELIVERY', { ...noSender, DeliveryType: 2, ReferenceNo: 'dt2-no-sender' });
    expect([res.status, res.body.StatusCode]).toEqual([500, 301]);
  });

  it('applies the collection rules: price required for cash/card, 0 for none, at most 5000', async () => {
    const over = await post('SETDELIVERY', { ...dt1Example(), CollectionType: 1, CollectionPrice: 5000.01 });
    expect([over.status, over.body.StatusCode]).toEqual([500, 413]);
    expect(over.body.exceptionMessage).toContain('CollectionPrice');
    const zeroType = await post('SETDELIVERY', { ...dt1Example(), CollectionType: 0, CollectionPrice: 10 });
    expect([zeroType.status, zeroType.body.StatusCode]).toEqual([500, 412]);
    expect(zeroType.body.exceptionMessage).toContain('CollectionPrice');
    const card = await post('SETDELIVERY', { ...dt1Example(), CollectionType: 2, CollectionPrice: 0 });
    expect([card.status, card.body.StatusCode, card.body.exceptionMessage]).toEqual([500, 410, 'Product Price Cannot Be Zero.']);
    await book({ ...dt1Example(), ReferenceNo: 'cod', CollectionType: 1, CollectionPrice: '5000' });
    expect(double.deliveries.get('cod')?.request.CollectionPrice).toBe(5000);
  });

  it("refuses a ReferenceNo the customer already used, but not another customer's", async () => {
    await withDouble({ customers: [SENDEO_TEST_CUSTOMER, { code: 'OTHER', password: 'pw-other', customerId: 700001 }] }, async () => {
      await book();
      const again = await post('SETDELIVERY', dt1Example());
      expect([again.status, again.body.StatusCode, again.body.exceptionMessage]).toEqual([500, 106, 'Reference No Already Exists']);
      token = await login('OTHER', 'pw-other');
      const other = await book();
      expect(other.TrackingUrl).toContain('ccode=700001');
      expect(double.deliveries.get('OTHER/test')?.customer).toBe('OTHER');
    });
  });

  it('answers binding and schema violations with an ASP.NET 400 problem naming each field', async () => {
    const bad = await post('SETDELIVERY', { ...dt1Example(), DeliveryType: 'abc', Receiver: { name: 'x' }, products: [{ Count: 'x' }] });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toContain('application/problem+json');
    expect(bad.body).toMatchObject({ title: 'One or more validation errors occurred.', status: 400 });
    expect(Object.keys(bad.body.errors).sort()).toEqual(['DeliveryType', 'Products[0].Count', 'Receiver']);
    expect(bad.body.errors.DeliveryType[0]).toContain('Could not convert string to integer: abc');

    const { barcodeLabelType: _omit, ...noLabelType } = dt1Example();
    const missing = await post('SETDELIVERY', { ...noLabelType, ServiceType: 3, products: [{ Count: 0, Deci: 501 }], receiverTC: '123' });
    expect(missing.body.errors).toEqual({
      BarcodeLabelType: ['The BarcodeLabelType field is required.'],
      ServiceType: ['The field ServiceType must be one of 1, 2.'],
      'Products[0].Count': ['The field Count must be between 1 and 2147483647.'],
      'Products[0].Deci': ['The field Deci must be between 0 and 500.'],
      ReceiverTC: ["The field ReceiverTC must match the regular expression '^([1-9][0-9]{10})?$'."],
    });
    expect(double.requests.at(-1)!.validationErrors).toContain('BarcodeLabelType: The BarcodeLabelType field is required.');

    const fraction = await post('SETDELIVERY', { ...dt1Example(), products: [{ Count: 1.5 }] });
    expect(fraction.body.errors['Products[0].Count'][0]).toContain("Input string '1.5' is not a valid integer.");
    expect(double.deliveries.size).toBe(0);
  });

  it('ignores properties the model does not have, e.g. "Weight" for the misspelt "Weigth"', async () => {
    await book({ ...dt1Example(), products: [{ Count: 1, Weight: 7 }] });
    expect(double.requests.at(-1)!.unknownFields).toContain('Products[0].Weight');
    expect(double.deliveries.get('test')!.request.Products).toEqual([{ Count: 1 }]);
  });

  it('needs a JSON body: 415 for another media type, 400 for an empty or broken body', async () => {
    expect((await post('SETDELIVERY', dt1Example(), { contentType: 'text/plain' })).status).toBe(415);
    const empty = await call('POST', '/api/Cargo/SETDELIVERY', { rawBody: '' });
    expect([empty.status, empty.body.errors]).toEqual([400, { '': ['A non-empty request body is required.'] }]);
    expect((await call('POST', '/api/Cargo/SETDELIVERY', { rawBody: '{"DeliveryType": 1,' })).status).toBe(400);
  });
});

describe('Sendeo double: TRACKDELIVERY', () => {
  it('answers the delivery with its status history after advance(), by referenceNo or trackingNo', async () => {
    const { TrackingNumber } = await book(dt3Example());
    double.advance('1221122123', 102, new Date('2024-05-02T09:30:00Z'));
    double.advance('1221122123', 105, new Date('2024-05-03T05:15:42Z'));
    const res = await track({ referenceNo: '1221122123', trackingNo: '' }); // as the Postman collection sends it
    expect(res.status).toBe(200);
    const r = res.body.result;
    expect(r).toMatchObject({
      TrackingNo: Number(TrackingNumber),
      ReferenceNo: '1221122123',
      SendDate: '02/05/2024 10:00:27',
      UpdateDate: '03/05/2024 08:15:42',
      Receiver: 'Test Alıcı',
      Sender: 'Test Gönderen',
      State: 105,
      StateText: 'Hat Aracına Yüklendi',
      DeliveryDescription: 'TM Hat Yükleme',
      Quantity: 3,
      DeciWeight: 9,
      DepartureBranchName: 'GAZİOSMANPAŞA DM',
      ArrivalBranchName: 'DİKİLİ DN',
      DeliveryPlannedDate: expect.stringMatching(/^2024-05-04T10:00:27\.\d{7}\+03:00$/),
      Products: [{ Count: 3, ProductCode: 'Test Data', Description: 'Test Data', Price: 3, StockCount: 0, MinStockCount: 0 }],
    });
    expect(r.StatusHistories).toEqual([
      { StatusDate: '2024-05-02T10:00:27', StatusId: 101, Status: 'Kargo Sevk Emri Alındı', Description: 'İş Emri Alındı' },
      { StatusDate: '2024-05-02T12:30:00', StatusId: 102, Status: 'Belge Düzenlendi', Description: 'Gönderi Oluşturuldu' },
      { StatusDate: '2024-05-03T08:15:42', StatusId: 105, Status: 'TM Hat Yükleme', Description: 'Hat Aracına Yüklendi' },
    ]);
    expect(typeof r.CargoAmount).toBe('number');
    const byNumber = await track({ trackingNo: TrackingNumber });
    expect(byNumber.body.result.ReferenceNo).toBe('1221122123');
  });

  it('answers 702 for an unknown delivery, 701 without a key and 400 for a non-numeric trackingNo', async () => {
    const unknown = await track({ referenceNo: 'nope' });
    expect([unknown.status, unknown.body.StatusCode, unknown.body.exceptionMessage]).toEqual([500, 702, 'No Delivery Found.']);
    const none = await track({});
    expect([none.status, none.body.StatusCode]).toEqual([500, 701]);
    const bad = await track({ trackingNo: 'abc' });
    expect([bad.status, Object.keys(bad.body.errors)]).toEqual([400, ['trackingNo']]);
  });

  it("refuses advance() to a status outside Sendeo's list and to an unknown delivery", async () => {
    await book();
    expect(() => double.advance('test', 116)).toThrow(/116/);
    expect(() => double.advance('nope', 102)).toThrow(/nope/);
    expect(Object.keys(SENDEO_STATUSES)).toHaveLength(43);
  });

  it('emulates the 30-minute cache of identical queries when trackingCacheMs is set', async () => {
    await withDouble({ trackingCacheMs: 30 * 60 * 1000 }, async () => {
      const { TrackingNumber } = await book();
      expect((await track({ referenceNo: 'test' })).body.result.State).toBe(101);
      double.advance('test', 102);
      clock = new Date(clock.getTime() + 29 * 60 * 1000);
      expect((await track({ referenceNo: 'test' })).body.result.State).toBe(101); // cached
      expect((await track({ trackingNo: TrackingNumber })).body.result.State).toBe(102); // another query
      clock = new Date(clock.getTime() + 2 * 60 * 1000);
      expect((await track({ referenceNo: 'test' })).body.result.State).toBe(102);
    });
    // off by default
    await book();
    await track({ referenceNo: 'test' });
    double.advance('test', 102);
    expect((await track({ referenceNo: 'test' })).body.result.State).toBe(102);
  });
});

describe('Sendeo double: CANCELDELIVERY', () => {
  it('cancels a delivery in status 101 by referenceNo (query string) and shows 139', async () => {
    await book();
    const res = await call('POST', '/api/Cargo/CANCELDELIVERY', { query: { referenceNo: 'test' } });
    expect([res.status, res.body.result]).toEqual([200, { IsSuccess: true }]);
    const d = double.deliveries.get('test')!;
    expect(d.cancelled).toBe(true);
    expect(d.statuses.map((s) => s.statusId)).toEqual([101, 139]);
    expect((await track({ referenceNo: 'test' })).body.result.StateText).toBe('İptal İş Emri');
    const twice = await call('POST', '/api/Cargo/CANCELDELIVERY', { query: { referenceNo: 'test' } });
    expect(twice.body.StatusCode).toBe(703);
  });

  it("cancels by trackingNumber and by the C# client's JSON body", async () => {
    const a = await book({ ...dt1Example(), ReferenceNo: 'a' });
    await book({ ...dt1Example(), ReferenceNo: 'b' });
    expect((await call('POST', '/api/Cargo/CANCELDELIVERY', { query: { trackingNumber: a.TrackingNumber } })).body.result).toEqual({ IsSuccess: true });
    expect((await post('CANCELDELIVERY', { TrackingNo: null, CustomerReferenceNo: 'b' })).body.result).toEqual({ IsSuccess: true });
    expect([double.deliveries.get('a')!.cancelled, double.deliveries.get('b')!.cancelled]).toEqual([true, true]);
  });

  it('refuses 703 once the delivery moved on, 702 for an unknown one and 701 without a key', async () => {
    await book();
    double.advance('test', 102);
    const sent = await call('POST', '/api/Cargo/CANCELDELIVERY', { query: { referenceNo: 'test' } });
    expect([sent.status, sent.body.StatusCode, sent.body.exceptionMessage]).toEqual([500, 703, 'You Cannot Cancel , Delivery Has Already Sent.']);
    expect(double.deliveries.get('test')!.cancelled).toBe(false);
    const unknown = await call('POST', '/api/Cargo/CANCELDELIVERY', { query: { referenceNo: 'nope' } });
    expect([unknown.body.StatusCode, unknown.body.exceptionMessage]).toEqual([702, 'No Delivery Found.']);
    const none = await call('POST', '/api/Cargo/CANCELDELIVERY');
    expect([none.status, none.body.StatusCode, none.body.exceptionMessage]).toEqual([500, 701, 'Please Enter Tracking Number or Reference Number.']);
  });
});

describe('Sendeo double: CARGOMEASUREMENTUPDATE, GETBARCODE, GETBARCODEBYTRACKINGNUMBER', () => {
  it('records measurements (the Postman example) and shows them in TRACKDELIVERY', async () => {
    await book();
    const res = await post('CARGOMEASUREMENTUPDATE', {
      CustomerReferenceNo: 'test',
      Measurements: [{ Quantity: 3, Width: 20, Length: 30, Height: 10, Deci: 6.0, Weight: 2.5 }],
    });
    expect([res.status, res.body.result]).toEqual([200, { IsSuccess: true }]);
    expect(double.deliveries.get('test')!.measurements).toEqual([{ Quantity: 3, Width: 20, Length: 30, Height: 10, Deci: 6, Weight: 2.5 }]);
    expect((await track({ referenceNo: 'test' })).body.result).toMatchObject({ Quantity: 3, DeciWeight: 18 });
    const unknown = await post('CARGOMEASUREMENTUPDATE', {
      CustomerReferenceNo: 'nope',
      Measurements: [{ Quantity: 1, Width: 0, Length: 0, Height: 0, Deci: 52.0, Weight: 0.0 }],
    });
    expect([unknown.status, unknown.body.StatusCode]).toEqual([500, 702]);
    const incomplete = await post('CARGOMEASUREMENTUPDATE', { customerReferenceNo: 'test', measurements: [{ quantity: 1 }] });
    expect(incomplete.status).toBe(400);
    expect(Object.keys(incomplete.body.errors)).toEqual(expect.arrayContaining(['Measurements[0].Width', 'Measurements[0].Deci', 'Measurements[0].Weight']));
  });

  it('GETBARCODE returns the labels of the requested type and ShipmentId; unknown → 702', async () => {
    const booked = await book();
    const zpls = await post('GETBARCODE', { barcodeLabelType: 3, referenceNo: 'test' });
    expect(zpls.status).toBe(200);
    expect(zpls.body.result).toMatchObject({
      TrackingNumber: booked.TrackingNumber,
      ShipmentId: expect.any(Number),
      TrackingUrl: booked.TrackingUrl,
      BarcodeNumbers: booked.BarcodeNumbers,
      Barcode: null,
      BarcodeZpl: null,
    });
    expect(zpls.body.result.BarcodeZpls).toHaveLength(2);
    const pdf = await post('GETBARCODE', { barcodeLabelType: '1', referenceNo: 'test' });
    expect(pdf.body.result.Barcode).toBe(booked.Barcode);
    const unknown = await post('GETBARCODE', { barcodeLabelType: 1, referenceNo: 8880000793512692 });
    expect([unknown.status, unknown.body.StatusCode, unknown.body.exceptionMessage]).toEqual([500, 702, 'No Delivery Found.']);
  });

  it("GETBARCODEBYTRACKINGNUMBER returns the booking's label as `barcode`", async () => {
    const booked = await book();
    const res = await post('GETBARCODEBYTRACKINGNUMBER', { trackingNumber: Number(booked.TrackingNumber) });
    expect(res.body.result).toEqual({ barcode: booked.Barcode });
    const unknown = await post('GETBARCODEBYTRACKINGNUMBER', { trackingNumber: 401281283559 });
    expect([unknown.status, unknown.body.StatusCode]).toEqual([500, 702]);
  });
});

describe('Sendeo double: GetCityDistricts', () => {
  const districts = (query: Record<string, string>) => call('GET', '/api/Cargo/GetCityDistricts', { query });

  it("finds a city's districts ignoring case and Turkish letters", async () => {
    const izmir = await districts({ CityName: 'IZMIR' });
    expect(izmir.status).toBe(200);
    expect(izmir.body.result).toEqual(
      expect.arrayContaining([
        { CityId: 35, CityName: 'İzmir', DistrictId: 174032, DistrictName: 'Dikili' },
        expect.objectContaining({ DistrictName: 'Bornova' }),
        expect.objectContaining({ DistrictName: 'Karşıyaka' }),
      ]),
    );
    expect((await districts({ CityName: 'kastamonu', DistrictName: 'merkez' })).body.result).toEqual([
      { CityId: 37, CityName: 'Kastamonu', DistrictId: 9937001, DistrictName: 'Merkez' },
    ]);
    expect((await districts({ CityName: 'istanbul', DistrictName: 'KADIKÖY' })).body.result).toEqual([
      { CityId: 34, CityName: 'İstanbul', DistrictId: 34245, DistrictName: 'Kadıköy' },
    ]);
    expect((await districts({ cityname: 'Ankara', districtname: 'cankaya' })).body.result[0].DistrictName).toBe('Çankaya');
  });

  it('answers [] for an unknown name and every table district is in its city', async () => {
    expect((await districts({ CityName: 'Atlantis' })).body.result).toEqual([]);
    expect((await districts({ CityName: 'Bursa', DistrictName: 'Kadıköy' })).body.result).toEqual([]);
    expect((await districts({})).status).toBe(400);
    for (const d of SENDEO_DISTRICTS)
      await book({ ...dt1Example(), ReferenceNo: `d-${d.districtId}`, ReceiverCityId: d.cityId, ReceiverDistrictId: d.districtId });
  });
});

describe('Sendeo double: routing and fault switches', () => {
  it('matches paths case-insensitively, answers 404 for unknown paths and 405 for the wrong method', async () => {
    expect((await call('POST', '/api/cargo/setdelivery', { body: dt1Example() })).status).toBe(200);
    expect((await call('GET', '/api/Cargo/NOPE')).status).toBe(404);
    const wrong = await call('GET', '/api/Cargo/SETDELIVERY');
    expect([wrong.status, wrong.headers.get('allow')]).toEqual([405, 'POST']);
    expect(double.requests.slice(-2).map((r) => r.outcome)).toEqual(['not-found', 'method-not-allowed']);
  });

  it('status: answers the status with Retry-After before auth, for the chosen operation and times', async () => {
    double.failNext({ kind: 'status', status: 503, retryAfterSeconds: 7 }, { operation: 'SETDELIVERY', times: 2 });
    expect((await track({ referenceNo: 'x' })).body.StatusCode).toBe(702); // another operation: not affected
    const first = await post('SETDELIVERY', dt1Example(), { token: null });
    expect([first.status, first.headers.get('retry-after'), (first.body as SendeoEnvelope).StatusCode]).toEqual([503, '7', 503]);
    expect((await post('SETDELIVERY', dt1Example())).status).toBe(503);
    expect((await post('SETDELIVERY', dt1Example())).status).toBe(200);
    expect(double.requests.map((r) => r.fault ?? '-')).toEqual(['-', '-', 'status', 'status', '-']);
  });

  it('hang: never answers until the client gives up', async () => {
    double.failNext({ kind: 'hang' });
    await expect(post('SETDELIVERY', dt1Example(), { timeoutMs: 300 })).rejects.toThrow();
    expect(double.deliveries.size).toBe(0);
    expect((await post('SETDELIVERY', dt1Example())).status).toBe(200);
  });

  it('drop: closes the connection without doing anything', async () => {
    double.failNext({ kind: 'drop' }, { operation: 'SETDELIVERY' });
    await expect(post('SETDELIVERY', dt1Example())).rejects.toThrow();
    expect(double.deliveries.size).toBe(0);
    expect(double.requests.at(-1)).toMatchObject({ operation: 'SETDELIVERY', fault: 'drop', outcome: 'fault' });
    expect(double.requests.at(-1)!.status).toBeUndefined();
  });

  it('applyThenDrop: the booking is made though the client sees a connection error; booking again is refused', async () => {
    double.failNext({ kind: 'applyThenDrop' }, { operation: 'SETDELIVERY' });
    await expect(post('SETDELIVERY', dt1Example())).rejects.toThrow();
    const made = double.deliveries.get('test');
    expect(made?.statuses.map((s) => s.statusId)).toEqual([101]);
    expect(double.requests.at(-1)).toMatchObject({ fault: 'applyThenDrop', outcome: 'ok' });
    expect(double.requests.at(-1)!.status).toBeUndefined();
    const again = await post('SETDELIVERY', dt1Example());
    expect([again.status, again.body.StatusCode]).toEqual([500, 106]);
    const found = await track({ referenceNo: 'test' });
    expect(String(found.body.result.TrackingNo)).toBe(made!.trackingNumber);
  });

  it('unauthorized: answers 401 as for an expired token, once', async () => {
    double.failNext({ kind: 'unauthorized' });
    const res = await track({ referenceNo: 'x' });
    expect([res.status, res.body.StatusCode]).toEqual([401, 401]);
    expect(res.headers.get('www-authenticate')).toContain('invalid_token');
    expect((await track({ referenceNo: 'x' })).status).toBe(500);
  });
});
