import {
  HB_MESSAGES,
  HEPSIBURADA_TEST_ACCOUNT,
  hbQueryDate,
  readHbLabelBarcode,
  startHepsiburadaDouble,
  type HepsiburadaDouble,
  type HepsiburadaDoubleOptions,
} from '../../support/marketplaces/hepsiburada-double';
import { HB_SAMPLE_LINES, parseHbQueryDate } from '../../support/marketplaces/hepsiburada.schemas';
import { request } from 'node:http';
import { useRecordingServer } from '../../support/recording-server';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Answer {
  status: number;
  headers: Headers;
  body: Json;
}

let hb: HepsiburadaDouble;
let clock: Date;
const A = HEPSIBURADA_TEST_ACCOUNT;
const M = A.merchantId;
const receiver = useRecordingServer();

async function call(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  opts: { body?: unknown; rawBody?: string; user?: string; pass?: string; userAgent?: string | null; noAuth?: boolean; timeoutMs?: number } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (!opts.noAuth) headers.authorization = `Basic ${Buffer.from(`${opts.user ?? M}:${opts.pass ?? A.serviceKey}`).toString('base64')}`;
  if (opts.userAgent !== null) headers['user-agent'] = opts.userAgent ?? A.userAgent;
  const payload = opts.rawBody ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
  if (payload !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${hb.baseUrl}${path}`, { method, headers, body: payload, signal: AbortSignal.timeout(opts.timeoutMs ?? 5000) });
  const text = await res.text();
  let body: Json;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return { status: res.status, headers: res.headers, body };
}

/** GET through node:http, which (unlike fetch) sends no User-Agent of its own. */
function withoutUserAgent(path: string): Promise<{ status: number; body: Json }> {
  return new Promise((resolve, reject) => {
    const req = request(`${hb.baseUrl}${path}`, { headers: { authorization: `Basic ${Buffer.from(`${M}:${A.serviceKey}`).toString('base64')}` } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const listOrders = (query = 'offset=0&limit=100') => call('GET', `/orders/merchantid/${M}?${query}`);
const listPackages = (query = 'offset=0&limit=10') => call('GET', `/packages/merchantid/${M}?${query}`);
const createPackage = (body: Json) => call('POST', `/packages/merchantid/${M}`, { body });
const pkgPath = (pn: string, tail = '') => `/packages/merchantid/${M}/packagenumber/${pn}${tail}`;
const later = (minutes: number) => (clock = new Date(clock.getTime() + minutes * 60000));
const packAll = async (orderNumber: string, extra: Json = {}) => {
  const o = hb.orders.get(orderNumber)!;
  const res = await createPackage({ lineItemRequests: o.lines.map((l) => ({ id: l.id, quantity: l.openQuantity })), ...extra });
  expect(res.status).toBe(201);
  return res.body as { packageNumber: string; barcode: string };
};
const intransitBody = (extra: Json = {}) => ({
  shippedDate: clock.toISOString(),
  estimatedArrivalDate: new Date(clock.getTime() + 2 * 86400000).toISOString(),
  trackingUrl: 'https://www.yurticikargo.com/tr/online-servisler/gonderi-sorgula?code=111222333444',
  trackingNumber: '111222333444',
  trackingPhoneNumber: '4449999',
  tax: 0,
  cost: 0,
  deci: 2,
  ...extra,
});

async function withDouble(options: HepsiburadaDoubleOptions, fn: () => Promise<void>): Promise<void> {
  const saved = hb;
  hb = await startHepsiburadaDouble({ now: () => clock, ...options });
  try {
    await fn();
  } finally {
    await hb.close();
    hb = saved;
  }
}

beforeEach(async () => {
  clock = new Date('2026-03-12T09:00:00Z'); // 12:00 in Turkey
  hb = await startHepsiburadaDouble({ now: () => clock });
});
afterEach(async () => {
  await hb.close();
});

describe('Hepsiburada double: Basic auth merchantId:serviceKey and User-Agent', () => {
  it('accepts merchantId / service key with the integrator username as User-Agent, and sends the rate-limit headers', async () => {
    const res = await listOrders();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: [], limit: 100, offset: 0, pageCount: 0, totalCount: 0 });
    expect(res.headers.get('x-ratelimit-limit')).toBe('1000');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('999');
    expect(res.headers.get('x-ratelimit-reset')).toBe('1');
    expect(hb.requests.at(-1)).toMatchObject({ operation: 'listOrders', outcome: 'ok', merchantId: M });
    expect(hb.requests.at(-1)!.headers.authorization).toBe(`Basic ${M}:***`);
  });

  it('answers 401 to a wrong service key, no credentials, a missing or foreign User-Agent', async () => {
    for (const opts of [{ pass: 'WrongKey1234' }, { noAuth: true }, { userAgent: null }, { userAgent: 'someone_dev' }, { user: 'other-merchant' }]) {
      const res = await listOrders('offset=0&limit=10');
      // fetch sends "node" when told nothing: a request without the header goes through node:http
      const bad =
        opts.userAgent === null
          ? await withoutUserAgent(`/orders/merchantid/${M}?offset=0&limit=10`)
          : await call('GET', `/orders/merchantid/${M}?offset=0&limit=10`, opts);
      expect(res.status).toBe(200);
      expect([bad.status, bad.body]).toEqual([401, { message: 'Unauthorized' }]);
    }
    expect(hb.requests.filter((r) => r.outcome === 'unauthorized').map((r) => r.validationErrors[0])).toEqual([
      'authorization: merchantId/serviceKey do not match',
      'authorization: no Basic credentials',
      'authorization: User-Agent missing',
      "authorization: User-Agent someone_dev is not the integrator's developer username",
      'authorization: merchantId/serviceKey do not match',
    ]);
  });

  it('refuses SIT credentials on the production host, and another merchant id in the path (403)', async () => {
    await withDouble({ environment: 'production' }, async () => {
      expect((await listOrders()).status).toBe(401);
    });
    const other = await call('GET', '/orders/merchantid/0f0e0d0c-0000-4000-8000-000000000000?offset=0&limit=10');
    expect([other.status, other.body]).toEqual([403, { message: 'Forbidden' }]);
  });

  it('answers 404 to an unknown path and 405 (with Allow) to another method', async () => {
    expect((await call('GET', `/orders/merchantid/${M}/nothing`)).status).toBe(404);
    const res = await call('DELETE', `/orders/merchantid/${M}`);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
  });
});

describe('Hepsiburada double: ödemesi tamamlanmış siparişler (GET /orders/merchantid/{m})', () => {
  it('lists open lines with the order, customer, address and amounts', async () => {
    const o = hb.placeOrder({ orderNumber: '4100000099' });
    const res = await listOrders();
    expect(res.body).toMatchObject({ limit: 100, offset: 0, pageCount: 1, totalCount: 2 });
    expect(res.body.items[0]).toMatchObject({
      id: o.lines[0].id,
      orderNumber: '4100000099',
      orderDate: '2026-03-12T12:00:00.000',
      status: 'Open',
      merchantId: M,
      sku: 'HBV00000NE0YY',
      merchantSKU: 'PEYNIR-250',
      quantity: 1,
      unitPrice: { currency: 'TRY', amount: 14.95 },
      totalPrice: { currency: 'TRY', amount: 14.95 },
      customerName: 'Ayşe Yılmaz',
      shippingAddress: { city: 'İstanbul', town: 'Kadıköy', address: 'Caferağa Mah. Moda Cad. No:15 D:3' },
      cargoCompanyModel: { shortName: 'HX', name: 'HepsiJet' },
      canCreatePackage: true,
      isCancellable: true,
      packageNumber: '',
    });
    expect(res.body.items[1]).toMatchObject({ quantity: 2, totalPrice: { amount: 240 } });
  });

  it('refuses a request without limit and offset with the documented message', async () => {
    for (const query of ['', 'limit=10', 'offset=0', `begindate=${encodeURIComponent('2026-03-12 00:00')}`]) {
      const res = await listOrders(query);
      expect([res.status, res.body]).toEqual([400, { message: 'Bad Request limit and offset parameters are required' }]);
    }
    expect((await listOrders('offset=0&limit=0')).body).toEqual({ message: HB_MESSAGES.limitTooSmall });
  });

  it('pages with offset (records skipped) and at most 100 a page', async () => {
    const lines = Array.from({ length: 105 }, (_, i) => ({ ...HB_SAMPLE_LINES[0], merchantSku: `SKU-${i}` }));
    hb.placeOrder({ lines });
    const first = await listOrders('offset=0&limit=500');
    expect(first.body).toMatchObject({ limit: 100, offset: 0, pageCount: 2, totalCount: 105 });
    expect(first.body.items).toHaveLength(100);
    const second = await listOrders('offset=100&limit=100');
    expect(second.body.items.map((x: Json) => x.merchantSKU)).toEqual(['SKU-100', 'SKU-101', 'SKU-102', 'SKU-103', 'SKU-104']);
    const small = await listOrders('offset=20&limit=10');
    expect(small.body.items[0].merchantSKU).toBe('SKU-20');
    expect(small.body.pageCount).toBe(11);
  });

  it('filters on when the line was added, begindate inclusive and enddate exclusive, yyyy-MM-dd HH:mm Turkish time', async () => {
    const a = hb.placeOrder({ at: new Date('2026-03-11T07:00:00Z') }); // 10:00 TR
    const b = hb.placeOrder({ at: new Date('2026-03-11T21:30:00Z') }); // 00:30 TR on the 12th
    const q = (begin: string, end?: string) =>
      listOrders(`offset=0&limit=100&begindate=${encodeURIComponent(begin)}${end ? `&enddate=${encodeURIComponent(end)}` : ''}`);
    const day11 = await q('2026-03-11 00:00', '2026-03-12 00:00');
    expect(new Set(day11.body.items.map((x: Json) => x.orderNumber))).toEqual(new Set([a.orderNumber]));
    const fromTen = await q('2026-03-11 10:00', '2026-03-11 10:01');
    expect(fromTen.body.totalCount).toBe(2);
    expect((await q('2026-03-11 10:01', '2026-03-12 00:30')).body.totalCount).toBe(0);
    // only begindate: 24 hours from it
    expect(new Set((await q('2026-03-11 00:31')).body.items.map((x: Json) => x.orderNumber))).toEqual(new Set([a.orderNumber, b.orderNumber]));
    expect(hbQueryDate(new Date('2026-03-11T21:30:00Z'))).toBe('2026-03-12 00:30');
  });

  it('ignores an enddate more than 24 hours after begindate and takes begindate + 24 h (documented)', async () => {
    hb.placeOrder({ at: new Date('2026-03-10T09:00:00Z') });
    const late = hb.placeOrder({ at: new Date('2026-03-11T12:00:00Z') });
    const wide = await listOrders(`offset=0&limit=100&begindate=${encodeURIComponent('2026-03-10 00:00')}&enddate=${encodeURIComponent('2026-03-12 00:00')}`);
    expect(wide.status).toBe(200);
    expect(wide.body.items.some((x: Json) => x.orderNumber === late.orderNumber)).toBe(false);
    expect(wide.body.totalCount).toBe(2);
  });

  it('refuses dates it cannot read and an enddate without begindate', async () => {
    const bad = await listOrders(`offset=0&limit=10&begindate=12.03.2026`);
    expect([bad.status, bad.body]).toEqual([400, { message: HB_MESSAGES.badDate }]);
    const endOnly = await listOrders(`offset=0&limit=10&enddate=${encodeURIComponent('2026-03-12 00:00')}`);
    expect(endOnly.body).toEqual({ message: HB_MESSAGES.endDateWithoutBegin });
    expect(parseHbQueryDate('2026-02-31 10:00')).toBeUndefined();
  });

  it('shows one order with all its lines (ordernumber), 404 for an unknown one', async () => {
    const o = hb.placeOrder();
    const res = await call('GET', `/orders/merchantid/${M}/ordernumber/${o.orderNumber}`);
    expect(res.body).toMatchObject({
      orderNumber: o.orderNumber,
      customer: { name: 'Ayşe Yılmaz' },
      deliveryAddress: { town: 'Kadıköy' },
      paymentStatus: 'Paid',
    });
    expect(res.body.items).toHaveLength(2);
    expect((await call('GET', `/orders/merchantid/${M}/ordernumber/999`)).status).toBe(404);
  });
});

describe('Hepsiburada double: paketleme (POST /packages/merchantid/{m}) and the package list', () => {
  it('packages lines: 201 {barcode, packageNumber}; they leave the orders list and appear as a packed package', async () => {
    const o = hb.placeOrder();
    const created = await packAll(o.orderNumber, { deci: 3, parcelQuantity: 1 });
    expect(created).toEqual({ barcode: expect.stringMatching(/^\d{13}$/), packageNumber: expect.stringMatching(/^\d{9}$/) });
    expect((await listOrders()).body.totalCount).toBe(0);
    const list = await listPackages();
    expect(list.status).toBe(200);
    expect(list.headers.get('pagecount')).toBe('1');
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({
      packageNumber: created.packageNumber,
      barcode: created.barcode,
      status: 'Packed',
      cargoCompany: 'HepsiJet',
      recipientName: 'Ayşe Yılmaz',
      shippingTown: 'Kadıköy',
      items: [
        { lineItemId: o.lines[0].id, quantity: 1, merchantSku: 'PEYNIR-250' },
        { lineItemId: o.lines[1].id, quantity: 2, merchantSku: 'KUPA-350' },
      ],
    });
    expect(hb.writeBacks).toMatchObject([{ operation: 'createPackage', packageNumber: created.packageNumber }]);
  });

  it('packs part of a line: the rest stays in the orders list', async () => {
    const o = hb.placeOrder();
    const res = await createPackage({ lineItemRequests: [{ id: o.lines[1].id, quantity: 1 }] });
    expect(res.status).toBe(201);
    const open = await listOrders();
    expect(open.body.items.map((x: Json) => [x.id, x.quantity])).toEqual([
      [o.lines[0].id, 1],
      [o.lines[1].id, 1],
    ]);
    const over = await createPackage({ lineItemRequests: [{ id: o.lines[1].id, quantity: 2 }] });
    expect([over.status, over.body]).toEqual([400, { message: HB_MESSAGES.quantityExceeded }]);
  });

  it('lists the lines packageable with a line, and refuses lines that cannot share a package', async () => {
    const o = hb.placeOrder();
    const other = hb.placeOrder({ customer: { name: 'Mehmet Demir' }, shippingAddress: { address: 'Atatürk Cad. 1', town: 'Çankaya', city: 'Ankara' } });
    const same = await call('GET', `/lineitems/merchantid/${M}/packageablewith/lineitemid/${o.lines[0].id}`);
    expect(same.body).toEqual({ lineItems: [{ lineItemId: o.lines[1].id, orderNumber: o.orderNumber, quantity: 2 }] });
    const res = await createPackage({
      lineItemRequests: [
        { id: o.lines[0].id, quantity: 1 },
        { id: other.lines[0].id, quantity: 1 },
      ],
    });
    expect([res.status, res.body]).toEqual([400, { message: HB_MESSAGES.linesNotPackageableTogether }]);
    expect((await createPackage({ lineItemRequests: [{ id: 'nope', quantity: 1 }] })).status).toBe(404);
    expect((await createPackage({})).body).toEqual({ message: 'lineItemRequests is required' });
  });

  it('refuses packaging while an address change demand is open (documented message), then packages the changed address', async () => {
    const o = hb.placeOrder();
    hb.changeAddress(o.orderNumber, { address: 'Bağdat Cad. 200 D:5', town: 'Maltepe' }, { pending: true });
    const res = await createPackage({ lineItemRequests: [{ id: o.lines[0].id, quantity: 1 }] });
    expect([res.status, res.body]).toEqual([400, { message: 'Order has an ongoing change address demand' }]);
    hb.completeAddressChange(o.orderNumber);
    const created = await packAll(o.orderNumber);
    const list = await listPackages();
    expect(list.body[0]).toMatchObject({ packageNumber: created.packageNumber, shippingAddressDetail: 'Bağdat Cad. 200 D:5', shippingTown: 'Maltepe' });
  });

  it('own carrier (Mağaza Hesabı): cargoCompany must be MP and carrier the carrier short name or ET', async () => {
    const o = hb.placeOrder({ cargoCompany: 'MP' });
    const lineItemRequests = o.lines.map((l) => ({ id: l.id, quantity: l.quantity }));
    for (const body of [{ lineItemRequests }, { lineItemRequests, cargoCompany: 'MP' }, { lineItemRequests, cargoCompany: 'YK', carrier: 'YK' }]) {
      const res = await createPackage(body);
      expect([res.status, res.body]).toEqual([400, { message: HB_MESSAGES.ownCarrierFieldsRequired }]);
    }
    expect((await createPackage({ lineItemRequests, cargoCompany: 'MP', carrier: 'XX' })).body).toEqual({ message: HB_MESSAGES.unknownCarrier });
    const ok = await createPackage({ lineItemRequests, cargoCompany: 'MP', carrier: 'YK', barcode: 'MYBARCODE1' });
    expect(ok.body).toEqual({ barcode: 'MYBARCODE1', packageNumber: expect.any(String) });
    expect(hb.packages.get(ok.body.packageNumber)).toMatchObject({ cargoCompany: 'MP', carrier: 'YK' });
  });

  it('package list: limit-offset required, at most 10 a page, packaging date within timespan (default 24 h) or begindate/enddate', async () => {
    expect((await listPackages('timespan=12')).body).toEqual({ message: HB_MESSAGES.limitOffsetRequired });
    for (let i = 0; i < 12; i++) {
      const o = hb.placeOrder({ lines: [HB_SAMPLE_LINES[0]] });
      await packAll(o.orderNumber);
      later(60);
    }
    // packed at 09:00 … 20:00 UTC; now 21:00 UTC
    const first = await listPackages('offset=0&limit=50');
    expect(first.body).toHaveLength(10);
    expect([first.headers.get('pagecount'), first.headers.get('totalcount')]).toEqual(['2', '12']);
    expect((await listPackages('offset=10&limit=10')).body).toHaveLength(2);
    expect((await listPackages('offset=0&limit=10&timespan=3')).headers.get('totalcount')).toBe('3');
    const window = await listPackages(
      `limit=10&Offset=0&begindate=${encodeURIComponent('2026-03-12 12:00')}&enddate=${encodeURIComponent('2026-03-12 14:00')}`,
    );
    expect(window.headers.get('totalcount')).toBe('2');
    later(24 * 60);
    expect((await listPackages()).body).toEqual([]);
    expect((await listPackages('offset=0&limit=10&timespan=48')).headers.get('totalcount')).toBe('12');
  });

  it('packs automatically after the configured delay (HB otomatik paketleme)', async () => {
    await withDouble({ autoPackageAfterMs: 15 * 60000 }, async () => {
      const o = hb.placeOrder();
      expect((await listOrders()).body.totalCount).toBe(2);
      later(15);
      expect((await listOrders()).body.totalCount).toBe(0);
      const list = await listPackages();
      expect(list.body[0].items.map((x: Json) => x.lineItemId)).toEqual(o.lines.map((l) => l.id));
      expect([...hb.packages.values()][0].packedBy).toBe('hepsiburada');
      expect(hb.writeBacks).toEqual([]);
    });
  });
});

describe('Hepsiburada double: split, unpack, cancellation', () => {
  it('splits a package by API: the old one is unpacked, the lines go to new package numbers', async () => {
    const o = hb.placeOrder();
    const { packageNumber } = await packAll(o.orderNumber);
    const incomplete = await call('POST', pkgPath(packageNumber, '/split'), {
      body: { packageDetails: [{ lines: [{ orderLineId: o.lines[0].id, quantity: 1 }] }] },
    });
    expect([incomplete.status, incomplete.body]).toEqual([400, { message: HB_MESSAGES.splitMustCoverPackage }]);
    const res = await call('POST', pkgPath(packageNumber, '/split'), {
      body: {
        packageDetails: [{ lines: [{ orderLineId: o.lines[0].id, quantity: 1 }], deci: 1 }, { lines: [{ orderLineId: o.lines[1].id, quantity: 1 }] }],
        cancelledItems: [{ orderLineId: o.lines[1].id, quantity: 1, cancelReasonId: 83 }],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
    expect(hb.packages.get(packageNumber)).toMatchObject({ status: 'Unpacked', splitInto: res.body.map((x: Json) => x.packageNumber) });
    const list = await listPackages();
    expect(list.body.map((p: Json) => p.items.map((x: Json) => [x.lineItemId, x.quantity]))).toEqual([[[o.lines[0].id, 1]], [[o.lines[1].id, 1]]]);
    const unpacked = await call('GET', `/packages/merchantid/${M}/status/unpacked?limit=10&Offset=0&timespan=1`);
    expect(unpacked.body).toEqual([
      { items: [{ packageNumber, barcode: expect.any(String), unpackedDate: '2026-03-12T12:00:00.000' }], limit: 10, offset: 0, pageCount: 1, totalCount: 1 },
    ]);
    const cancelled = await call('GET', `/orders/merchantid/${M}/cancelled?offset=0&limit=50`);
    expect(cancelled.body.items).toEqual([
      expect.objectContaining({ lineItemId: o.lines[1].id, quantity: 1, cancelledBy: 'Merchant', cancelReasonCode: '83' }),
    ]);
  });

  it("splits a package on Hepsiburada's side (programming interface): lines move to new package ids", async () => {
    const o = hb.placeOrder();
    const { packageNumber } = await packAll(o.orderNumber);
    const made = hb.splitPackage(packageNumber, [[{ lineId: o.lines[0].id, quantity: 1 }], [{ lineId: o.lines[1].id, quantity: 2 }]]);
    expect(made.map((p) => p.splitFrom)).toEqual([packageNumber, packageNumber]);
    const list = await listPackages();
    expect(list.body.map((p: Json) => p.packageNumber)).toEqual(made.map((p) => p.packageNumber));
    expect(hb.writeBacks.map((w) => w.operation)).toEqual(['createPackage']);
  });

  it('unpacks a package by API: its lines are open again', async () => {
    const o = hb.placeOrder();
    const { packageNumber } = await packAll(o.orderNumber);
    expect((await call('POST', pkgPath(packageNumber, '/unpack'))).status).toBe(200);
    expect((await listOrders()).body.totalCount).toBe(2);
    expect((await listPackages()).body).toEqual([]);
    expect((await call('POST', pkgPath(packageNumber, '/unpack'))).body).toEqual({ message: HB_MESSAGES.wrongPackageStatus });
  });

  it('cancels an unpacked line by merchant with a reasonId (83 documented), not a packed one', async () => {
    const o = hb.placeOrder();
    const path = (id: string) => `/lineitems/merchantid/${M}/id/${id}/cancelbymerchant`;
    expect((await call('POST', path(o.lines[0].id), { body: {} })).body).toEqual({ message: 'reasonId is required' });
    expect((await call('POST', path(o.lines[0].id), { body: { reasonId: 83 } })).status).toBe(200);
    expect(hb.line(o.lines[0].id)).toMatchObject({ status: 'Cancelled', cancelledQuantity: 1 });
    await createPackage({ lineItemRequests: [{ id: o.lines[1].id, quantity: 2 }] });
    const packed = await call('POST', path(o.lines[1].id), { body: { reasonId: 83 } });
    expect([packed.status, packed.body]).toEqual([400, { message: HB_MESSAGES.lineNotCancellable }]);
    const cancelled = await call(
      'GET',
      `/orders/merchantid/${M}/cancelled?begindate=${encodeURIComponent('2026-03-12 11:00')}&enddate=${encodeURIComponent('2026-03-12 13:00')}`,
    );
    expect(cancelled.body).toMatchObject({ totalCount: 1, limit: 50, items: [{ lineItemId: o.lines[0].id, cancelledBy: 'Merchant', cancelReasonCode: '83' }] });
  });

  it("a customer's cancellation of a packed line unpacks its package (isUnpackedLine)", async () => {
    const o = hb.placeOrder();
    const { packageNumber } = await packAll(o.orderNumber);
    const c = hb.cancelLine(o.lines[1].id);
    expect(c).toMatchObject({ quantity: 2, cancelledBy: 'Customer', isUnpackedLine: true });
    expect(hb.packages.get(packageNumber)!.status).toBe('Unpacked');
    expect((await listOrders()).body.items.map((x: Json) => x.id)).toEqual([o.lines[0].id]);
    expect(hb.pushBody('orderCancel', o.lines[1].id)).toEqual({
      method: 'PUT',
      path: `/lineitems/${o.lines[1].id}/cancel`,
      body: {
        cancelDate: '2026-03-12T12:00:00.000',
        merchantId: M,
        id: o.lines[1].id,
        quantity: 2,
        cancelledBy: 'Customer',
        orderNumber: o.orderNumber,
        cancelReasonCode: 'CustomerCancelled',
        isUnpackedLine: true,
      },
    });
  });
});

describe('Hepsiburada double: what the seller sends back', () => {
  it('own carrier: intransit with tracking number, then deliver; both recorded and listed as shipped / delivered', async () => {
    const o = hb.placeOrder({ cargoCompany: 'MP' });
    const { packageNumber } = await packAll(o.orderNumber, { cargoCompany: 'MP', carrier: 'YK' });
    later(30);
    const missing = await call('POST', pkgPath(packageNumber, '/intransit'), { body: intransitBody({ trackingNumber: undefined }) });
    expect([missing.status, missing.body]).toEqual([400, { message: 'trackingNumber is required' }]);
    expect((await call('POST', pkgPath(packageNumber, '/deliver'), { body: { receivedDate: clock.toISOString(), receivedBy: 'Ayşe' } })).body).toEqual({
      message: HB_MESSAGES.wrongPackageStatus,
    });
    const res = await call('POST', pkgPath(packageNumber, '/intransit'), { body: intransitBody() });
    expect(res.status).toBe(200);
    expect(hb.packages.get(packageNumber)).toMatchObject({ status: 'InTransit', trackingNumber: '111222333444' });
    const cargo = await call('GET', pkgPath(packageNumber));
    expect(cargo.body).toMatchObject({ packageNumber, status: 'InTransit', cargoCompany: 'Yurtiçi Kargo', trackingInfoCode: '111222333444', deci: 2 });
    later(60 * 24);
    const delivered = await call('POST', pkgPath(packageNumber, '/deliver'), { body: { receivedDate: clock.toISOString(), receivedBy: 'Ayşe Yılmaz' } });
    expect(delivered.status).toBe(200);
    expect(hb.writeBacks.map((w) => [w.operation, w.packageNumber])).toEqual([
      ['createPackage', packageNumber],
      ['intransit', packageNumber],
      ['deliver', packageNumber],
    ]);
    expect(hb.writeBacks[1].body).toMatchObject({ trackingNumber: '111222333444', tax: 0, cost: 0 });
    const shipped = await call('GET', `/packages/merchantid/${M}/shipped?offset=0&limit=50`);
    expect(shipped.body.items).toEqual([
      expect.objectContaining({ PackageNumber: packageNumber, OrderNumbers: [o.orderNumber], ShippedDate: '2026-03-12T12:30:00.000' }),
    ]);
    expect((await call('GET', `/packages/merchantid/${M}/delivered`)).body.totalCount).toBe(1);
    expect(hb.line(o.lines[0].id).status).toBe('Delivered');
  });

  it('refuses status dates older than 7 days, before packaging, and status write-backs for a Hepsiburada carrier', async () => {
    const o = hb.placeOrder({ cargoCompany: 'MP' });
    const { packageNumber } = await packAll(o.orderNumber, { cargoCompany: 'MP', carrier: 'ET' });
    const old = await call('POST', pkgPath(packageNumber, '/intransit'), {
      body: intransitBody({ shippedDate: new Date(clock.getTime() - 8 * 86400000).toISOString() }),
    });
    expect([old.status, old.body]).toEqual([400, { message: HB_MESSAGES.dateTooOld }]);
    const early = await call('POST', pkgPath(packageNumber, '/intransit'), {
      body: intransitBody({ shippedDate: new Date(clock.getTime() - 3600000).toISOString() }),
    });
    expect(early.body).toEqual({ message: HB_MESSAGES.dateBeforePacking });
    const hx = hb.placeOrder();
    const hxPackage = await packAll(hx.orderNumber);
    expect((await call('POST', pkgPath(hxPackage.packageNumber, '/intransit'), { body: intransitBody() })).body).toEqual({
      message: HB_MESSAGES.notOwnCarrierPackage,
    });
    expect(hb.writeBacks.filter((w) => w.operation === 'intransit')).toEqual([]);
  });

  it('undeliver after intransit, listed as undelivered with its reason', async () => {
    const o = hb.placeOrder({ cargoCompany: 'MP' });
    const { packageNumber } = await packAll(o.orderNumber, { cargoCompany: 'MP', carrier: 'AR' });
    await call('POST', pkgPath(packageNumber, '/intransit'), { body: intransitBody() });
    const res = await call('POST', pkgPath(packageNumber, '/undeliver'), {
      body: { undeliveredDate: clock.toISOString(), undeliveredReason: 'Adreste bulunamadı' },
    });
    expect(res.status).toBe(200);
    const list = await call('GET', `/packages/merchantid/${M}/undelivered?offset=0&limit=50`);
    expect(list.body.items[0]).toMatchObject({ PackageNumber: packageNumber, UndeliveredReason: 'Adreste bulunamadı' });
  });

  it('Hepsiburada carrier: common barcode (ZPL) per parcel; the carrier of a packed package can be changed (new barcode)', async () => {
    const o = hb.placeOrder();
    const { packageNumber, barcode } = await packAll(o.orderNumber, { parcelQuantity: 2 });
    const labels = await call('GET', pkgPath(packageNumber, '/labels?format=ZPL'));
    expect(labels.body).toMatchObject({ format: 'ZPL', hasMerchantMutualBarcode: true });
    expect(labels.body.data).toHaveLength(2);
    expect(readHbLabelBarcode(labels.body.data[0])).toBe(barcode);
    expect((await call('GET', pkgPath(packageNumber, '/labels?format=PNG'))).body).toEqual({ message: HB_MESSAGES.unsupportedLabelFormat });
    const options = await call('GET', pkgPath(packageNumber, '/changablecargocompanies'));
    expect(options.body.map((c: Json) => c.ShortName)).toContain('YK');
    expect(options.body.map((c: Json) => c.ShortName)).not.toContain('HX');
    expect((await call('PUT', pkgPath(packageNumber, '/changecargocompany'), { body: { CargoCompanyShortName: 'YK' } })).status).toBe(204);
    expect(hb.packages.get(packageNumber)!.barcode).not.toBe(barcode);
    expect((await call('GET', pkgPath(packageNumber))).body).toMatchObject({ cargoCompany: 'Yurtiçi Kargo', status: 'Packed' });
    const own = hb.placeOrder({ cargoCompany: 'MP' });
    const ownPackage = await packAll(own.orderNumber, { cargoCompany: 'MP', carrier: 'YK' });
    expect((await call('GET', pkgPath(ownPackage.packageNumber, '/labels'))).body).toEqual({ message: HB_MESSAGES.labelOnlyForHbCarrier });
  });

  it("changes an open line's carrier, and takes the invoice link (missing-invoice list empties)", async () => {
    const o = hb.placeOrder();
    const choices = await call('GET', `/delivery/changeablecargocompanies/merchantid/${M}/orderlineid/${o.lines[0].id}`);
    expect(choices.body[0]).toEqual({ Id: 2, IsActive: true, LogoUrl: expect.any(String), Name: 'Yurtiçi Kargo', ShortName: 'YK' });
    expect((await call('PUT', `/lineitems/merchantid/${M}/orderlineid/${o.lines[0].id}/cargocompany`, { body: { CargoCompanyShortName: 'AR' } })).status).toBe(
      204,
    );
    expect(hb.line(o.lines[0].id).cargoCompany).toBe('AR');
    // the lines now ship with different carriers: they can not share a package
    const together = await createPackage({ lineItemRequests: o.lines.map((l) => ({ id: l.id, quantity: l.quantity })) });
    expect(together.body).toEqual({ message: HB_MESSAGES.linesNotPackageableTogether });
    await createPackage({ lineItemRequests: [{ id: o.lines[1].id, quantity: 2 }] });
    const { packageNumber } = (await createPackage({ lineItemRequests: [{ id: o.lines[0].id, quantity: 1 }] })).body;
    expect(hb.packages.get(packageNumber)!.cargoCompany).toBe('AR');
    expect((await call('GET', `/packages/merchantid/${M}/missing-invoice`)).body.totalCount).toBe(2);
    expect((await call('PUT', pkgPath(packageNumber, '/invoice'), { body: {} })).body).toEqual({ message: 'invoiceLink is required' });
    expect((await call('PUT', pkgPath(packageNumber, '/invoice'), { body: { invoiceLink: 'https://example.com/f.pdf' } })).status).toBe(204);
    expect((await call('GET', `/packages/merchantid/${M}/missing-invoice`)).body.totalCount).toBe(1);
  });
});

describe('Hepsiburada double: request limits and faults', () => {
  it('answers 429 with X-RateLimit-* headers past the limit, until the window turns', async () => {
    await withDouble({ rateLimit: { limit: 2, windowMs: 1000 } }, async () => {
      expect((await listOrders()).headers.get('x-ratelimit-remaining')).toBe('1');
      expect((await listOrders()).status).toBe(200);
      const refused = await listOrders();
      expect([refused.status, refused.body]).toEqual([429, { message: 'Too Many Requests' }]);
      expect([refused.headers.get('x-ratelimit-limit'), refused.headers.get('x-ratelimit-remaining'), refused.headers.get('x-ratelimit-reset')]).toEqual([
        '2',
        '0',
        '1',
      ]);
      expect(refused.headers.get('retry-after')).toBeNull();
      clock = new Date(clock.getTime() + 1000);
      expect((await listOrders()).status).toBe(200);
    });
  });

  it('an outage answers 503 to everything until cleared', async () => {
    hb.setOutage(true);
    expect((await listOrders()).status).toBe(503);
    expect((await createPackage({})).status).toBe(503);
    expect(hb.requests.at(-1)!.outcome).toBe('outage');
    hb.setOutage(false);
    expect((await listOrders()).status).toBe(200);
  });

  it('status, delay, drop and hang faults', async () => {
    hb.failNext({ kind: 'status', status: 500 }, { operation: 'listOrders' });
    expect((await listOrders()).status).toBe(500);
    hb.failNext({ kind: 'status', status: 429 });
    expect((await listOrders()).headers.get('x-ratelimit-remaining')).toBe('0');
    hb.failNext({ kind: 'delay', ms: 50 });
    const started = Date.now();
    expect((await listOrders()).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    hb.failNext({ kind: 'drop' });
    await expect(listOrders()).rejects.toThrow();
    hb.failNext({ kind: 'hang' });
    await expect(call('GET', `/orders/merchantid/${M}?offset=0&limit=10`, { timeoutMs: 200 })).rejects.toThrow();
    expect((await listOrders()).status).toBe(200);
  });

  it('applyThenDrop / applyThenStatus: the package exists although the client heard nothing or an error', async () => {
    const o = hb.placeOrder();
    hb.failNext({ kind: 'applyThenDrop' }, { operation: 'createPackage' });
    await expect(createPackage({ lineItemRequests: [{ id: o.lines[0].id, quantity: 1 }] })).rejects.toThrow();
    expect(hb.requests.at(-1)!.lostResponse).toEqual({ barcode: expect.any(String), packageNumber: expect.any(String) });
    hb.failNext({ kind: 'applyThenStatus', status: 502 }, { operation: 'createPackage' });
    expect((await createPackage({ lineItemRequests: [{ id: o.lines[1].id, quantity: 2 }] })).status).toBe(502);
    expect((await listPackages()).body).toHaveLength(2);
  });
});

describe('Hepsiburada double: push model (Hepsiburada calls the merchant, Basic auth, unsigned)', () => {
  const target = () => ({ url: `${receiver.origin}/hooks/hb`, username: 'hb-hook', password: 'hook-secret' });

  it('POSTs a new order to {base}/orders with the registered Basic credentials and the documented body', async () => {
    const o = hb.placeOrder();
    const p = await hb.push('createOrder', o.orderNumber, target());
    expect(p).toMatchObject({ event: 'createOrder', method: 'POST', status: 200, delivered: true });
    const got = receiver.received[0];
    expect([got.method, got.url]).toEqual(['POST', '/hooks/hb/orders']);
    expect(got.headers.authorization).toBe(`Basic ${Buffer.from('hb-hook:hook-secret').toString('base64')}`);
    expect(got.headers['x-signature']).toBeUndefined();
    const body = JSON.parse(got.body);
    expect(body.items).toHaveLength(2);
    expect(body.items[0]).toMatchObject({
      id: o.lines[0].id,
      orderNumber: o.orderNumber,
      sku: 'HBV00000NE0YY',
      merchantId: M,
      quantity: 1,
      vat: { currency: 'TRY' },
    });
  });

  it('PUTs cancellations, unpacks, address changes and status events to their paths', async () => {
    const o = hb.placeOrder();
    hb.changeAddress(o.orderNumber, { address: 'Yeni Adres 5' });
    await hb.push('changeShippingAddress', o.orderNumber, target());
    hb.cancelLine(o.lines[0].id);
    await hb.push('orderCancel', o.lines[0].id, target());
    const pkg = hb.packLines([{ lineId: o.lines[1].id }]);
    await hb.push('createPackages', pkg.packageNumber, target());
    hb.advance(pkg.packageNumber, 'InTransit');
    await hb.push('intransit', pkg.packageNumber, target());
    hb.advance(pkg.packageNumber, 'Delivered', { receivedBy: 'Kapıcı' });
    await hb.push('deliver', pkg.packageNumber, target());
    expect(receiver.received.map((r) => `${r.method} ${r.url}`)).toEqual([
      `PUT /hooks/hb/orders/${o.orderNumber}/shippingaddress`,
      `PUT /hooks/hb/lineitems/${o.lines[0].id}/cancel`,
      'POST /hooks/hb/packages',
      `PUT /hooks/hb/packages/${pkg.packageNumber}/intransit`,
      `PUT /hooks/hb/packages/${pkg.packageNumber}/deliver`,
    ]);
    expect(JSON.parse(receiver.received[0].body)).toMatchObject({ orderNumber: o.orderNumber, address: 'Yeni Adres 5' });
    expect(JSON.parse(receiver.received[2].body)).toMatchObject({ packageNumber: pkg.packageNumber, items: [{ lineItemId: o.lines[1].id }] });
    expect(JSON.parse(receiver.received[3].body)).toEqual({
      merchantId: M,
      shippedDate: '2026-03-12T09:00:00.000Z',
      packageNumber: pkg.packageNumber,
      barcode: pkg.barcode,
      trackingInfoCode: pkg.barcode,
      trackingInfoUrl: `https://www.hepsijet.com/gonderi-takibi/${pkg.barcode}`,
      deci: 1,
    });
    expect(JSON.parse(receiver.received[4].body)).toMatchObject({ receivedBy: 'Kapıcı', packageNumber: pkg.packageNumber });
  });

  it('a push refused by the merchant (wrong credential: 401) is not delivered and is sent again later', async () => {
    receiver.handler = (req, res) => {
      const ok = req.headers.authorization === `Basic ${Buffer.from('hb-hook:hook-secret').toString('base64')}`;
      res.statusCode = ok ? 204 : 401;
      res.end();
    };
    const o = hb.placeOrder();
    const wrong = await hb.push('createOrder', o.orderNumber, { ...target(), password: 'wrong' });
    expect(wrong).toMatchObject({ status: 401, delivered: false });
    const again = await hb.redeliverFailedPushes(target());
    expect(again).toHaveLength(1);
    expect(again[0]).toMatchObject({ status: 204, delivered: true, url: `${receiver.origin}/hooks/hb/orders` });
    expect(await hb.redeliverFailedPushes(target())).toEqual([]);
    await expect(hb.push('createOrder', 'nope', target())).rejects.toThrow('no order nope');
  });

  it("the double's own API actions are not pushed by themselves", async () => {
    await withDouble({ push: target() }, async () => {
      const o = hb.placeOrder();
      await packAll(o.orderNumber);
      expect(hb.pushes).toEqual([]);
      expect(receiver.received).toEqual([]);
    });
  });
});
