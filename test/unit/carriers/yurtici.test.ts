import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CarrierInputError, CarrierRefusedError, type BookingRequest } from '../../../src/carriers/carrier';
import { YurticiCarrier, yurticiMovementEvent, yurticiTime, type YurticiSettings } from '../../../src/carriers/yurtici';
import { createOutboundHttp } from '../../../src/http/outbound';
import { domesticBookingRequest } from '../../support/carriers/booking-request';
import { YURTICI_TEST_USER_SENDER_PAYS, type YurticiUser } from '../../support/carriers/yurtici.schemas';
import { startYurticiDouble, type YurticiDouble } from '../../support/carriers/yurtici-double';
import { failure } from '../../support/failure';

/**
 * The Yurtiçi Kargo adapter against the Yurtiçi test double, written from Yurtiçi's published contract
 * (YURTICI-CONTRACT.md): the double refuses what the document refuses (its error codes), records every element
 * the service would ignore, and refuses a key asked again within a minute.
 */
let yk: YurticiDouble;
const clock = new Date('2026-11-24T09:00:00Z');
const http = createOutboundHttp({ allowPrivate: true });
const COD_USER: YurticiUser = { userName: 'YKTESTTT', password: 'YK', paymentType: 'sender', cashOnDelivery: ['cash', 'card'] };

beforeAll(async () => {
  yk = await startYurticiDouble({ now: () => clock, users: [YURTICI_TEST_USER_SENDER_PAYS, COD_USER] });
});
afterAll(async () => {
  await http.close();
  await yk.close();
});

const carrier = (settings: Partial<YurticiSettings> = {}, user: YurticiUser = YURTICI_TEST_USER_SENDER_PAYS, password = user.password) =>
  new YurticiCarrier({
    providerId: 1008,
    name: 'Yurtiçi',
    logoUrl: 'http://x/logo.svg',
    credentials: { user_name: user.userName, password },
    settings: { base_url: yk.endpointUrl, rates: { bands: [{ up_to: 10, price: 90 }] }, ...settings },
    http,
    now: () => clock,
  });

let serial = 0;
function request(draft: Partial<BookingRequest['draft']> = {}): BookingRequest {
  serial += 1;
  const serviceBarcode = `CF0000000${String(4000 + serial)}4`;
  const booking = domesticBookingRequest(serial, { serviceBarcode, reference: `ORDER-${serial}`, consigneePhone: '+90 312 555 11 22', packageKg: 2.4 });
  return { ...booking, draft: { ...booking.draft, ...draft } };
}
const sentBy = (from: number) => yk.requests.slice(from);
const ref = (req: BookingRequest) => ({ bookingKey: req.bookingKey, trackingCode: req.serviceBarcode, carrierReference: req.serviceBarcode });

describe('the Yurtiçi adapter: booking', () => {
  it('books one ShippingOrderVO under our barcode, its children unqualified as the schema declares', async () => {
    const before = yk.requests.length;
    const req = request();
    const booking = await carrier().book(req);
    const [sent] = sentBy(before);
    expect([sent.operation, sent.outcome, sent.errors, sent.unknownFields]).toEqual(['createShipment', 'ok', [], []]);
    expect(booking).toMatchObject({ trackingCode: req.serviceBarcode, carrierReference: req.serviceBarcode, pickupBooked: false, cost: { baseCost: 90 } });
    expect(yk.shipments.get(req.serviceBarcode)!.order).toMatchObject({
      cargoKey: req.serviceBarcode,
      invoiceKey: req.serviceBarcode,
      receiverCustName: 'Şükrü Öztürk',
      receiverAddress: 'Atatürk Blv. No:5',
      cityName: 'Ankara',
      townName: 'Çankaya',
      receiverPhone1: '3125551122',
      cargoCount: '1',
      orgReceiverCustId: req.reference,
    });
    expect(yk.shipments.get(req.serviceBarcode)!.order.desi).toBeUndefined();
  });

  it('collects on delivery with a COD user, the invoice number as its document', async () => {
    const req = request({
      invoice_number: 'INV-5146846',
      special_services: [{ service_type: 'cash_on_delivery', details: { amount: 45.35, payment: 'card' } }],
    });
    await carrier({ cash_on_delivery: ['cash', 'card'] }, COD_USER).book(req);
    expect(yk.shipments.get(req.serviceBarcode)!.order).toMatchObject({
      ttInvoiceAmount: '45.35',
      ttCollectionType: '1',
      ttDocumentId: '5146846',
      ttDocumentSaveType: '0',
      dcSelectedCredit: '1',
      dcCreditRule: '1',
    });
  });

  it('refuses before any call what Yurtiçi would refuse, naming the draft’s fields', async () => {
    const before = yk.requests.length;
    const req = request({ special_services: [{ service_type: 'cash_on_delivery', details: { amount: 10 } }] });
    req.draft.consignee = { ...req.draft.consignee, name: 'Al', address: 'Kısa', phone_number: '555' };
    const error = await failure(carrier().book(req));
    expect(error).toBeInstanceOf(CarrierInputError);
    expect((error as CarrierInputError).issues.map((i) => i.field)).toEqual([
      'consignee.phone_number',
      'consignee.name',
      'consignee.address',
      'special_services.0.details.payment',
      'invoice_number',
    ]);
    expect(sentBy(before)).toEqual([]);
  });

  it('gives Yurtiçi’s own refusal with its code as the carrier’s reason', async () => {
    const req = request();
    await carrier().book(req);
    const error = await failure(carrier().book(req));
    expect(error).toBeInstanceOf(CarrierRefusedError);
    expect((error as CarrierRefusedError).reason).toMatch(/^Yurtiçi Kargo: .*\(60020\)$/);
    expect(await failure(carrier({}, YURTICI_TEST_USER_SENDER_PAYS, 'wrong').book(request()))).toBeInstanceOf(CarrierRefusedError);
  });

  it('finds a booking whose answer was lost by its cargoKey, and none for a key never booked', async () => {
    const req = request();
    yk.failNext({ kind: 'applyThenDrop' }, { operation: 'createShipment' });
    await expect(carrier().book(req)).rejects.toThrow();
    expect(await carrier().findBooking(req)).toMatchObject({ state: 'found', booking: { trackingCode: req.serviceBarcode } });
    expect(await carrier().findBooking(request())).toEqual({ state: 'none' });
  });
});

describe('the Yurtiçi adapter: tracking and cancelling', () => {
  it('asks for several keys in one queryShipment and reads the movements in Turkish time to delivered', async () => {
    const a = request();
    const b = request();
    await carrier().book(a);
    await carrier().book(b);
    yk.forgetQueries();
    yk.pickUp(a.serviceBarcode, { at: new Date('2026-11-24T10:00:00Z') });
    yk.move(a.serviceBarcode, 'loaded', { at: new Date('2026-11-24T15:00:00Z') });
    yk.move(a.serviceBarcode, 'outForDelivery', { at: new Date('2026-11-25T07:00:00Z') });
    yk.deliver(a.serviceBarcode, { at: new Date('2026-11-25T10:30:00Z') });
    const before = yk.requests.length;
    const answers = await carrier().trackMany([ref(a), ref(b)]);
    expect(sentBy(before).map((r) => r.operation)).toEqual(['queryShipment']);
    const eventsOfA = (answers.find((x) => x.shipment.carrierReference === a.serviceBarcode) as { events: { event: string; occurredAt: Date }[] }).events;
    expect(eventsOfA.map((e) => e.event)).toEqual(['PICKED_UP', 'IN_TRANSIT', 'OUT_FOR_DELIVERY', 'DELIVERED']);
    expect(eventsOfA.at(-1)!.occurredAt.toISOString()).toBe('2026-11-25T10:30:00.000Z');
    expect(answers.find((x) => x.shipment.carrierReference === b.serviceBarcode)).toMatchObject({ events: [] });
    // Asked again within the minute: Yurtiçi refuses that key, which is that shipment's answer, not the round's.
    const again = await carrier().trackMany([ref(a)]);
    expect(again[0]).toHaveProperty('error');
    expect(carrier().trackingLimits).toEqual({ batchSize: 50, minReaskMs: 60_000 });
  });

  it('cancels before the branch issues its document; after it, answers the status Yurtiçi gives', async () => {
    const a = request();
    await carrier().book(a);
    expect(await carrier().cancel({ ...ref(a), inTransit: false })).toEqual({ accepted: true });
    expect(yk.shipments.get(a.serviceBarcode)!.status).toBe('CNL');

    const b = request();
    await carrier().book(b);
    yk.pickUp(b.serviceBarcode);
    const refused = await carrier().cancel({ ...ref(b), inTransit: false });
    expect(refused.accepted).toBe(false);
    expect(refused.reason).toContain('IND');
    expect(yk.shipments.get(b.serviceBarcode)!.status).toBe('IND');
  });

  it('reads Yurtiçi’s date and time pairs and movement names', () => {
    expect(yurticiTime('20110711', '082304')?.toISOString()).toBe('2011-07-11T05:23:04.000Z');
    expect(yurticiTime('2011-07-11', '0823')).toBeUndefined();
    expect(yurticiMovementEvent('Kargo Indirildi')).toBe('IN_TRANSIT');
    expect(yurticiMovementEvent('Kargo Teslim Edilemedi')).toBe('EXCEPTION');
    expect(yurticiMovementEvent('KARGO TESLİM EDİLDİ')).toBe('DELIVERED');
    expect(yurticiMovementEvent('Kargo Göndericiye İade Edildi')).toBe('RETURNED');
  });
});
