import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  TRENDYOL_MESSAGES,
  TRENDYOL_TEST_SELLER,
  startTrendyolDouble,
  toGmt3,
  zplBarcodes,
  type TrendyolDouble,
  type TrendyolDoubleOptions,
  type TrendyolPackageRecord,
} from '../../support/marketplaces/trendyol-double';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Answer {
  status: number;
  headers: Headers;
  body: Json;
  text: string;
}

const SELLER = TRENDYOL_TEST_SELLER.sellerId;
const UA = `${SELLER} - SelfIntegration`;
const ORDERS = `/integration/order/sellers/${SELLER}/orders`;
const STREAM = `${ORDERS}/stream`;
const PKG = (id: number) => `/integration/order/sellers/${SELLER}/shipment-packages/${id}`;
const LABEL = (ctn: unknown) => `/integration/sellers/${SELLER}/common-label/${String(ctn)}`;
const HOOKS = `/integration/webhook/sellers/${SELLER}/webhooks`;
const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
const MIN = 60_000;
const DAY = 24 * 3600_000;

let double: TrendyolDouble;
let clock: Date;
const tick = (ms: number) => (clock = new Date(clock.getTime() + ms));

async function call(
  method: string,
  path: string,
  opts: {
    body?: unknown;
    rawBody?: string;
    auth?: string | null;
    ua?: string | null;
    headers?: Record<string, string>;
    contentType?: string;
    timeoutMs?: number;
  } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  const auth = opts.auth === undefined ? basic(TRENDYOL_TEST_SELLER.apiKey, TRENDYOL_TEST_SELLER.apiSecret) : opts.auth;
  if (auth) headers.authorization = auth;
  const ua = opts.ua === undefined ? UA : opts.ua;
  headers['user-agent'] = ua ?? ''; // fetch sends "node" when none is set: an empty one is "no User-Agent"
  const payload = opts.rawBody ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
  if (payload !== undefined) headers['content-type'] = opts.contentType ?? 'application/json';
  const res = await fetch(`${double.baseUrl}${path}`, { method, headers, body: payload, signal: AbortSignal.timeout(opts.timeoutMs ?? 5000) });
  const text = await res.text();
  let body: Json;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, body, text };
}

const two = () => [
  { barcode: '9900000000486', quantity: 2 },
  { barcode: '8683772071724', quantity: 1 },
];
const place = (extra: Parameters<TrendyolDouble['placeOrder']>[0] | object = {}): TrendyolPackageRecord =>
  double.placeOrder({ lines: two(), ...(extra as object) } as Parameters<TrendyolDouble['placeOrder']>[0]);
const pull = (query = '') => call('GET', `${ORDERS}${query}`);
const picking = (p: TrendyolPackageRecord) =>
  call('PUT', PKG(p.json.shipmentPackageId), {
    body: { lines: p.json.lines.map((l) => ({ lineId: l.lineId, quantity: l.quantity })), params: {}, status: 'Picking' },
  });

async function withDouble(opts: TrendyolDoubleOptions, fn: () => Promise<void>): Promise<void> {
  const saved = double;
  double = await startTrendyolDouble({ now: () => clock, ...opts });
  try {
    await fn();
  } finally {
    await double.close();
    double = saved;
  }
}

beforeEach(async () => {
  clock = new Date('2026-03-12T09:00:00Z');
  double = await startTrendyolDouble({ now: () => clock });
});
afterEach(async () => {
  await double.close();
});

// ----------------------------------------------------------------------------------------------------------------------

describe('Trendyol double: Basic auth, User-Agent, routing, environments', () => {
  it('serves a seller with Basic apiKey:apiSecret and the "<sellerId> - SelfIntegration" User-Agent; records no secret', async () => {
    const res = await pull();
    expect(res.status).toBe(200);
    const rec = double.requests.at(-1)!;
    expect(rec).toMatchObject({ operation: 'getShipmentPackages', outcome: 'ok', sellerId: SELLER, apiKey: TRENDYOL_TEST_SELLER.apiKey, userAgent: UA });
    expect(rec.headers.authorization).toBe('Basic');
    expect(JSON.stringify(rec)).not.toContain(TRENDYOL_TEST_SELLER.apiSecret);
    expect((await pull('?size=1')).status).toBe(200);
    expect((await call('GET', ORDERS, { ua: `${SELLER} - TrendyolSoft` })).status).toBe(200); // an integrator's name
  });

  it('refuses a missing User-Agent with 403 ("… 403 hatası alarak engellenecektir"), and a malformed one in strict mode', async () => {
    for (const ua of [
      null,
      '',
      'consignflow/1.0',
      `${SELLER}-SelfIntegration`,
      `9999 - SelfIntegration`,
      `${SELLER} - ${'A'.repeat(31)}`,
      `${SELLER} - Self Integration`,
    ]) {
      const res = await call('GET', ORDERS, { ua });
      expect([ua, res.status]).toEqual([ua, 403]);
      expect(res.body.error).toBe('Forbidden');
    }
    expect(double.requests.every((r) => r.outcome === 'forbidden')).toBe(true);
    await withDouble({ userAgentCheck: 'presence' }, async () => {
      expect((await call('GET', ORDERS, { ua: 'consignflow/1.0' })).status).toBe(200);
      expect((await call('GET', ORDERS, { ua: null })).status).toBe(403);
    });
  });

  it('answers 401 {"exception": "ClientApiAuthenticationException"} to missing or wrong credentials', async () => {
    for (const auth of [null, basic(TRENDYOL_TEST_SELLER.apiKey, 'wrong'), basic('nobody', 'x'), 'Bearer abc', 'Basic !!!']) {
      const res = await call('GET', ORDERS, { auth });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ status: 401, exception: 'ClientApiAuthenticationException' });
    }
  });

  it("refuses another seller's path (403) and a sellerId that is not a number (400); unknown paths 404, wrong methods 405", async () => {
    await withDouble({ sellers: [TRENDYOL_TEST_SELLER, { sellerId: '4321', apiKey: 'k2', apiSecret: 's2' }] }, async () => {
      expect((await call('GET', '/integration/order/sellers/4321/orders')).status).toBe(403);
      expect((await call('GET', '/integration/order/sellers/4321/orders', { auth: basic('k2', 's2'), ua: '4321 - SelfIntegration' })).status).toBe(200);
    });
    expect((await call('GET', '/integration/order/sellers/abc/orders')).status).toBe(400);
    expect((await call('GET', '/sapigw/suppliers/2738/orders')).status).toBe(404);
    const res = await call('POST', ORDERS, { body: {} });
    expect([res.status, res.headers.get('allow')]).toEqual([405, 'GET']);
  });

  it('stage without IP allow-listing answers 503 to everything; production has no test-order endpoints', async () => {
    await withDouble({ ipAllowlisted: false }, async () => {
      expect((await pull()).status).toBe(503);
      expect(double.requests.at(-1)!.outcome).toBe('unavailable');
    });
    await withDouble({ environment: 'production' }, async () => {
      expect((await call('POST', '/integration/test/order/orders/core', { body: {}, headers: { sellerID: SELLER } })).status).toBe(404);
      expect((await pull()).status).toBe(200);
    });
  });
});

describe('Trendyol double: getShipmentPackages', () => {
  it('answers {totalElements, totalPages, page, size, content} with the current field names and "Trendyol pays" carrier data', async () => {
    const p = place({ customer: { firstName: 'Mehmet', lastName: 'Demir', email: 'm@example.com' } });
    const res = await pull();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ totalElements: 1, totalPages: 1, page: 0, size: 200 });
    const c = res.body.content[0];
    expect(c).toMatchObject({
      shipmentPackageId: p.json.shipmentPackageId,
      orderNumber: p.json.orderNumber,
      status: 'Created',
      shipmentPackageStatus: 'Created',
      cargoProviderName: 'Trendyol Express',
      cargoTrackingNumber: 7280027504111111,
      customerFirstName: 'Mehmet',
      customerEmail: 'm@example.com',
      supplierId: 2738,
      createdBy: 'order-creation',
      originPackageIds: null,
      currencyCode: 'TRY',
      packageGrossAmount: 1147.7,
      packageTotalPrice: 1147.7,
    });
    expect(c).not.toHaveProperty('whoPays');
    expect(c).not.toHaveProperty('id');
    expect(c.lines[0]).toMatchObject({
      barcode: '9900000000486',
      quantity: 2,
      lineGrossAmount: 498.9,
      lineUnitPrice: 498.9,
      vatRate: 20,
      orderLineItemStatusName: 'Created',
    });
    expect(c.lines[0].discountDetails).toHaveLength(2);
    expect(c.lines[0]).not.toHaveProperty('merchantSku');
    // "orderDate … GMT +3 olarak iletilir. createdDate bilgileri ise GMT formatında"
    expect(c.packageHistories).toEqual([{ createdDate: clock.getTime(), status: 'Created' }]);
    expect(c.orderDate).toBe(toGmt3(clock.getTime()));
    expect(c.lastModifiedDate).toBe(clock.getTime());
    const seller = place({ whoPays: 'seller', carrier: 'YKMP' });
    const s = (await pull(`?shipmentPackageIds=${seller.json.shipmentPackageId}`)).body.content[0];
    expect(s).toMatchObject({ whoPays: 1, cargoProviderName: 'Yurtiçi Kargo', cargoTrackingNumber: null });
    const aras = place({ carrier: 'ARAS' });
    expect(aras.json).toMatchObject({ cargoProviderName: 'Aras Kargo', cargoTrackingNumber: 7330031064550009 });
  });

  it("pages 0-based, at most 200 a page and 10.000 records deep; refuses more with the pulls' {error, message}", async () => {
    for (let i = 0; i < 5; i++) {
      place();
      tick(MIN);
    }
    const p0 = await pull('?page=0&size=2');
    const p2 = await pull('?page=2&size=2');
    expect([p0.body.totalElements, p0.body.totalPages, p0.body.content.length, p2.body.content.length]).toEqual([5, 3, 2, 1]);
    const big = await pull('?size=201');
    expect([big.status, big.body]).toEqual([400, { error: 'Bad Request', message: TRENDYOL_MESSAGES.sizeTooLarge }]);
    expect((await pull('?page=49&size=200')).status).toBe(200);
    expect((await pull('?page=50&size=200')).body.message).toBe(TRENDYOL_MESSAGES.maxQueryWindow);
    expect((await pull('?page=-1')).status).toBe(400);
    expect((await pull('?size=0')).status).toBe(400);
  });

  it('filters by status (one or a comma list), orderNumber and shipmentPackageIds (≤ 50), and sorts as asked', async () => {
    const a = place();
    tick(MIN);
    const b = place();
    tick(MIN);
    const c = place();
    tick(MIN);
    expect((await picking(b)).status).toBe(200);
    double.cancel(c.json.shipmentPackageId);
    const ids = (r: Answer) => r.body.content.map((x: Json) => x.shipmentPackageId);
    expect(ids(await pull('?status=Created'))).toEqual([a.json.shipmentPackageId]);
    expect(ids(await pull('?status=Picking,Cancelled')).sort()).toEqual([b.json.shipmentPackageId, c.json.shipmentPackageId].sort());
    expect((await pull('?status=Shipped')).body.totalElements).toBe(0);
    expect((await pull('?status=Sent')).status).toBe(400);
    expect(ids(await pull(`?orderNumber=${b.json.orderNumber}`))).toEqual([b.json.shipmentPackageId]);
    expect(ids(await pull(`?shipmentPackageIds=${a.json.shipmentPackageId},${c.json.shipmentPackageId}`))).toEqual([
      c.json.shipmentPackageId,
      a.json.shipmentPackageId,
    ]);
    expect(ids(await pull(`?shipmentPackageIds=${a.json.shipmentPackageId}&shipmentPackageIds=${b.json.shipmentPackageId}`))).toHaveLength(2);
    expect((await pull(`?shipmentPackageIds=${Array.from({ length: 51 }, (_, i) => i + 1).join(',')}`)).status).toBe(400);
    // default: PackageLastModifiedDate DESC; CreatedDate ASC when asked
    expect(ids(await pull())).toEqual([c.json.shipmentPackageId, b.json.shipmentPackageId, a.json.shipmentPackageId]);
    expect(ids(await pull('?orderByField=CreatedDate&orderByDirection=ASC'))).toEqual([a, b, c].map((p) => p.json.shipmentPackageId));
    expect((await pull('?orderByField=Price')).status).toBe(400);
    expect((await call('GET', `/integration/order/sellers/${SELLER}/v2/orders?status=Created`)).body.content).toHaveLength(1);
  });

  it('windows on the last-modified date: one week by default, at most two weeks, dates read as GMT +3 timestamps; one month of history', async () => {
    const old = place();
    tick(8 * DAY);
    const recent = place();
    const ids = (r: Answer) => r.body.content.map((x: Json) => x.shipmentPackageId);
    expect(ids(await pull())).toEqual([recent.json.shipmentPackageId]);
    const t = recent.lastModifiedAt.getTime();
    expect(ids(await pull(`?startDate=${toGmt3(t) - 1000}&endDate=${toGmt3(t) + 1000}`))).toEqual([recent.json.shipmentPackageId]);
    // plain epoch ms are 3 hours "early": the package modified just now is after such an endDate
    expect((await pull(`?startDate=${t - 1000}&endDate=${t + 1000}`)).body.totalElements).toBe(0);
    expect(ids(await pull(`?startDate=${toGmt3(t - 9 * DAY)}&endDate=${toGmt3(t)}`))).toEqual([recent.json.shipmentPackageId, old.json.shipmentPackageId]);
    const wide = await pull(`?startDate=${toGmt3(t - 15 * DAY)}&endDate=${toGmt3(t)}`);
    expect([wide.status, wide.body.message]).toEqual([400, TRENDYOL_MESSAGES.windowTooLarge]);
    expect((await pull(`?startDate=${toGmt3(t)}&endDate=${toGmt3(t - DAY)}`)).status).toBe(400);
    expect((await pull('?startDate=yesterday')).status).toBe(400);
    // an old package that changes is pulled again by last-modified date…
    tick(DAY);
    double.changeAddress(old.json.shipmentPackageId, { address1: 'Yeni adres 1' });
    expect(ids(await pull())).toContain(old.json.shipmentPackageId);
    // …but nothing older than a month is served
    tick(25 * DAY);
    double.advance(old.json.shipmentPackageId, 'Picking');
    expect(ids(await pull())).not.toContain(old.json.shipmentPackageId);
    await withDouble({ queryDates: 'utc', ordersDateField: 'orderDate' }, async () => {
      const p = place();
      tick(3 * DAY);
      double.advance(p.json.shipmentPackageId, 'Picking');
      const now = clock.getTime();
      expect((await pull(`?startDate=${now - DAY}&endDate=${now}`)).body.totalElements).toBe(0); // created 3 days ago
      expect((await pull(`?startDate=${now - 4 * DAY}&endDate=${now}`)).body.totalElements).toBe(1);
    });
  });
});

describe('Trendyol double: getShipmentPackagesStream (cursor)', () => {
  it('streams newest-modified first with hasMore/nextCursor/size and no page fields; each package once', async () => {
    const placed = [];
    for (let i = 0; i < 5; i++) {
      placed.push(place());
      tick(MIN);
    }
    const seen: number[] = [];
    let res = await call('GET', `${STREAM}?size=2`);
    expect(res.body).toMatchObject({ hasMore: true, size: 2 });
    expect(res.body).not.toHaveProperty('totalElements');
    expect(res.body).not.toHaveProperty('page');
    expect(typeof res.body.nextCursor).toBe('string');
    seen.push(...res.body.content.map((x: Json) => x.shipmentPackageId));
    while (res.body.hasMore) {
      res = await call('GET', `${STREAM}?size=2&nextCursor=${res.body.nextCursor}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.content.map((x: Json) => x.shipmentPackageId));
    }
    expect(res.body).toMatchObject({ hasMore: false, nextCursor: '', size: 1 });
    expect(seen).toEqual(placed.map((p) => p.json.shipmentPackageId).reverse());
    expect((await call('GET', STREAM)).body.size).toBe(5); // default size 50
  });

  it('refuses a changed filter on a cursor, an unknown cursor, size > 200 and a window over two weeks (400)', async () => {
    for (let i = 0; i < 3; i++) place();
    const first = await call('GET', `${STREAM}?size=1&packageItemStatuses=Created`);
    expect(first.body.hasMore).toBe(true);
    const changed = await call('GET', `${STREAM}?size=1&packageItemStatuses=Picking&nextCursor=${first.body.nextCursor}`);
    expect([changed.status, changed.body.message]).toEqual([400, TRENDYOL_MESSAGES.cursorFilterMismatch]);
    expect((await call('GET', `${STREAM}?size=2&packageItemStatuses=Created&nextCursor=${first.body.nextCursor}`)).status).toBe(200); // size is not a filter
    expect((await call('GET', `${STREAM}?nextCursor=609ca79b-1fdf-4c4e-a814-498ce9c1c039`)).body.message).toBe(TRENDYOL_MESSAGES.invalidCursor);
    expect((await call('GET', `${STREAM}?size=201`)).status).toBe(400);
    const t = clock.getTime();
    expect((await call('GET', `${STREAM}?lastModifiedStartDate=${toGmt3(t - 15 * DAY)}&lastModifiedEndDate=${toGmt3(t)}`)).status).toBe(400);
    expect((await call('GET', `${STREAM}?packageItemStatuses=Lost`)).status).toBe(400);
  });

  it('filters by line statuses and window; a package changed after a pull comes back in the next one (3 months of history)', async () => {
    const a = place();
    const b = place();
    tick(MIN);
    const since = toGmt3(clock.getTime());
    expect((await picking(b)).status).toBe(200);
    const picked = await call('GET', `${STREAM}?packageItemStatuses=Picking,Invoiced`);
    expect(picked.body.content.map((x: Json) => x.shipmentPackageId)).toEqual([b.json.shipmentPackageId]);
    const changed = await call('GET', `${STREAM}?lastModifiedStartDate=${since}`);
    expect(changed.body.content.map((x: Json) => x.shipmentPackageId)).toEqual([b.json.shipmentPackageId]);
    tick(MIN);
    double.changeAddress(a.json.shipmentPackageId, { district: 'Beşiktaş', districtId: 55 });
    const next = await call('GET', `${STREAM}?lastModifiedStartDate=${toGmt3(clock.getTime() - 1000)}`);
    expect(next.body.content[0]).toMatchObject({ shipmentPackageId: a.json.shipmentPackageId, shipmentAddress: { district: 'Beşiktaş' } });
    // 40 days old, modified now: out of getShipmentPackages' month, inside the stream's three months
    await withDouble({}, async () => {
      const old = place();
      tick(40 * DAY);
      double.advance(old.json.shipmentPackageId, 'Picking');
      expect((await pull()).body.totalElements).toBe(0);
      expect((await call('GET', STREAM)).body.content).toHaveLength(1);
    });
  });
});

describe('Trendyol double: updatePackage (Picking, Invoiced)', () => {
  it('takes Picking then Invoiced with the invoice number; history, lines and lastModifiedDate follow', async () => {
    const p = place();
    tick(MIN);
    expect((await picking(p)).status).toBe(200);
    expect(double.package(p.json.shipmentPackageId)).toMatchObject({ status: 'Picking', lastModifiedDate: clock.getTime() });
    const lines = p.json.lines.map((l) => ({ lineId: l.lineId, quantity: l.quantity }));
    const res = await call('PUT', PKG(p.json.shipmentPackageId), { body: { lines, params: { invoiceNumber: 'EME2018000025208' }, status: 'Invoiced' } });
    expect([res.status, res.text]).toEqual([200, '']);
    const now = double.package(p.json.shipmentPackageId);
    expect(now).toMatchObject({ status: 'Invoiced', shipmentPackageStatus: 'Invoiced', invoiceNumber: 'EME2018000025208' });
    expect(now.packageHistories.map((h) => h.status)).toEqual(['Created', 'Picking', 'Invoiced']);
    expect(now.lines.every((l) => l.orderLineItemStatusName === 'Invoiced')).toBe(true);
    expect(p.statusUpdates.filter((u) => u.source === 'api').map((u) => u.status)).toEqual(['Picking', 'Invoiced']);
    expect((await picking(p)).status).toBe(400); // no way back
  });

  it('refuses Invoiced before Picking, without an invoice number, other statuses, foreign lines, and closed packages', async () => {
    const p = place();
    const id = p.json.shipmentPackageId;
    const lines = p.json.lines.map((l) => ({ lineId: l.lineId, quantity: l.quantity }));
    const put = (body: Json) => call('PUT', PKG(id), { body });
    expect((await put({ lines, params: { invoiceNumber: 'X1' }, status: 'Invoiced' })).body.errors[0].message).toBe(TRENDYOL_MESSAGES.pickingBeforeInvoiced);
    expect((await put({ lines, params: {}, status: 'Shipped' })).body.errors[0]).toEqual({
      key: 'invalid.status',
      message: TRENDYOL_MESSAGES.statusNotAllowed,
      errorCode: '400',
    });
    expect((await put({ lines, params: { invoiceNumber: 'X1' }, status: 'Picking' })).status).toBe(400);
    expect((await put({ lines: [{ lineId: 1, quantity: 1 }], params: {}, status: 'Picking' })).body.errors[0].message).toBe(TRENDYOL_MESSAGES.lineNotInPackage);
    expect((await put({ lines: [{ lineId: lines[0].lineId, quantity: 3 }], params: {}, status: 'Picking' })).status).toBe(400);
    expect((await put({ params: {}, status: 'Picking' })).status).toBe(400);
    expect((await put({ lines, params: {}, status: 'Picking' })).status).toBe(200);
    expect((await put({ lines, params: {}, status: 'Picking' })).status).toBe(200); // repeated: no change
    expect(p.json.packageHistories).toHaveLength(2);
    expect((await put({ lines, params: {}, status: 'Invoiced' })).body.errors[0].message).toBe(TRENDYOL_MESSAGES.invoiceNumberRequired);
    expect((await call('PUT', PKG(999), { body: { lines, status: 'Picking' } })).status).toBe(404);
    expect((await call('PUT', PKG(id), { rawBody: 'status=Picking', contentType: 'application/x-www-form-urlencoded' })).status).toBe(415);
    expect((await call('PUT', PKG(id), { rawBody: '' })).status).toBe(400);
    double.cancel(id);
    expect((await put({ lines, params: { invoiceNumber: 'X1' }, status: 'Invoiced' })).body.errors[0].message).toBe(TRENDYOL_MESSAGES.packageNotUpdatable);
  });
});

describe('Trendyol double: tracking numbers (updateTrackingNumber, tracking-details, alternative-delivery)', () => {
  it('updateTrackingNumber (deprecated) records the seller tracking number once, and refuses with the documented message after', async () => {
    const p = place({ whoPays: 'seller', carrier: 'ARASMP' });
    expect((await picking(p)).status).toBe(200);
    const path = `${PKG(p.json.shipmentPackageId)}/update-tracking-number`;
    expect((await call('PUT', path, { body: { trackingNumber: 'ARAS123456' } })).status).toBe(200);
    expect(p.trackingUpdates).toEqual([
      expect.objectContaining({ operation: 'updateTrackingNumber', trackingNumber: 'ARAS123456', switchedToSellerContract: false }),
    ]);
    expect(double.package(p.json.shipmentPackageId).cargoTrackingNumber).toBe('ARAS123456');
    const again = await call('PUT', path, { body: { trackingNumber: 'ARAS999' } });
    expect([again.status, again.body.errors[0].message]).toEqual([400, 'Shipment Update Edilebilir Bir Durumda Değil.']);
    const shipped = place({ whoPays: 'seller' });
    double.advance(shipped.json.shipmentPackageId, 'Shipped');
    expect((await call('PUT', `${PKG(shipped.json.shipmentPackageId)}/update-tracking-number`, { body: { trackingNumber: '1' } })).body.errors[0].message).toBe(
      TRENDYOL_MESSAGES.shipmentNotUpdatable,
    );
    expect((await call('PUT', path, { body: {} })).status).toBe(400);
  });

  it('flags a "Trendyol pays" package moved to the seller contract by updateTrackingNumber; can play the endpoint as gone', async () => {
    const p = place();
    expect((await call('PUT', `${PKG(p.json.shipmentPackageId)}/update-tracking-number`, { body: { trackingNumber: '123' } })).status).toBe(200);
    expect(p.trackingUpdates[0].switchedToSellerContract).toBe(true);
    expect(double.package(p.json.shipmentPackageId).whoPays).toBe(1);
    await withDouble({ deprecatedTrackingEndpoint: 'gone' }, async () => {
      const q = place({ whoPays: 'seller' });
      expect((await call('PUT', `${PKG(q.json.shipmentPackageId)}/update-tracking-number`, { body: { trackingNumber: '1' } })).status).toBe(404);
    });
  });

  it('tracking-details needs storeFrontCode, cargoSenderNumber and providerCode, from Picking on; alternative-delivery ships', async () => {
    const p = place({ whoPays: 'seller' });
    const path = `${PKG(p.json.shipmentPackageId)}/tracking-details`;
    const body = { cargoSenderNumber: '1111111111', providerCode: 'YKMP' };
    expect((await call('PUT', path, { body })).body.errors[0].message).toBe(TRENDYOL_MESSAGES.storeFrontCodeRequired);
    expect((await call('PUT', path, { body, headers: { storeFrontCode: 'TR' } })).status).toBe(400); // still Created
    await picking(p);
    expect((await call('PUT', path, { body: { cargoSenderNumber: '1' }, headers: { storeFrontCode: 'TR' } })).status).toBe(400);
    expect((await call('PUT', path, { body, headers: { storeFrontCode: 'TR' } })).status).toBe(200);
    expect(double.package(p.json.shipmentPackageId)).toMatchObject({ cargoSenderNumber: '1111111111', cargoProviderName: 'Yurtiçi Kargo' });
    const q = place({ whoPays: 'seller' });
    const alt = `${PKG(q.json.shipmentPackageId)}/alternative-delivery`;
    expect((await call('PUT', alt, { body: { isPhoneNumber: false, trackingInfo: 'https://kargo.example/t/1' } })).status).toBe(400); // params required
    expect((await call('PUT', alt, { body: { isPhoneNumber: false, trackingInfo: 'https://kargo.example/t/1', params: {} } })).status).toBe(200);
    expect(double.package(q.json.shipmentPackageId).status).toBe('Shipped');
  });
});

describe('Trendyol double: common label ("Trendyol pays", ZPL)', () => {
  it('createCommonLabel then getCommonLabel: one ZPL per box, the cargoTrackingNumber in the barcode', async () => {
    const p = place({ carrier: 'ARAS' });
    await picking(p);
    const ctn = p.json.cargoTrackingNumber;
    const created = await call('POST', LABEL(ctn), { body: { format: 'ZPL', boxQuantity: 2, volumetricHeight: 3.5 } });
    expect([created.status, created.text]).toEqual([200, '']);
    const got = await call('GET', LABEL(ctn));
    expect(got.status).toBe(200);
    expect(got.body.data).toHaveLength(2);
    expect(got.body.data[0].format).toBe('ZPL');
    expect(got.body.data[1].label).toMatch(/^\^XA[\s\S]*\^XZ$/);
    expect(zplBarcodes(got.body.data[0].label)).toEqual([String(ctn)]);
    expect(got.body.data[0].label).toContain('Aras Kargo');
    expect(got.body.data[1].label).toContain('Koli 2/2');
    expect(p.label).toMatchObject({ boxQuantity: 2, statusAtRequest: 'Picking' });
  });

  it('refuses another format, an unknown or seller-contract number, and a label not (yet) made', async () => {
    const p = place();
    const ctn = p.json.cargoTrackingNumber;
    expect((await call('POST', LABEL(ctn), { body: { format: 'PDF' } })).body.errors[0].message).toBe(TRENDYOL_MESSAGES.invalidFormat);
    expect((await call('POST', LABEL(ctn), { body: {} })).status).toBe(400);
    const unknown = await call('POST', LABEL('7280027500000000'), { body: { format: 'ZPL' } });
    expect([unknown.status, unknown.body.errors[0].message]).toEqual([400, 'İletmiş olduğunuz cargoTrackingNumber değerini kontrol ediniz']);
    expect((await call('GET', LABEL(ctn))).body.errors[0].message).toBe(TRENDYOL_MESSAGES.labelNotReady);
    const s = place({ whoPays: 'seller' });
    await call('PUT', `${PKG(s.json.shipmentPackageId)}/update-tracking-number`, { body: { trackingNumber: '5550001' } });
    expect((await call('POST', LABEL('5550001'), { body: { format: 'ZPL' } })).status).toBe(400);
    await withDouble({ labelDelayMs: 30_000 }, async () => {
      const q = place();
      const n = q.json.cargoTrackingNumber;
      expect((await call('POST', LABEL(n), { body: { format: 'ZPL' } })).status).toBe(200);
      expect((await call('GET', LABEL(n))).status).toBe(400);
      tick(30_000);
      expect((await call('GET', LABEL(n))).body.data).toHaveLength(1);
    });
  });
});

describe('Trendyol double: splitting packages', () => {
  it('/split moves the given lines to a new package and the rest to another; the old one becomes UnPacked', async () => {
    const p = place();
    const [l1, l2] = p.json.lines;
    const res = await call('POST', `${PKG(p.json.shipmentPackageId)}/split`, { body: { orderLineIds: [l1.lineId] } });
    expect(res.status).toBe(200);
    expect(double.package(p.json.shipmentPackageId).status).toBe('UnPacked');
    const parts = double.packagesOf(p.json.orderNumber).filter((x) => x !== p);
    expect(parts).toHaveLength(2);
    for (const part of parts) {
      expect(part.json).toMatchObject({ status: 'Created', createdBy: 'split', originPackageIds: [p.json.shipmentPackageId], orderNumber: p.json.orderNumber });
      expect(part.json.cargoTrackingNumber).not.toBe(p.json.cargoTrackingNumber);
    }
    expect(parts.map((x) => x.json.lines.map((l) => l.lineId))).toEqual([[l1.lineId], [l2.lineId]]);
    expect(parts[0].json.packageTotalPrice).toBe(997.8);
    expect((await pull('?status=UnPacked')).body.content.map((x: Json) => x.shipmentPackageId)).toEqual([p.json.shipmentPackageId]);
    expect((await pull('?status=Created')).body.totalElements).toBe(2);
  });

  it('refuses splitting every line, unknown lines and closed packages; keeps the status on request', async () => {
    const p = place();
    const ids = p.json.lines.map((l) => l.lineId);
    expect((await call('POST', `${PKG(p.json.shipmentPackageId)}/split`, { body: { orderLineIds: ids } })).body.errors[0].message).toBe(
      TRENDYOL_MESSAGES.splitAllLines,
    );
    expect((await call('POST', `${PKG(p.json.shipmentPackageId)}/split`, { body: { orderLineIds: [1] } })).status).toBe(400);
    expect(
      (await call('POST', `${PKG(p.json.shipmentPackageId)}/multi-split`, { body: { splitGroups: [{ orderLineIds: [ids[0]] }, { orderLineIds: [ids[1]] }] } }))
        .status,
    ).toBe(400);
    await picking(p);
    expect((await call('POST', `${PKG(p.json.shipmentPackageId)}/split`, { body: { orderLineIds: [ids[0]], shouldKeepPreviousStatus: true } })).status).toBe(
      200,
    );
    expect(
      double
        .packagesOf(p.json.orderNumber)
        .slice(1)
        .map((x) => x.json.status),
    ).toEqual(['Picking', 'Picking']);
    expect((await call('POST', `${PKG(p.json.shipmentPackageId)}/split`, { body: { orderLineIds: [ids[0]] } })).status).toBe(400); // UnPacked now
  });

  it('quantity-split and split-packages split quantities (new line ids for parts of a line); multi-split makes groups', async () => {
    const p = double.placeOrder({
      lines: [
        { barcode: '9900000000486', quantity: 4 },
        { barcode: '8683772071724', quantity: 1 },
      ],
    });
    const [l1] = p.json.lines;
    expect(
      (await call('POST', `${PKG(p.json.shipmentPackageId)}/quantity-split`, { body: { quantitySplit: [{ orderLineId: l1.lineId, quantities: [2, 1] }] } }))
        .status,
    ).toBe(400);
    expect(
      (await call('POST', `${PKG(p.json.shipmentPackageId)}/quantity-split`, { body: { quantitySplit: [{ orderLineId: l1.lineId, quantities: [2, 2] }] } }))
        .status,
    ).toBe(200);
    const parts = double.packagesOf(p.json.orderNumber).slice(1);
    expect(parts.map((x) => x.json.lines.map((l) => l.quantity))).toEqual([[2], [2], [1]]);
    expect(parts[0].json.lines[0].lineId).not.toBe(l1.lineId);
    expect(parts[2].json.lines[0].lineId).toBe(p.json.lines[1].lineId);

    const q = double.placeOrder({
      lines: [
        { barcode: '9900000000486', quantity: 3 },
        { barcode: '8683772071724', quantity: 1 },
        { barcode: '8680000000013', quantity: 1 },
      ],
    });
    const [a, b, c] = q.json.lines;
    const body = {
      splitPackages: [
        {
          packageDetails: [
            { orderLineId: a.lineId, quantities: 2 },
            { orderLineId: b.lineId, quantities: 1 },
          ],
        },
      ],
    };
    expect((await call('POST', `${PKG(q.json.shipmentPackageId)}/split-packages`, { body })).status).toBe(200);
    const qParts = double.packagesOf(q.json.orderNumber).slice(1);
    expect(qParts.map((x) => x.json.lines.map((l) => [l.barcode, l.quantity]))).toEqual([
      [
        ['9900000000486', 2],
        ['8683772071724', 1],
      ],
      [
        ['9900000000486', 1],
        ['8680000000013', 1],
      ],
    ]);
    const r = double.placeOrder({
      lines: [
        { barcode: '9900000000486', quantity: 1 },
        { barcode: '8683772071724', quantity: 1 },
        { barcode: '8680000000013', quantity: 1 },
      ],
    });
    const rl = r.json.lines.map((l) => l.lineId);
    expect(
      (await call('POST', `${PKG(r.json.shipmentPackageId)}/multi-split`, { body: { splitGroups: [{ orderLineIds: [rl[0]] }, { orderLineIds: [rl[1]] }] } }))
        .status,
    ).toBe(200);
    expect(
      double
        .packagesOf(r.json.orderNumber)
        .slice(1)
        .map((x) => x.json.lines.map((l) => l.lineId)),
    ).toEqual([[rl[0]], [rl[1]], [rl[2]]]);
    void c;
  });

  it('new packages appear asynchronously with splitDelayMs; split() does the same from the test', async () => {
    await withDouble({ splitDelayMs: 10_000 }, async () => {
      const p = place();
      const ids = double.split(p.json.shipmentPackageId, [[p.json.lines[0].lineId]]);
      expect(ids).toHaveLength(2);
      expect((await pull(`?shipmentPackageIds=${ids.join(',')}`)).body.totalElements).toBe(0);
      tick(10_000);
      expect((await pull(`?shipmentPackageIds=${ids.join(',')}`)).body.totalElements).toBe(2);
    });
  });
});

describe('Trendyol double: cancellations (unsupplied lines, marketplace cancels)', () => {
  it('unsupplied of the whole package: UnSupplied with the reason on the lines; found by status=Cancelled,UnSupplied', async () => {
    const p = place();
    const lines = p.json.lines.map((l) => ({ lineId: l.lineId, quantity: l.quantity }));
    expect((await call('PUT', `${PKG(p.json.shipmentPackageId)}/items/unsupplied`, { body: { lines, reasonId: 503 } })).body.errors[0].message).toBe(
      TRENDYOL_MESSAGES.invalidReason,
    );
    expect((await call('PUT', `${PKG(p.json.shipmentPackageId)}/items/unsupplied`, { body: { lines, reasonId: 500 } })).status).toBe(200);
    const now = double.package(p.json.shipmentPackageId);
    expect(now.status).toBe('UnSupplied');
    expect(now.lines[0]).toMatchObject({ orderLineItemStatusName: 'UnSupplied', cancelledBy: 'seller', cancelReasonCode: 500, cancelReason: 'Stok tükendi' });
    expect(double.packagesOf(p.json.orderNumber)).toHaveLength(1);
    expect((await pull('?status=Cancelled,UnSupplied')).body.content.map((x: Json) => x.shipmentPackageId)).toEqual([p.json.shipmentPackageId]);
  });

  it('a partial cancel breaks the package: it is Cancelled and the rest is a new package (createdBy "cancel") with a new tracking number', async () => {
    const p = place();
    const [l1, l2] = p.json.lines;
    const res = await call('PUT', `${PKG(p.json.shipmentPackageId)}/items/unsupplied`, {
      body: { lines: [{ lineId: l1.lineId, quantity: 1 }], reasonId: 501 },
    });
    expect(res.status).toBe(200);
    expect(double.package(p.json.shipmentPackageId).status).toBe('Cancelled');
    const [, next] = double.packagesOf(p.json.orderNumber);
    expect(next.json).toMatchObject({ status: 'Created', createdBy: 'cancel', originPackageIds: [p.json.shipmentPackageId] });
    expect(next.json.lines.map((l) => [l.lineId, l.quantity])).toEqual([
      [l1.lineId, 1],
      [l2.lineId, 1],
    ]);
    expect(next.json.cargoTrackingNumber).not.toBe(p.json.cargoTrackingNumber);
    expect(next.json.packageTotalPrice).toBe(648.8);
  });

  it('cancel() plays a customer cancellation; changeAddress() an address fix; both bump lastModifiedDate', async () => {
    const p = place();
    tick(MIN);
    const r = double.cancel(p.json.shipmentPackageId);
    expect(r).toEqual({ cancelled: p.json.shipmentPackageId, newPackageId: undefined });
    expect(double.package(p.json.shipmentPackageId)).toMatchObject({ status: 'Cancelled', lastModifiedDate: clock.getTime() });
    expect(double.package(p.json.shipmentPackageId).lines[0]).toMatchObject({ orderLineItemStatusName: 'Cancelled', cancelledBy: 'customer' });
    const q = place();
    tick(MIN);
    double.changeAddress(q.json.shipmentPackageId, { address1: 'Bağdat Caddesi 10', district: 'Kadıköy', phone: '5559998877' });
    expect(double.package(q.json.shipmentPackageId).shipmentAddress).toMatchObject({
      address1: 'Bağdat Caddesi 10',
      district: 'Kadıköy',
      phone: '5559998877',
      city: 'İstanbul',
    });
    expect(q.json.lastModifiedDate).toBe(clock.getTime());
    const partial = double.cancel(q.json.shipmentPackageId, { lines: [{ lineId: q.json.lines[1].lineId }] });
    expect(double.package(partial.newPackageId!).lines).toHaveLength(1);
  });
});

describe('Trendyol double: webhooks', () => {
  let receiver: Server;
  let received: { headers: IncomingHttpHeaders; body: Json }[];
  let receiverUrl: string;
  let answerWith: number;

  beforeEach(async () => {
    received = [];
    answerWith = 200;
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        res.writeHead(answerWith);
        res.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/ty-orders`; // "trendyol" in the URL is refused
  });
  afterEach(async () => {
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  it('registers (POST → {id}), lists with GMT +3 dates, updates, deactivates/activates and deletes', async () => {
    const created = await call('POST', HOOKS, {
      body: { url: receiverUrl, authenticationType: 'API_KEY', apiKey: 'our-key', subscribedStatuses: ['CREATED', 'CANCELLED'] },
    });
    expect(created.status).toBe(200);
    const id = created.body.id;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const list = await call('GET', HOOKS);
    expect(list.body).toEqual([
      {
        id,
        createdDate: toGmt3(clock.getTime()),
        lastModifiedDate: null,
        url: receiverUrl,
        username: null,
        authenticationType: 'API_KEY',
        status: 'ACTIVE',
        subscribedStatuses: ['CREATED', 'CANCELLED'],
      },
    ]);
    expect(JSON.stringify(list.body)).not.toContain('our-key');
    tick(MIN);
    expect(
      (await call('PUT', `${HOOKS}/${id}`, { body: { url: receiverUrl, authenticationType: 'BASIC_AUTHENTICATION', username: 'ty', password: 'pw' } })).status,
    ).toBe(200);
    expect((await call('GET', HOOKS)).body[0]).toMatchObject({
      authenticationType: 'BASIC_AUTHENTICATION',
      username: 'ty',
      subscribedStatuses: null,
      lastModifiedDate: toGmt3(clock.getTime()),
    });
    expect((await call('PUT', `${HOOKS}/${id}/deactivate`)).status).toBe(200);
    expect(double.webhooks.get(id)!.status).toBe('PASSIVE');
    expect((await call('PUT', `${HOOKS}/${id}/activate`)).status).toBe(200);
    expect((await call('DELETE', `${HOOKS}/${id}`)).status).toBe(200);
    expect((await call('GET', HOOKS)).body).toEqual([]);
    for (const [m, p] of [
      ['PUT', `${HOOKS}/${id}/activate`],
      ['DELETE', `${HOOKS}/${id}`],
    ])
      expect((await call(m, p)).status).toBe(404);
  });

  it('refuses a missing url, "Localhost"/"Trendyol" in it, a missing credential, unknown statuses, and a 16th webhook', async () => {
    const post = (body: Json) => call('POST', HOOKS, { body });
    const msg = async (body: Json) => (await post(body)).body.errors[0].message;
    expect(await msg({ authenticationType: 'API_KEY', apiKey: 'k' })).toBe(TRENDYOL_MESSAGES.webhookUrlRequired);
    expect(await msg({ url: 'http://localhost:8080/h', authenticationType: 'API_KEY', apiKey: 'k' })).toBe(TRENDYOL_MESSAGES.webhookUrlForbidden);
    expect(await msg({ url: 'https://shop.example/trendyol/h', authenticationType: 'API_KEY', apiKey: 'k' })).toBe(TRENDYOL_MESSAGES.webhookUrlForbidden);
    expect(await msg({ url: receiverUrl, authenticationType: 'API_KEY' })).toBe(TRENDYOL_MESSAGES.webhookApiKeyRequired);
    expect(await msg({ url: receiverUrl, authenticationType: 'BASIC_AUTHENTICATION', username: 'u' })).toBe(TRENDYOL_MESSAGES.webhookBasicRequired);
    expect(await msg({ url: receiverUrl, authenticationType: 'OAUTH' })).toBe(TRENDYOL_MESSAGES.webhookAuthType);
    expect(await msg({ url: receiverUrl, authenticationType: 'API_KEY', apiKey: 'k', subscribedStatuses: ['Created'] })).toBe(TRENDYOL_MESSAGES.webhookStatus);
    for (let i = 0; i < 15; i++) expect((await post({ url: `${receiverUrl}/${i}`, authenticationType: 'API_KEY', apiKey: 'k' })).status).toBe(200);
    expect(await msg({ url: receiverUrl, authenticationType: 'API_KEY', apiKey: 'k' })).toBe(TRENDYOL_MESSAGES.webhookLimit);
  });

  it('delivers the getShipmentPackages model with x-api-key or Basic, only to ACTIVE webhooks subscribed to the status', async () => {
    const k = await call('POST', HOOKS, { body: { url: receiverUrl, authenticationType: 'API_KEY', apiKey: 'our-key', subscribedStatuses: ['CREATED'] } });
    await call('POST', HOOKS, { body: { url: `${receiverUrl}/basic`, authenticationType: 'BASIC_AUTHENTICATION', username: 'ty', password: 'pw' } });
    const p = place();
    const deliveries = await double.deliverWebhooks(p.json.shipmentPackageId);
    expect(deliveries.map((d) => d.ok)).toEqual([true, true]);
    expect(received).toHaveLength(2);
    const byKey = received.find((r) => r.headers['x-api-key'])!;
    expect(byKey.headers['x-api-key']).toBe('our-key');
    expect(byKey.headers['content-type']).toBe('application/json');
    expect(byKey.body).toMatchObject({ totalElements: 1, totalPages: 1, page: 0, size: 1 });
    expect(byKey.body.content[0]).toMatchObject({ shipmentPackageId: p.json.shipmentPackageId, status: 'Created' });
    expect(received.find((r) => r.headers.authorization)!.headers.authorization).toBe(basic('ty', 'pw'));
    await picking(p);
    received = [];
    await double.deliverWebhooks(p.json.shipmentPackageId);
    expect(received.map((r) => r.headers['x-api-key'] ?? 'basic')).toEqual(['basic']); // the API_KEY one is subscribed to CREATED only
    await call('PUT', `${HOOKS}/${k.body.id}/deactivate`);
    received = [];
    await double.deliverWebhooks(place().json.shipmentPackageId);
    expect(received).toHaveLength(1);
  });

  it('sends a wrong credential when told to, retries failures every 5 minutes, and makes a long-failing webhook PASSIVE', async () => {
    await withDouble({ webhookPassivateAfterMs: 20 * MIN }, async () => {
      const id = (await call('POST', HOOKS, { body: { url: receiverUrl, authenticationType: 'API_KEY', apiKey: 'good' } })).body.id;
      const p = place();
      answerWith = 401;
      const [d] = await double.deliverWebhooks(p.json.shipmentPackageId, { credential: { apiKey: 'bad' } });
      expect(d).toMatchObject({ ok: false, status: 401, attempt: 1 });
      expect(received[0].headers['x-api-key']).toBe('bad');
      expect(await double.retryWebhooks()).toEqual([]); // not yet: every 5 minutes
      tick(5 * MIN);
      answerWith = 500;
      const [retry] = await double.retryWebhooks();
      expect(retry).toMatchObject({ ok: false, status: 500, attempt: 2 });
      expect(received[1].headers['x-api-key']).toBe('good');
      for (let i = 0; i < 2; i++) {
        tick(5 * MIN);
        await double.retryWebhooks(); // 10 and 15 minutes into the failure
      }
      expect(double.webhooks.get(id)!.status).toBe('ACTIVE');
      tick(5 * MIN);
      await double.retryWebhooks();
      expect(double.webhooks.get(id)!.status).toBe('PASSIVE');
      const none = await double.deliverWebhooks(p.json.shipmentPackageId, { credential: 'none' });
      expect(none).toEqual([]);
      await call('PUT', `${HOOKS}/${id}/activate`);
      answerWith = 200;
      const [ok] = await double.deliverWebhooks(p.json.shipmentPackageId, { credential: 'none' });
      expect(ok.ok).toBe(true);
      expect(received.at(-1)!.headers['x-api-key']).toBeUndefined();
    });
  });

  it('autoDeliverWebhooks sends on every change by itself', async () => {
    await withDouble({ autoDeliverWebhooks: true }, async () => {
      await call('POST', HOOKS, { body: { url: receiverUrl, authenticationType: 'API_KEY', apiKey: 'k', subscribedStatuses: ['CREATED', 'PICKING'] } });
      const p = place();
      await picking(p);
      await new Promise((r) => setTimeout(r, 200));
      expect(received.map((r) => r.body.content[0].status)).toEqual(['Created', 'Picking']);
    });
  });
});

describe('Trendyol double: stage test orders', () => {
  const example = () => ({
    customer: { customerFirstName: 'John', customerLastName: 'Doe' },
    invoiceAddress: {
      addressText: 'test deneme adresi',
      city: 'İzmir',
      company: '',
      district: 'Bornova',
      invoiceFirstName: 'John',
      invoiceLastName: 'Doe',
      latitude: 'string',
      longitude: 'string',
      neighborhood: '',
      phone: '333333333',
      postalCode: '',
      email: 'pf+j2jm8x99@trendyolmail.com',
      invoiceTaxNumber: 'Firma Tax Number',
      invoiceTaxOffice: 'Firma Tax Office',
    },
    lines: [{ barcode: '9900000000486', quantity: 2, discountPercentage: 50 }],
    seller: { sellerId: 2738 },
    shippingAddress: {
      addressText: 'test deneme adresi',
      city: 'İzmir',
      company: '',
      district: 'Bornova',
      latitude: 'string',
      longitude: 'string',
      neighborhood: '',
      phone: '333333333',
      postalCode: '',
      shippingFirstName: 'John',
      shippingLastName: 'Doe',
      email: 'pf+j2jm8x99@trendyolmail.com',
    },
    commercial: false,
    microRegion: 'String',
  });
  const create = (body: Json, sellerHeader: string | null = SELLER) =>
    call('POST', '/integration/test/order/orders/core', { body, headers: sellerHeader === null ? {} : { sellerID: sellerHeader } });

  it('creates the documented example order ({orderNumber}) and moves it along Shipped → Delivered, never back', async () => {
    const res = await create(example());
    expect(res.status).toBe(200);
    const [p] = double.packagesOf(res.body.orderNumber);
    expect(p.testOrder).toBe(true);
    expect(p.json.lines[0]).toMatchObject({ barcode: '9900000000486', quantity: 2, lineSellerDiscount: 249.45, lineUnitPrice: 249.45 });
    expect(p.json.shipmentAddress).toMatchObject({ city: 'İzmir', district: 'Bornova', fullName: 'John Doe' });
    const path = `/integration/test/order/sellers/${SELLER}/shipment-packages/${p.json.shipmentPackageId}/status`;
    const lines = [{ lineId: p.json.lines[0].lineId, quantity: 2 }];
    const put = (status: string, h: Record<string, string> = { sellerID: SELLER }) => call('PUT', path, { body: { lines, params: {}, status }, headers: h });
    expect((await put('Shipped', {})).status).toBe(400);
    expect((await put('Shipped')).status).toBe(200);
    expect((await put('Delivered')).status).toBe(200);
    expect((await put('Shipped')).body.errors[0].message).toBe(TRENDYOL_MESSAGES.testStatusOrder);
    expect((await put('Picking')).status).toBe(400);
    expect(double.package(p.json.shipmentPackageId).packageHistories.map((h) => h.status)).toEqual(['Created', 'Shipped', 'Delivered']);
  });

  it('refuses a missing sellerID header, another seller, unknown barcodes and missing fields; commercial needs the tax fields', async () => {
    expect((await create(example(), null)).status).toBe(400);
    expect((await create(example(), '4321')).status).toBe(403);
    expect((await create({ ...example(), lines: [{ barcode: '000', quantity: 1 }] })).body.errors[0].message).toBe(TRENDYOL_MESSAGES.unknownBarcode);
    expect((await create({ ...example(), customer: { customerFirstName: 'John' } })).status).toBe(400);
    const commercial = example();
    commercial.commercial = true;
    expect((await create(commercial)).status).toBe(400); // company empty
    commercial.invoiceAddress.company = 'Firma A.Ş.';
    const ok = await create(commercial);
    expect(ok.status).toBe(200);
    const [p] = double.packagesOf(ok.body.orderNumber);
    expect(p.json.invoiceAddress).toMatchObject({ company: 'Firma A.Ş.', taxNumber: 'Firma Tax Number', taxOffice: 'Firma Tax Office' });
  });
});

describe('Trendyol double: request limits (429 too.many.requests)', () => {
  it('allows 30 pulls a minute for a 50.000-listing seller, then 429 until the minute has passed', async () => {
    for (let i = 0; i < 30; i++) expect((await pull()).status).toBe(200);
    const res = await call('GET', STREAM);
    expect([res.status, res.body]).toEqual([429, { error: 'Too Many Requests', message: 'too.many.requests' }]);
    expect(res.headers.get('retry-after')).toBeNull();
    expect(double.requests.at(-1)).toMatchObject({ outcome: 'rate-limited', rateLimit: 'orderPull' });
    tick(61_000);
    expect((await pull()).status).toBe(200);
  });

  it('sizes the limits by listing tier, and caps every endpoint at 50 requests in 10 seconds', async () => {
    await withDouble({ sellers: [{ ...TRENDYOL_TEST_SELLER, listingTier: '500000' }] }, async () => {
      for (let i = 0; i < 50; i++) expect((await call('GET', HOOKS)).status).toBe(200);
      const res = await call('GET', HOOKS);
      expect([res.status, res.body.errors[0]]).toEqual([429, { key: 'too.many.requests', message: 'too.many.requests', errorCode: '429' }]);
      expect(double.requests.at(-1)!.rateLimit).toBe('burst');
      expect((await pull()).status).toBe(200); // another endpoint
      tick(10_001);
      expect((await call('GET', HOOKS)).status).toBe(200);
    });
    await withDouble({ rateLimits: false }, async () => {
      for (let i = 0; i < 40; i++) expect((await pull()).status).toBe(200);
    });
  });
});

describe('Trendyol double: fault switches and outage', () => {
  it('status, delay, hang and drop; scoped to an operation and a number of times', async () => {
    double.failNext({ kind: 'status', status: 500 }, { operation: 'updatePackage', times: 2 });
    expect((await pull()).status).toBe(200);
    const p = place();
    expect((await picking(p)).status).toBe(500);
    expect((await picking(p)).status).toBe(500);
    expect(p.json.status).toBe('Created');
    expect((await picking(p)).status).toBe(200);
    double.failNext({ kind: 'status', status: 429, retryAfterSeconds: 7 });
    const limited = await pull();
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '7']);
    double.failNext({ kind: 'delay', ms: 300 });
    const t0 = Date.now();
    expect((await pull()).status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(280);
    double.failNext({ kind: 'hang' });
    await expect(call('GET', ORDERS, { timeoutMs: 300 })).rejects.toThrow();
    double.failNext({ kind: 'drop' });
    await expect(pull()).rejects.toThrow();
    expect(double.requests.at(-1)).toMatchObject({ fault: 'drop', outcome: 'fault' });
    expect(double.requests.at(-1)!.status).toBeUndefined();
    double.failNext({ kind: 'status', status: 500 }, { times: 5 });
    double.clearFaults();
    expect((await pull()).status).toBe(200);
  });

  it('applyThenDrop and applyThenStatus: the write-back took effect though the client saw no success', async () => {
    const p = place();
    double.failNext({ kind: 'applyThenDrop' }, { operation: 'updatePackage' });
    await expect(picking(p)).rejects.toThrow();
    expect(p.json.status).toBe('Picking');
    expect(double.requests.at(-1)).toMatchObject({ fault: 'applyThenDrop', outcome: 'ok' });
    expect(double.requests.at(-1)!.status).toBeUndefined();
    double.failNext({ kind: 'applyThenStatus', status: 502 }, { operation: 'updatePackage' });
    const lines = p.json.lines.map((l) => ({ lineId: l.lineId, quantity: l.quantity }));
    const res = await call('PUT', PKG(p.json.shipmentPackageId), { body: { lines, params: { invoiceNumber: 'F1' }, status: 'Invoiced' } });
    expect(res.status).toBe(502);
    expect(p.json.status).toBe('Invoiced');
  });

  it('an outage answers 503 to everything until it is lifted; orders placed meanwhile are pulled afterwards', async () => {
    double.outage(true);
    const p = place();
    const res = await pull();
    expect([res.status, res.body]).toEqual([503, { error: 'Service Unavailable', message: 'Service Unavailable' }]);
    expect((await call('GET', HOOKS)).status).toBe(503);
    double.outage(false);
    expect((await pull()).body.content.map((x: Json) => x.shipmentPackageId)).toEqual([p.json.shipmentPackageId]);
  });
});
