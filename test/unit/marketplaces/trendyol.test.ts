import { afterAll, afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { createOutboundHttp, type OutboundHttp } from '../../../src/http/outbound';
import { MarketplaceBusyError, MarketplaceRefusedError, type MarketplacePackage, type ShippedPackage } from '../../../src/marketplaces/marketplace';
import { parseTrendyolJson, TrendyolClient, trendyolPackage, type TrendyolCredentials, type TrendyolSettings } from '../../../src/marketplaces/trendyol';
import { failure } from '../../support/failure';
import {
  TRENDYOL_MESSAGES,
  TRENDYOL_TEST_SELLER,
  startTrendyolDouble,
  zplBarcodes,
  type PlaceOrderInput,
  type TrendyolDouble,
  type TrendyolDoubleOptions,
  type TrendyolPackageRecord,
} from '../../support/marketplaces/trendyol-double';

/**
 * The Trendyol client against the Trendyol test double (TRENDYOL-CONTRACT.md), over real HTTP on loopback: the double
 * refuses what the contract refuses and records every request, so a call that breaks the contract fails here.
 */

const SELLER = TRENDYOL_TEST_SELLER.sellerId;
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

let double: TrendyolDouble;
let clock: Date;
let groups: string[];
const tick = (ms: number) => (clock = new Date(clock.getTime() + ms));
const http = createOutboundHttp({ allowPrivate: true });

beforeEach(async () => {
  clock = new Date('2026-11-24T09:00:00Z');
  groups = [];
  double = await startTrendyolDouble({ now: () => clock });
});
afterEach(async () => {
  await double.close();
});
afterAll(async () => {
  await http.close();
});

async function withDouble(options: TrendyolDoubleOptions, fn: () => Promise<void>): Promise<void> {
  const saved = double;
  double = await startTrendyolDouble({ now: () => clock, ...options });
  try {
    await fn();
  } finally {
    await double.close();
    double = saved;
  }
}

const client = (
  over: { credentials?: Partial<TrendyolCredentials>; settings?: Partial<TrendyolSettings>; http?: OutboundHttp; budget?: (g: string) => Promise<void> } = {},
) =>
  new TrendyolClient({
    credentials: { seller_id: SELLER, api_key: TRENDYOL_TEST_SELLER.apiKey, api_secret: TRENDYOL_TEST_SELLER.apiSecret, ...over.credentials },
    settings: { base_url: double.baseUrl, ...over.settings },
    http: over.http ?? http,
    budget:
      over.budget ??
      (async (group) => {
        groups.push(group);
      }),
    now: () => clock,
  });

const place = (extra: Partial<PlaceOrderInput> = {}): TrendyolPackageRecord =>
  double.placeOrder({
    lines: [
      { barcode: '9900000000486', quantity: 2 },
      { barcode: '8683772071724', quantity: 1 },
    ],
    ...extra,
  });
const idOf = (p: TrendyolPackageRecord) => String(p.json.shipmentPackageId);

async function pullPages(window: { from: Date; to: Date }, c = client()): Promise<MarketplacePackage[][]> {
  const pages: MarketplacePackage[][] = [];
  await c.pull(window, async (page) => {
    pages.push(page);
  });
  return pages;
}
const lastHour = () => ({ from: new Date(clock.getTime() - HOUR), to: clock });
const pulled = async (window = lastHour()) => (await pullPages(window)).flat();
const byId = (packages: MarketplacePackage[], p: TrendyolPackageRecord) => packages.find((x) => x.id === idOf(p));
const ops = (operation: string) => double.requests.filter((r) => r.operation === operation);

const shipped = (p: TrendyolPackageRecord, trackingCode = 'YK123456789', extra: Partial<ShippedPackage> = {}): ShippedPackage => ({
  packageId: idOf(p),
  carrierName: 'Yurtiçi Kargo',
  carrierKind: 'yurtici',
  trackingCode,
  trackingUrl: `https://www.yurticikargo.com/tr/online-servisler/gonderi-sorgula?code=${trackingCode}`,
  parcels: 1,
  desi: 3,
  shippedAt: clock,
  ...extra,
});

// ----------------------------------------------------------------------------------------------------------------------

describe('TrendyolClient: authentication, User-Agent, budget', () => {
  it('sends Basic apiKey:apiSecret and "<sellerId> - SelfIntegration", taking an orders call from the budget before each request', async () => {
    place();
    await pulled();
    expect(double.requests.length).toBeGreaterThan(0);
    for (const r of double.requests) {
      expect(r).toMatchObject({
        operation: 'getShipmentPackagesStream',
        outcome: 'ok',
        apiKey: TRENDYOL_TEST_SELLER.apiKey,
        userAgent: `${SELLER} - SelfIntegration`,
      });
      expect(r.headers.authorization).toBe('Basic');
      expect(r.headers.accept).toBe('application/json');
    }
    expect(groups).toEqual(double.requests.map(() => 'orders'));
  });

  it('names the integrator in the User-Agent, and refuses a name Trendyol would not take before sending anything', async () => {
    await client({ settings: { integrator_name: 'ConsignFlow' } }).packages(['1']);
    expect(double.requests.at(-1)!.userAgent).toBe(`${SELLER} - ConsignFlow`);
    const before = double.requests.length;
    for (const bad of [
      { settings: { integrator_name: 'Consign Flow' } },
      { settings: { integrator_name: 'x'.repeat(31) } },
      { credentials: { seller_id: 'abc' } },
    ]) {
      const error = await failure(client(bad).packages(['1']));
      expect(error).toBeInstanceOf(MarketplaceRefusedError);
    }
    expect(double.requests.length).toBe(before);
  });

  it('refuses wrong credentials as MarketplaceRefusedError naming neither the secret nor the host', async () => {
    const error = (await failure(client({ credentials: { api_secret: 'not-the-secret-123' } }).pull(lastHour(), async () => undefined))) as Error;
    expect(error).toBeInstanceOf(MarketplaceRefusedError);
    expect(error).not.toBeInstanceOf(MarketplaceBusyError);
    expect(error.message).toMatch(/401/);
    for (const secret of ['not-the-secret-123', TRENDYOL_TEST_SELLER.apiSecret, TRENDYOL_TEST_SELLER.apiKey, double.baseUrl, '127.0.0.1'])
      expect(error.message).not.toContain(secret);
  });

  it('sends nothing when the budget says wait', async () => {
    const busy = new MarketplaceBusyError(1234, 'budget spent');
    const error = await failure(
      client({
        budget: async () => {
          throw busy;
        },
      }).packages(['1']),
    );
    expect(error).toBe(busy);
    expect(double.requests).toHaveLength(0);
  });
});

describe('TrendyolClient.pull: the stream, its pages and its windows', () => {
  it('follows nextCursor through every page, each asked with the first page’s dates', async () => {
    for (let i = 0; i < 250; i++) place({ at: new Date(clock.getTime() - 30 * MIN + i * 1000) });
    const pages = await pullPages(lastHour());
    expect(pages.map((p) => p.length)).toEqual([100, 100, 50]);
    const ids = pages.flat().map((p) => p.id);
    expect(new Set(ids).size).toBe(250);
    const stream = ops('getShipmentPackagesStream');
    expect(stream).toHaveLength(3);
    expect(stream[0].query.nextCursor).toBeUndefined();
    expect(stream[1].query.nextCursor).toBeTruthy();
    expect(stream[2].query.nextCursor).toBe((stream[1].response as { nextCursor: string }).nextCursor);
    for (const r of stream) {
      expect(r.query.size).toBe('100');
      expect(r.query.lastModifiedStartDate).toBe(stream[0].query.lastModifiedStartDate);
      expect(r.query.lastModifiedEndDate).toBe(stream[0].query.lastModifiedEndDate);
    }
    expect(groups).toEqual(['orders', 'orders', 'orders']);
  });

  it('splits a window longer than two weeks into allowed ones and hands each package over once', async () => {
    const outside = place({ at: new Date(clock.getTime() - 50 * DAY) });
    // one every two hours: some fall where two windows meet (each window sent reaches three hours past its end)
    const inside: TrendyolPackageRecord[] = [];
    for (let t = clock.getTime() - 35 * DAY; t < clock.getTime(); t += 2 * HOUR) inside.push(place({ at: new Date(t) }));
    const pages = await pullPages({ from: new Date(clock.getTime() - 36 * DAY), to: clock });
    const ids = pages.flat().map((p) => p.id);
    expect(ids.length).toBe(new Set(ids).size);
    expect(new Set(ids)).toEqual(new Set(inside.map(idOf)));
    expect(ids).not.toContain(idOf(outside));
    const stream = ops('getShipmentPackagesStream');
    expect(new Set(stream.map((r) => r.query.lastModifiedStartDate)).size).toBe(3);
    for (const r of stream) {
      expect(r.outcome).toBe('ok');
      expect(Number(r.query.lastModifiedEndDate) - Number(r.query.lastModifiedStartDate)).toBeLessThanOrEqual(14 * DAY);
    }
  });

  it.each(['gmt3', 'utc'] as const)('sends windows that cover the wanted one when Trendyol reads the dates as %s', async (queryDates) => {
    await withDouble({ queryDates }, async () => {
      const window = { from: new Date(clock.getTime() - 2 * HOUR), to: clock };
      const first = place({ at: new Date(window.from.getTime() + MIN) });
      const last = place({ at: new Date(clock.getTime() - MIN) });
      const ids = (await pulled(window)).map((p) => p.id);
      expect(ids).toEqual(expect.arrayContaining([idOf(first), idOf(last)]));
    });
  });

  it('asks a page again with half the size when its answer is over the outbound size cap', async () => {
    const small = createOutboundHttp({ allowPrivate: true, maxResponseBytes: 150_000 });
    try {
      for (let i = 0; i < 60; i++) place({ at: new Date(clock.getTime() - 20 * MIN + i * 1000) });
      const pages = await pullPages(lastHour(), client({ http: small }));
      expect(new Set(pages.flat().map((p) => p.id)).size).toBe(60);
      expect(ops('getShipmentPackagesStream').map((r) => r.query.size)).toEqual(['100', '50', '25', '25', '25']);
    } finally {
      await small.close();
    }
  });

  it('moves a start older than the stream’s three months up, and asks nothing for an empty window', async () => {
    place({ at: new Date(clock.getTime() - HOUR) });
    await pullPages({ from: new Date(clock.getTime() - 200 * DAY), to: new Date(clock.getTime() - 120 * DAY) });
    expect(double.requests).toHaveLength(0);
    await pullPages({ from: new Date(clock.getTime() - 100 * DAY), to: clock });
    const first = ops('getShipmentPackagesStream')[0];
    expect(Number(first.query.lastModifiedStartDate)).toBeGreaterThanOrEqual(clock.getTime() - 90 * DAY);
  });
});

describe('TrendyolClient: packages as MarketplacePackages', () => {
  it('maps a placed package: consignee from the shipment address, items as sold, the last change', async () => {
    const placedAt = new Date(clock.getTime() - 5 * MIN);
    const p = place({
      at: placedAt,
      whoPays: 'seller',
      customer: { firstName: 'Ayşe', lastName: 'Yılmaz', email: 'pf+abc@trendyolmail.com' },
      lines: [
        { barcode: '9900000000486', quantity: 2, sellerDiscount: 48.9, tyDiscount: 10 },
        { barcode: '8683772071724', quantity: 1 },
      ],
    });
    const [pkg] = await pulled();
    expect(pkg).toMatchObject({
      id: idOf(p),
      orderNumber: p.json.orderNumber,
      state: 'open',
      changedAt: placedAt,
      consignee: {
        name: 'Ayşe Yılmaz',
        address: 'Maslak Mahallesi Saat Sokak No:5 D:19',
        city: 'Sarıyer',
        state: 'İstanbul',
        state_code: '34',
        postal_code: '34485',
        country: 'TR',
        phone_number: '5321234567',
        email: 'pf+abc@trendyolmail.com',
      },
      items: [
        { description: 'Kuş ve Çiçek Desenli Tepsi - Yeşil, 49 cm', quantity: 2, unit_price: 440, currency_code: 'TRY' },
        { description: 'Seramik Kupa 350 ml', quantity: 1, unit_price: 149.9, currency_code: 'TRY' },
      ],
    });
    expect(pkg.consignee.tax_number).toBeUndefined();
    expect(pkg.marketplaceCarrier).toBeUndefined();
    expect((pkg.raw as { shipmentPackageId: number }).shipmentPackageId).toBe(p.json.shipmentPackageId);
    expect(pkg.version).toMatch(new RegExp(`^${placedAt.getTime()}-[0-9a-f]{16}$`));
  });

  it('names the neighbourhood when the address lines do not, and takes a commercial order’s tax number', async () => {
    const p = place({
      commercial: true,
      shipmentAddress: {
        firstName: 'Mehmet',
        lastName: 'Kaya',
        address1: 'Atatürk Cad. No:12',
        city: 'Ankara',
        cityCode: 6,
        district: 'Çankaya',
        neighborhood: 'Kızılay Mah.',
      },
      invoiceAddress: {
        firstName: 'Mehmet',
        lastName: 'Kaya',
        address1: 'Atatürk Cad. No:12',
        city: 'Ankara',
        district: 'Çankaya',
        company: 'Kaya Ltd.',
        taxNumber: '1234567890',
        taxOffice: 'Çankaya',
      },
    });
    const pkg = byId(await pulled(), p)!;
    expect(pkg.consignee).toMatchObject({
      address: 'Kızılay Mah. Atatürk Cad. No:12',
      city: 'Çankaya',
      state: 'Ankara',
      state_code: '06',
      tax_number: '1234567890',
    });
  });

  it('gives a "Trendyol pays" package its carrier and tracking number, as text', async () => {
    const tex = place();
    const aras = place({ carrier: 'ARAS' });
    const own = place({ whoPays: 'seller', carrier: 'YKMP' });
    const packages = await pulled();
    expect(byId(packages, tex)!.marketplaceCarrier).toEqual({ name: 'Trendyol Express', trackingNumber: String(tex.json.cargoTrackingNumber) });
    expect(byId(packages, aras)!.marketplaceCarrier).toEqual({ name: 'Aras Kargo', trackingNumber: String(aras.json.cargoTrackingNumber) });
    expect(byId(packages, own)!.marketplaceCarrier).toBeUndefined();
    expect(typeof (byId(packages, tex)!.raw as { cargoTrackingNumber: unknown }).cargoTrackingNumber).toBe('string');
  });

  it('keeps a tracking number beyond JavaScript’s safe integers exact', () => {
    const raw = parseTrendyolJson(
      '{"shipmentPackageId": 3330111111, "orderNumber": "1", "status": "Created", "cargoProviderName": "Trendyol Express", "cargoTrackingNumber": 72800275041111111111}',
    );
    expect(trendyolPackage(raw).marketplaceCarrier).toEqual({ name: 'Trendyol Express', trackingNumber: '72800275041111111111' });
  });

  it('gives an address fix a new version of the same package', async () => {
    const p = place({ at: new Date(clock.getTime() - 10 * MIN) });
    const before = byId(await pulled(), p)!;
    tick(MIN);
    double.changeAddress(p.json.shipmentPackageId, {
      address1: 'Büyükdere Caddesi No:185',
      neighborhood: 'Levent Mahallesi',
      district: 'Beşiktaş',
      districtId: 0,
    });
    tick(MIN);
    const after = byId(await pulled(), p)!;
    expect(after.id).toBe(before.id);
    expect(after.version).not.toBe(before.version);
    expect(after.changedAt.getTime()).toBeGreaterThan(before.changedAt.getTime());
    expect(after.consignee).toMatchObject({ address: 'Levent Mahallesi Büyükdere Caddesi No:185', city: 'Beşiktaş' });
    expect(after.state).toBe('open');
  });

  it('a package pulled again unchanged keeps its version', async () => {
    const p = place({ at: new Date(clock.getTime() - 10 * MIN) });
    const first = byId(await pulled(), p)!;
    tick(MIN);
    expect(byId(await pulled(), p)!.version).toBe(first.version);
  });

  it('a split package is replaced by new open packages', async () => {
    const p = place({ at: new Date(clock.getTime() - 10 * MIN) });
    const [lineA] = p.json.lines;
    tick(MIN);
    const newIds = double.split(p.json.shipmentPackageId, [[lineA.lineId]]).map(String);
    tick(MIN);
    const packages = await pulled();
    expect(byId(packages, p)!.state).toBe('replaced');
    const parts = packages.filter((x) => newIds.includes(x.id));
    expect(parts.map((x) => x.state)).toEqual(['open', 'open']);
    expect(parts.every((x) => x.orderNumber === p.json.orderNumber)).toBe(true);
    expect(parts.map((x) => x.items.map((i) => i.description)).sort()).toEqual([['Kuş ve Çiçek Desenli Tepsi - Yeşil, 49 cm'], ['Seramik Kupa 350 ml']]);
    expect(parts.map((x) => (x.raw as { originPackageIds: number[] }).originPackageIds)).toEqual([[p.json.shipmentPackageId], [p.json.shipmentPackageId]]);
  });

  it('a cancelled package is cancelled; a partial cancel replaces it with a new package of the rest', async () => {
    const whole = place({ at: new Date(clock.getTime() - 10 * MIN) });
    const unsupplied = place({ at: new Date(clock.getTime() - 10 * MIN) });
    const partial = place({ at: new Date(clock.getTime() - 10 * MIN) });
    tick(MIN);
    double.cancel(whole.json.shipmentPackageId);
    double.cancel(unsupplied.json.shipmentPackageId, { by: 'seller' });
    const { newPackageId } = double.cancel(partial.json.shipmentPackageId, { lines: [{ lineId: partial.json.lines[1].lineId }] });
    tick(MIN);
    const packages = await pulled();
    expect(byId(packages, whole)!.state).toBe('cancelled');
    expect(byId(packages, unsupplied)!.state).toBe('cancelled');
    expect((byId(packages, unsupplied)!.raw as { status: string }).status).toBe('UnSupplied');
    expect(byId(packages, partial)!.state).toBe('replaced');
    const rest = packages.find((x) => x.id === String(newPackageId))!;
    expect(rest).toMatchObject({
      state: 'open',
      orderNumber: partial.json.orderNumber,
      items: [{ description: 'Kuş ve Çiçek Desenli Tepsi - Yeşil, 49 cm', quantity: 2 }],
    });
  });

  it('shipped, delivered and returned packages are shipped; Awaiting waits', async () => {
    const a = place();
    const b = place();
    const c = place({ status: 'Awaiting' });
    tick(MIN);
    double.advance(a.json.shipmentPackageId, 'Shipped');
    double.advance(b.json.shipmentPackageId, 'Delivered');
    const packages = await pulled();
    expect([a, b, c].map((p) => byId(packages, p)!.state)).toEqual(['shipped', 'shipped', 'waiting']);
    double.advance(c.json.shipmentPackageId, 'Created');
    tick(MIN);
    expect(byId(await pulled(), c)!.state).toBe('open');
  });

  it('packages(ids) answers the packages as they are now, by shipmentPackageIds', async () => {
    const a = place();
    const b = place();
    double.cancel(b.json.shipmentPackageId);
    const found = await client().packages([idOf(a), idOf(b), '999', 'not-a-number']);
    expect(found.map((p) => [p.id, p.state])).toEqual(
      expect.arrayContaining([
        [idOf(a), 'open'],
        [idOf(b), 'cancelled'],
      ]),
    );
    expect(found).toHaveLength(2);
    const r = ops('getShipmentPackages').at(-1)!;
    expect(r.query.shipmentPackageIds).toBe(`${idOf(a)},${idOf(b)},999`);
    expect(groups).toEqual(['orders']);
  });
});

describe('TrendyolClient: limits, outages, faults', () => {
  it('429 → MarketplaceBusyError with a wait (Retry-After when sent), the real limit included', async () => {
    double.failNext({ kind: 'status', status: 429 });
    const busy = (await failure(client().packages(['1']))) as MarketplaceBusyError;
    expect(busy).toBeInstanceOf(MarketplaceBusyError);
    expect(busy.retryAfterMs).toBe(10_000);
    double.failNext({ kind: 'status', status: 429, retryAfterSeconds: 7 });
    expect(((await failure(client().packages(['1']))) as MarketplaceBusyError).retryAfterMs).toBe(7_000);
    // "Sipariş Paketlerini Çekme": 30 a minute at the default tier
    const c = client();
    for (let i = 0; i < 30; i++) await c.packages(['1']);
    const limited = await failure(c.packages(['1']));
    expect(limited).toBeInstanceOf(MarketplaceBusyError);
    expect(double.requests.at(-1)!.rateLimit).toBe('orderPull');
  });

  it('an outage (503) is waited out; 5xx and a dropped connection are plain retryable errors naming no host', async () => {
    place();
    double.outage(true);
    const outage = (await failure(pullPages(lastHour()))) as MarketplaceBusyError;
    expect(outage).toBeInstanceOf(MarketplaceBusyError);
    expect(outage.retryAfterMs).toBeGreaterThan(0);
    double.outage(false);
    expect(await pulled()).toHaveLength(1);

    for (const fault of [{ kind: 'status', status: 500 }, { kind: 'status', status: 504 }, { kind: 'drop' }] as const) {
      double.failNext(fault);
      const error = (await failure(pullPages(lastHour()))) as Error;
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(MarketplaceBusyError);
      expect(error).not.toBeInstanceOf(MarketplaceRefusedError);
      expect(error.message).not.toContain(double.baseUrl);
      expect(error.message).not.toContain('127.0.0.1');
    }
  });

  it('a stage host that does not know the server’s IP answers 503 to everything: waited out, not a refusal', async () => {
    await withDouble({ ipAllowlisted: false }, async () => {
      const error = (await failure(client().packages(['1']))) as Error;
      expect(error).toBeInstanceOf(MarketplaceBusyError);
      expect(error.message).toMatch(/allow-listed/);
    });
  });
});

describe('TrendyolClient.writeBack', () => {
  it('a seller-contract package: Picking, then the tracking number; a second call sends nothing', async () => {
    const p = place({ whoPays: 'seller' });
    const result = await client().writeBack(shipped(p));
    expect(result).toEqual({ done: true, calls: ['updatePackage:Picking', 'updateTrackingNumber'] });
    const rec = double.packages.get(p.json.shipmentPackageId)!;
    expect(rec.trackingUpdates).toEqual([
      expect.objectContaining({ operation: 'updateTrackingNumber', trackingNumber: 'YK123456789', switchedToSellerContract: false }),
    ]);
    expect(rec.statusUpdates.at(-1)).toMatchObject({ status: 'Picking', source: 'api' });
    expect(ops('updatePackage')[0].body).toEqual({
      lines: p.json.lines.map((l) => ({ lineId: l.lineId, quantity: l.quantity })),
      params: {},
      status: 'Picking',
    });
    expect(groups).toEqual(['orders', 'package-status', 'tracking-number']);

    expect(await client().writeBack(shipped(p))).toEqual({ done: true, calls: [] });
    expect(rec.trackingUpdates).toHaveLength(1);
    expect(ops('updateTrackingNumber')).toHaveLength(1);
    expect(ops('updatePackage')).toHaveLength(1);
  });

  it('a write-back whose answer was lost is done on the retry, without a second tracking number', async () => {
    const p = place({ whoPays: 'seller' });
    double.failNext({ kind: 'applyThenDrop' }, { operation: 'updateTrackingNumber' });
    const lost = await failure(client().writeBack(shipped(p)));
    expect(lost).toBeInstanceOf(Error);
    expect(lost).not.toBeInstanceOf(MarketplaceRefusedError);
    expect(await client().writeBack(shipped(p))).toEqual({ done: true, calls: [] });
    expect(double.packages.get(p.json.shipmentPackageId)!.trackingUpdates).toHaveLength(1);
  });

  it('a refusal is {done: false} in Trendyol’s words', async () => {
    const p = place({ whoPays: 'seller' });
    await client().writeBack(shipped(p, 'YK111111111'));
    const refused = await client().writeBack(shipped(p, 'YK222222222'));
    expect(refused).toEqual({ done: false, reason: expect.stringContaining(TRENDYOL_MESSAGES.shipmentNotUpdatable) });
    expect(double.packages.get(p.json.shipmentPackageId)!.trackingUpdates.map((u) => u.trackingNumber)).toEqual(['YK111111111']);

    const cancelled = place({ whoPays: 'seller' });
    double.cancel(cancelled.json.shipmentPackageId);
    const before = double.requests.length;
    expect(await client().writeBack(shipped(cancelled))).toEqual({ done: false, reason: expect.stringMatching(/Cancelled/) });
    expect(double.requests.slice(before).map((r) => r.operation)).toEqual(['getShipmentPackages']);

    expect(await client().writeBack({ ...shipped(p), packageId: '999' })).toEqual({ done: false, reason: expect.stringMatching(/no package 999/) });
  });

  it('a "Trendyol pays" package never gets another carrier’s number; with its own it is only set Picking', async () => {
    const p = place();
    const rec = double.packages.get(p.json.shipmentPackageId)!;
    expect(await client().writeBack(shipped(p))).toEqual({ done: false, reason: expect.stringMatching(/Trendyol Express/) });
    expect(ops('updateTrackingNumber')).toHaveLength(0);
    expect(rec.trackingUpdates).toHaveLength(0);
    expect(await client().writeBack(shipped(p, String(p.json.cargoTrackingNumber)))).toEqual({ done: true, calls: ['updatePackage:Picking'] });
    expect(ops('updateTrackingNumber')).toHaveLength(0);
    expect(rec.whoPays).toBe('trendyol');
  });

  it('where updateTrackingNumber is gone, the tracking link goes through alternative-delivery', async () => {
    await withDouble({ deprecatedTrackingEndpoint: 'gone' }, async () => {
      const p = place({ whoPays: 'seller' });
      const s = shipped(p, 'YK987654321', { parcels: 2, desi: 4.5 });
      expect(await client().writeBack(s)).toEqual({ done: true, calls: ['updatePackage:Picking', 'alternativeDelivery'] });
      const rec = double.packages.get(p.json.shipmentPackageId)!;
      expect(rec.trackingUpdates).toEqual([expect.objectContaining({ operation: 'alternativeDelivery', trackingInfo: s.trackingUrl, isPhoneNumber: false })]);
      expect(ops('alternativeDelivery')[0].body).toEqual({ isPhoneNumber: false, trackingInfo: s.trackingUrl, params: {}, boxQuantity: 2, deci: 4.5 });
      expect(rec.json.status).toBe('Shipped');
      expect(await client().writeBack(s)).toEqual({ done: true, calls: [] });
      expect(rec.trackingUpdates).toHaveLength(1);
    });
  });
});

describe('TrendyolClient.carrierLabel', () => {
  it('sets the package Picking, asks for the common label once and answers its ZPL, one label a parcel', async () => {
    const p = place();
    const ctn = String(p.json.cargoTrackingNumber);
    const { zpl } = await client().carrierLabel({ id: idOf(p), trackingNumber: ctn, parcels: 2 });
    expect(zplBarcodes(zpl)).toEqual([ctn, ctn]);
    expect(zpl.match(/\^XA/g)).toHaveLength(2);
    const rec = double.packages.get(p.json.shipmentPackageId)!;
    expect(rec.label).toMatchObject({ boxQuantity: 2, statusAtRequest: 'Picking' });
    expect(ops('createCommonLabel')[0].body).toEqual({ format: 'ZPL', boxQuantity: 2 });
    expect(groups).toEqual(['label-get', 'orders', 'package-status', 'label-create', 'label-get']);

    expect((await client().carrierLabel({ id: idOf(p), trackingNumber: ctn, parcels: 2 })).zpl).toBe(zpl);
    expect(ops('createCommonLabel')).toHaveLength(1);
    expect(rec.trackingUpdates).toHaveLength(0);
  });

  it('a label not made yet is waited for (MarketplaceBusyError with a short wait)', async () => {
    await withDouble({ labelDelayMs: 3000 }, async () => {
      const p = place();
      const ctn = String(p.json.cargoTrackingNumber);
      const busy = (await failure(client().carrierLabel({ id: idOf(p), trackingNumber: ctn, parcels: 1 }))) as MarketplaceBusyError;
      expect(busy).toBeInstanceOf(MarketplaceBusyError);
      expect(busy.retryAfterMs).toBeGreaterThan(0);
      expect(busy.retryAfterMs).toBeLessThanOrEqual(10_000);
      tick(busy.retryAfterMs);
      const { zpl } = await client().carrierLabel({ id: idOf(p), trackingNumber: ctn, parcels: 1 });
      expect(zplBarcodes(zpl)).toEqual([ctn]);
      expect(ops('createCommonLabel')).toHaveLength(1);
    });
  });

  it('a number Trendyol makes no label for is refused in its words', async () => {
    const p = place({ whoPays: 'seller' });
    const error = (await failure(client().carrierLabel({ id: idOf(p), trackingNumber: '7280000000000001', parcels: 1 }))) as Error;
    expect(error).toBeInstanceOf(MarketplaceRefusedError);
    expect(error.message).toContain(TRENDYOL_MESSAGES.checkCargoTrackingNumber);
  });
});

describe('TrendyolClient.registerWebhook', () => {
  const URL1 = 'https://hooks.consignflow.example/v1/order-sources/17/webhook';

  it('creates the webhook once with our API key, then updates it (and activates it when passive)', async () => {
    const id = await client().registerWebhook(URL1, 'key-one');
    expect(double.webhooks.size).toBe(1);
    expect(double.webhooks.get(id)).toMatchObject({ url: URL1, authenticationType: 'API_KEY', apiKey: 'key-one', subscribedStatuses: null, status: 'ACTIVE' });

    tick(MIN);
    expect(await client().registerWebhook(URL1, 'key-two')).toBe(id);
    expect(double.webhooks.size).toBe(1);
    expect(double.webhooks.get(id)).toMatchObject({ apiKey: 'key-two', lastModifiedAt: clock });
    expect(ops('createWebhook')).toHaveLength(1);
    expect(ops('updateWebhook')).toHaveLength(1);
    expect(ops('activateWebhook')).toHaveLength(0);

    double.webhooks.get(id)!.status = 'PASSIVE';
    expect(await client().registerWebhook(URL1, 'key-two')).toBe(id);
    expect(double.webhooks.get(id)!.status).toBe('ACTIVE');
    expect(ops('createWebhook')).toHaveLength(1);
    expect(groups.every((g) => g === 'webhooks')).toBe(true);
  });

  it('refuses a URL with a word Trendyol forbids before sending, and a sixteenth webhook', async () => {
    for (const url of ['https://trendyol-hooks.example/x', 'https://hooks.example/dolap', 'http://localhost:3000/hook']) {
      const error = (await failure(client().registerWebhook(url, 'k'))) as Error;
      expect(error).toBeInstanceOf(MarketplaceRefusedError);
    }
    expect(double.requests).toHaveLength(0);
    for (let i = 0; i < 15; i++) await client().registerWebhook(`https://hooks.consignflow.example/v1/order-sources/${i}/webhook`, `k${i}`);
    expect(double.webhooks.size).toBe(15);
    const error = (await failure(client().registerWebhook(URL1, 'k'))) as Error;
    expect(error).toBeInstanceOf(MarketplaceRefusedError);
    expect(error.message).toMatch(/15/);
    expect(double.webhooks.size).toBe(15);
    // one already registered is still updated
    await client().registerWebhook('https://hooks.consignflow.example/v1/order-sources/3/webhook', 'k3b');
    expect([...double.webhooks.values()].find((w) => w.url.includes('/3/'))!.apiKey).toBe('k3b');
  });
});
