import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CarrierRefusedError, type BookingRequest } from '../../../src/carriers/carrier';
import { RemoteUnavailableError } from '../../../src/carriers/carrier-http';
import { recipientRequest, KolayGelsinCarrier, shipmentIdsInWebhook, type KolayGelsinSettings } from '../../../src/carriers/kolay-gelsin';
import { plateCode } from '../../../src/carriers/turkish-provinces';
import { createOutboundHttp } from '../../../src/http/outbound';
import { domesticBookingRequest } from '../../support/carriers/booking-request';
import { startKolayGelsinDouble, type KolayGelsinDouble } from '../../support/carriers/kolay-gelsin-double';
import { failure } from '../../support/failure';

/**
 * The Kolay Gelsin adapter against the Kolay Gelsin test double, which validates every request with JSON schemas
 * written from the carrier's OpenAPI document (KOLAY-GELSIN-CONTRACT.md): a request that breaks the contract fails.
 */
let kg: KolayGelsinDouble;
const http = createOutboundHttp({ allowPrivate: true });

beforeAll(async () => {
  kg = await startKolayGelsinDouble();
});
afterAll(async () => {
  await http.close();
  await kg.close();
});

const RATES: KolayGelsinSettings['rates'] = {
  bands: [
    { up_to: 2, price: 55 },
    { up_to: 10, price: 80 },
  ],
  per_unit_above: 6,
  max: 30,
  transit_days: 1,
};

const carrier = (settings: Partial<KolayGelsinSettings> = {}, token = kg.token) =>
  new KolayGelsinCarrier({
    providerId: 1003,
    name: 'Kolay Gelsin',
    logoUrl: 'http://x/logo.svg',
    credentials: { token, customer_id: 20, address_id: 28 },
    settings: { base_url: kg.baseUrl, rates: RATES, ...settings },
    http,
  });

let serial = 0;
function request(overrides: Partial<BookingRequest> = {}): BookingRequest {
  serial += 1;
  const serviceBarcode = `CF0000000${String(1000 + serial)}1`;
  return { ...domesticBookingRequest(serial, { serviceBarcode, reference: `SHOP-${serial}`, consigneePhone: '+905551112233', packageKg: 3 }), ...overrides };
}

const sentBy = (from: number) => kg.requests.slice(from);

describe('the Kolay Gelsin adapter', () => {
  it('prices domestic shipments from the account’s rate table by chargeable weight, and nothing abroad', async () => {
    expect(await carrier().quote({ fromCountry: 'TR', toCountry: 'TR', weightKg: 1, desi: 1.5, packageCount: 1 })).toMatchObject({
      baseCost: 55,
      currency: 'TRY',
      transitDays: 1,
    });
    expect(await carrier().quote({ fromCountry: 'TR', toCountry: 'TR', weightKg: 3, desi: 12.2, packageCount: 1 })).toMatchObject({ baseCost: 80 + 3 * 6 });
    expect(await carrier().quote({ fromCountry: 'TR', toCountry: 'TR', weightKg: 31, desi: 1, packageCount: 1 })).toBeNull();
    expect(await carrier().quote({ fromCountry: 'TR', toCountry: 'DE', weightKg: 1, desi: 1, packageCount: 1 })).toBeNull();
    expect(carrier({ rates: undefined }).supportsQuotes).toBe(false);
  });

  it('books with requests that pass the contract’s schemas, and our barcodes on the pieces', async () => {
    const from = kg.requests.length;
    const booking = await carrier().book(request());
    const sent = sentBy(from);
    expect(sent.map((r) => [r.operation, r.outcome, r.validationErrors ?? []])).toEqual([
      ['SaveRecipient', 'ok', []],
      ['SaveIntegrationShipment', 'ok', []],
    ]);
    expect(booking).toMatchObject({ trackingCode: expect.stringMatching(/^\d+$/), pickupBooked: true, cost: { baseCost: 80 } });
    expect(booking.trackingUrl).toContain(booking.trackingCode);
    expect(booking.pieceBarcodes).toEqual([kg.deliveries.get(booking.trackingCode)!.items[0].customerBarcode]);
  });

  it('finds the shipment an earlier try created under the first piece barcode, with its piece barcodes', async () => {
    const req = request();
    const first = await carrier().book(req);
    const from = kg.requests.length;
    const found = await carrier().findBooking(req);
    expect(found).toMatchObject({ state: 'found', booking: { trackingCode: first.trackingCode, pieceBarcodes: first.pieceBarcodes } });
    expect(sentBy(from).map((r) => [r.operation, r.validationErrors ?? []])).toEqual([['GetCorporateShipmentsStatus', []]]);
    expect(carrier().sentKey(req)).toBe(first.pieceBarcodes![0]);
  });

  it('finds nothing for a consignment never booked; a refused look-up is reported, not taken for "nothing"', async () => {
    expect(await carrier().findBooking(request())).toEqual({ state: 'none' });
    kg.faults.refuseNext(1, { operation: 'GetCorporateShipmentsStatus', resultMessage: 'WebhookDefinitionNotFound' });
    expect(await carrier().findBooking(request())).toEqual({ state: 'unknown', reason: 'Kolay Gelsin GetCorporateShipmentsStatus: WebhookDefinitionNotFound' });
  });

  it('classifies Kolay Gelsin’s answers: envelope refusals are final, its generic failure and bare 5xx are retried', async () => {
    kg.faults.refuseNext(1, { operation: 'SaveIntegrationShipment', resultMessage: 'MoveOptionNotFound' });
    expect(await failure(carrier().book(request()))).toEqual(
      expect.objectContaining({ name: 'CarrierRefusedError', reason: 'Kolay Gelsin SaveIntegrationShipment: MoveOptionNotFound' }),
    );
    kg.faults.refuseNext(1, { operation: 'SaveRecipient', resultMessage: 'SomethingWentWrong' });
    expect(await failure(carrier().book(request()))).toBeInstanceOf(RemoteUnavailableError);
    kg.faults.failNext(1, 500);
    expect(await failure(carrier().book(request()))).toBeInstanceOf(RemoteUnavailableError);
    const revoked = await failure(carrier({}, 'not-a-token').book(request()));
    expect(revoked).toBeInstanceOf(CarrierRefusedError);
    expect((revoked as CarrierRefusedError).reason).toContain('token');
    const wrongPath = await failure(carrier({ base_url: kg.baseUrl.replace('/api/request', '/nowhere') }).book(request()));
    expect(wrongPath).toBeInstanceOf(CarrierRefusedError);
  });

  it('refuses a consignee without a Turkish province before calling', async () => {
    const from = kg.requests.length;
    const req = request();
    req.draft = { ...req.draft, consignee: { ...req.draft.consignee, postal_code: null, state_code: null, state: null } };
    expect(await failure(carrier().book(req))).toEqual(expect.objectContaining({ reason: expect.stringContaining('province') }));
    expect(sentBy(from)).toHaveLength(0);
  });

  it('tracks by status query: Kolay Gelsin’s event types become ours, informational ones are skipped', async () => {
    const booking = await carrier().book(request());
    kg.advance(booking.trackingCode, 12);
    kg.advance(booking.trackingCode, 39);
    kg.advance(booking.trackingCode, 18);
    kg.advance(booking.trackingCode, 29);
    const events = await carrier().track({ bookingKey: '', trackingCode: booking.trackingCode, carrierReference: booking.trackingCode });
    expect(events.map((e) => e.event)).toEqual(['PICKED_UP', 'OUT_FOR_DELIVERY', 'DELIVERED']);
    const again = await carrier().track({ bookingKey: '', trackingCode: booking.trackingCode });
    expect(again.map((e) => e.eventId)).toEqual(events.map((e) => e.eventId));
  });

  it('cancels before pickup and in transit (a return), and passes on the refusal after delivery', async () => {
    const a = await carrier().book(request());
    expect(await carrier().cancel({ bookingKey: '', trackingCode: a.trackingCode, inTransit: false })).toEqual({ accepted: true });
    expect(kg.deliveries.get(a.trackingCode)!.cancellation?.kind).toBe('cancelled-before-pickup');
    const b = await carrier().book(request());
    kg.advance(b.trackingCode, 12);
    expect(await carrier().cancel({ bookingKey: '', trackingCode: b.trackingCode, inTransit: true })).toEqual({ accepted: true });
    expect(kg.deliveries.get(b.trackingCode)!.cancellation?.kind).toBe('return-started');
    const c = await carrier().book(request());
    kg.advance(c.trackingCode, 29);
    expect(await carrier().cancel({ bookingKey: '', trackingCode: c.trackingCode, inTransit: true })).toEqual({
      accepted: false,
      reason: expect.stringContaining('ShipmentAlreadyDelivered'),
    });
  });
});

describe('Kolay Gelsin request pieces', () => {
  it('CityId is the plate code: state_code first, then the postal code’s first two digits', () => {
    expect(plateCode({ state_code: '6' })).toBe(6);
    expect(plateCode({ state_code: 'X', postal_code: '34710' })).toBe(34);
    expect(plateCode({ postal_code: '99000' })).toBeUndefined();
    // Then the province by name, as people write it.
    expect(plateCode({ state: 'ISTANBUL' })).toBe(34);
    expect(plateCode({ city: 'Şanlıurfa' })).toBe(63);
    expect(plateCode({ state: 'Duzce' })).toBe(81);
    expect(plateCode({ city: 'Kadıköy' })).toBeUndefined();
    expect(plateCode({})).toBeUndefined();
  });

  it('a business is a corporate recipient; a one-word name gets a dash for the surname the contract requires', () => {
    expect(recipientRequest({ name: 'Anadolu Ltd', party_type: 'business', postal_code: '34710', city: 'Kadıköy', address: 'x' }, 1)).toMatchObject({
      RecipientType: 2,
      RecipientTitle: 'Anadolu Ltd',
      Address: { CityId: 34, AddressTypeId: 2 },
    });
    expect(recipientRequest({ name: 'Cem', postal_code: '06420', city: 'Çankaya', address: 'x' }, 1)).toMatchObject({
      RecipientType: 1,
      RecipientName: 'Cem',
      RecipientSurname: '-',
    });
  });

  it('webhook bodies: webhook.json’s array of pieces and api-docs.md’s flat event name their shipments', () => {
    expect(shipmentIdsInWebhook([{ ShipmentId: '101' }, { ShipmentId: '101' }, { ShipmentId: '102' }])).toEqual(['101', '102']);
    expect(shipmentIdsInWebhook({ ShipmentId: 103, CargoEventType: '29' })).toEqual(['103']);
    expect(shipmentIdsInWebhook('nonsense')).toEqual([]);
    expect(shipmentIdsInWebhook([{ ShipmentId: 'a b' }, { ShipmentId: 'x'.repeat(41) }, null])).toEqual([]);
  });
});
