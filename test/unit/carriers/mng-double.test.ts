import {
  MNG_STATUSES,
  MNG_TEST_APP,
  MNG_TEST_CUSTOMER,
  startMngDouble,
  zplBarcodes,
  type MngDouble,
  type MngDoubleOptions,
} from '../../support/carriers/mng-double';
import { MNG_DISTRICTS, isTcKimlik } from '../../support/carriers/mng.schemas';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Answer {
  status: number;
  headers: Headers;
  body: Json;
  text: string;
}

let double: MngDouble;
let clock: Date;
let jwt: string;

const API = '/mngapi/api';

async function call(
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  opts: {
    body?: unknown;
    rawBody?: string;
    jwt?: string | null;
    app?: { clientId?: string; clientSecret?: string } | null;
    contentType?: string;
    timeoutMs?: number;
  } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const app = opts.app === undefined ? MNG_TEST_APP : opts.app;
  if (app?.clientId !== undefined) headers['x-ibm-client-id'] = app.clientId;
  if (app?.clientSecret !== undefined) headers['x-ibm-client-secret'] = app.clientSecret;
  const bearer = opts.jwt === undefined ? jwt : opts.jwt;
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  const payload = opts.rawBody ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
  if (payload !== undefined) headers['content-type'] = opts.contentType ?? 'application/json';
  const res = await fetch(`${double.baseUrl}${API}${path}`, { method, headers, body: payload, signal: AbortSignal.timeout(opts.timeoutMs ?? 5000) });
  const text = await res.text();
  let body: Json;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, body, text };
}

const tokenBody = (extra: Json = {}) => ({ customerNumber: MNG_TEST_CUSTOMER.customerNumber, password: MNG_TEST_CUSTOMER.password, identityType: 1, ...extra });

async function login(body: Json = tokenBody()): Promise<string> {
  const res = await call('POST', '/token', { body, jwt: null });
  expect(res.status).toBe(200);
  return res.body.jwt;
}

async function withDouble(options: MngDoubleOptions, fn: () => Promise<void>, loginBody: Json = tokenBody()): Promise<void> {
  const saved = { double, jwt };
  double = await startMngDouble({ now: () => clock, ...options });
  try {
    jwt = await login(loginBody);
    await fn();
  } finally {
    await double.close();
    ({ double, jwt } = saved);
  }
}

/** CreateShipmentRequest::buildCustomer for the tests' defaultShipmentParams, plus the e-mail and TC the traps require. */
const recipient = (extra: Json = {}): Json => ({
  refCustomerId: '',
  cityCode: 1,
  cityName: 'Adana',
  districtCode: 100,
  districtName: 'Seyhan',
  address: 'Test address',
  bussinessPhoneNumber: '',
  email: 'alici@example.com',
  taxOffice: 'SAHIS',
  taxNumber: '11111111110',
  fullName: 'Test Recipient',
  homePhoneNumber: '',
  mobilePhoneNumber: '5551234567',
  ...extra,
});

/** CreateShipmentRequestTest "builds order payload …": referenceId SIPARIS-001, piece SIPARIS-001_PARCA1, kg 2, desi 1. */
const pieces = (ref = 'SIPARIS-001', n = 1): Json[] =>
  Array.from({ length: n }, (_, i) => ({ barcode: `${ref}_PARCA${i + 1}`, desi: 1, kg: 2, content: 'item' }));
const orderBody = (ref = 'SIPARIS-001', extra: { order?: Json; recipient?: Json; orderPieceList?: Json[] } = {}): Json => ({
  order: {
    referenceId: ref,
    barcode: ref,
    billOfLandingId: '',
    isCOD: 0,
    codAmount: 0,
    shipmentServiceType: 1,
    packagingType: 3,
    content: 'TEST',
    smsPreference1: 0,
    smsPreference2: 0,
    smsPreference3: 0,
    paymentType: 1,
    deliveryType: 1,
    description: 'desc',
    marketPlaceShortCode: '',
    marketPlaceSaleCode: '',
    ...extra.order,
  },
  orderPieceList: extra.orderPieceList ?? pieces(ref),
  recipient: recipient(extra.recipient),
});
/** CreateShipmentRequest::callCreateBarcode. */
const barcodeBody = (ref = 'SIPARIS-001', extra: Json = {}): Json => ({
  referenceId: ref,
  billOfLandingId: '',
  isCOD: 0,
  codAmount: 0,
  printReferenceBarcodeOnError: 0,
  message: '',
  additionalContent1: '',
  additionalContent2: '',
  additionalContent3: '',
  additionalContent4: '',
  orderPieceList: pieces(ref),
  packagingType: 3,
  ...extra,
});

const createRecipient = (r: Json = recipient()) => call('POST', '/pluscmdapi/createRecipient', { body: { recipient: { customerId: 0, ...r } } });
const createOrder = (body: Json = orderBody()) => call('POST', '/standardcmdapi/createOrder', { body });
const createBarcode = (body: Json = barcodeBody()) => call('POST', '/barcodecmdapi/createbarcode', { body });
const cancelShipment = (referenceId: string, shipmentId: string) => call('PUT', '/barcodecmdapi/cancelshipment', { body: { referenceId, shipmentId } });
const cancelOrder = (ref: string) => call('PUT', `/standardcmdapi/cancelorder/${encodeURIComponent(ref)}`);
const trackShipment = (ref: string) => call('GET', `/standardqueryapi/trackshipment/${encodeURIComponent(ref)}`);
const shipmentStatus = (ref: string) => call('GET', `/standardqueryapi/getshipmentstatus/${encodeURIComponent(ref)}`);

/** The 3-stage flow: createRecipient, createOrder, createbarcode; returns createbarcode's (unwrapped) answer. */
async function book(ref = 'SIPARIS-001', n = 1): Promise<Json> {
  expect((await createRecipient()).status).toBe(200);
  const order = await createOrder(orderBody(ref, { orderPieceList: pieces(ref, n) }));
  expect(order.status).toBe(200);
  const barcode = await createBarcode(barcodeBody(ref, { orderPieceList: pieces(ref, n) }));
  expect(barcode.status).toBe(200);
  return barcode.body[0];
}

beforeEach(async () => {
  clock = new Date('2026-03-12T09:00:00Z'); // 12:00 in Turkey
  double = await startMngDouble({ now: () => clock });
  jwt = await login();
});
afterEach(async () => {
  await double.close();
});

describe('MNG double: Identity (token) and API Connect', () => {
  it("mints an 8-hour JWT for customerNumber/password/identityType 1 (the tests' token shape)", async () => {
    const res = await call('POST', '/token', { body: tokenBody(), jwt: null });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      jwt: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      refreshToken: expect.any(String),
      jwtExpireDate: '12.03.2026 20:00:00', // 12:00 Turkish time + 8 h, "dd.MM.yyyy HH:mm:ss"
      refreshTokenExpireDate: '13.03.2026 12:00:00',
    });
    const claims = JSON.parse(Buffer.from(res.body.jwt.split('.')[1], 'base64url').toString());
    expect(claims.exp - claims.iat).toBe(8 * 3600);
    expect(double.logins).toBe(2);
    expect(double.requests.at(-1)).toMatchObject({ operation: 'token', outcome: 'ok', customer: '2951471412', clientId: 'client-id' });
  });

  it('refuses a wrong password, another identityType and (trap 7) a temporary password once it has expired', async () => {
    for (const body of [tokenBody({ password: 'nope' }), tokenBody({ identityType: 2 }), tokenBody({ customerNumber: '1' })]) {
      const res = await call('POST', '/token', { body, jwt: null });
      expect([res.status, res.body.error.code]).toEqual([401, '401']);
    }
    const temporary = { customerNumber: '1234567890', password: 'gecici', identityType: 1 };
    await withDouble(
      { customers: [{ customerNumber: '1234567890', password: 'gecici', passwordExpiresAt: new Date(clock.getTime() + 60_000) }] },
      async () => {
        clock = new Date(clock.getTime() + 60_000);
        const expired = await call('POST', '/token', { body: temporary, jwt: null });
        expect(expired.status).toBe(401);
        expect(double.requests.at(-1)!.validationErrors).toEqual(['customerNumber|password: temporary password expired']);
        expect(double.logins).toBe(1); // the login before it expired
      },
      temporary,
    );
  });

  it('answers 401 as API Connect for missing/unknown X-IBM-Client-Id and a wrong secret, on every product (token and CBS Info too)', async () => {
    const noApp = await call('POST', '/token', { body: tokenBody(), jwt: null, app: null });
    expect(noApp.status).toBe(401);
    expect(noApp.body).toEqual({
      httpCode: '401',
      httpMessage: 'Unauthorized',
      moreInformation: 'Cannot find valid subscription for the incoming API request.',
    });
    const unknown = await call('GET', '/cbsinfoapi/getcities', { app: { clientId: 'other', clientSecret: 'client-secret' } });
    expect(unknown.body.moreInformation).toBe('Cannot find valid subscription for the incoming API request.');
    expect((await createOrder()).status).toBe(200);
    const wrong = await call('GET', '/standardqueryapi/trackshipment/SIPARIS-001', { app: { clientId: 'client-id', clientSecret: 'x' } });
    expect([wrong.status, wrong.body.moreInformation]).toEqual([401, expect.stringContaining('Cannot pass the security checks')]);
    expect(double.requests.at(-1)).toMatchObject({ outcome: 'unauthorized', status: 401 });
  });

  it('trap 10: an app not subscribed to a product gets 401 "Cannot find valid subscription" for that product only', async () => {
    await withDouble({ apps: [{ ...MNG_TEST_APP, products: ['identity', 'standard-command', 'plus-command', 'standard-query', 'cbs-info'] }] }, async () => {
      expect((await createRecipient()).status).toBe(200);
      expect((await createOrder()).status).toBe(200);
      const barcode = await createBarcode();
      expect([barcode.status, barcode.body.moreInformation]).toEqual([401, 'Cannot find valid subscription for the incoming API request.']);
      expect(double.orders.get('SIPARIS-001')!.shipments).toHaveLength(0);
    });
  });

  it('trap 8: keys of the other apizone (production keys on the sandbox) make the Identity API answer 500 with code 20013', async () => {
    await withDouble({ apps: [MNG_TEST_APP, { clientId: 'prod-id', clientSecret: 'prod-secret', environment: 'production' }] }, async () => {
      const res = await call('POST', '/token', { body: tokenBody(), jwt: null, app: { clientId: 'prod-id', clientSecret: 'prod-secret' } });
      expect(res.status).toBe(500);
      expect(res.body.error).toMatchObject({ Code: '20013', Message: 'Error' });
    });
  });

  it('refuses calls without a JWT, with an unknown one, after 8 hours and after expireTokens() ("token expired mid-run"), with 401 and no body', async () => {
    const none = await call('GET', '/standardqueryapi/getshipmentstatus/X', { jwt: null });
    expect([none.status, none.text, none.headers.get('www-authenticate')]).toEqual([401, '', 'Bearer']);
    const unknown = await call('GET', '/standardqueryapi/getshipmentstatus/X', { jwt: `${jwt}x` });
    expect([unknown.status, unknown.headers.get('www-authenticate')]).toEqual([401, expect.stringContaining('invalid_token')]);
    expect(double.requests.at(-1)).toMatchObject({ operation: 'getshipmentstatus', outcome: 'unauthorized', status: 401 });

    clock = new Date(clock.getTime() + 8 * 3600 * 1000 - 1000);
    expect((await shipmentStatus('X')).status).toBe(404); // still valid: the order is unknown
    clock = new Date(clock.getTime() + 1000);
    const expired = await shipmentStatus('X');
    expect([expired.status, expired.headers.get('www-authenticate')]).toEqual([401, expect.stringContaining('expired')]);

    jwt = await login();
    expect((await createOrder()).status).toBe(200);
    double.expireTokens();
    expect((await createBarcode()).status).toBe(401);
    jwt = await login();
    expect((await shipmentStatus('SIPARIS-001')).status).toBe(200);
  });
});

describe('MNG double: createRecipient (stage 1)', () => {
  it('registers the recipient and answers {shipperBranchCode} (an object, not an array); calling it again is fine', async () => {
    const res = await createRecipient();
    expect([res.status, res.body]).toEqual([200, { shipperBranchCode: '03401700' }]);
    expect((await createRecipient()).status).toBe(200);
    expect(double.recipients).toHaveLength(2);
    expect(double.recipients[0]).toMatchObject({ customerNumber: '2951471412', key: '1|100|test recipient|5551234567', resolvesAt: clock });
  });

  it("trap 4: refuses an empty or invalid TC/Vergi number with 26056 exactly as the test shows; 11111111110 passes, the README's 12345678901 does not", async () => {
    const empty = await createRecipient(recipient({ taxNumber: '' }));
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({
      error: { code: '26056', message: 'Bad Request', description: "'Recipient. Tax Number', 11 karakterli TC Kimilk numarasi olmalidir." },
    });
    for (const bad of ['11111111111', '12345678901', '01111111110', '123', '1111111111a'])
      expect((await createRecipient(recipient({ taxNumber: bad }))).body.error.code).toBe('26056');
    for (const good of ['11111111110', '10000000146', '1234567890']) expect((await createRecipient(recipient({ taxNumber: good }))).status).toBe(200);
    expect([isTcKimlik('11111111110'), isTcKimlik('11111111111')]).toEqual([true, false]);
  });

  it('trap 3: refuses customerId together with fullName', async () => {
    const res = await createRecipient(recipient({ customerId: 12345 }));
    expect([res.status, res.body.error.description]).toEqual([400, 'if Recipient.CustomerId is filled, Recipient.FullName must be empty.']);
  });
});

describe('MNG double: createOrder (stage 2)', () => {
  it('trap 1: answers a one-element array with orderInvoiceId, orderInvoiceDetailId, shipperBranchCode and the upper-cased referenceId', async () => {
    const res = await createOrder(orderBody('siparis-001'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ orderInvoiceId: '1707264', orderInvoiceDetailId: '1707777', shipperBranchCode: '03401700', referenceId: 'SIPARIS-001' }]);
    const o = double.orders.get('SIPARIS-001')!;
    expect(o).toMatchObject({ customerNumber: '2951471412', cancelled: false, shipments: [] });
    expect(o.recipient.mobilePhoneNumber).toBe('5551234567');
    expect(double.requests.at(-1)).toMatchObject({ operation: 'createOrder', outcome: 'ok', status: 200, validationErrors: [], unknownFields: [] });
  });

  it('refuses a referenceId this customer already used (also in another case) with the backend error; another customer may use it', async () => {
    expect((await createOrder()).status).toBe(200);
    const again = await createOrder(orderBody('Siparis-001'));
    expect(again.status).toBe(500);
    expect(again.body).toEqual({ error: { Code: '20002', Message: 'Error', Description: "<WERR> SIPARIS-001 NO'LU SİPARİŞ DAHA ÖNCE KAYDEDİLMİŞ ! </WERR>" } });
    expect(double.requests.at(-1)).toMatchObject({ outcome: 'refused', status: 500 });
    await withDouble({ customers: [MNG_TEST_CUSTOMER, { customerNumber: '999', password: 'p' }] }, async () => {
      expect((await createOrder()).status).toBe(200);
      jwt = await login({ customerNumber: '999', password: 'p', identityType: 1 });
      expect((await createOrder()).status).toBe(200);
      expect([...double.orders.keys()]).toEqual(['SIPARIS-001', '999/SIPARIS-001']);
    });
  });

  it.each<[string, string, Json]>([
    ['referenceId missing', '26001', { order: { referenceId: '' } }],
    ['referenceId of 31 characters', '26002', { order: { referenceId: 'R'.repeat(31) } }],
    ['no pieces', '26003', { orderPieceList: [] }],
    ['a piece without barcode', '26004', { orderPieceList: [{ kg: 1, desi: 1 }] }],
    ['a negative kg', '26008', { orderPieceList: [{ barcode: 'B1', kg: -1, desi: 1 }] }],
    ['paymentType 3 (PLATFORM: createDetailedOrder only)', '26005', { order: { paymentType: 3 } }],
    ['isCOD 1 without codAmount', '26006', { order: { isCOD: 1, codAmount: 0 } }],
    ['isCOD 2', '26007', { order: { isCOD: 2 } }],
    ['trap 3: customerId and fullName', '26011', { recipient: { customerId: 77 } }],
    ['fullName empty', '26010', { recipient: { fullName: ' ' } }],
    ['cityCode 0', '26013', { recipient: { cityCode: 0 } }],
    ['districtCode missing', '26014', { recipient: { districtCode: null } }],
    ['address empty', '26015', { recipient: { address: '' } }],
    ['trap 5: email empty', '26039', { recipient: { email: '' } }],
    ['email not an address', '26039', { recipient: { email: 'alici' } }],
    ['trap 6: mobile with leading 0', '26040', { recipient: { mobilePhoneNumber: '05551234567' } }],
    ['trap 6: mobile with +90', '26040', { recipient: { mobilePhoneNumber: '+905551234567' } }],
    ['trap 6: mobile with spaces', '26040', { recipient: { mobilePhoneNumber: '90 555 123 45 67' } }],
    ['trap 4: taxNumber empty', '26056', { recipient: { taxNumber: '' } }],
    ['trap 4: taxNumber failing the checksum', '26056', { recipient: { taxNumber: '11111111111' } }],
  ])('refuses %s: HTTP 400, {error: {code: %s, message: "Bad Request"}}, nothing created', async (_name, code, extra) => {
    const res = await createOrder(orderBody('SIPARIS-001', extra));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code, message: 'Bad Request', description: expect.any(String) } });
    expect(double.orders.size).toBe(0);
    expect(double.requests.at(-1)!.validationErrors[0]).toContain(`(${code})`);
  });

  it("refuses the tests' own defaultShipmentParams payload (no e-mail, no TC): traps 4 and 5 are real", async () => {
    const res = await createOrder(orderBody('SIPARIS-001', { recipient: { email: '', taxNumber: '' } }));
    expect([res.status, res.body.error.code]).toEqual([400, '26039']);
    const withEmail = await createOrder(orderBody('SIPARIS-001', { recipient: { taxNumber: '' } }));
    expect(withEmail.body.error.code).toBe('26056');
  });

  it('binds as ASP.NET Core: names case-insensitive, numeric strings to numbers, but a number for a string and 2.5 kg are 400 ProblemDetails', async () => {
    const body = orderBody();
    body.Recipient = { ...body.recipient, CityCode: '1', phone: 'x' };
    delete body.recipient;
    expect((await createOrder(body)).status).toBe(200);
    expect(double.orders.get('SIPARIS-001')!.recipient.cityCode).toBe(1);
    expect(double.requests.at(-1)!.unknownFields).toEqual(['recipient.phone']);

    const numberPhone = await createOrder(orderBody('R2', { recipient: { mobilePhoneNumber: 5551234567 } }));
    expect(numberPhone.status).toBe(400);
    expect(numberPhone.headers.get('content-type')).toContain('application/problem+json');
    expect(numberPhone.body).toMatchObject({ title: 'One or more validation errors occurred.', status: 400 });
    expect(numberPhone.body.errors['$.recipient.mobilePhoneNumber'][0]).toContain('System.String');
    const fraction = await createOrder(orderBody('R3', { orderPieceList: [{ barcode: 'R3_PARCA1', kg: 2.5, desi: 1 }] }));
    expect(Object.keys(fraction.body.errors)).toEqual(['$.orderPieceList[0].kg']);
    expect(double.orders.size).toBe(1);
  });

  it('needs a JSON body: 415 for another media type, 400 for an empty or broken one', async () => {
    expect((await call('POST', '/standardcmdapi/createOrder', { body: orderBody(), contentType: 'text/plain' })).status).toBe(415);
    const empty = await call('POST', '/standardcmdapi/createOrder', { rawBody: '' });
    expect([empty.status, empty.body.errors]).toEqual([400, { '': ['A non-empty request body is required.'] }]);
    expect((await call('POST', '/standardcmdapi/createOrder', { rawBody: '{"order": {' })).status).toBe(400);
  });
});

describe('MNG double: createbarcode (stage 3), label and the 20001 trap', () => {
  it('answers [{referenceId, invoiceId, shipmentId, barcodes: [{pieceNumber, value: ZPL, barcode}]}] with the barcode inside the ZPL (trap 2)', async () => {
    const b = await book('SIPARIS-001', 2);
    expect(b).toEqual({
      referenceId: 'SIPARIS-001',
      invoiceId: 'FM378349',
      shipmentId: '614118757013',
      barcodes: [
        { pieceNumber: 1, value: expect.stringMatching(/^\^XA\^FT[\s\S]*\^XZ$/), barcode: expect.stringMatching(/^C@[A-Z0-9@]{17}$/) },
        { pieceNumber: 2, value: expect.stringMatching(/^\^XA\^FT[\s\S]*\^XZ$/), barcode: expect.stringMatching(/^C@[A-Z0-9@]{17}$/) },
      ],
    });
    expect(b.barcodes[0].barcode).not.toBe(b.barcodes[1].barcode);
    for (const entry of b.barcodes) {
      expect(zplBarcodes(entry.value)).toEqual([entry.barcode]);
      expect(entry.value).toContain(`^BCN,180,N,N,N^FD${entry.barcode}^FS`);
    }
    expect(b.barcodes[0].value).toContain('Alici: Test Recipient');
    expect(b.barcodes[1].value).toContain('SEYHAN / ADANA');
    expect(b.barcodes[1].value).toContain('Parca 2/2');
    const sh = double.orders.get('SIPARIS-001')!.shipments[0];
    expect(sh).toMatchObject({ shipmentId: '614118757013', cancelled: false, statuses: [{ code: 1, at: clock }] });
  });

  it("without createRecipient, createOrder + createbarcode back-to-back fail 20001 VARIŞ ŞUBESİ BULUNAMADI for minutes (the test's exact shape)", async () => {
    expect((await createOrder(orderBody('OMN-XYZ'))).status).toBe(200);
    const res = await createBarcode(barcodeBody('OMN-XYZ'));
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      error: {
        Code: '20001',
        Message: 'Error',
        Description: "<WERR> OMN-XYZ NO'LU SİPARİŞ KAYDI İÇİN VARIŞ ŞUBESİ BULUNAMADI ! DAHA SONRA TEKRAR DENEYİN ! </WERR>",
      },
    });
    clock = new Date(clock.getTime() + 15_000);
    expect((await createBarcode(barcodeBody('OMN-XYZ'))).status).toBe(500);
    clock = new Date(clock.getTime() + 3 * 60_000);
    expect((await createBarcode(barcodeBody('OMN-XYZ'))).status).toBe(200);
  });

  it('a createRecipient after the order also resolves the branch; an unknown city/district never does', async () => {
    expect((await createOrder(orderBody('LATE'))).status).toBe(200);
    expect((await createRecipient()).status).toBe(200);
    expect((await createBarcode(barcodeBody('LATE'))).status).toBe(200);

    const nowhere = { cityCode: 1, districtCode: 956, districtName: 'Kadıköy' }; // 956 is İstanbul's
    expect((await createRecipient(recipient(nowhere))).status).toBe(200);
    expect((await createOrder(orderBody('NOWHERE', { recipient: nowhere }))).status).toBe(200);
    clock = new Date(clock.getTime() + 24 * 3600 * 1000);
    jwt = await login();
    expect((await createBarcode(barcodeBody('NOWHERE'))).body.error.Code).toBe('20001');
  });

  it('answers the same shipment again for a repeated createbarcode (or refuses 20006 with repeatBarcode "refuse"); unknown order → 404', async () => {
    const first = await book();
    const again = await createBarcode();
    expect([again.status, again.body[0]]).toEqual([200, first]);
    expect(double.orders.get('SIPARIS-001')!.shipments).toHaveLength(1);
    const unknown = await createBarcode(barcodeBody('NOPE'));
    expect([unknown.status, unknown.body.title]).toEqual([404, 'Not Found']);
    await withDouble({ repeatBarcode: 'refuse' }, async () => {
      await book();
      const refused = await createBarcode();
      expect([refused.status, refused.body.error.Code]).toEqual([500, '20006']);
    });
  });
});

describe('MNG double: tracking (trackshipment, getshipmentstatus) and advance()', () => {
  it('shows events and the headline status by referenceId and by shipmentId as the statuses advance', async () => {
    const { shipmentId } = await book();
    const created = await trackShipment('siparis-001');
    expect(created.body).toEqual([
      {
        referenceId: 'SIPARIS-001',
        eventSequence: '1',
        eventStatus: 'Gönderi Hazırlandı',
        eventStatusEn: 'Shipment Created',
        eventDateTime: '12-03-2026 12:00:00',
        eventDateTime2: '2026-03-12 12:00:00',
        location: 'Atalar Şube',
        country: 'TR',
        locationAddress: 'İSTANBUL',
      },
    ]);
    double.advance('SIPARIS-001', 2, { at: new Date('2026-03-12T15:00:00Z') });
    double.advance('SIPARIS-001', 3, { at: new Date('2026-03-13T05:00:00Z') });
    double.advance('SIPARIS-001', 4, { at: new Date('2026-03-13T07:00:00Z') });
    double.advance('SIPARIS-001', 5, { at: new Date('2026-03-13T11:56:00Z'), deliveryTo: 'Sema Kudu' });
    const events = (await trackShipment('SIPARIS-001')).body;
    expect(events.map((e: Json) => [e.eventSequence, e.eventStatus, e.location])).toEqual([
      ['1', 'Gönderi Hazırlandı', 'Atalar Şube'],
      ['2', 'Transfer Aşamasında', 'Atalar Şube'],
      ['3', 'Teslimat Birimine Ulaştı', 'Seyhan Şube'],
      ['4', 'Alıcı Adresine Yönlendirildi', 'Seyhan Şube'],
      ['5', 'Teslim Edildi', 'Seyhan Şube'],
    ]);
    expect(events[4]).toMatchObject({ eventStatusEn: 'Delivered', eventDateTime: '13-03-2026 14:56:00', locationAddress: 'ADANA' });

    const status = await shipmentStatus('SIPARIS-001');
    expect(status.body).toEqual([
      {
        orderId: '1707264',
        referenceId: 'SIPARIS-001',
        shipmentId,
        shipmentStatusCode: 5,
        shipmentStatus: 'Teslim_Edildi',
        isDelivered: 1,
        deliveryTo: 'Sema Kudu',
        deliveryDateTime: '13-03-2026 14:56',
        estimatedDeliveryDate: '14-03-2026',
        trackingUrl: `https://www.mngkargo.com.tr/track/${shipmentId}`,
      },
    ]);
    expect((await call('GET', `/standardqueryapi/getshipmentstatusByShipmentId/${shipmentId}`)).body).toEqual(status.body);
    expect((await call('GET', `/standardqueryapi/trackshipmentByShipmentId/${shipmentId}`)).body).toEqual(events);
  });

  it('finds an order without a barcode by reference (status 1, shipmentId null, no events): the exactly-once look-up', async () => {
    await createOrder();
    expect((await trackShipment('SIPARIS-001')).body).toEqual([]);
    expect((await shipmentStatus('SIPARIS-001')).body).toEqual([
      expect.objectContaining({ referenceId: 'SIPARIS-001', orderId: '1707264', shipmentId: null, shipmentStatusCode: 1, isDelivered: 0, trackingUrl: null }),
    ]);
  });

  it('answers 404 for unknown references and shipment ids; advance() refuses unknown orders, orders without barcode and codes outside 1–8', async () => {
    expect((await trackShipment('NOPE')).status).toBe(404);
    const unknown = await shipmentStatus('NOPE');
    expect([unknown.status, unknown.body.title]).toEqual([404, 'Not Found']);
    expect((await call('GET', '/standardqueryapi/getshipmentstatusByShipmentId/614118757099')).status).toBe(404);
    await createOrder();
    expect(() => double.advance('SIPARIS-001', 2)).toThrow(/no barcode/);
    expect(() => double.advance('NOPE', 2)).toThrow(/NOPE/);
    await createRecipient();
    await createBarcode();
    expect(() => double.advance('SIPARIS-001', 9)).toThrow(/9/);
    expect(() => double.advance('SIPARIS-001', 0)).toThrow(/0/);
  });

  it("names every status as the README's table does (1–8) and maps isDelivered only for 5", async () => {
    await book();
    const seen: [number, string, number][] = [];
    for (const code of [8, 6, 7, 1, 2, 3, 4]) {
      double.advance('SIPARIS-001', code);
      const s = (await shipmentStatus('SIPARIS-001')).body[0];
      seen.push([s.shipmentStatusCode, s.shipmentStatus, s.isDelivered]);
    }
    expect(seen).toEqual([
      [8, 'Destek_Gerekiyor', 0],
      [6, 'Teslim_Edilemedi', 0],
      [7, 'Geri_Geliyor', 0],
      [1, 'Gönderi_Hazırlandı', 0],
      [2, 'Transfer_Aşamasında', 0],
      [3, 'Teslimat_Birimine_Ulaştı', 0],
      [4, 'Alıcı_Adresine_Yönlendirildi', 0],
    ]);
    expect(Object.values(MNG_STATUSES).map((s) => s.text)).toEqual([
      'Gönderi Hazırlandı',
      'Transfer Aşamasında',
      'Teslimat Birimine Ulaştı',
      'Alıcı Adresine Yönlendirildi',
      'Teslim Edildi',
      'Teslim Edilemedi',
      'Geri Geliyor',
      'Destek Gerekiyor',
    ]);
  });
});

describe('MNG double: cancelshipment then cancelorder', () => {
  it('cancels the barcode (PUT {referenceId, shipmentId}) then the order (PUT …/cancelorder/{ref}, no body): "OK" each; the order is gone after', async () => {
    const { shipmentId } = await book();
    const c1 = await cancelShipment('siparis-001', shipmentId);
    expect([c1.status, c1.body]).toEqual([200, 'OK']);
    expect((await shipmentStatus('SIPARIS-001')).body[0].shipmentId).toBeNull();
    expect((await call('GET', `/standardqueryapi/getshipmentstatusByShipmentId/${shipmentId}`)).status).toBe(404);
    const c2 = await cancelOrder('siparis-001');
    expect([c2.status, c2.body]).toEqual([200, 'OK']);
    expect(double.requests.at(-1)).toMatchObject({ method: 'PUT', pathParam: 'siparis-001', rawBody: '' });
    const o = double.orders.get('SIPARIS-001')!;
    expect([o.cancelled, o.shipments[0].cancelled]).toEqual([true, true]);
    expect((await shipmentStatus('SIPARIS-001')).status).toBe(404);
    const twice = await cancelOrder('SIPARIS-001');
    expect([twice.status, twice.body.title]).toEqual([404, 'Not Found']);
    expect((await cancelShipment('SIPARIS-001', shipmentId)).status).toBe(404);
    expect((await createOrder()).body.error.Code).toBe('20002'); // the reference stays used
  });

  it('cancels an order that never had a barcode with cancelorder alone; refuses cancelorder while a barcode is live (20005)', async () => {
    await createOrder(orderBody('NO-LABEL'));
    expect((await cancelOrder('NO-LABEL')).body).toBe('OK');
    const { shipmentId } = await book();
    const refused = await cancelOrder('SIPARIS-001');
    expect([refused.status, refused.body.error.Code]).toEqual([500, '20005']);
    expect((await cancelShipment('SIPARIS-001', shipmentId)).status).toBe(200);
    expect((await cancelOrder('SIPARIS-001')).status).toBe(200);
  });

  it('refuses cancelshipment once the parcel was accepted (20003), on a later day (20004), and for a wrong shipmentId (404)', async () => {
    const { shipmentId } = await book();
    expect((await cancelShipment('SIPARIS-001', '614118757999')).status).toBe(404);
    clock = new Date('2026-03-12T20:59:59Z'); // 23:59:59 in Turkey: still the same day
    jwt = await login(); // the first one lived 8 hours
    double.advance('SIPARIS-001', 2);
    const accepted = await cancelShipment('SIPARIS-001', shipmentId);
    expect([accepted.status, accepted.body.error.Code, accepted.body.error.Description]).toEqual([500, '20003', expect.stringContaining(shipmentId)]);
    expect(double.orders.get('SIPARIS-001')!.shipments[0].cancelled).toBe(false);

    await createRecipient(recipient());
    await createOrder(orderBody('NEXT-DAY'));
    await createBarcode(barcodeBody('NEXT-DAY'));
    const next = double.orders.get('NEXT-DAY')!.shipments[0];
    clock = new Date('2026-03-12T21:00:00Z'); // 00:00 the next day in Turkey
    const late = await cancelShipment('NEXT-DAY', next.shipmentId);
    expect([late.status, late.body.error.Code]).toEqual([500, '20004']);
  });
});

describe('MNG double: CBS Info (no JWT)', () => {
  it('trap 11: getcities answers the 81 plate codes with "NAME  NN" names; getdistricts/{01} the districts, without Authorization', async () => {
    const cities = await call('GET', '/cbsinfoapi/getcities', { jwt: null });
    expect(cities.status).toBe(200);
    expect(cities.body).toHaveLength(81);
    expect(cities.body[0]).toEqual({ code: '01', name: 'ADANA  11' });
    expect(cities.body[33]).toEqual({ code: '34', name: 'İSTANBUL  34' });
    const adana = await call('GET', '/cbsinfoapi/getdistricts/01', { jwt: null });
    expect(adana.body).toEqual([
      { cityCode: '01', cityName: 'Adana', code: '85', name: 'Çukurova' },
      { cityCode: '01', cityName: 'Adana', code: '86', name: 'Sarıçam' },
      { cityCode: '01', cityName: 'Adana', code: '100', name: 'Seyhan' },
    ]);
    expect((await call('GET', '/cbsinfoapi/getdistricts/1', { jwt: null })).body).toEqual(adana.body);
    expect((await call('GET', '/cbsinfoapi/getdistricts/99', { jwt: null })).body).toEqual([]);
  });

  it('every district of the table books end to end', async () => {
    for (const d of MNG_DISTRICTS) {
      const ref = `D-${d.code}`;
      const r = { cityCode: d.cityCode, districtCode: d.code, districtName: d.name };
      expect((await createRecipient(recipient(r))).status).toBe(200);
      expect((await createOrder(orderBody(ref, { recipient: r }))).status).toBe(200);
      expect((await createBarcode(barcodeBody(ref))).status).toBe(200);
    }
  });
});

describe('MNG double: routing and fault switches', () => {
  it('answers API Connect 404 for unknown or wrongly cased paths and 405 for the wrong method', async () => {
    const unknown = await call('POST', '/barcodecmdapi/createBarcode', { body: barcodeBody() });
    expect([unknown.status, unknown.body]).toEqual([404, { httpCode: '404', httpMessage: 'Not Found', moreInformation: 'No resources match requested URI' }]);
    const wrong = await call('GET', '/standardcmdapi/createOrder');
    expect([wrong.status, wrong.headers.get('allow')]).toEqual([405, 'POST']);
    expect(double.requests.slice(-2).map((r) => r.outcome)).toEqual(['not-found', 'method-not-allowed']);
  });

  it('status: 500 with the backend error body, 503 with the gateway body, before auth, for the chosen operation and times', async () => {
    double.failNext({ kind: 'status', status: 500 }, { operation: 'createOrder', times: 2 });
    expect((await shipmentStatus('X')).status).toBe(404); // another operation: not affected
    const first = await call('POST', '/standardcmdapi/createOrder', { body: orderBody(), jwt: null });
    expect([first.status, first.body.error.Code]).toEqual([500, '500']);
    expect((await createOrder()).status).toBe(500);
    expect((await createOrder()).status).toBe(200);
    double.failNext({ kind: 'status', status: 503 });
    const gw = await shipmentStatus('SIPARIS-001');
    expect([gw.status, gw.body.httpCode]).toEqual([503, '503']);
    expect(double.requests.map((r) => r.fault ?? '-').slice(1)).toEqual(['-', 'status', 'status', '-', 'status']);
  });

  it('delay: answers normally, only late', async () => {
    double.failNext({ kind: 'delay', ms: 250 }, { operation: 'createOrder' });
    const started = Date.now();
    const res = await createOrder();
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
    expect(double.requests.at(-1)).toMatchObject({ fault: 'delay', outcome: 'ok', status: 200 });
  });

  it('hang: never answers; drop: closes the connection; neither creates anything', async () => {
    double.failNext({ kind: 'hang' }, { operation: 'createOrder' });
    await expect(call('POST', '/standardcmdapi/createOrder', { body: orderBody(), timeoutMs: 300 })).rejects.toThrow();
    double.failNext({ kind: 'drop' }, { operation: 'createOrder' });
    await expect(createOrder()).rejects.toThrow();
    expect(double.orders.size).toBe(0);
    expect(double.requests.slice(-2).map((r) => [r.fault, r.outcome, r.status])).toEqual([
      ['hang', 'fault', undefined],
      ['drop', 'fault', undefined],
    ]);
  });

  it('applyThenDrop: the order is created though the client sees a connection error; createOrder again says duplicate, the look-up finds it', async () => {
    await createRecipient();
    double.failNext({ kind: 'applyThenDrop' }, { operation: 'createOrder' });
    await expect(createOrder()).rejects.toThrow();
    expect(double.orders.get('SIPARIS-001')).toBeDefined();
    expect(double.requests.at(-1)).toMatchObject({ fault: 'applyThenDrop', outcome: 'ok' });
    expect(double.requests.at(-1)!.status).toBeUndefined();
    expect(double.requests.at(-1)!.lostResponse).toEqual([expect.objectContaining({ referenceId: 'SIPARIS-001' })]);
    expect((await createOrder()).body.error.Code).toBe('20002');
    expect((await shipmentStatus('SIPARIS-001')).body[0]).toMatchObject({ referenceId: 'SIPARIS-001', shipmentId: null });
    expect((await createBarcode()).status).toBe(200);
  });

  it('applyThenStatus: createbarcode issues the barcode but answers 500; asking again returns that same shipment', async () => {
    await createRecipient();
    await createOrder();
    double.failNext({ kind: 'applyThenStatus' }, { operation: 'createbarcode' });
    const lost = await createBarcode();
    expect([lost.status, lost.body.error.Code]).toEqual([500, '500']);
    const issued = double.orders.get('SIPARIS-001')!.shipments[0];
    expect(issued.shipmentId).toBe('614118757013');
    expect(double.requests.at(-1)!.lostResponse).toEqual([expect.objectContaining({ shipmentId: issued.shipmentId })]);
    expect((await shipmentStatus('SIPARIS-001')).body[0].shipmentId).toBe(issued.shipmentId);
    expect((await createBarcode()).body[0].shipmentId).toBe(issued.shipmentId);
  });

  it('unauthorized: answers 401 as for an expired token, once', async () => {
    double.failNext({ kind: 'unauthorized' });
    const res = await shipmentStatus('X');
    expect([res.status, res.headers.get('www-authenticate')]).toEqual([401, expect.stringContaining('invalid_token')]);
    expect((await shipmentStatus('X')).status).toBe(404);
  });
});
