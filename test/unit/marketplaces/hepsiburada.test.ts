import { afterAll, afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { createOutboundHttp } from '../../../src/http/outbound';
import {
  HEPSIBURADA_BUDGET_GROUP,
  HEPSIBURADA_URL,
  HepsiburadaClient,
  hepsiburadaCarrier,
  hepsiburadaDate,
  hepsiburadaQueryWindows,
  type HepsiburadaSettings,
} from '../../../src/marketplaces/hepsiburada';
import {
  MarketplaceBusyError,
  MarketplaceRefusedError,
  type MarketplaceClient,
  type MarketplacePackage,
  type ShippedPackage,
} from '../../../src/marketplaces/marketplace';
import {
  HB_MESSAGES,
  HEPSIBURADA_TEST_ACCOUNT,
  readHbLabelBarcode,
  startHepsiburadaDouble,
  type HepsiburadaDouble,
} from '../../support/marketplaces/hepsiburada-double';
import { HB_SAMPLE_LINES, parseHbQueryDate } from '../../support/marketplaces/hepsiburada.schemas';

/**
 * The Hepsiburada marketplace client against the Hepsiburada test double (HEPSIBURADA-CONTRACT.md), over real HTTP on
 * loopback: the double refuses what the contract refuses, so a request that breaks the contract fails here.
 */
const A = HEPSIBURADA_TEST_ACCOUNT;
const http = createOutboundHttp({ allowPrivate: true });
let hb: HepsiburadaDouble;
let clock: Date;
let budget: string[];

beforeEach(async () => {
  clock = new Date('2026-03-12T09:00:00Z'); // 12:00 in Türkiye
  budget = [];
  hb = await startHepsiburadaDouble({ now: () => clock });
});
afterEach(async () => {
  await hb.close();
});
afterAll(async () => {
  await http.close();
});

const later = (minutes: number) => (clock = new Date(clock.getTime() + minutes * 60_000));

const client = (settings: Partial<HepsiburadaSettings> = {}, credentials = { merchant_id: A.merchantId, service_key: A.serviceKey }) =>
  new HepsiburadaClient({
    credentials,
    settings: { base_url: hb.baseUrl, user_agent: A.userAgent, ...settings },
    http,
    now: () => clock,
    budget: async (group) => {
      budget.push(group);
    },
  });

/** Every package a pull over `hours` back from now hands over, by id (the last version seen). */
async function pull(hours = 1, c = client()): Promise<{ byId: Map<string, MarketplacePackage>; pages: MarketplacePackage[][] }> {
  const pages: MarketplacePackage[][] = [];
  await c.pull({ from: new Date(clock.getTime() - hours * 3600_000), to: clock }, async (page) => {
    pages.push(page);
  });
  return { byId: new Map(pages.flat().map((p) => [p.id, p])), pages };
}
const one = async (orderNumber: string) => (await pull()).byId.get(orderNumber)!;

const shipped = (packageId: string, extra: Partial<ShippedPackage> = {}): ShippedPackage => ({
  packageId,
  carrierName: 'YK',
  carrierKind: 'yurtici',
  trackingCode: '111222333444',
  trackingUrl: 'https://www.yurticikargo.com/tr/online-servisler/gonderi-sorgula?code=111222333444',
  parcels: 1,
  desi: 3,
  shippedAt: clock,
  ...extra,
});

describe('Hepsiburada client: auth, headers and the request budget', () => {
  it('sends Basic merchantId:serviceKey and the integrator user name as User-Agent, one budget call per request', async () => {
    hb.placeOrder({ cargoCompany: 'MP' });
    await pull();
    expect(hb.requests.length).toBeGreaterThan(2);
    for (const r of hb.requests) {
      expect(r.headers.authorization).toBe(`Basic ${A.merchantId}:***`);
      expect(r.headers['user-agent']).toBe(A.userAgent);
      expect(r.outcome).toBe('ok');
    }
    expect(budget).toEqual(hb.requests.map(() => HEPSIBURADA_BUDGET_GROUP));
    expect(new HepsiburadaClient({ credentials: { merchant_id: 'm', service_key: 'k' }, settings: { user_agent: 'x_dev' }, http })).toBeDefined();
    expect(HEPSIBURADA_URL).toBe('https://oms-external.hepsiburada.com');
  });

  it('wrong credentials or User-Agent: MarketplaceRefusedError naming neither the key nor the host', async () => {
    for (const c of [
      client({}, { merchant_id: A.merchantId, service_key: 'WrongKey1234' }),
      client({ user_agent: 'someone_dev' }),
      client({}, { merchant_id: '0f0e0d0c-0000-4000-8000-000000000000', service_key: A.serviceKey }),
    ]) {
      const error = (await pull(1, c).catch((e: unknown) => e)) as Error;
      expect(error).toBeInstanceOf(MarketplaceRefusedError);
      expect(error.message).toMatch(/HTTP 401/);
      expect(error.message).not.toContain('WrongKey1234');
      expect(error.message).not.toContain(A.serviceKey);
      expect(error.message).not.toContain(hb.baseUrl);
      expect(error.message).not.toContain('127.0.0.1');
    }
  });
});

describe('Hepsiburada client: pull', () => {
  it('pages through every list and splits a window longer than 24 hours into parts the 24-hour rule allows', async () => {
    // 120 open lines (two pages of 100) and 12 packages made by Hepsiburada over 33 hours (pages of 10)
    const many = Array.from({ length: 40 }, (_, i) => ({ ...HB_SAMPLE_LINES[0], merchantSku: `SKU-${i}` }));
    const open = [
      hb.placeOrder({ lines: many, cargoCompany: 'MP' }),
      hb.placeOrder({ lines: many, cargoCompany: 'MP' }),
      hb.placeOrder({ lines: many, cargoCompany: 'MP' }),
    ];
    const packed: string[] = [];
    for (let i = 0; i < 12; i++) {
      const o = hb.placeOrder({ lines: [HB_SAMPLE_LINES[1]] });
      hb.packLines([{ lineId: o.lines[0].id }]);
      packed.push(o.orderNumber);
      later(i < 6 ? 5 : 300);
    }
    const { byId } = await pull(48);
    expect([...byId.keys()].sort()).toEqual([...open.map((o) => o.orderNumber), ...packed].sort());
    expect(byId.get(open[0].orderNumber)!.items).toHaveLength(40);

    const orders = hb.requests.filter((r) => r.operation === 'listOrders');
    expect(orders.map((r) => [r.query.offset, r.query.limit])).toEqual([
      ['0', '100'],
      ['100', '100'],
    ]);
    const lists = hb.requests.filter((r) => r.operation === 'listPackages');
    expect(lists.some((r) => r.query.Offset === '10')).toBe(true);
    const windows = new Set(lists.map((r) => `${r.query.begindate}|${r.query.enddate}`));
    expect(windows.size).toBe(3); // 48 h in parts of 20 h
    for (const r of hb.requests.filter((x) => x.query.begindate)) {
      const span = parseHbQueryDate(r.query.enddate)!.getTime() - parseHbQueryDate(r.query.begindate)!.getTime();
      expect(span).toBeLessThanOrEqual(24 * 3600_000);
      expect(r.status).toBe(200);
    }
    // each order's detail is read once a pull
    const details = hb.requests.filter((r) => r.operation === 'orderDetail').map((r) => r.path);
    expect(new Set(details).size).toBe(details.length);
  });

  it('covers the window whether Hepsiburada reads query dates as Turkish time or as UTC', () => {
    const from = new Date('2026-03-12T06:00:00Z');
    const to = new Date('2026-03-12T09:00:00Z');
    const [w] = hepsiburadaQueryWindows({ from, to });
    const asTurkish = [parseHbQueryDate(w.begindate)!, parseHbQueryDate(w.enddate)!];
    const asUtc = [new Date(`${w.begindate.replace(' ', 'T')}:00Z`), new Date(`${w.enddate.replace(' ', 'T')}:00Z`)];
    for (const [b, e] of [asTurkish, asUtc]) {
      expect(b.getTime()).toBeLessThanOrEqual(from.getTime());
      expect(e.getTime()).toBeGreaterThan(to.getTime());
    }
    expect(hepsiburadaDate('2020-06-24T10:36:53.593')).toEqual(new Date('2020-06-24T07:36:53.593Z'));
  });

  it('an own-carrier order is open at once, with the consignee, items and order number mapped', async () => {
    const o = hb.placeOrder({ cargoCompany: 'MP', invoice: { taxNumber: '1234567890' } });
    const p = await one(o.orderNumber);
    expect(p).toMatchObject({
      id: o.orderNumber,
      orderNumber: o.orderNumber,
      state: 'open',
      changedAt: clock,
      consignee: {
        name: 'Ayşe Yılmaz',
        address: 'Caferağa Mah. Moda Cad. No:15 D:3',
        city: 'Kadıköy',
        state: 'İstanbul',
        postal_code: '34710',
        country: 'TR',
        phone_number: '05321234567',
        email: 'ayse.yilmaz@example.com',
        tax_number: '1234567890',
      },
      items: [
        { description: 'Tahsildaroğlu Çeçil Peyniri 250 gr', quantity: 1, unit_price: 14.95, currency_code: 'TRY' },
        { description: 'Seramik Kupa 350 ml', quantity: 2, unit_price: 120, currency_code: 'TRY' },
      ],
      raw: { orderNumber: o.orderNumber, items: [{ id: o.lines[0].id }, { id: o.lines[1].id }] },
    });
    expect(p.marketplaceCarrier).toBeUndefined();
    expect(p.version).toMatch(/^[0-9a-f]{32}$/);
    // pulled again unchanged: the same version
    expect((await one(o.orderNumber)).version).toBe(p.version);
  });

  it('an address fix is a new version of the same package', async () => {
    const o = hb.placeOrder({ cargoCompany: 'MP' });
    const before = await one(o.orderNumber);
    later(90);
    hb.changeAddress(o.orderNumber, { address: 'Bağdat Cad. 200 D:5', town: 'Maltepe', district: 'Bağlarbaşı' });
    const after = (await pull(1)).byId.get(o.orderNumber)!; // the window no longer holds the order date
    expect(after.id).toBe(before.id);
    expect(after.version).not.toBe(before.version);
    expect(after.consignee).toMatchObject({ address: 'Bağdat Cad. 200 D:5, Bağlarbaşı', city: 'Maltepe' });
    expect(after.changedAt).toEqual(clock);
  });

  it("Hepsiburada's carrier: waiting until packaged, then open with the carrier and the package barcode as tracking number", async () => {
    const o = hb.placeOrder();
    expect((await one(o.orderNumber)).state).toBe('waiting');
    later(15);
    const pkg = hb.packLines(o.lines.map((l) => ({ lineId: l.id })));
    const p = await one(o.orderNumber);
    expect(p).toMatchObject({ state: 'open', marketplaceCarrier: { name: 'HepsiJet', trackingNumber: pkg.barcode } });
  });

  it('a split at Hepsiburada keeps the package (the order) with a new version; its label holds both packages', async () => {
    const o = hb.placeOrder();
    const pkg = hb.packLines(o.lines.map((l) => ({ lineId: l.id })));
    const before = await one(o.orderNumber);
    later(5);
    const parts = hb.splitPackage(pkg.packageNumber, [[{ lineId: o.lines[0].id, quantity: 1 }], [{ lineId: o.lines[1].id, quantity: 2 }]]);
    const after = await one(o.orderNumber);
    expect(after).toMatchObject({ id: before.id, state: 'open', marketplaceCarrier: { trackingNumber: parts[0].barcode } });
    expect(after.version).not.toBe(before.version);
    expect(after.items.map((i) => i.quantity)).toEqual([1, 2]);
    const label = await client().carrierLabel({ id: o.orderNumber, trackingNumber: parts[0].barcode, parcels: 2 });
    expect(
      label.zpl
        .split('^XZ')
        .filter((x) => x.includes('^XA'))
        .map((x) => readHbLabelBarcode(x)),
    ).toEqual(parts.map((x) => x.barcode));
  });

  it('cancellations: a cancelled line is a new version without it; every line cancelled is cancelled', async () => {
    const o = hb.placeOrder({ cargoCompany: 'MP' });
    const before = await one(o.orderNumber);
    later(120);
    hb.cancelLine(o.lines[1].id);
    const partly = await one(o.orderNumber);
    expect(partly.version).not.toBe(before.version);
    expect(partly.items.map((i) => i.description)).toEqual(['Tahsildaroğlu Çeçil Peyniri 250 gr']);
    later(120);
    hb.cancelLine(o.lines[0].id, { by: 'Merchant' });
    const gone = await one(o.orderNumber); // found through the cancelled list: no line is open any more
    expect(gone).toMatchObject({ id: o.orderNumber, state: 'cancelled', items: [] });
  });

  it("shipped: a package Hepsiburada's carrier took is shipped", async () => {
    const o = hb.placeOrder();
    const pkg = hb.packLines(o.lines.map((l) => ({ lineId: l.id })));
    later(300);
    hb.advance(pkg.packageNumber, 'InTransit');
    expect((await one(o.orderNumber)).state).toBe('shipped');
    later(300);
    hb.advance(pkg.packageNumber, 'Delivered');
    const [p] = await client().packages([o.orderNumber, 'nope']);
    expect(p).toMatchObject({ id: o.orderNumber, state: 'shipped' });
  });

  it('429: MarketplaceBusyError waiting X-RateLimit-Reset; an outage: MarketplaceBusyError; a 500 or a dropped connection: retryable', async () => {
    hb.failNext({ kind: 'status', status: 429 });
    const limited = (await pull().catch((e: unknown) => e)) as MarketplaceBusyError;
    expect(limited).toBeInstanceOf(MarketplaceBusyError);
    expect(limited.retryAfterMs).toBe(1000);
    hb.setOutage(true);
    const outage = (await pull().catch((e: unknown) => e)) as MarketplaceBusyError;
    expect(outage).toBeInstanceOf(MarketplaceBusyError);
    expect(outage.retryAfterMs).toBeGreaterThan(0);
    hb.setOutage(false);
    for (const fault of [{ kind: 'status', status: 500 } as const, { kind: 'drop' } as const]) {
      hb.failNext(fault);
      const error = (await pull().catch((e: unknown) => e)) as Error;
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(MarketplaceRefusedError);
      expect(error).not.toBeInstanceOf(MarketplaceBusyError);
      expect(error.message).not.toContain('127.0.0.1');
    }
    await expect(pull()).resolves.toBeDefined();
  });
});

describe('Hepsiburada client: write-back (own carrier, Mağaza Hesabı)', () => {
  it('packages the open lines with MP and our carrier, then intransit with the tracking number; a second call does nothing', async () => {
    const o = hb.placeOrder({ cargoCompany: 'MP' });
    later(30);
    const result = await client().writeBack(shipped(o.orderNumber, { carrierName: 'Yurtiçi Kargo', parcels: 2 }));
    const [pkg] = [...hb.packages.values()];
    expect(result).toEqual({ done: true, calls: ['packaging', `intransit ${pkg.packageNumber}`] });
    expect(hb.writeBacks.map((w) => w.operation)).toEqual(['createPackage', 'intransit']);
    expect(hb.writeBacks[0].body).toEqual({
      lineItemRequests: o.lines.map((l) => ({ id: l.id, quantity: l.quantity })),
      cargoCompany: 'MP',
      carrier: 'YK',
      deci: 3,
      parcelQuantity: 2,
    });
    expect(hb.writeBacks[1].body).toMatchObject({
      trackingNumber: '111222333444',
      trackingUrl: 'https://www.yurticikargo.com/tr/online-servisler/gonderi-sorgula?code=111222333444',
      trackingPhoneNumber: '4449999',
      tax: 0,
      cost: 0,
      deci: 3,
      shippedDate: clock.toISOString(),
    });
    expect(hb.packages.get(pkg.packageNumber)).toMatchObject({ status: 'InTransit', cargoCompany: 'MP', carrier: 'YK', trackingNumber: '111222333444' });

    later(1);
    expect(await client().writeBack(shipped(o.orderNumber))).toEqual({ done: true, calls: [] });
    expect(hb.writeBacks).toHaveLength(2);
    expect((await one(o.orderNumber)).state).toBe('shipped');
  });

  it('a packaging answer lost on the way: the retry sends intransit to the package made, packaging nothing twice', async () => {
    const o = hb.placeOrder({ cargoCompany: 'MP' });
    hb.failNext({ kind: 'applyThenDrop' }, { operation: 'createPackage' });
    await expect(client().writeBack(shipped(o.orderNumber))).rejects.toThrow();
    const result = await client().writeBack(shipped(o.orderNumber));
    expect(result).toMatchObject({ done: true, calls: [expect.stringMatching(/^intransit /)] });
    expect(hb.writeBacks.map((w) => w.operation)).toEqual(['createPackage', 'intransit']);
  });

  it('a package the seller made in the panel gets intransit dated no earlier than its packaging', async () => {
    const o = hb.placeOrder({ cargoCompany: 'MP' });
    const shippedAt = clock;
    later(20);
    const pkg = hb.packLines(
      o.lines.map((l) => ({ lineId: l.id })),
      { cargoCompany: 'MP', carrier: 'AR' },
    );
    later(5);
    const result = await client().writeBack(shipped(o.orderNumber, { carrierName: 'AR', shippedAt }));
    expect(result).toEqual({ done: true, calls: [`intransit ${pkg.packageNumber}`] });
    expect(new Date((hb.writeBacks[0].body as { shippedDate: string }).shippedDate).getTime()).toBeGreaterThanOrEqual(pkg.packedAt.getTime());
  });

  it("a refusal comes back in Hepsiburada's words, never thrown", async () => {
    const o = hb.placeOrder({ cargoCompany: 'MP' });
    const refused = await client({ tracking_phone_number: '4440000' }).writeBack(shipped(o.orderNumber, { carrierName: 'XX', carrierKind: 'sandbox' }));
    expect(refused).toEqual({ done: false, reason: `Hepsiburada packaging: ${HB_MESSAGES.unknownCarrier} (HTTP 400)` });
    expect(await client().writeBack(shipped('999'))).toEqual({ done: false, reason: 'Hepsiburada does not know order 999' });
    const hx = hb.placeOrder();
    expect(await client().writeBack(shipped(hx.orderNumber))).toMatchObject({ done: false, reason: expect.stringContaining('contracted carrier') });
    expect(hb.writeBacks).toEqual([]);
  });

  it('waits out a pending address change (documented refusal) instead of giving up', async () => {
    const o = hb.placeOrder({ cargoCompany: 'MP' });
    hb.changeAddress(o.orderNumber, { town: 'Maltepe' }, { pending: true });
    const error = (await client()
      .writeBack(shipped(o.orderNumber))
      .catch((e: unknown) => e)) as MarketplaceBusyError;
    expect(error).toBeInstanceOf(MarketplaceBusyError);
    expect(error.message).toContain('Order has an ongoing change address demand');
    hb.completeAddressChange(o.orderNumber);
    expect(await client().writeBack(shipped(o.orderNumber))).toMatchObject({ done: true });
  });
});

describe("Hepsiburada client: Hepsiburada's carrier label, packages by id, no webhook registration", () => {
  it('answers the common barcode ZPL, one per parcel; waits while the order is not packaged', async () => {
    const o = hb.placeOrder();
    const waiting = (await client()
      .carrierLabel({ id: o.orderNumber, trackingNumber: '', parcels: 1 })
      .catch((e: unknown) => e)) as MarketplaceBusyError;
    expect(waiting).toBeInstanceOf(MarketplaceBusyError);
    const pkg = hb.packLines(o.lines.map((l) => ({ lineId: l.id })));
    pkg.parcelQuantity = 2;
    const { zpl } = await client().carrierLabel({ id: o.orderNumber, trackingNumber: pkg.barcode, parcels: 2 });
    expect(zpl.match(/\^XA/g)).toHaveLength(2);
    expect(readHbLabelBarcode(zpl)).toBe(pkg.barcode);
    expect(hb.requests.filter((r) => r.operation === 'labels').map((r) => r.query)).toEqual([{ format: 'ZPL' }]);
  });

  it('packages(ids) answers the current state of each known order', async () => {
    const a = hb.placeOrder({ cargoCompany: 'MP' });
    const b = hb.placeOrder();
    const found = await client().packages([a.orderNumber, b.orderNumber, a.orderNumber]);
    expect(found.map((p) => [p.id, p.state])).toEqual([
      [a.orderNumber, 'open'],
      [b.orderNumber, 'waiting'],
    ]);
  });

  it('registers no webhook (Hepsiburada takes the base URL by ticket) and maps carrier names to short names', () => {
    const asInterface: MarketplaceClient = client();
    expect(asInterface.registerWebhook).toBeUndefined();
    expect(['YK', 'Yurtiçi Kargo', 'Aras Kargo', 'MNG Kargo', 'Sürat Kargo', 'PTT', 'HepsiJet'].map(hepsiburadaCarrier)).toEqual([
      'YK',
      'YK',
      'AR',
      'MNG',
      'SK',
      'PTT',
      'HX',
    ]);
  });
});
