import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CarrierBusyError, CarrierInputError, CarrierRefusedError, type BookingRequest } from '../../../src/carriers/carrier';
import { RemoteUnavailableError } from '../../../src/carriers/carrier-http';
import {
  EVENT_OF_MNG_STATUS,
  MNG_PLACEHOLDER_TAX_NUMBER,
  MngCarrier,
  isTcKimlik,
  mngDate,
  mngStatusCode,
  mngStatusEvent,
  mngZplBarcodes,
  type MngCredentials,
  type MngSettings,
} from '../../../src/carriers/mng';
import { createOutboundHttp, type OutboundHttp } from '../../../src/http/outbound';
import { domesticBookingRequest } from '../../support/carriers/booking-request';
import {
  MNG_STATUSES,
  MNG_TEST_APP,
  MNG_TEST_CUSTOMER,
  startMngDouble,
  zplBarcodes,
  type MngDouble,
  type MngDoubleOptions,
  type MngOrder,
} from '../../support/carriers/mng-double';
import { failure } from '../../support/failure';

/**
 * The MNG adapter against the MNG test double, written from the REST contract (MNG-CONTRACT.md): the double refuses
 * what MNG refuses and records every field its model does not know, so a request that breaks the contract fails here.
 */
let mng: MngDouble;
let clock = new Date('2026-03-12T07:00:00Z'); // 10:00 in Turkey
const http = createOutboundHttp({ allowPrivate: true });

beforeAll(async () => {
  mng = await startMngDouble({ now: () => clock });
});
afterAll(async () => {
  await http.close();
  await mng.close();
});

const CREDENTIALS: MngCredentials = {
  client_id: MNG_TEST_APP.clientId,
  client_secret: MNG_TEST_APP.clientSecret,
  customer_number: MNG_TEST_CUSTOMER.customerNumber,
  password: MNG_TEST_CUSTOMER.password,
};

const carrier = (
  settings: Partial<MngSettings> = {},
  options: { double?: MngDouble; credentials?: Partial<MngCredentials>; http?: OutboundHttp; lookupBudget?: () => Promise<void> } = {},
) =>
  new MngCarrier({
    providerId: 1009,
    name: 'MNG Kargo',
    logoUrl: 'http://x/logo.svg',
    credentials: { ...CREDENTIALS, ...options.credentials },
    settings: { base_url: (options.double ?? mng).baseUrl, rates: { bands: [{ up_to: 10, price: 95 }] }, ...settings },
    http: options.http ?? http,
    now: () => clock,
    ...(options.lookupBudget ? { lookupBudget: options.lookupBudget } : {}),
  });

let serial = 0;
/** A domestic request (Kadıköy → Çankaya, two packages), its consignee with an e-mail; `consignee` adds to it. */
function request(draft: Partial<BookingRequest['draft']> = {}, consignee: Record<string, unknown> = {}): BookingRequest {
  serial += 1;
  const serviceBarcode = `CF${String(7000000000 + serial).padStart(10, '0')}1`;
  const booking = domesticBookingRequest(serial, { serviceBarcode, reference: `MNG-${serial}`, consigneePhone: '+90 555 111 22 33', packageKg: 2.4 });
  return {
    ...booking,
    draft: {
      ...booking.draft,
      consignee: { ...booking.draft.consignee, email: 'sukru@example.com', ...consignee },
      packages: [
        { package_type: 1, weight: 2.4, length: 30, width: 20, height: 15, items: [{ description: 'Kupa', quantity: 1 }] },
        { package_type: 1, weight: 0.5, length: 10, width: 10, height: 10 },
      ],
      ...draft,
    },
  };
}

const sentBy = (from: number, double: MngDouble = mng) => double.requests.slice(from);
const ops = (from: number, double: MngDouble = mng) => sentBy(from, double).map((r) => r.operation);
const orderOf = (req: BookingRequest, double: MngDouble = mng): MngOrder => double.orders.get(req.serviceBarcode)!;
const live = (o: MngOrder) => o.shipments.filter((s) => !s.cancelled);
/** The carrier's ZPL as the booking must keep it: every piece's label, each ending in a newline. */
const zplOf = (o: MngOrder) =>
  live(o)[0]
    .barcodes.map((b) => `${b.value}\n`)
    .join('');

async function withDouble<T>(options: MngDoubleOptions, run: (double: MngDouble) => Promise<T>): Promise<T> {
  const double = await startMngDouble({ now: () => clock, ...options });
  try {
    return await run(double);
  } finally {
    await double.close();
  }
}

describe('the MNG adapter: booking', () => {
  it('looks the codes up, logs in, registers the recipient, creates the order and its barcode, as the contract spells them', async () => {
    const from = mng.requests.length;
    const req = request();
    const booking = await carrier().book(req);
    expect(ops(from)).toEqual(['getcities', 'getdistricts', 'token', 'createRecipient', 'createOrder', 'createbarcode']);
    for (const r of sentBy(from)) {
      expect([r.operation, r.status, r.validationErrors, r.unknownFields]).toEqual([r.operation, 200, [], []]);
      // API Connect's keys on every call; the JWT on all but the token and CBS Info.
      expect([r.headers['x-ibm-client-id'], r.headers['x-ibm-client-secret']]).toEqual([MNG_TEST_APP.clientId, MNG_TEST_APP.clientSecret]);
      expect(r.headers.authorization === undefined).toBe(['token', 'getcities', 'getdistricts'].includes(r.operation!));
    }
    expect(sentBy(from).find((r) => r.operation === 'getdistricts')!.pathParam).toBe('06');
    expect(sentBy(from)[2].body).toEqual({ customerNumber: MNG_TEST_CUSTOMER.customerNumber, password: MNG_TEST_CUSTOMER.password, identityType: 1 });
    const ref = req.serviceBarcode;
    const order = orderOf(req);
    expect(order.order).toMatchObject({
      referenceId: ref,
      barcode: ref,
      isCOD: 0,
      codAmount: 0,
      paymentType: 1,
      packagingType: 3,
      deliveryType: 1,
      content: 'Kupa',
    });
    // One piece per package, whole kg and desi rounded up (2.4 kg → 3; 30×20×15/3000 = 3 desi; 0.33 desi → 1).
    expect(order.pieces).toEqual([
      { barcode: `${ref}_PARCA1`, kg: 3, desi: 3, content: 'Kupa' },
      { barcode: `${ref}_PARCA2`, kg: 1, desi: 1, content: '' },
    ]);
    // CBS Info's codes (Ankara 06, Çankaya), the phone without +90, the placeholder TC of a consignee who gave none.
    expect(order.recipient).toMatchObject({
      cityCode: 6,
      districtCode: 9601,
      districtName: 'Çankaya',
      fullName: 'Şükrü Öztürk',
      address: 'Atatürk Blv. No:5',
      email: 'sukru@example.com',
      mobilePhoneNumber: '5551112233',
      taxNumber: MNG_PLACEHOLDER_TAX_NUMBER,
      taxOffice: 'SAHIS',
    });
    expect(mng.recipients.at(-1)!.recipient).toMatchObject({ customerId: 0, cityCode: 6, districtCode: 9601, mobilePhoneNumber: '5551112233' });
    const [shipment] = live(order);
    expect(shipment.pieces.map((p) => p.barcode)).toEqual([`${ref}_PARCA1`, `${ref}_PARCA2`]);
    expect(booking).toMatchObject({
      trackingCode: shipment.shipmentId,
      trackingUrl: `https://www.mngkargo.com.tr/track/${shipment.shipmentId}`,
      carrierReference: ref,
      pickupBooked: false,
      pieceBarcodes: shipment.barcodes.map((b) => b.barcode),
      routing: '03401700',
      cost: { baseCost: 95 },
    });
    expect(booking.label!.contentType).toBe('application/zpl');
    expect(booking.label!.content.toString()).toBe(zplOf(order));
  });

  it('keeps the JWT and the CBS codes for the next booking; a ZPL label whatever format was asked', async () => {
    const c = carrier();
    await c.book(request());
    const logins = mng.logins;
    const from = mng.requests.length;
    const req = request();
    const booking = await c.book({ ...req, labelFormat: 'zpl' });
    expect(ops(from)).toEqual(['createRecipient', 'createOrder', 'createbarcode']);
    expect(mng.logins).toBe(logins);
    expect(booking.label!.contentType).toBe('application/zpl');
  });

  it('sends cash on delivery in TRY, the paymentType setting, the consignee’s TC or tax number', async () => {
    const cod = request({ special_services: [{ service_type: 'cash_on_delivery', details: { amount: 150.5 } }] }, { tax_number: '10000000146' });
    await carrier({ payment_type: 2 }).book(cod);
    const order = orderOf(cod);
    expect(order.order).toMatchObject({ isCOD: 1, codAmount: 150.5, paymentType: 2 });
    expect(live(order)[0]).toMatchObject({ isCOD: true, codAmount: 150.5 });
    expect(order.recipient).toMatchObject({ taxNumber: '10000000146', taxOffice: 'SAHIS' });

    const company = request({}, { tax_number: '1234567890', email: null });
    await carrier({ default_email: 'orders@shop.example' }).book(company);
    expect(orderOf(company).recipient).toMatchObject({ taxNumber: '1234567890', taxOffice: '', email: 'orders@shop.example' });
  });

  it('refuses before any call what MNG would refuse, naming each field', async () => {
    const from = mng.requests.length;
    const refused = await failure(
      carrier().book(
        request(
          {
            consignor: { name: 'X', country: 'DE', city: 'Berlin', address: 'Str. 1' },
            special_services: [
              { service_type: 'cash_on_delivery', details: { amount: 100, currency: 'EUR', payment: 'card' } },
              { service_type: 'return', details: {} },
            ],
          },
          { phone_number: '12', email: null, tax_number: '12345678901', address: '' },
        ),
      ),
    );
    expect(refused).toBeInstanceOf(CarrierInputError);
    expect((refused as CarrierInputError).issues.map((i) => i.field).sort()).toEqual(
      [
        'consignor.country',
        'consignee.phone_number',
        'consignee.address',
        'consignee.email',
        'consignee.tax_number',
        'special_services.0.details.currency',
        'special_services.0.details.payment',
        'special_services.1.service_type',
      ].sort(),
    );
    const noProvince = await failure(carrier().book(request({}, { state: null, postal_code: null, city: 'Atlantis' })));
    expect((noProvince as CarrierInputError).issues.map((i) => i.field)).toEqual(['consignee.state']);
    expect(mng.requests.length).toBe(from);
  });

  it('refuses a district CBS Info does not know on consignee.city, before the token and any booking call', async () => {
    const from = mng.requests.length;
    const refused = await failure(carrier().book(request({}, { city: 'Atlantis' })));
    expect(refused).toBeInstanceOf(CarrierInputError);
    expect((refused as CarrierInputError).issues).toEqual([{ field: 'consignee.city', reason: 'MNG knows no district "Atlantis" in Ankara' }]);
    expect(ops(from).every((op) => op === 'getcities' || op === 'getdistricts')).toBe(true);
  });

  it('reads both answer shapes: the one-element arrays MNG sends (trap 1) and the objects its swagger documents', async () => {
    const unwrapping: OutboundHttp = {
      ...http,
      json: async (r) => {
        const res = await http.json(r);
        return Array.isArray(res.body) && res.body.length === 1 && !String(r.url).includes('cbsinfoapi') ? { ...res, body: res.body[0] } : res;
      },
    };
    const req = request();
    const booking = await carrier({}, { http: unwrapping }).book(req);
    expect(booking.trackingCode).toBe(live(orderOf(req))[0].shipmentId);
    expect(booking.pieceBarcodes).toHaveLength(2);
  });
});

describe('the MNG adapter: the label', () => {
  it('reads each piece’s barcode from its ZPL with the contract’s pattern', () => {
    const zpl = '^XA^FT40,70^A0N,44,44^FDDHL^FS\n^BY3,2,180^FT60,620^BCN,180,N,N,N^FDC@6B@H21FMLRPNAAA6J^FS\n^FT60,670^A0N,34,34^FDC@6B@H21FMLRPNAAA6J^FS\n^XZ';
    expect(mngZplBarcodes(zpl)).toEqual(['C@6B@H21FMLRPNAAA6J']);
    expect(mngZplBarcodes('^XA^FDno barcode^FS^XZ')).toEqual([]);
  });

  it('keeps a ZPL whose barcode cannot be read, without piece barcodes (our PDF is then not made)', async () => {
    const blurred: OutboundHttp = {
      ...http,
      json: async (r) => {
        const res = await http.json(r);
        if (!String(r.url).endsWith('/createbarcode')) return res;
        const body = JSON.parse(JSON.stringify(res.body).replace(/\^BC/g, '^BQ'));
        return { ...res, body };
      },
    };
    const req = request();
    const booking = await carrier({}, { http: blurred }).book(req);
    expect(booking.pieceBarcodes).toBeUndefined();
    expect(booking.label!.content.toString()).toContain('^BQN');
    expect(booking.trackingCode).toBe(live(orderOf(req))[0].shipmentId);
  });

  it('the barcodes are those the double’s labels encode, in package order', async () => {
    const req = request();
    const booking = await carrier().book(req);
    expect(booking.pieceBarcodes).toEqual(live(orderOf(req))[0].barcodes.flatMap((b) => zplBarcodes(b.value)));
  });
});

describe('the MNG adapter: the JWT and faults', () => {
  it('renews the JWT after 8 hours, and once when MNG refuses it mid-run', async () => {
    const c = carrier();
    await c.book(request());
    const logins = mng.logins;
    clock = new Date(clock.getTime() + 7.5 * 3600_000 + 1000); // within the half hour before it runs out
    await c.book(request());
    expect(mng.logins).toBe(logins + 1);
    mng.expireTokens();
    const from = mng.requests.length;
    await c.book(request());
    expect(mng.logins).toBe(logins + 2);
    expect(sentBy(from).map((r) => [r.operation, r.status])).toEqual([
      ['createRecipient', 401],
      ['token', 200],
      ['createRecipient', 200],
      ['createOrder', 200],
      ['createbarcode', 200],
    ]);
  });

  it('answers refused credentials as a refusal that names no secret', async () => {
    const password = await failure(carrier({}, { credentials: { password: 'wrong-pass' } }).book(request()));
    expect(password).toBeInstanceOf(CarrierRefusedError);
    expect((password as Error).message).toContain('customer number or password');
    const secret = await failure(carrier({}, { credentials: { client_secret: 'wrong-secret' } }).book(request()));
    expect(secret).toBeInstanceOf(CarrierRefusedError);
    expect((secret as Error).message).toContain('client id or secret');
    for (const e of [password, secret]) {
      for (const hidden of ['wrong-pass', 'wrong-secret', mng.baseUrl, '127.0.0.1']) expect((e as Error).message).not.toContain(hidden);
    }
  });

  it('makes 5xx and dropped answers retryable and 429 a wait, in texts without the base URL; a refusal keeps MNG’s words and code', async () => {
    mng.failNext({ kind: 'status', status: 500 }, { operation: 'createOrder' });
    const down = await failure(carrier().book(request()));
    expect(down).toBeInstanceOf(RemoteUnavailableError);
    mng.failNext({ kind: 'drop' }, { operation: 'createRecipient' });
    expect(await failure(carrier().book(request()))).toBeInstanceOf(RemoteUnavailableError);
    mng.failNext({ kind: 'status', status: 429 }, { operation: 'createOrder' });
    expect(await failure(carrier().book(request()))).toBeInstanceOf(CarrierBusyError);
    expect((down as Error).message).not.toContain(mng.baseUrl);

    // A field MNG refuses that we could not know: its words and code (the double accepts 10-digit numbers only as phones).
    const refused = await failure(carrier({ payment_type: 3 as 1 }).book(request()));
    expect(refused).toBeInstanceOf(CarrierRefusedError);
    expect((refused as Error).message).toContain("MNG createOrder: 'Order. Payment Type' gecerli degil");
    expect((refused as Error).message).toContain('(26005)');
  });

  it('asks to wait when createbarcode answers 20001 (branch not resolved yet); the order exists and findBooking completes it', async () => {
    await withDouble({ branchResolution: { afterRecipientMs: 5 * 60_000, afterOrderMs: 10 * 60_000 } }, async (double) => {
      const c = carrier({}, { double });
      const req = request();
      const busy = await failure(c.book(req));
      expect(busy).toBeInstanceOf(CarrierBusyError);
      expect((busy as CarrierBusyError).retryAfterMs).toBe(60_000);
      expect((busy as Error).message).toContain('VARIŞ ŞUBESİ BULUNAMADI');
      expect(orderOf(req, double).shipments).toHaveLength(0);
      clock = new Date(clock.getTime() + 5 * 60_000);
      const found = await c.findBooking(req);
      expect(found.state).toBe('found');
      expect(double.orders.size).toBe(1);
      expect(found.state === 'found' && found.booking.trackingCode).toBe(live(orderOf(req, double))[0].shipmentId);
    });
  });
});

describe('the MNG adapter: exactly once', () => {
  it('finds nothing under a reference MNG does not hold', async () => {
    expect(await carrier().findBooking(request())).toEqual({ state: 'none' });
  });

  it('after a lost createOrder answer: retryable, then findBooking makes the barcode of the one order', async () => {
    const c = carrier();
    const req = request();
    mng.failNext({ kind: 'applyThenDrop' }, { operation: 'createOrder' });
    expect(await failure(c.book(req))).toBeInstanceOf(RemoteUnavailableError);
    expect(orderOf(req).shipments).toHaveLength(0);
    const from = mng.requests.length;
    const found = await c.findBooking(req);
    expect(ops(from)).toEqual(['getshipmentstatus', 'createRecipient', 'createbarcode']);
    expect(found.state).toBe('found');
    const order = orderOf(req);
    expect(live(order)).toHaveLength(1);
    expect(found.state === 'found' && found.booking).toMatchObject({
      trackingCode: live(order)[0].shipmentId,
      carrierReference: req.serviceBarcode,
      pieceBarcodes: live(order)[0].barcodes.map((b) => b.barcode),
      routing: '03401700',
    });
  });

  it('after a lost createOrder answer, booking again meets the used reference and completes the one order', async () => {
    const c = carrier();
    const req = request();
    mng.failNext({ kind: 'applyThenDrop' }, { operation: 'createOrder' });
    await failure(c.book(req));
    const from = mng.requests.length;
    const booking = await c.book(req);
    expect(sentBy(from).find((r) => r.operation === 'createOrder')!.validationErrors).toEqual([expect.stringContaining('(20002)')]);
    expect([...mng.orders.keys()].filter((k) => k.endsWith(req.serviceBarcode))).toHaveLength(1);
    expect(booking.trackingCode).toBe(live(orderOf(req))[0].shipmentId);
  });

  it('after a lost createbarcode answer, MNG answering the same shipment again: that shipment, nothing new', async () => {
    const c = carrier();
    const req = request();
    mng.failNext({ kind: 'applyThenDrop' }, { operation: 'createbarcode' });
    expect(await failure(c.book(req))).toBeInstanceOf(RemoteUnavailableError);
    const issued = live(orderOf(req))[0].shipmentId;
    const found = await c.findBooking(req);
    expect(found.state === 'found' && found.booking.trackingCode).toBe(issued);
    expect(orderOf(req).shipments).toHaveLength(1);
    expect(found.state === 'found' && found.booking.label!.content.toString()).toBe(zplOf(orderOf(req)));
  });

  it('after a lost createbarcode answer, MNG refusing a repeated createbarcode: that barcode is cancelled and a new one made', async () => {
    await withDouble({ repeatBarcode: 'refuse' }, async (double) => {
      const c = carrier({}, { double });
      const req = request();
      double.failNext({ kind: 'applyThenDrop' }, { operation: 'createbarcode' });
      expect(await failure(c.book(req))).toBeInstanceOf(RemoteUnavailableError);
      const lost = live(orderOf(req, double))[0].shipmentId;
      const from = double.requests.length;
      const found = await c.findBooking(req);
      expect(ops(from, double)).toEqual(['getshipmentstatus', 'createRecipient', 'createbarcode', 'cancelshipment', 'createbarcode']);
      expect(sentBy(from, double)[2].validationErrors).toEqual([expect.stringContaining('(20006)')]);
      const order = orderOf(req, double);
      expect(order.shipments.map((s) => [s.shipmentId === lost, s.cancelled])).toEqual([
        [true, true],
        [false, false],
      ]);
      expect(found.state === 'found' && found.booking.trackingCode).toBe(live(order)[0].shipmentId);
      // The consignment's history tells what was voided.
      expect(found.state === 'found' && found.booking.notes).toEqual([expect.stringContaining(`shipment ${lost}`)]);
    });
  });
});

describe('the MNG adapter: tracking', () => {
  it('follows a shipment to delivered with MNG’s times and places, one lookup each request; status 1 is no event', async () => {
    let lookups = 0;
    const c = carrier({}, { lookupBudget: async () => void lookups++ });
    const req = request();
    const booking = await c.book(req);
    const ref = { bookingKey: req.bookingKey, trackingCode: booking.trackingCode, carrierReference: booking.carrierReference };
    expect(await c.track(ref)).toEqual([]);
    expect(lookups).toBe(1);
    const t0 = clock.getTime();
    mng.advance(req.serviceBarcode, 2, { at: new Date(t0 + 3600_000) });
    mng.advance(req.serviceBarcode, 3, { at: new Date(t0 + 20 * 3600_000) });
    mng.advance(req.serviceBarcode, 4, { at: new Date(t0 + 24 * 3600_000) });
    mng.advance(req.serviceBarcode, 5, { at: new Date(t0 + 26 * 3600_000), deliveryTo: 'Sema Kudu' });
    const lookupsBefore = lookups;
    const events = await c.track(ref);
    expect(lookups).toBe(lookupsBefore + 2); // trackshipment, and getshipmentstatus for who received it
    expect(events.map((e) => [e.event, e.occurredAt.getTime() - t0])).toEqual([
      ['PICKED_UP', 3600_000],
      ['IN_TRANSIT', 20 * 3600_000],
      ['OUT_FOR_DELIVERY', 24 * 3600_000],
      ['DELIVERED', 26 * 3600_000],
    ]);
    expect(events[0]).toMatchObject({ message: 'Transfer Aşamasında', location: 'Atalar Şube, İSTANBUL' });
    expect(events[3]).toMatchObject({ message: 'Teslim Edildi: Sema Kudu', location: 'Çankaya Şube, ANKARA' });
    expect((await c.track(ref)).map((e) => e.eventId)).toEqual(events.map((e) => e.eventId));
    expect(new Set(events.map((e) => e.eventId)).size).toBe(4);
  });

  it('has no events for a reference MNG does not know yet', async () => {
    expect(await carrier().track({ bookingKey: 'k', trackingCode: '999', carrierReference: 'CF99999999999' })).toEqual([]);
  });

  it('maps every MNG status, by its Turkish, English or enum name; an unknown one is transit', () => {
    const expected: Record<number, string | undefined> = {
      1: undefined,
      2: 'PICKED_UP',
      3: 'IN_TRANSIT',
      4: 'OUT_FOR_DELIVERY',
      5: 'DELIVERED',
      6: 'EXCEPTION',
      7: 'RETURNED',
      8: 'EXCEPTION',
    };
    expect(EVENT_OF_MNG_STATUS).toEqual(expected);
    for (const [code, status] of Object.entries(MNG_STATUSES)) {
      for (const name of [status.text, status.name, status.textEn]) expect([name, mngStatusEvent(mngStatusCode(name))]).toEqual([name, expected[Number(code)]]);
    }
    expect(mngStatusEvent(mngStatusCode('Yeni Bir Durum'))).toBe('IN_TRANSIT');
    expect(mngStatusEvent(9)).toBe('IN_TRANSIT');
  });

  it('reads MNG’s dates as Turkish time unless they carry an offset', () => {
    expect(mngDate('12-02-2019 20:30:45')!.toISOString()).toBe('2019-02-12T17:30:45.000Z');
    expect(mngDate('2019-02-12 20:30:45')!.toISOString()).toBe('2019-02-12T17:30:45.000Z');
    expect(mngDate('12-02-2019 20:30')!.toISOString()).toBe('2019-02-12T17:30:00.000Z');
    expect(mngDate('2019-02-12T20:30:45Z')!.toISOString()).toBe('2019-02-12T20:30:45.000Z');
    expect(mngDate('soon')).toBeUndefined();
  });

  it('checks TC Kimlik numbers as MNG does (trap 4)', () => {
    expect([isTcKimlik('11111111110'), isTcKimlik('10000000146'), isTcKimlik('11111111111'), isTcKimlik('12345678901')]).toEqual([true, true, false, false]);
  });
});

describe('the MNG adapter: cancel', () => {
  const refOf = async (c: MngCarrier, req: BookingRequest) => {
    const b = await c.book(req);
    return { bookingKey: req.bookingKey, trackingCode: b.trackingCode, carrierReference: b.carrierReference };
  };

  it('cancels the barcode then the order before pickup; a repeated cancel is accepted (done already)', async () => {
    const c = carrier();
    const req = request();
    const ref = await refOf(c, req);
    const from = mng.requests.length;
    expect(await c.cancel({ ...ref, inTransit: false })).toEqual({ accepted: true });
    expect(sentBy(from).map((r) => [r.operation, r.method, r.status])).toEqual([
      ['cancelshipment', 'PUT', 200],
      ['cancelorder', 'PUT', 200],
    ]);
    expect(sentBy(from)[0].body).toEqual({ referenceId: req.serviceBarcode, shipmentId: ref.trackingCode });
    expect(orderOf(req)).toMatchObject({ cancelled: true, shipments: [{ cancelled: true }] });
    expect(await c.cancel({ ...ref, inTransit: false })).toEqual({ accepted: true });
  });

  it('answers MNG’s refusal once the branch accepted the parcel, and on a later day', async () => {
    const c = carrier();
    const picked = request();
    const ref = await refOf(c, picked);
    mng.advance(picked.serviceBarcode, 2);
    const refused = await c.cancel({ ...ref, inTransit: true });
    expect(refused.accepted).toBe(false);
    expect(refused.reason).toContain('KABUL EDİLDİĞİ İÇİN İPTAL EDİLEMEZ');
    expect(orderOf(picked)).toMatchObject({ cancelled: false, shipments: [{ cancelled: false }] });

    const late = request();
    const lateRef = await refOf(c, late);
    clock = new Date(clock.getTime() + 24 * 3600_000);
    const tooLate = await c.cancel({ ...lateRef, inTransit: false });
    expect(tooLate).toEqual({ accepted: false, reason: expect.stringContaining('(20004)') });
  });
});
