import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CarrierInputError, type BookingRequest } from '../../../src/carriers/carrier';
import { TrendyolCarrier } from '../../../src/carriers/marketplace-carrier';
import { createOutboundHttp } from '../../../src/http/outbound';
import { failure } from '../../support/failure';
import { TRENDYOL_TEST_SELLER, startTrendyolDouble, zplBarcodes, type TrendyolDouble } from '../../support/marketplaces/trendyol-double';

/**
 * Trendyol's own carriers as a carrier account, against the Trendyol test double: a "Trendyol pays" package is not
 * booked anywhere, its common label (ZPL) is the booking's label, its barcodes are read for our PDF, its status history
 * is its tracking, and it is cancelled only when Trendyol cancelled it.
 */
let ty: TrendyolDouble;
const http = createOutboundHttp({ allowPrivate: true });

beforeAll(async () => {
  ty = await startTrendyolDouble();
});
afterAll(async () => {
  await ty.close();
  await http.close();
});

const carrier = () =>
  new TrendyolCarrier({
    providerId: 1005,
    name: "Trendyol's carriers",
    logoUrl: 'http://127.0.0.1:8080/api/v1/providers/1005/logo.svg',
    credentials: { seller_id: TRENDYOL_TEST_SELLER.sellerId, api_key: TRENDYOL_TEST_SELLER.apiKey, api_secret: TRENDYOL_TEST_SELLER.apiSecret },
    settings: { base_url: ty.baseUrl },
    http,
  });

const request = (packageId: number, orderNumber: string, trackingNumber?: string, parcels = 1): BookingRequest =>
  ({
    bookingKey: '00000000-0000-4000-8000-000000000001',
    serviceBarcode: 'CF00000000010',
    reference: `${orderNumber}-${packageId}`,
    labelFormat: 'pdf',
    shipment: {},
    draft: { specific_provider_barcode: trackingNumber, packages: Array.from({ length: parcels }, () => ({ weight: 1 })) },
  }) as unknown as BookingRequest;

describe("Trendyol's carriers as a carrier account", () => {
  it("takes the package's common label as the booking's, its barcodes read from the ZPL, and books nothing else", async () => {
    const pkg = ty.placeOrder({ lines: [{ barcode: '9900000000486', quantity: 1 }], whoPays: 'trendyol', carrier: 'TEX' });
    const tracking = String(pkg.json.cargoTrackingNumber);
    const booking = await carrier().book(request(pkg.json.shipmentPackageId, String(pkg.json.orderNumber), tracking, 2));
    const zpl = booking.label!.content.toString('utf8');
    expect(booking).toMatchObject({ trackingCode: tracking, carrierReference: String(pkg.json.shipmentPackageId), pickupBooked: false });
    expect(booking.label!.contentType).toBe('application/zpl');
    expect(booking.pieceBarcodes).toEqual(zplBarcodes(zpl));
    expect(booking.pieceBarcodes).toEqual([tracking, tracking]);
    expect(booking.trackingUrl).toBe(`http://127.0.0.1:8080/api/v1/providers/1005/track/${tracking}`);
    expect(ty.packages.get(pkg.json.shipmentPackageId)!.trackingUpdates).toHaveLength(0);
  });

  it('refuses a draft that is no marketplace package, naming the field, before any call', async () => {
    const before = ty.requests.length;
    const refused = await failure(carrier().book(request(1, '', undefined)));
    expect(refused).toBeInstanceOf(CarrierInputError);
    expect((refused as CarrierInputError).issues.map((i) => i.field)).toEqual(['specific_provider_barcode']);
    expect(ty.requests.length).toBe(before);
  });

  it("follows the package's statuses at Trendyol to delivered, and cancels only a package Trendyol cancelled", async () => {
    const pkg = ty.placeOrder({ lines: [{ barcode: '9900000000486', quantity: 1 }], whoPays: 'trendyol', carrier: 'TEX' });
    const shipment = { bookingKey: 'k', trackingCode: String(pkg.json.cargoTrackingNumber), carrierReference: String(pkg.json.shipmentPackageId) };
    expect(await carrier().track(shipment)).toEqual([]);
    ty.advance(pkg.json.shipmentPackageId, 'Shipped');
    ty.advance(pkg.json.shipmentPackageId, 'Delivered');
    const events = await carrier().track(shipment);
    expect(events.map((e) => e.event)).toEqual(['PICKED_UP', 'DELIVERED']);
    expect(new Set(events.map((e) => e.eventId)).size).toBe(2);

    const other = ty.placeOrder({ lines: [{ barcode: '9900000000486', quantity: 1 }], whoPays: 'trendyol', carrier: 'TEX' });
    const ref = {
      bookingKey: 'k',
      trackingCode: String(other.json.cargoTrackingNumber),
      carrierReference: String(other.json.shipmentPackageId),
      inTransit: false,
    };
    expect((await carrier().cancel(ref)).accepted).toBe(false);
    ty.cancel(other.json.shipmentPackageId);
    expect(await carrier().cancel(ref)).toEqual({ accepted: true });
  });
});
