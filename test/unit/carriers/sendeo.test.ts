import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CarrierInputError, CarrierRefusedError, type BookingRequest } from '../../../src/carriers/carrier';
import { RemoteUnavailableError } from '../../../src/carriers/carrier-http';
import { EVENT_OF_SENDEO_STATUS, SendeoCarrier, sendeoDate, sendeoPhone, type SendeoSettings } from '../../../src/carriers/sendeo';
import { createOutboundHttp } from '../../../src/http/outbound';
import { domesticBookingRequest } from '../../support/carriers/booking-request';
import { SENDEO_STATUSES, SENDEO_TEST_CUSTOMER, startSendeoDouble, type SendeoDouble } from '../../support/carriers/sendeo-double';
import { failure } from '../../support/failure';

/**
 * The Sendeo adapter against the Sendeo test double, written from Sendeo's published document (SENDEO-CONTRACT.md):
 * the double refuses what the document refuses and records every field its model does not know, so a request
 * that breaks the contract fails here.
 */
let sd: SendeoDouble;
let clock = new Date('2026-11-24T09:00:00Z');
const http = createOutboundHttp({ allowPrivate: true });

beforeAll(async () => {
  sd = await startSendeoDouble({ now: () => clock });
});
afterAll(async () => {
  await http.close();
  await sd.close();
});

const RATES: SendeoSettings['rates'] = {
  bands: [
    { up_to: 2, price: 60 },
    { up_to: 10, price: 85 },
  ],
  per_unit_above: 7,
  max: 30,
};

const carrier = (settings: Partial<SendeoSettings> = {}, password: string = SENDEO_TEST_CUSTOMER.password) =>
  new SendeoCarrier({
    providerId: 1004,
    name: 'Sendeo',
    logoUrl: 'http://x/logo.svg',
    credentials: { customer_code: SENDEO_TEST_CUSTOMER.code, password },
    settings: { base_url: sd.baseUrl, rates: RATES, ...settings },
    http,
    now: () => clock,
  });

let serial = 0;
function request(overrides: Partial<BookingRequest> = {}, draft: Partial<BookingRequest['draft']> = {}): BookingRequest {
  serial += 1;
  const serviceBarcode = `CF0000000${String(2000 + serial)}4`;
  const phones = { consignorPhone: '0216 555 11 22', consigneePhone: '+90 555 111 22 33' };
  const booking = domesticBookingRequest(serial, { serviceBarcode, reference: serviceBarcode, ...phones, packageKg: 2.4 });
  return { ...booking, draft: { ...booking.draft, ...draft }, ...overrides };
}

const sentBy = (from: number) => sd.requests.slice(from);
const ops = (from: number) => sentBy(from).map((r) => r.operation);

describe('the Sendeo adapter: booking', () => {
  it('logs in once, books with SETDELIVERY as the document spells it, then sends the pieces and desi', async () => {
    const from = sd.requests.length;
    const req = request(
      {},
      {
        packages: [
          { package_type: 1, weight: 2.4, length: 30, width: 20, height: 15 },
          { package_type: 1, weight: 0.5, length: 10, width: 10, height: 10 },
        ],
      },
    );
    const booking = await carrier().book(req);
    expect(ops(from)).toEqual(['LoginAES', 'GetCityDistricts', 'GetCityDistricts', 'SETDELIVERY', 'CARGOMEASUREMENTUPDATE']);
    for (const r of sentBy(from)) {
      expect([r.operation, r.validationErrors, r.unknownFields]).toEqual([r.operation, [], []]);
      if (r.operation !== 'LoginAES') expect(r.headers.authorization).toMatch(/^Bearer \S+/);
    }
    const delivery = sd.deliveries.get(req.serviceBarcode)!;
    expect(delivery.request).toMatchObject({
      DeliveryType: 1,
      ReferenceNo: req.serviceBarcode,
      Sender: 'Anadolu Butik',
      SenderCityId: 34,
      SenderDistrictId: 34245,
      SenderPhone: '2165551122',
      Receiver: 'Şükrü Öztürk',
      ReceiverCityId: 6,
      ReceiverGSM: '5551112233',
      PaymentType: 1,
      CollectionType: 0,
      CollectionPrice: 0,
      ServiceType: 1,
    });
    // One line per package, whole numbers rounded up (2.4 kg is declared as 3; 30×20×15/3000 = 3 desi).
    expect(delivery.request.Products).toEqual([
      { Count: 1, ProductCode: '', Description: '', Deci: 3, Weigth: 3, DeciWeight: 3, Price: 0 },
      { Count: 1, ProductCode: '', Description: '', Deci: 1, Weigth: 1, DeciWeight: 1, Price: 0 },
    ]);
    expect(delivery.measurements).toEqual([
      { Quantity: 1, Width: 20, Length: 30, Height: 15, Deci: 3, Weight: 2.4 },
      { Quantity: 1, Width: 10, Length: 10, Height: 10, Deci: 0.33, Weight: 0.5 },
    ]);
    expect(booking).toMatchObject({
      trackingCode: delivery.trackingNumber,
      carrierReference: req.serviceBarcode,
      pickupBooked: true,
      pieceBarcodes: delivery.barcodeNumbers,
      cost: { baseCost: 85 },
    });
    expect(booking.trackingUrl).toContain(encodeURIComponent(req.serviceBarcode));
  });

  it('keeps the token for the next calls and renews it after 20 hours or a 401', async () => {
    const c = carrier();
    const logins = sd.logins;
    await c.book(request());
    await c.book(request());
    expect(sd.logins).toBe(logins + 1);
    clock = new Date(clock.getTime() + 20 * 3600_000);
    await c.book(request());
    expect(sd.logins).toBe(logins + 2);
    sd.expireTokens();
    const from = sd.requests.length;
    await c.book(request());
    expect(sd.logins).toBe(logins + 3);
    expect(sentBy(from).map((r) => [r.operation, r.status])).toEqual(expect.arrayContaining([['LoginAES', 200]]));
  });

  it('refuses before any call what Sendeo would refuse, naming each field', async () => {
    const from = sd.requests.length;
    const refused = await failure(
      carrier().book(
        request(
          {},
          {
            consignee: { name: 'X', country: 'DE', city: 'Berlin', address: '', phone_number: '12' },
            special_services: [{ service_type: 'cash_on_delivery', details: { amount: 5000.01 } }],
          },
        ),
      ),
    );
    expect(refused).toBeInstanceOf(CarrierInputError);
    expect((refused as CarrierInputError).issues.map((i) => i.field)).toEqual([
      'consignee.country',
      'special_services.0.details.amount',
      'consignee.address',
      'consignee.phone_number',
    ]);
    expect(sentBy(from)).toEqual([]);
  });

  it('refuses a party whose district Sendeo does not know, or that names no district, by its city field', async () => {
    const unknown = await failure(
      carrier().book(request({}, { consignee: { name: 'A', country: 'TR', city: 'Atlantis', state: 'Ankara', address: 'x', phone_number: '5551112233' } })),
    );
    expect((unknown as CarrierInputError).issues).toEqual([{ field: 'consignee.city', reason: 'Sendeo knows no district "Atlantis" in Ankara' }]);
    const none = await failure(
      carrier().book(request({}, { consignor: { name: 'A', country: 'TR', city: 'İstanbul', address: 'x', phone_number: '5551112233' } })),
    );
    expect((none as CarrierInputError).issues).toEqual([{ field: 'consignor.city', reason: 'Sendeo needs the district (ilçe) of İstanbul as the city' }]);
  });

  it('collects cash on delivery in TRY, spread over the product lines so none is priced zero', async () => {
    const req = request(
      {},
      {
        packages: [
          { package_type: 1, weight: 1 },
          { package_type: 1, weight: 1 },
          { package_type: 1, weight: 1 },
        ],
        special_services: [{ service_type: 'cash_on_delivery', details: { amount: 100, payment: 'card' } }],
      },
    );
    await carrier().book(req);
    const delivery = sd.deliveries.get(req.serviceBarcode)!;
    expect(delivery.request).toMatchObject({ CollectionType: 2, CollectionPrice: 100 });
    expect(delivery.request.Products!.map((p) => p.Price)).toEqual([33.34, 33.33, 33.33]);
  });

  it('books a return from the customer as DeliveryType 2', async () => {
    const req = request({}, { special_services: [{ service_type: 'return' }] });
    await carrier().book(req);
    expect(sd.deliveries.get(req.serviceBarcode)!.request.DeliveryType).toBe(2);
  });

  it('classifies Sendeo’s answers: its coded refusals are final, bare 5xx and lost connections are retried, bad credentials refused', async () => {
    sd.failNext({ kind: 'status', status: 503 }, { operation: 'SETDELIVERY' });
    expect(await failure(carrier().book(request()))).toBeInstanceOf(RemoteUnavailableError);
    sd.failNext({ kind: 'drop' }, { operation: 'SETDELIVERY' });
    expect(await failure(carrier().book(request()))).toBeInstanceOf(RemoteUnavailableError);
    const wrong = await failure(carrier({}, 'wrong-password').book(request()));
    expect(wrong).toEqual(
      expect.objectContaining({ name: 'CarrierRefusedError', reason: "Sendeo refused the account's customer code or password (HTTP 401)" }),
    );
    // The same ReferenceNo twice: Sendeo's refusal, not a second delivery.
    const req = request();
    await carrier().book(req);
    const again = await failure(carrier().book(req));
    expect(again).toBeInstanceOf(CarrierRefusedError);
    expect(again).not.toBeInstanceOf(CarrierInputError);
  });
});

describe('the Sendeo adapter: exactly once', () => {
  it('finds the delivery a lost SETDELIVERY answer made, by our ReferenceNo, with its piece barcodes', async () => {
    const req = request();
    const c = carrier();
    sd.failNext({ kind: 'applyThenDrop' }, { operation: 'SETDELIVERY' });
    expect(await failure(c.book(req))).toBeInstanceOf(RemoteUnavailableError);
    expect(sd.deliveries.has(req.serviceBarcode)).toBe(true);
    const from = sd.requests.length;
    const found = await c.findBooking(req);
    const delivery = sd.deliveries.get(req.serviceBarcode)!;
    expect(found).toMatchObject({
      state: 'found',
      booking: { trackingCode: delivery.trackingNumber, carrierReference: req.serviceBarcode, pieceBarcodes: delivery.barcodeNumbers },
    });
    expect(ops(from)).toEqual(['GETBARCODE', 'CARGOMEASUREMENTUPDATE']);
    expect(delivery.measurements).toHaveLength(1);
    expect(carrier().sentKey(req)).toBe(req.serviceBarcode);
  });

  it('finds nothing for a ReferenceNo Sendeo does not hold', async () => {
    expect(await carrier().findBooking(request())).toEqual({ state: 'none' });
  });
});

describe('the Sendeo adapter: tracking and cancelling', () => {
  it('reads TRACKDELIVERY’s history by ReferenceNo, in Turkish time, oldest first, with stable ids', async () => {
    const req = request();
    const booking = await carrier().book(req);
    sd.advance(req.serviceBarcode, 102, new Date('2026-11-24T10:00:00Z'));
    sd.advance(req.serviceBarcode, 105, new Date('2026-11-24T14:30:00Z'));
    sd.advance(req.serviceBarcode, 109, new Date('2026-11-25T07:10:00Z'));
    sd.advance(req.serviceBarcode, 111, new Date('2026-11-25T11:45:00Z'));
    const ref = { bookingKey: req.bookingKey, trackingCode: booking.trackingCode, carrierReference: booking.carrierReference };
    const events = await carrier().track(ref);
    expect(events.map((e) => [e.event, e.occurredAt.toISOString()])).toEqual([
      ['PICKED_UP', '2026-11-24T10:00:00.000Z'],
      ['IN_TRANSIT', '2026-11-24T14:30:00.000Z'],
      ['OUT_FOR_DELIVERY', '2026-11-25T07:10:00.000Z'],
      ['DELIVERED', '2026-11-25T11:45:00.000Z'],
    ]);
    expect((await carrier().track(ref)).map((e) => e.eventId)).toEqual(events.map((e) => e.eventId));
    const query = sd.requests.filter((r) => r.operation === 'TRACKDELIVERY').at(-1)!;
    expect(query.query).toEqual({ referenceNo: req.serviceBarcode });
  });

  it('cancels before pickup; after it, Sendeo’s refusal comes back as the reason', async () => {
    const first = request();
    const a = await carrier().book(first);
    expect(
      await carrier().cancel({ bookingKey: first.bookingKey, trackingCode: a.trackingCode, carrierReference: a.carrierReference, inTransit: false }),
    ).toEqual({ accepted: true });
    expect(sd.deliveries.get(first.serviceBarcode)!.cancelled).toBe(true);
    const second = request();
    const b = await carrier().book(second);
    sd.advance(second.serviceBarcode, 102);
    const refused = await carrier().cancel({
      bookingKey: second.bookingKey,
      trackingCode: b.trackingCode,
      carrierReference: b.carrierReference,
      inTransit: false,
    });
    expect(refused).toEqual({ accepted: false, reason: expect.stringContaining('703') });
    expect(
      await carrier().cancel({ bookingKey: second.bookingKey, trackingCode: b.trackingCode, carrierReference: b.carrierReference, inTransit: true }),
    ).toMatchObject({ accepted: false });
  });

  it('maps every status of the document that moves a consignment, and only statuses the document lists', () => {
    for (const code of Object.keys(EVENT_OF_SENDEO_STATUS)) expect(SENDEO_STATUSES[Number(code)]).toBeDefined();
    expect(EVENT_OF_SENDEO_STATUS[111]).toBe('DELIVERED');
    expect(EVENT_OF_SENDEO_STATUS[151]).toBe('RETURNED');
    expect(EVENT_OF_SENDEO_STATUS[101]).toBeUndefined();
  });
});

describe('Sendeo request pieces', () => {
  it('writes phones as the document asks: 10 digits, a GSM when it starts with 5', () => {
    expect(sendeoPhone('+90 (555) 111 22 33')).toEqual({ gsm: '5551112233' });
    expect(sendeoPhone('0212 555 11 22')).toEqual({ phone: '2125551122' });
    expect(sendeoPhone('12345')).toEqual({});
  });

  it('reads Sendeo’s dates: no offset means Turkish time; its dd/MM/yyyy form too', () => {
    expect(sendeoDate('2022-02-04T16:55:17.3590867')?.toISOString()).toBe('2022-02-04T13:55:17.359Z');
    expect(sendeoDate('2022-02-04T16:55:17+03:00')?.toISOString()).toBe('2022-02-04T13:55:17.000Z');
    expect(sendeoDate('04/02/2022 10:00:27')?.toISOString()).toBe('2022-02-04T07:00:27.000Z');
    expect(sendeoDate('soon')).toBeUndefined();
  });
});

describe('Sendeo answers in other shapes the document allows', () => {
  /** A carrier whose HTTP answers are scripted: `answers` by operation (the last path segment). */
  const scripted = (answers: Record<string, { status?: number; body: unknown }>) => {
    const sent: string[] = [];
    const fake = {
      json: async (req: { url: string | URL }) => {
        const operation = String(req.url).split('?')[0].split('/').pop()!;
        sent.push(operation);
        const a = answers[operation] ?? { status: 404, body: null };
        return { status: a.status ?? 200, headers: {}, body: a.body, truncated: false };
      },
      request: async () => {
        throw new Error('not used');
      },
      close: async () => undefined,
    };
    const c = new SendeoCarrier({
      providerId: 1005,
      name: 'Sendeo',
      logoUrl: 'x',
      credentials: { customer_code: 'C', password: 'P' },
      settings: { base_url: 'http://sendeo.test' },
      http: fake as never,
    });
    return { c, sent };
  };

  it('reads a token and answers without the result envelope, keys in camelCase', async () => {
    const { c } = scripted({
      LoginAES: { body: { token: 'T1', customerId: 7 } },
      GetCityDistricts: {
        body: {
          statusCode: 200,
          result: [
            {
              cityId: 34,
              cityName: 'İstanbul',
              districts: [
                { districtId: 34245, name: 'KADIKÖY' },
                { districtId: 9906001, name: 'Çankaya' },
              ],
            },
          ],
        },
      },
      SETDELIVERY: { body: { trackingNumber: '555', trackingUrl: 'https://t/555', barcodeNumbers: ['555001'] } },
      CARGOMEASUREMENTUPDATE: { body: { isSuccess: true } },
    });
    // Çankaya is listed under İstanbul's row here; the city id comes from where the district stands.
    const booked = await c.book(
      request({}, { consignee: { name: 'A', country: 'TR', city: 'Kadıköy', state: 'İstanbul', address: 'x', phone_number: '5551112233' } }),
    );
    expect(booked).toMatchObject({ trackingCode: '555', trackingUrl: 'https://t/555', pieceBarcodes: ['555001'] });
  });

  it('takes a look-up answered without a delivery as nothing held, and another refusal of the look-up as unknown', async () => {
    const empty = scripted({ LoginAES: { body: { result: { Token: 'T' } } }, GETBARCODE: { body: { StatusCode: 200, result: null } } });
    expect(await empty.c.findBooking(request())).toEqual({ state: 'none' });
    const refused = scripted({
      LoginAES: { body: { result: { Token: 'T' } } },
      GETBARCODE: { status: 500, body: { StatusCode: 400, ExceptionMessage: 'Bad Request' } },
    });
    expect(await refused.c.findBooking(request())).toEqual({ state: 'unknown', reason: 'Sendeo GETBARCODE: Bad Request (400)' });
  });
});
