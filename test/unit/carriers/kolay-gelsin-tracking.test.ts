import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CarrierBusyError, CarrierRefusedError, type Booking, type BookingRequest, type ShipmentRef } from '../../../src/carriers/carrier';
import { RemoteUnavailableError } from '../../../src/carriers/carrier-http';
import { KolayGelsinCarrier } from '../../../src/carriers/kolay-gelsin';
import { createOutboundHttp } from '../../../src/http/outbound';
import { domesticBookingRequest } from '../../support/carriers/booking-request';
import { startKolayGelsinDouble, validateWebhookPayload, type KolayGelsinDouble } from '../../support/carriers/kolay-gelsin-double';
import { failure } from '../../support/failure';

/**
 * Batch tracking of the Kolay Gelsin adapter against its test double, which checks every request against the contract's
 * schemas (KOLAY-GELSIN-CONTRACT.md): GetCorporateShipmentsStatus names several ShipmentIds in one request.
 */
let kg: KolayGelsinDouble;
const http = createOutboundHttp({ allowPrivate: true });
// A fixed clock: events without a TimeStamp take the carrier's "now", so two answers compare equal.
const NOW = new Date('2025-03-04T10:00:00.000Z');

beforeAll(async () => {
  kg = await startKolayGelsinDouble();
});
afterAll(async () => {
  await http.close();
  await kg.close();
});

const carrier = (lookupBudget?: () => Promise<void>) =>
  new KolayGelsinCarrier({
    providerId: 1003,
    name: 'Kolay Gelsin',
    logoUrl: 'http://x/logo.svg',
    credentials: { token: kg.token, customer_id: 20, address_id: 28 },
    settings: { base_url: kg.baseUrl },
    http,
    now: () => NOW,
    lookupBudget,
  });

let serial = 0;
function request(packages = 1): BookingRequest {
  serial += 1;
  const req = domesticBookingRequest(serial, {
    serviceBarcode: `CF0000000${String(2000 + serial)}1`,
    reference: `TRK-${serial}`,
    consigneePhone: '+905551112233',
    packageKg: 2,
  });
  req.draft = { ...req.draft, packages: Array.from({ length: packages }, () => req.draft.packages![0]) };
  return req;
}

const ref = (b: Booking, withReference = true): ShipmentRef => ({
  bookingKey: '',
  trackingCode: b.trackingCode,
  ...(withReference ? { carrierReference: b.carrierReference } : {}),
});
const sentBy = (from: number) => kg.requests.slice(from);

describe('Kolay Gelsin batch tracking', () => {
  it('asks three shipments (two known, one unknown) in ONE status request and answers each with its events', async () => {
    const one = await carrier().book(request());
    const two = await carrier().book(request(2));
    kg.advance(one.trackingCode, { cargoEventType: 12, locationName: 'İSTANBUL' });
    kg.advance(one.trackingCode, 39);
    kg.advance(one.trackingCode, 18);
    kg.advance(two.trackingCode, 12);
    kg.advance(two.trackingCode, 29);
    const unknown: ShipmentRef = { bookingKey: '', trackingCode: '999999999' };
    let budget = 0;
    const from = kg.requests.length;

    const answers = await carrier(async () => void (budget += 1)).trackMany([ref(one), ref(two, false), unknown]);

    const sent = sentBy(from);
    expect(sent.map((r) => [r.operation, r.outcome, r.validationErrors ?? []])).toEqual([['GetCorporateShipmentsStatus', 'ok', []]]);
    expect(sent[0].body).toEqual({ OnlyLatestEvents: false, ShipmentIdList: [one.trackingCode, two.trackingCode, '999999999'] });
    // The answer the double gave is the contract's: one model per piece of each known shipment, none for the unknown one.
    const models = (sent[0].response as { Payload: { ShipmentModelList: { ShipmentId: string }[] } }).Payload.ShipmentModelList;
    expect(validateWebhookPayload(models)).toBe(true);
    expect(models.map((m) => m.ShipmentId)).toEqual([one.trackingCode, two.trackingCode, two.trackingCode]);
    expect(budget).toBe(1);

    expect(answers.map((a) => [a.shipment.trackingCode, 'events' in a ? a.events.map((e) => e.event) : a.error])).toEqual([
      [one.trackingCode, ['PICKED_UP', 'OUT_FOR_DELIVERY']],
      [two.trackingCode, ['PICKED_UP', 'DELIVERED']],
      ['999999999', []],
    ]);
    expect(answers.map((a) => a.shipment)).toEqual([ref(one), ref(two, false), unknown]);
  });

  it('answers each shipment exactly the events `track` answers for it', async () => {
    const one = await carrier().book(request());
    const two = await carrier().book(request(3));
    kg.advance(one.trackingCode, { cargoEventType: 12, locationName: 'KADIKÖY' });
    kg.advance(one.trackingCode, 26);
    kg.advance(two.trackingCode, 12);
    kg.advance(two.trackingCode, 17);
    kg.advance(two.trackingCode, 46);
    const shipments = [ref(one), ref(two), { bookingKey: '', trackingCode: '888888888' }];

    const answers = await carrier().trackMany(shipments);

    expect(answers).toHaveLength(3);
    for (const [i, shipment] of shipments.entries()) {
      expect(answers[i]).toEqual({ shipment, events: await carrier().track(shipment) });
    }
    expect(answers[0]).toMatchObject({ events: [{ event: 'PICKED_UP', location: 'KADIKÖY' }, { event: 'EXCEPTION' }] });
  });

  it('throws when the whole request fails: a refusal, Kolay Gelsin’s generic failure, a bare 5xx, an exhausted budget', async () => {
    const one = await carrier().book(request());
    const shipments = [ref(one), { bookingKey: '', trackingCode: '777777777' }];

    kg.faults.refuseNext(1, { operation: 'GetCorporateShipmentsStatus', resultMessage: 'CustomerNotFound' });
    const refused = await failure(carrier().trackMany(shipments));
    expect(refused).toBeInstanceOf(CarrierRefusedError);
    expect((refused as CarrierRefusedError).reason).toBe('Kolay Gelsin GetCorporateShipmentsStatus: CustomerNotFound');

    kg.faults.refuseNext(1, { operation: 'GetCorporateShipmentsStatus', resultMessage: 'SomethingWentWrong' });
    expect(await failure(carrier().trackMany(shipments))).toBeInstanceOf(RemoteUnavailableError);
    kg.faults.failNext(1, 503);
    expect(await failure(carrier().trackMany(shipments))).toBeInstanceOf(RemoteUnavailableError);

    const from = kg.requests.length;
    const busy = new CarrierBusyError(1003, 60_000, 'lookup budget spent');
    expect(
      await failure(
        carrier(async () => {
          throw busy;
        }).trackMany(shipments),
      ),
    ).toBe(busy);
    expect(sentBy(from)).toHaveLength(0);
  });

  it('names at most batchSize shipments a request (the contract sets no limit; 100 is ours), and sends none for none', async () => {
    expect(carrier().trackingLimits).toEqual({ batchSize: 100, minReaskMs: 0 });
    const shipments = Array.from({ length: 101 }, (_v, i) => ({ bookingKey: '', trackingCode: String(700000000 + i) }));
    let budget = 0;
    const from = kg.requests.length;

    const answers = await carrier(async () => void (budget += 1)).trackMany(shipments);

    expect(sentBy(from).map((r) => [r.operation, (r.body as { ShipmentIdList: string[] }).ShipmentIdList.length, r.validationErrors ?? []])).toEqual([
      ['GetCorporateShipmentsStatus', 100, []],
      ['GetCorporateShipmentsStatus', 1, []],
    ]);
    expect(budget).toBe(2);
    expect(answers).toEqual(shipments.map((shipment) => ({ shipment, events: [] })));

    const before = kg.requests.length;
    expect(await carrier().trackMany([])).toEqual([]);
    expect(kg.requests.length).toBe(before);
  });
});
