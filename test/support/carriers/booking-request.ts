import type { BookingRequest } from '../../../src/carriers/carrier';

/**
 * A domestic booking as the booking activity hands it to a Turkish carrier: a shop in Istanbul sends one package (a
 * mug) to a customer in Ankara. `serial` keeps its booking key apart from the file's other bookings; the rest is what
 * the carrier's tests look at.
 */
export function domesticBookingRequest(
  serial: number,
  fixture: { serviceBarcode: string; reference: string; consignorPhone?: string; consigneePhone: string; packageKg: number },
): BookingRequest {
  return {
    bookingKey: `00000000-0000-4000-8000-${String(serial).padStart(12, '0')}`,
    shipment: { fromCountry: 'TR', toCountry: 'TR', weightKg: 3, desi: 2, packageCount: 1 },
    serviceBarcode: fixture.serviceBarcode,
    reference: fixture.reference,
    labelFormat: 'pdf',
    draft: {
      consignor: {
        name: 'Anadolu Butik',
        country: 'TR',
        city: 'Kadıköy',
        state: 'İstanbul',
        address: 'Moda Cad. No:12',
        ...(fixture.consignorPhone !== undefined && { phone_number: fixture.consignorPhone }),
      },
      consignee: {
        name: 'Şükrü Öztürk',
        country: 'TR',
        city: 'Çankaya',
        state: 'Ankara',
        postal_code: '06420',
        address: 'Atatürk Blv. No:5',
        phone_number: fixture.consigneePhone,
      },
      packages: [{ package_type: 1, weight: fixture.packageKg, length: 30, width: 20, height: 15, items: [{ description: 'Kupa', quantity: 1 }] }],
    },
  };
}
