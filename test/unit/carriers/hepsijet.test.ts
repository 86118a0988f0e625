import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CarrierBusyError, CarrierInputError, CarrierRefusedError, type BookingRequest } from '../../../src/carriers/carrier';
import { RemoteUnavailableError } from '../../../src/carriers/carrier-http';
import {
  EVENT_OF_HEPSIJET_STATUS,
  HepsijetCarrier,
  hepsijetDate,
  hepsijetEvent,
  readHepsijetBarcode,
  type HepsijetSettings,
} from '../../../src/carriers/hepsijet';
import { createOutboundHttp } from '../../../src/http/outbound';
import { domesticBookingRequest } from '../../support/carriers/booking-request';
import { HEPSIJET_EVENTS, HEPSIJET_TEST_ACCOUNT, startHepsijetDouble, type HepsijetDouble } from '../../support/carriers/hepsijet-double';
import type { HepsijetEventName } from '../../support/carriers/hepsijet.schemas';
import { failure } from '../../support/failure';

/**
 * The HepsiJet adapter against the HepsiJet test double, written from HepsiJet's published documents
 * (HEPSIJET-CONTRACT.md): the double refuses what the contract refuses and records every property its DTOs do not
 * have, so a request that breaks the contract fails here.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** An account with an apikey whose bookings answer no labels (printBarcode false): labels come from generateZplBarcode. */
const KEYED = {
  username: 'hj-keyed',
  password: 'Keyed.5678',
  apiKey: 'hj-api-key-1',
  company: { name: 'Anadolu Butik', abbreviationCode: 'ANDLBTK' },
  senderAddressId: 'ANDLBTK_ADR1',
  xDockCode: 'ANDLBTK_SANCAKTEPE',
  printBarcode: false,
};

let hj: HepsijetDouble;
let hj200: HepsijetDouble;
let clock = new Date('2026-11-24T09:00:00Z');
const http = createOutboundHttp({ allowPrivate: true });

beforeAll(async () => {
  hj = await startHepsijetDouble({ now: () => clock, accounts: [HEPSIJET_TEST_ACCOUNT, KEYED] });
  // A HepsiJet that answers its FAIL refusals with HTTP 200.
  hj200 = await startHepsijetDouble({ now: () => clock, failHttpStatus: 200 });
});
afterAll(async () => {
  await http.close();
  await hj.close();
  await hj200.close();
});

const SETTINGS: Omit<HepsijetSettings, 'base_url'> = {
  company_name: 'TestCompany',
  company_code: 'TSTCMPNY',
  sender_address_id: 'TSTCMPNY_ADR1',
  xdock_code: 'TSTCMPNY_KUSTEPE',
  rates: { bands: [{ up_to: 10, price: 79 }] },
};

const carrier = (
  settings: Partial<HepsijetSettings> = {},
  credentials: { user_name: string; password: string; api_key?: string } = {
    user_name: HEPSIJET_TEST_ACCOUNT.username,
    password: HEPSIJET_TEST_ACCOUNT.password,
  },
  lookupBudget?: () => Promise<void>,
) =>
  new HepsijetCarrier({
    providerId: 1009,
    name: 'HepsiJet',
    logoUrl: 'http://x/logo.svg',
    credentials,
    settings: { base_url: hj.baseUrl, ...SETTINGS, ...settings },
    http,
    now: () => clock,
    ...(lookupBudget ? { lookupBudget } : {}),
  });
const keyed = () =>
  carrier(
    { company_name: KEYED.company.name, company_code: KEYED.company.abbreviationCode, sender_address_id: KEYED.senderAddressId, xdock_code: KEYED.xDockCode },
    { user_name: KEYED.username, password: KEYED.password, api_key: KEYED.apiKey },
  );

let serial = 0;
function request(draft: Partial<BookingRequest['draft']> = {}, overrides: Partial<BookingRequest> = {}): BookingRequest {
  serial += 1;
  const serviceBarcode = `CF${String(30000000000 + serial)}`;
  const booking = domesticBookingRequest(serial, {
    serviceBarcode,
    reference: `HJ-REF-${serial}`,
    consignorPhone: '0216 555 11 22',
    consigneePhone: '+90 555 111 22 33',
    packageKg: 2.4,
  });
  return { ...booking, ...overrides, draft: { ...booking.draft, ...draft } };
}
const twoPackages = {
  packages: [
    { package_type: 1 as const, weight: 2.4, length: 30, width: 20, height: 15, items: [{ description: 'Kupa', quantity: 2 }] },
    { package_type: 1 as const, weight: 0.5, length: 10, width: 10, height: 10 },
  ],
};

const sentBy = (from: number, double = hj) => double.requests.slice(from);
const ops = (from: number, double = hj) => sentBy(from, double).map((r) => r.operation);
const ref = (req: BookingRequest) => ({ bookingKey: req.bookingKey, trackingCode: req.serviceBarcode, carrierReference: req.serviceBarcode });

describe('the HepsiJet adapter: booking', () => {
  it('logs in with Basic auth, books with sendDeliveryOrderEnhanced as the contract spells it, and keeps HepsiJet’s ZPL as the label', async () => {
    const from = hj.requests.length;
    const req = request(twoPackages);
    const booking = await carrier().book(req);
    expect(ops(from)).toEqual(['getToken', 'sendDeliveryOrderEnhanced']);
    for (const r of sentBy(from)) expect([r.operation, r.validationErrors, r.unknownFields, r.outcome]).toEqual([r.operation, [], [], 'ok']);
    const [login, book] = sentBy(from);
    expect(login.headers.authorization).toBe(`Basic ${Buffer.from('hepsijet-test:Test.1234').toString('base64')}`);
    expect(login.headers.apikey).toBeUndefined();
    expect([book.path, book.headers['x-auth-token']]).toEqual(['/rest/delivery/sendDeliveryOrderEnhanced', expect.stringMatching(/^[0-9a-f-]{36}$/)]);
    const delivery = hj.deliveries.get(req.serviceBarcode)!;
    expect(delivery.generatedNo).toBe(false);
    expect(delivery.rawRequest).toMatchObject({
      company: { name: 'TestCompany', abbreviationCode: 'TSTCMPNY' },
      currentXDock: { abbreviationCode: 'TSTCMPNY_KUSTEPE' },
      delivery: {
        customerDeliveryNo: req.serviceBarcode,
        customerOrderId: req.reference,
        deliveryType: 'RETAIL',
        product: { productCode: 'HX_STD' },
        totalParcels: '2',
        desi: 3.33,
        weight: 2.9,
        deliverySlotOriginal: '0',
        deliveryDateOriginal: '2026-11-24',
        receiver: { companyCustomerId: expect.stringMatching(/^C[0-9A-F]{15}$/), firstName: 'Şükrü', lastName: 'Öztürk', phone1: '5551112233' },
        recipientPerson: 'Şükrü Öztürk',
        recipientPersonPhone1: '5551112233',
        recipientAddress: {
          companyAddressId: expect.stringMatching(/^A[0-9A-F]{15}$/),
          country: { name: 'Türkiye' },
          city: { name: 'Ankara' },
          town: { name: 'Çankaya' },
          addressLine1: 'Atatürk Blv. No:5 06420',
        },
        senderAddress: {
          companyAddressId: 'TSTCMPNY_ADR1',
          country: { name: 'Türkiye' },
          city: { name: 'İstanbul' },
          town: { name: 'Kadıköy' },
          addressLine1: 'Moda Cad. No:12',
        },
      },
      deliveryContent: [{ description: 'Kupa', quantity: 2 }],
    });
    // The label is HepsiJet's ZPL as answered, a label per parcel; each carries our number, which our PDF prints per piece.
    const answered = (book.response as Json).data.zplBarcodeDTOList as Json[];
    expect(booking.label).toEqual({ content: Buffer.from(answered.map((l) => `${l.zplBarcode}\n`).join('')), contentType: 'application/zpl' });
    expect(booking).toMatchObject({
      trackingCode: req.serviceBarcode,
      carrierReference: req.serviceBarcode,
      trackingUrl: `https://hepsijet.com/gonderi-takibi/${req.serviceBarcode}`,
      pickupBooked: true,
      pieceBarcodes: [req.serviceBarcode, req.serviceBarcode],
      routing: 'ÇANKAYA · ÇANKAYA-ÇANKAYA01-STD',
      cost: { baseCost: 79 },
    });
    // The same receiver and address are the same ids at HepsiJet the next time.
    const again = request(twoPackages);
    await carrier().book(again);
    const next = hj.deliveries.get(again.serviceBarcode)!.rawRequest as Json;
    expect(next.delivery.receiver.companyCustomerId).toBe((delivery.rawRequest as Json).delivery.receiver.companyCustomerId);
    expect(next.delivery.recipientAddress.companyAddressId).toBe((delivery.rawRequest as Json).delivery.recipientAddress.companyAddressId);
  });

  it('sends the apikey on every call of an account that has one, and asks generateZplBarcode for the labels when the booking answers none', async () => {
    const from = hj.requests.length;
    const req = request(twoPackages);
    const booking = await keyed().book(req);
    expect(ops(from)).toEqual(['getToken', 'sendDeliveryOrderEnhanced', 'generateZplBarcode']);
    for (const r of sentBy(from)) expect([r.headers.apikey, r.outcome, r.validationErrors]).toEqual(['hj-api-key-1', 'ok', []]);
    const label = sentBy(from)[2];
    expect(label.path).toBe(`/delivery/generateZplBarcode/${req.serviceBarcode}/2`);
    const zpl = ((label.response as Json).data as Json[]).map((l) => `${l.zplBarcode}\n`).join('');
    expect(booking.label!.content.toString()).toBe(zpl);
    expect(booking.pieceBarcodes).toEqual([req.serviceBarcode, req.serviceBarcode]);
    // Without the apikey HepsiJet refuses the account (403): a refusal naming no secret.
    const refused = await failure(carrier({}, { user_name: KEYED.username, password: KEYED.password }).book(request()));
    expect(refused).toBeInstanceOf(CarrierRefusedError);
    expect((refused as Error).message).toContain('(HTTP 403)');
    expect((refused as Error).message).not.toContain(KEYED.password);
  });

  it('refuses before any call what HepsiJet would refuse or cannot carry, naming each field', async () => {
    const from = hj.requests.length;
    const refused = await failure(
      carrier().book(
        request({
          consignor: { name: 'Anadolu Butik', country: 'TR', city: 'İstanbul', state: 'İstanbul', address: '' },
          consignee: { name: 'Şükrü', country: 'DE', city: 'Çankaya', state: 'Ankara', address: 'x', phone_number: '12345', email: 'not-an-address' },
          special_services: [{ service_type: 'cash_on_delivery', details: { amount: 100 } }, { service_type: 'RETURN' }],
        }),
      ),
    );
    expect(refused).toBeInstanceOf(CarrierInputError);
    expect((refused as CarrierInputError).issues.map((i) => i.field)).toEqual([
      'consignee.country',
      'consignee.phone_number',
      'consignee.name',
      'consignee.email',
      'consignor.city',
      'consignor.address',
      'special_services.0.service_type',
      'special_services.1.service_type',
    ]);
    const noProvince = await failure(
      carrier().book(request({ consignee: { name: 'A B', country: 'TR', city: 'Atlantis', address: 'x', phone_number: '5551112233' } })),
    );
    expect((noProvince as CarrierInputError).issues.map((i) => i.field)).toEqual(['consignee.state']);
    const noDistrict = await failure(
      carrier().book(request({ consignee: { name: 'A B', country: 'TR', city: 'Ankara', state: 'Ankara', address: 'x', phone_number: '5551112233' } })),
    );
    expect((noDistrict as CarrierInputError).issues).toEqual([{ field: 'consignee.city', reason: 'HepsiJet needs the district (ilçe) of Ankara as the city' }]);
    expect(sentBy(from)).toEqual([]);
  });

  it('reads HepsiJet’s FAIL whatever the HTTP status (400 or 200): its message is the refusal; faults are retried, 429 waits', async () => {
    for (const double of [hj, hj200]) {
      const from = double.requests.length;
      const wrong = await failure(carrier({ base_url: double.baseUrl, company_code: 'OTHER' }).book(request()));
      expect(wrong).toBeInstanceOf(CarrierRefusedError);
      expect(wrong).not.toBeInstanceOf(CarrierInputError);
      expect((wrong as CarrierRefusedError).reason).toBe('HepsiJet sendDeliveryOrderEnhanced: company bilgisi hesaba tanımlı firma ile eşleşmiyor.');
      expect(sentBy(from, double).at(-1)!.status).toBe(double === hj ? 400 : 200);
      expect((wrong as Error).message).not.toContain(double.baseUrl);
    }
    const login = await failure(carrier({}, { user_name: 'hepsijet-test', password: 'wrong-secret' }).book(request()));
    expect((login as CarrierRefusedError).reason).toBe("HepsiJet refused the account's user name or password (HTTP 401)");
    hj.failNext({ kind: 'status', status: 503 }, { operation: 'sendDeliveryOrderEnhanced' });
    expect(await failure(carrier().book(request()))).toBeInstanceOf(RemoteUnavailableError);
    hj.failNext({ kind: 'drop' }, { operation: 'sendDeliveryOrderEnhanced' });
    expect(await failure(carrier().book(request()))).toBeInstanceOf(RemoteUnavailableError);
    hj.failNext({ kind: 'status', status: 429, retryAfterSeconds: 7 }, { operation: 'sendDeliveryOrderEnhanced' });
    const busy = await failure(carrier().book(request()));
    expect(busy).toBeInstanceOf(CarrierBusyError);
    expect((busy as CarrierBusyError).retryAfterMs).toBe(7000);
  });

  it('keeps the token for an hour less five minutes, and renews it once when HepsiJet refuses it mid-run', async () => {
    const c = carrier();
    const logins = hj.logins;
    await c.book(request());
    await c.book(request());
    expect(hj.logins).toBe(logins + 1);
    clock = new Date(clock.getTime() + 54 * 60_000);
    await c.book(request());
    expect(hj.logins).toBe(logins + 1);
    clock = new Date(clock.getTime() + 2 * 60_000);
    await c.book(request());
    expect(hj.logins).toBe(logins + 2);
    hj.expireTokens();
    const from = hj.requests.length;
    await c.book(request());
    expect(hj.logins).toBe(logins + 3);
    expect(sentBy(from).map((r) => [r.operation, r.status])).toEqual([
      ['sendDeliveryOrderEnhanced', 401],
      ['getToken', 200],
      ['sendDeliveryOrderEnhanced', 200],
    ]);
  });
});

describe('the HepsiJet adapter: exactly once', () => {
  it('finds the delivery a lost answer made by our customerDeliveryNo, with its labels; booking again ends in that one delivery', async () => {
    const req = request(twoPackages);
    const c = carrier();
    hj.failNext({ kind: 'applyThenDrop' }, { operation: 'sendDeliveryOrderEnhanced' });
    expect(await failure(c.book(req))).toBeInstanceOf(RemoteUnavailableError);
    expect(hj.deliveries.has(req.serviceBarcode)).toBe(true);
    const from = hj.requests.length;
    const found = await c.findBooking(req);
    expect(ops(from)).toEqual(['getDeliveryTracking', 'generateZplBarcode']);
    const [lookUp, label] = sentBy(from);
    expect([lookUp.path, lookUp.body, lookUp.validationErrors]).toEqual([
      '/rest/deliveryTransaction/getDeliveryTracking',
      { deliveries: [{ customerDeliveryNo: req.serviceBarcode }] },
      [],
    ]);
    expect(label.path).toBe(`/delivery/generateZplBarcode/${req.serviceBarcode}/2`);
    expect(found).toMatchObject({
      state: 'found',
      booking: { trackingCode: req.serviceBarcode, pieceBarcodes: [req.serviceBarcode, req.serviceBarcode], routing: expect.stringContaining('ÇANKAYA') },
    });
    // A book that repeats the number: HepsiJet's BARCODE_EXIST, answered with the delivery it holds.
    const before = hj.requests.length;
    const again = await c.book(req);
    expect(ops(before)).toEqual(['sendDeliveryOrderEnhanced', 'getDeliveryTracking', 'generateZplBarcode']);
    expect((sentBy(before)[0].response as Json).detailStatus).toBe('BARCODE_EXIST');
    expect(again.trackingCode).toBe(req.serviceBarcode);
    expect([...hj.deliveries.values()].filter((d) => (d.rawRequest as Json).delivery.customerOrderId === req.reference)).toHaveLength(1);
    expect(c.sentKey(req)).toBe(req.serviceBarcode);
  });

  it('finds nothing for a number HepsiJet does not hold, and tells a deleted one apart', async () => {
    expect(await carrier().findBooking(request())).toEqual({ state: 'none' });
    const req = request();
    await carrier().book(req);
    await carrier().cancel({ ...ref(req), inTransit: false });
    expect(await carrier().findBooking(req)).toEqual({ state: 'unknown', reason: `HepsiJet holds delivery ${req.serviceBarcode} as deleted` });
  });
});

describe('the HepsiJet adapter: tracking', () => {
  it('reads many deliveries in one getDeliveryTracking, maps the statuses with their times, and answers an unknown number with no events', async () => {
    const a = request();
    const b = request();
    await carrier().book(a);
    await carrier().book(b);
    const steps: [HepsijetEventName, string][] = [
      ['ACCEPTED', '2026-11-24T10:00:00Z'],
      ['IN_TRANSFER', '2026-11-24T14:30:00Z'],
      ['ARRIVED_AT_BRANCH', '2026-11-25T05:00:00Z'],
      ['OUT_FOR_DELIVERY', '2026-11-25T07:10:00Z'],
      ['ATTEMPT_RETRY', '2026-11-25T09:00:00Z'],
      ['OUT_FOR_DELIVERY', '2026-11-26T07:00:00Z'],
      ['DELIVERED', '2026-11-26T11:45:00Z'],
    ];
    for (const [event, at] of steps) hj.advance(a.serviceBarcode, event, { at: new Date(at) });
    let budget = 0;
    const c = carrier({}, undefined, async () => {
      budget += 1;
    });
    const unknown = { bookingKey: 'k', trackingCode: 'CF99999999999', carrierReference: 'CF99999999999' };
    const from = hj.requests.length;
    const answers = await c.trackMany([ref(a), ref(b), unknown]);
    expect(ops(from).filter((o) => o !== 'getToken')).toEqual(['getDeliveryTracking']);
    expect(budget).toBe(1);
    const events = answers[0] as { events: { event: string; occurredAt: Date; eventId: string; location?: string }[] };
    expect(events.events.map((e) => [e.event, e.occurredAt.toISOString()])).toEqual([
      ['PICKED_UP', '2026-11-24T10:00:00.000Z'],
      ['IN_TRANSIT', '2026-11-24T14:30:00.000Z'],
      ['IN_TRANSIT', '2026-11-25T05:00:00.000Z'],
      ['OUT_FOR_DELIVERY', '2026-11-25T07:10:00.000Z'],
      ['EXCEPTION', '2026-11-25T09:00:00.000Z'],
      ['OUT_FOR_DELIVERY', '2026-11-26T07:00:00.000Z'],
      ['DELIVERED', '2026-11-26T11:45:00.000Z'],
    ]);
    expect(events.events[0].location).toBe('TSTCMPNY_KUSTEPE Transfer Merkezi');
    expect(answers[1]).toEqual({ shipment: ref(b), events: [] });
    expect(answers[2]).toEqual({ shipment: unknown, events: [] });
    // Stable ids: the same events asked again are recognised.
    expect((await c.track(ref(a))).map((e) => e.eventId)).toEqual(events.events.map((e) => e.eventId));
    // Only unknown numbers: HepsiJet's "not found" is no events, not a failure.
    expect(await c.trackMany([unknown])).toEqual([{ shipment: unknown, events: [] }]);
    expect(c.trackingLimits).toEqual({ batchSize: 50, minReaskMs: 0 });
  });

  it('maps every deliveryStatus the contract names, the damaged, missing and returned ones included; unknown values are transit', () => {
    const expected: Record<HepsijetEventName, string | null> = {
      CREATED: null,
      ACCEPTED: 'PICKED_UP',
      IN_TRANSFER: 'IN_TRANSIT',
      ARRIVED_AT_BRANCH: 'IN_TRANSIT',
      OUT_FOR_DELIVERY: 'OUT_FOR_DELIVERY',
      ATTEMPT_RETRY: 'EXCEPTION',
      ATTEMPT_RETURN: 'EXCEPTION',
      DELIVERED: 'DELIVERED',
      RETURNED: 'RETURNED',
      DAMAGED: 'EXCEPTION',
      MISSING: 'EXCEPTION',
      DELETED: null,
      RECALLED: 'EXCEPTION',
    };
    for (const [name, e] of Object.entries(HEPSIJET_EVENTS)) {
      expect([name, hepsijetEvent(e.deliveryStatus, e.transactionType)]).toEqual([name, expected[name as HepsijetEventName]]);
      expect([name, hepsijetEvent(undefined, e.transactionType)]).toEqual([name, name === 'DELIVERED' ? 'EXCEPTION' : expected[name as HepsijetEventName]]);
    }
    expect(hepsijetEvent('SOMETHING_NEW', 'NEW_TRANSACTION')).toBe('IN_TRANSIT');
    expect(hepsijetEvent(undefined, undefined)).toBe('IN_TRANSIT');
    expect(EVENT_OF_HEPSIJET_STATUS.UNDELIVERABLE).toBe('EXCEPTION');
  });

  it('reads HepsiJet’s dates with their offset; one without is Turkish time', () => {
    expect(hepsijetDate('2019-03-02T11:31:25+03:00')?.toISOString()).toBe('2019-03-02T08:31:25.000Z');
    expect(hepsijetDate('2019-03-02T11:31:25')?.toISOString()).toBe('2019-03-02T08:31:25.000Z');
    expect(hepsijetDate('2019-03-02 11:31:25')?.toISOString()).toBe('2019-03-02T08:31:25.000Z');
    expect(hepsijetDate('yesterday')).toBeUndefined();
  });
});

describe('the HepsiJet adapter: cancelling', () => {
  it('deletes before pickup; a retried delete of a deleted delivery is still accepted', async () => {
    const req = request();
    await carrier().book(req);
    const from = hj.requests.length;
    expect(await carrier().cancel({ ...ref(req), inTransit: false })).toEqual({ accepted: true });
    const del = sentBy(from).find((r) => r.operation === 'deleteDeliveryOrder')!;
    expect([del.path, del.body, del.outcome]).toEqual([`/rest/delivery/deleteDeliveryOrder/${req.serviceBarcode}`, { deleteReason: 'IPTAL' }, 'ok']);
    expect(hj.deliveries.get(req.serviceBarcode)!.events.at(-1)!.event).toBe('DELETED');
    expect(await carrier().cancel({ ...ref(req), inTransit: false })).toEqual({ accepted: true });
    // Once HepsiJet has the parcel, its refusal to delete is the reason.
    const taken = request();
    await carrier().book(taken);
    hj.advance(taken.serviceBarcode, 'ACCEPTED');
    expect(await carrier().cancel({ ...ref(taken), inTransit: false })).toEqual({
      accepted: false,
      reason: 'HepsiJet deleteDeliveryOrder: Gönderi statüsü uygun değil.',
    });
  });

  it('recalls in transit, and answers HepsiJet’s refusal once the parcel is out for delivery', async () => {
    const req = request();
    await carrier().book(req);
    hj.advance(req.serviceBarcode, 'ACCEPTED');
    hj.advance(req.serviceBarcode, 'IN_TRANSFER');
    const from = hj.requests.length;
    expect(await carrier().cancel({ ...ref(req), inTransit: true })).toEqual({ accepted: true });
    const recall = sentBy(from).find((r) => r.operation === 'externalRecallDeliveryOrder')!;
    expect([recall.method, recall.path, recall.outcome]).toEqual(['POST', `/deliveryReturn/externalRecallDeliveryOrder/${req.serviceBarcode}`, 'ok']);
    expect(hj.deliveries.get(req.serviceBarcode)!.events.at(-1)!.event).toBe('RECALLED');
    // Asked again (a retried cancel): recalled already.
    expect(await carrier().cancel({ ...ref(req), inTransit: true })).toEqual({ accepted: true });

    const out = request();
    await carrier().book(out);
    hj.advance(out.serviceBarcode, 'ACCEPTED');
    hj.advance(out.serviceBarcode, 'OUT_FOR_DELIVERY');
    expect(await carrier().cancel({ ...ref(out), inTransit: true })).toEqual({
      accepted: false,
      reason: 'HepsiJet externalRecallDeliveryOrder: Gönderi statüsü uygun değil.',
    });
    expect(hj.deliveries.get(out.serviceBarcode)!.events.at(-1)!.event).toBe('OUT_FOR_DELIVERY');
  });
});

describe('HepsiJet labels', () => {
  it('reads the barcode of HepsiJet’s ZPL as the contract’s sample prints it (Code 128 after the subset-B start code)', () => {
    expect(readHepsijetBarcode('^XA^BY2,3,104^FT757,701^BCB,,Y,N^FD>:0127784175250^FS^PQ1,0,1,Y^XZ')).toBe('0127784175250');
    expect(readHepsijetBarcode('^XA^FO10,10^BCN,80^FDCF00000000010^FS^XZ')).toBe('CF00000000010');
    expect(readHepsijetBarcode('^XA^FO10,10^A0N,20^FDno barcode here^FS^XZ')).toBeUndefined();
  });

  /** A carrier whose HTTP answers are scripted by operation (the path's operation segment). */
  const scripted = (answers: Record<string, { status?: number; headers?: Record<string, string>; body: unknown }>) => {
    const sent: string[] = [];
    const fake = {
      json: async (req: { url: string | URL }) => {
        const path = new URL(String(req.url)).pathname.split('/').filter(Boolean);
        const operation = path[path[0] === 'rest' ? 2 : 1];
        sent.push(operation);
        const a = answers[operation] ?? { status: 404, body: null };
        return { status: a.status ?? 200, headers: a.headers ?? {}, body: a.body, truncated: false };
      },
      request: async () => {
        throw new Error('not used');
      },
      close: async () => undefined,
    };
    const c = new HepsijetCarrier({
      providerId: 1010,
      name: 'HepsiJet',
      logoUrl: 'x',
      credentials: { user_name: 'u', password: 'p' },
      settings: { base_url: 'http://hepsijet.test', ...SETTINGS },
      http: fake as never,
    });
    return { c, sent };
  };

  it('keeps a label whose barcode it cannot read, without piece barcodes (the booking stands); takes the token from data.token', async () => {
    const { c } = scripted({
      getToken: { body: { status: 'OK', data: { token: 'T-1' } } },
      sendDeliveryOrderEnhanced: {
        body: {
          status: 'OK',
          data: {
            customerDeliveryNo: 'X',
            zplBarcodeDTOList: [{ receiverXDock: 'KUSTEPE', distributionZoneName: 'TSTCMPNY-KADIKOY01-STD', zplBarcode: '^XA^FDlabel^FS^XZ' }],
          },
        },
      },
    });
    const booking = await c.book(request());
    expect(booking.label).toEqual({ content: Buffer.from('^XA^FDlabel^FS^XZ\n'), contentType: 'application/zpl' });
    expect(booking.pieceBarcodes).toBeUndefined();
    expect(booking.routing).toBe('KUSTEPE · TSTCMPNY-KADIKOY01-STD');
  });

  it('takes a refused look-up other than "not found" as unknown', async () => {
    const { c } = scripted({
      getToken: { headers: { 'x-auth-token': 'T-2' }, body: { status: 'OK' } },
      getDeliveryTracking: { status: 200, body: { status: 'FAIL', message: 'Sistem hatası' } },
    });
    expect(await c.findBooking(request())).toEqual({ state: 'unknown', reason: 'HepsiJet getDeliveryTracking: Sistem hatası' });
  });
});
