import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ArasCarrier, arasMovementEvent, arasTime, type ArasSettings } from '../../../src/carriers/aras';
import { CarrierInputError, CarrierRefusedError, type BookingRequest } from '../../../src/carriers/carrier';
import { createOutboundHttp } from '../../../src/http/outbound';
import { startArasDouble, type ArasDouble } from '../../support/carriers/aras-double';
import { ARAS_TEST_ORDER_CREDENTIALS, ARAS_TEST_QUERY_CREDENTIALS } from '../../support/carriers/aras.schemas';
import { domesticBookingRequest } from '../../support/carriers/booking-request';
import { failure } from '../../support/failure';

/**
 * The Aras Kargo adapter against the Aras test double, written from Aras' own documents (ARAS-CONTRACT.md): the
 * double binds what ASP.NET and WCF bind, refuses with the documents' result codes and records every element the
 * services would ignore.
 */
let aras: ArasDouble;
const clock = new Date('2026-11-24T09:00:00Z');
const http = createOutboundHttp({ allowPrivate: true });

beforeAll(async () => {
  aras = await startArasDouble({ now: () => clock });
});
afterAll(async () => {
  await http.close();
  await aras.close();
});

const carrier = (settings: Partial<ArasSettings> = {}, password: string = ARAS_TEST_ORDER_CREDENTIALS.password) =>
  new ArasCarrier({
    providerId: 1009,
    name: 'Aras',
    logoUrl: 'http://x/logo.svg',
    credentials: { user_name: ARAS_TEST_ORDER_CREDENTIALS.userName, password, customer_code: ARAS_TEST_QUERY_CREDENTIALS.customerCode },
    settings: { base_url: aras.orderServiceUrl, query_url: aras.queryServiceUrl, rates: { bands: [{ up_to: 10, price: 95 }] }, ...settings },
    http,
    now: () => clock,
  });

let serial = 0;
function request(draft: Partial<BookingRequest['draft']> = {}): BookingRequest {
  serial += 1;
  const serviceBarcode = `CF0000000${String(5000 + serial)}4`;
  const booking = domesticBookingRequest(serial, { serviceBarcode, reference: `ORDER-${serial}`, consigneePhone: '+90 532 111 22 33', packageKg: 2.4 });
  return { ...booking, draft: { ...booking.draft, ...draft } };
}
const sentBy = (from: number) => aras.requests.slice(from);
const ref = (req: BookingRequest) => ({ bookingKey: req.bookingKey, trackingCode: req.serviceBarcode, carrierReference: req.serviceBarcode });

describe('the Aras adapter: booking', () => {
  it('sends one Order under our code with a barcode per piece, as the document names its fields', async () => {
    const before = aras.requests.length;
    const req = request();
    const booking = await carrier().book(req);
    const [sent] = sentBy(before);
    expect([sent.operation, sent.outcome, sent.validationErrors, sent.unknownFields]).toEqual(['SetOrder', 'ok', [], []]);
    expect(booking).toMatchObject({
      trackingCode: req.serviceBarcode,
      carrierReference: req.serviceBarcode,
      pieceBarcodes: [`${req.serviceBarcode}01`],
      cost: { baseCost: 95 },
    });
    const held = aras.orders.get(req.serviceBarcode)!;
    expect(held.fields).toMatchObject({
      IntegrationCode: req.serviceBarcode,
      ReceiverName: 'Şükrü Öztürk',
      ReceiverCityName: 'Ankara',
      ReceiverTownName: 'Çankaya',
      ReceiverPhone1: '5321112233',
      PieceCount: '1',
      IsCod: '0',
      PayorTypeCode: '1',
    });
    expect(held.pieces.map((p) => p.BarcodeNumber)).toEqual([`${req.serviceBarcode}01`]);
  });

  it('collects on delivery when the draft asks, and refuses before any call what Aras would refuse', async () => {
    const cod = request({ special_services: [{ service_type: 'cash_on_delivery', details: { amount: 149.9, payment: 'card' } }] });
    await carrier().book(cod);
    expect(aras.orders.get(cod.serviceBarcode)!.fields).toMatchObject({ IsCod: '1', CodAmount: '149.9', CodCollectionType: '1' });

    const before = aras.requests.length;
    const bad = request({ special_services: [{ service_type: 'cash_on_delivery', details: { amount: 10 } }] });
    bad.draft.consignee = { ...bad.draft.consignee, city: 'Ankara', phone_number: '12' };
    const error = await failure(carrier({ payor_type: 2 }).book(bad));
    expect(error).toBeInstanceOf(CarrierInputError);
    expect((error as CarrierInputError).issues.map((i) => i.field)).toEqual(['consignee.city', 'consignee.phone_number', 'special_services.0']);
    expect(sentBy(before)).toEqual([]);
  });

  it('gives Aras’ own refusal with its result code as the carrier’s reason', async () => {
    const error = await failure(carrier({}, 'wrong').book(request()));
    expect(error).toBeInstanceOf(CarrierRefusedError);
    expect((error as CarrierRefusedError).reason).toMatch(/^Aras Kargo: .*\(1000\)$/);
  });

  it('finds an order whose answer was lost by its integration code, with its pieces, and none for a code never sent', async () => {
    const req = request();
    aras.failNext({ kind: 'applyThenDrop' }, { operation: 'SetOrder' });
    await expect(carrier().book(req)).rejects.toThrow();
    expect(await carrier().findBooking(req)).toMatchObject({
      state: 'found',
      booking: { trackingCode: req.serviceBarcode, pieceBarcodes: [`${req.serviceBarcode}01`] },
    });
    expect(await carrier().findBooking(request())).toEqual({ state: 'none' });
  });
});

describe('the Aras adapter: tracking and cancelling', () => {
  it('knows nothing before the branch has the cargo, then reads its movements and status in Turkish time to delivered', async () => {
    const req = request();
    await carrier().book(req);
    expect(await carrier().track(ref(req))).toEqual([]);
    aras.advance(req.serviceBarcode, 'received', { at: new Date('2026-11-24T10:00:00Z') });
    aras.advance(req.serviceBarcode, 'inTransit', { at: new Date('2026-11-24T15:00:00Z') });
    aras.advance(req.serviceBarcode, 'outForDelivery', { at: new Date('2026-11-25T07:00:00Z') });
    aras.advance(req.serviceBarcode, 'delivered', { at: new Date('2026-11-25T10:30:00Z') });
    const before = aras.requests.length;
    const events = await carrier().track(ref(req));
    expect(sentBy(before).map((r) => [r.operation, r.outcome])).toEqual([
      ['GetQueryJSON', 'ok'],
      ['GetQueryJSON', 'ok'],
    ]);
    expect(events.map((e) => [e.event, e.occurredAt.toISOString()])).toEqual([
      ['PICKED_UP', '2026-11-24T10:00:00.000Z'],
      ['IN_TRANSIT', '2026-11-24T15:00:00.000Z'],
      ['OUT_FOR_DELIVERY', '2026-11-25T07:00:00.000Z'],
      ['DELIVERED', '2026-11-25T10:30:00.000Z'],
    ]);
  });

  it('a returned cargo is RETURNED (TIP_KODU 3), whatever its status code on the way back', async () => {
    const req = request();
    await carrier().book(req);
    aras.advance(req.serviceBarcode, 'received');
    aras.advance(req.serviceBarcode, 'returned', { reason: 'ALICI KARGOYU KABUL ETMİYOR' });
    expect((await carrier().track(ref(req))).map((e) => e.event)).toEqual(['PICKED_UP', 'RETURNED']);
  });

  it('deletes an order before its waybill is cut; after it, answers Aras’ refusal (999)', async () => {
    const a = request();
    await carrier().book(a);
    expect(await carrier().cancel({ ...ref(a), inTransit: false })).toEqual({ accepted: true });
    expect(aras.orders.has(a.serviceBarcode)).toBe(false);

    const b = request();
    await carrier().book(b);
    aras.advance(b.serviceBarcode, 'received');
    const refused = await carrier().cancel({ ...ref(b), inTransit: false });
    expect(refused.accepted).toBe(false);
    expect(refused.reason).toMatch(/\(999\)$/);
  });

  it('reads Aras’ times and movement texts', () => {
    expect(arasTime('24.11.2026 13:00:05')?.toISOString()).toBe('2026-11-24T10:00:05.000Z');
    expect(arasTime('25.11.2026', '13:30')?.toISOString()).toBe('2026-11-25T10:30:00.000Z');
    expect(arasTime('2026-11-25')).toBeUndefined();
    expect(arasMovementEvent('Kargo kabul')).toBe('PICKED_UP');
    expect(arasMovementEvent('Şubede araç yükleme')).toBe('IN_TRANSIT');
    expect(arasMovementEvent('Dağıtıma çıkış')).toBe('OUT_FOR_DELIVERY');
    expect(arasMovementEvent('İade')).toBe('RETURNED');
    expect(arasMovementEvent('Devir Kargo teslim edilemedi')).toBe('EXCEPTION');
    expect(arasMovementEvent('Teslimat Kargo teslim edildi')).toBe('DELIVERED');
    expect(arasMovementEvent('Şubede araç indirme Kargo teslimat şubesine ulaştı')).toBe('IN_TRANSIT');
  });
});
