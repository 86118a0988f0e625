import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CarrierInputError, CarrierRefusedError, type BookingRequest } from '../../../src/carriers/carrier';
import { SuratCarrier, suratMovementEvent, suratTime, type SuratSettings } from '../../../src/carriers/surat';
import { createOutboundHttp } from '../../../src/http/outbound';
import { domesticBookingRequest } from '../../support/carriers/booking-request';
import { SURAT_TEST_ACCOUNT, SURAT_TEST_COD_ACCOUNT, type SuratAccount } from '../../support/carriers/surat.schemas';
import { startSuratDouble, type SuratDouble } from '../../support/carriers/surat-double';
import { failure } from '../../support/failure';

/**
 * The Sürat Kargo adapter against the Sürat test double, written from Sürat's published contract
 * (SURAT-CONTRACT.md): the double binds what ASP.NET binds and records every element its model does not know, so
 * a request that breaks the contract fails here.
 */
let sd: SuratDouble;
const clock = new Date('2026-11-24T09:00:00Z');
const http = createOutboundHttp({ allowPrivate: true });

beforeAll(async () => {
  sd = await startSuratDouble({ now: () => clock });
});
afterAll(async () => {
  await http.close();
  await sd.close();
});

const carrier = (settings: Partial<SuratSettings> = {}, account: SuratAccount = SURAT_TEST_ACCOUNT, password = account.sifre) =>
  new SuratCarrier({
    providerId: 1007,
    name: 'Sürat',
    logoUrl: 'http://x/logo.svg',
    credentials: { account_code: account.cariKodu, password, web_service_password: account.webSifre },
    settings: { base_url: sd.serviceUrl, rates: { bands: [{ up_to: 10, price: 80 }] }, ...settings },
    http,
    now: () => clock,
  });

let serial = 0;
function request(draft: Partial<BookingRequest['draft']> = {}): BookingRequest {
  serial += 1;
  const serviceBarcode = `CF0000000${String(3000 + serial)}4`;
  const booking = domesticBookingRequest(serial, { serviceBarcode, reference: `ORDER-${serial}`, consigneePhone: '+90 555 111 22 33', packageKg: 2.4 });
  return { ...booking, draft: { ...booking.draft, ...draft } };
}
const sentBy = (from: number) => sd.requests.slice(from);

describe('the Sürat adapter: booking', () => {
  it('books with the GonderiModel as the WSDL names it, under our code, and answers Sürat’s 14-digit barcode', async () => {
    const before = sd.requests.length;
    const req = request();
    const booking = await carrier().book(req);
    const [sent] = sentBy(before);
    expect([sent.operation, sent.outcome, sent.validationErrors, sent.unknownFields]).toEqual(['GonderiyiKargoyaGonderYeniSiparisBarkodOlustur', 'ok', [], []]);
    expect(booking.trackingCode).toMatch(/^\d{14}$/);
    expect(booking.carrierReference).toBe(req.serviceBarcode);
    expect(booking.trackingUrl).toContain(booking.trackingCode);
    expect(booking.pickupBooked).toBe(false);
    expect(booking.cost).toMatchObject({ baseCost: 80, currency: 'TRY' });
    const held = sd.find(req.serviceBarcode)!;
    expect(held.barcode).toBe(booking.trackingCode);
    expect(held.gonderi).toMatchObject({
      KisiKurum: 'Şükrü Öztürk',
      AliciAdresi: 'Atatürk Blv. No:5 06420',
      Il: 'Ankara',
      Ilce: 'Çankaya',
      TelefonCep: '5551112233',
      KargoTuru: 3,
      OdemeTipi: 1,
      OzelKargoTakipNo: req.serviceBarcode,
      ReferansNo: req.reference,
      Adet: 1,
      BirimKg: '2.4',
      KargoIcerigi: 'Kupa',
      KapidanOdemeTahsilatTipi: 0,
      TeslimSekli: 1,
    });
  });

  it('books cash on delivery on the account’s COD account, with the waybill’s serial and number', async () => {
    const req = request({ invoice_number: 'A 778899', special_services: [{ service_type: 'cash_on_delivery', details: { amount: 149.9 } }] });
    await carrier({ cash_on_delivery: true }, SURAT_TEST_COD_ACCOUNT).book(req);
    expect(sd.find(req.serviceBarcode)!.gonderi).toMatchObject({
      KapidanOdemeTahsilatTipi: 1,
      KapidanOdemeTutari: '149.9',
      IrsaliyeSeriNo: 'A',
      IrsaliyeSiraNo: '778899',
    });
  });

  it('refuses before any call what Sürat would refuse, naming the draft’s fields', async () => {
    const before = sd.requests.length;
    const cod = request({ special_services: [{ service_type: 'cash_on_delivery', details: { amount: 100 } }] });
    const error = await failure(carrier().book(cod));
    expect(error).toBeInstanceOf(CarrierInputError);
    expect((error as CarrierInputError).issues.map((i) => i.field)).toEqual(['special_services.0', 'invoice_number']);
    const noDistrict = request();
    noDistrict.draft.consignee = { ...noDistrict.draft.consignee, city: 'Ankara', phone_number: '12' };
    const issues = ((await failure(carrier().book(noDistrict))) as CarrierInputError).issues.map((i) => i.field);
    expect(issues).toEqual(['consignee.city', 'consignee.phone_number']);
    expect(sentBy(before)).toEqual([]);
  });

  it('gives Sürat’s own refusal (isError) as the carrier’s reason', async () => {
    const error = await failure(carrier({}, SURAT_TEST_ACCOUNT, 'wrong').book(request()));
    expect(error).toBeInstanceOf(CarrierRefusedError);
    expect((error as CarrierRefusedError).reason).toMatch(/^Sürat Kargo: /);
  });

  it('finds a booking whose answer was lost by our code (WebSiparisKodu), and none for a code never booked', async () => {
    const req = request();
    sd.failNext({ kind: 'applyThenDrop' }, { operation: 'GonderiyiKargoyaGonderYeniSiparisBarkodOlustur' });
    await expect(carrier().book(req)).rejects.toThrow();
    const found = await carrier().findBooking(req);
    expect(found).toMatchObject({ state: 'found', booking: { trackingCode: sd.find(req.serviceBarcode)!.barcode, carrierReference: req.serviceBarcode } });
    expect(await carrier().findBooking(request())).toEqual({ state: 'none' });
  });
});

describe('the Sürat adapter: tracking and cancelling', () => {
  it('reads the movements in Turkish time, oldest first, to delivered', async () => {
    const req = request();
    const booking = await carrier().book(req);
    sd.pickUp(req.serviceBarcode, { at: new Date('2026-11-24T10:00:00Z') });
    sd.inTransit(req.serviceBarcode, { at: new Date('2026-11-24T18:30:00Z') });
    sd.outForDelivery(req.serviceBarcode, { at: new Date('2026-11-25T07:15:00Z') });
    sd.deliver(req.serviceBarcode, { at: new Date('2026-11-25T11:40:00Z') });
    const events = await carrier().track({ bookingKey: req.bookingKey, trackingCode: booking.trackingCode, carrierReference: booking.carrierReference });
    expect(events.map((e) => [e.event, e.occurredAt.toISOString()])).toEqual([
      ['PICKED_UP', '2026-11-24T10:00:00.000Z'],
      ['IN_TRANSIT', '2026-11-24T18:30:00.000Z'],
      ['OUT_FOR_DELIVERY', '2026-11-25T07:15:00.000Z'],
      ['DELIVERED', '2026-11-25T11:40:00.000Z'],
    ]);
    expect(new Set(events.map((e) => e.eventId)).size).toBe(4);
    expect(events[0].location).toBeTruthy();
  });

  it('withdraws before pickup; after pickup it answers Sürat’s refusal, and in transit refuses without asking', async () => {
    const a = request();
    const bookedA = await carrier().book(a);
    expect(
      await carrier().cancel({ bookingKey: a.bookingKey, trackingCode: bookedA.trackingCode, carrierReference: bookedA.carrierReference, inTransit: false }),
    ).toEqual({
      accepted: true,
    });
    expect(sd.find(a.serviceBarcode)!.withdrawal?.reason).toBeTruthy();

    const b = request();
    const bookedB = await carrier().book(b);
    sd.pickUp(b.serviceBarcode);
    const refused = await carrier().cancel({
      bookingKey: b.bookingKey,
      trackingCode: bookedB.trackingCode,
      carrierReference: bookedB.carrierReference,
      inTransit: false,
    });
    expect(refused.accepted).toBe(false);
    expect(refused.reason).toMatch(/^Sürat Kargo: HATA/);
    const before = sd.requests.length;
    expect((await carrier().cancel({ bookingKey: b.bookingKey, trackingCode: bookedB.trackingCode, inTransit: true })).accepted).toBe(false);
    expect(sentBy(before)).toEqual([]);
  });

  it('maps movement texts by keyword and reads both time forms', () => {
    expect(suratMovementEvent('Kargo Kabul')).toBe('PICKED_UP');
    expect(suratMovementEvent('İADE OLARAK TESLİM EDİLDİ')).toBe('RETURNED');
    expect(suratMovementEvent('Teslim Edildi')).toBe('DELIVERED');
    expect(suratMovementEvent('Iptal Edildi')).toBe('EXCEPTION');
    expect(suratMovementEvent('Bilgi notu')).toBeUndefined();
    expect(suratTime('2026-11-24 13:00:05')?.toISOString()).toBe('2026-11-24T10:00:05.000Z');
    expect(suratTime('24.11.2026 13:00')?.toISOString()).toBe('2026-11-24T10:00:00.000Z');
    expect(suratTime('yesterday')).toBeUndefined();
  });
});
